package report

import (
	"slices"

	"paperbundle/config"
	"paperbundle/metrics"
	"paperbundle/report/engine"
	"paperbundle/report/paired"
	"paperbundle/stats"
)

// comparedIDs are the metrics compared between systems: the registry's
// compared set (headline metrics and those flagged Compared), cutoff
// metrics at the headline cutoff. Each is compared where it applies.
func (c *computer) comparedIDs() []metrics.ID {
	ids := metrics.ComparedIDs(c.headK())
	for _, id := range c.rep.Settings.Headline { // the headline set of the kind of input, or paper.yaml's
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Tests of a comparison (Comparison.Test).
const (
	TestPermutation = string(paired.Permutation) // paired sign-flip permutation test of per-query values
	TestDeLong      = string(paired.DeLong)      // DeLong's test for two correlated ROC curves
	TestBootstrap   = string(paired.Bootstrap)   // p from the paired bootstrap distribution of the difference
)

// comparisons compares the pairs of systems of the comparisons mode on
// every compared metric that applies to both, on the queries both share:
// the difference (system minus reference) with its paired bootstrap CI,
// one two-sided test (permutation for a mean of per-query values, DeLong
// for AUROC, the paired bootstrap for the rest), Holm's correction within
// one metric id's comparisons, and for per-query metrics the win, tie and
// loss counts, Cohen's d and d_z. A pair where both sides are constant, or
// whose test is undefined, is not a test: it is left out of the
// comparisons and of every Holm family.
func (c *computer) comparisons() {
	if !c.has(Comparisons) {
		return
	}
	ids := c.comparedIDs()
	for _, pr := range c.cfg.Pairs() {
		for _, id := range ids {
			if cmp, ok := c.compare(pr.System, pr.Reference, id); ok {
				c.rep.Comparisons = append(c.rep.Comparisons, cmp)
			}
		}
	}
	// Holm within each metric id's family, over every compared pair.
	fam := map[metrics.ID][]int{}
	for i, cmp := range c.rep.Comparisons {
		fam[cmp.ID] = append(fam[cmp.ID], i)
	}
	for _, idx := range fam {
		p := make([]float64, len(idx))
		for k, i := range idx {
			p[k] = float64(c.rep.Comparisons[i].P)
		}
		if c.cfg.Significance.Correction != config.CorrectionNone {
			p = stats.Holm(p)
		}
		for k, i := range idx {
			c.rep.Comparisons[i].PHolm = Num(p[k])
		}
	}
}

// compare is one comparison: system si against system ri on metric id.
// ok is false when it is not a test (see comparisons).
func (c *computer) compare(si, ri int, id metrics.ID) (Comparison, bool) {
	a, b := c.sys[si], c.sys[ri]
	ma, okA := c.rep.Metric(a.name, id, "")
	mb, okB := c.rep.Metric(b.name, id, "")
	if !okA || !okB || !ma.Value.Valid() || !mb.Value.Valid() {
		return Comparison{}, false
	}
	cmp := Comparison{System: a.name, Reference: b.name, ID: id, N: ma.N, Diff: ma.Value - mb.Value, P: NaN, PHolm: NaN}
	d := c.bootDiff(si, ri, id)
	if d != nil {
		lo, hi, dropped := engine.PercentileInterval(slices.Clone(d), c.cfg.Bootstrap.Confidence, &c.qscratch)
		cmp.CI = &CI{Low: Num(lo), High: Num(hi), Method: "percentile (paired)", Unit: c.cfg.Bootstrap.Unit, Resamples: len(d), Undefined: dropped}
	}
	va, perA := a.perQ[id]
	vb, perB := b.perQ[id]
	var r paired.Result
	switch {
	case metrics.TestOf(id) == metrics.TestDeLong:
		if a.ne == nil || b.ne == nil {
			return cmp, false
		}
		r = paired.DeLongTest(c.y, a.ne, b.ne, c.group, c.nGroups)
	case perA && perB:
		r = paired.Means(id, va, vb, c.group, paired.Options{Seed: c.cfg.Seed})
		if r.Test != paired.None && c.ds.PerSystemQueries && (r.N < ma.N || r.N < mb.N) {
			// The systems are evaluated on different queries (TREC runs
			// under missing_run: skip): the difference and its interval
			// are over the queries both have, not the two systems' own
			// means.
			cmp.Diff = Num(r.Diff)
			cmp.CI = c.sharedDiffCI(va, vb)
		}
	default:
		if d == nil || c.ds.PerSystemQueries {
			// Without per-query values, a difference over the queries
			// both systems have cannot be formed when their query sets
			// differ: not compared.
			return cmp, false
		}
		if paired.Constant(c.bootColumn(si, id)) && paired.Constant(c.bootColumn(ri, id)) {
			return cmp, false
		}
		r = paired.Replicates(d)
	}
	if r.Test == paired.None {
		return cmp, false
	}
	cmp.Test, cmp.P = string(r.Test), Num(r.P)
	switch r.Test {
	case paired.DeLong:
		z, se := Num(r.Z), Num(r.SEClustered)
		cmp.DeLongZ, cmp.DeLongSEClust = &z, &se
	case paired.Permutation:
		cd, dz := Num(r.D), Num(r.Dz)
		cmp.N = r.N
		cmp.Wins, cmp.Ties, cmp.Losses, cmp.CohensD, cmp.DZ = &r.Wins, &r.Ties, &r.Losses, &cd, &dz
	}
	return cmp, true
}

// sharedDiffCI is the paired bootstrap interval of the difference of the
// means of per-query values va and vb over the rows where both are defined,
// with the resamples of every system's bootstrap (same groups, replicates
// and seed); nil without a bootstrap. A replicate that draws none of those
// rows is undefined.
func (c *computer) sharedDiffCI(va, vb []float64) *CI {
	B := c.cfg.Bootstrap.Resamples
	if B <= 0 {
		return nil
	}
	var rows []int
	for i := range va {
		if !isNaN(va[i]) && !isNaN(vb[i]) {
			rows = append(rows, i)
		}
	}
	plan := stats.Plan{Group: c.group, NGroups: c.nGroups, B: B, Seed: c.cfg.Seed, Workers: c.opt.Workers}
	reps := stats.RunCounts(plan, 1, func() func(b int, cnt []int32, out []float64) {
		return func(_ int, cnt []int32, out []float64) {
			var num, den float64
			for _, i := range rows {
				w := float64(cnt[c.group[i]])
				num += w * (va[i] - vb[i])
				den += w
			}
			if den > 0 {
				out[0] = num / den
			}
		}
	})
	lo, hi, dropped := engine.PercentileInterval(reps.Column(0), c.cfg.Bootstrap.Confidence, &c.qscratch)
	return &CI{Low: Num(lo), High: Num(hi), Method: "percentile (paired)", Unit: c.cfg.Bootstrap.Unit, Resamples: B, Undefined: dropped}
}

// bootColumn returns the bootstrap replicates of metric id of system si
// (nil without a bootstrap or a bootstrapped value).
func (c *computer) bootColumn(si int, id metrics.ID) []float64 {
	sb := c.boots[si]
	if sb == nil || sb.reps == nil {
		return nil
	}
	j, ok := sb.col[metricKey{c.sys[si].name, id, ""}]
	if !ok {
		return nil
	}
	return sb.column(j)
}

// bootDiff returns the paired bootstrap replicates of the difference of
// metric id between systems si and ri (every system reads the same
// resamples), or nil.
func (c *computer) bootDiff(si, ri int, id metrics.ID) []float64 {
	ca, cb := c.bootColumn(si, id), c.bootColumn(ri, id)
	if ca == nil || cb == nil {
		return nil
	}
	d := make([]float64, len(ca))
	for k := range d {
		d[k] = ca[k] - cb[k]
	}
	return d
}

// headK is the headline cutoff of the configuration (see headCutoff).
func (c *computer) headK() int { return HeadlineCutoff(c.cfg.Cutoffs) }
