package report

import (
	"math"
	"slices"

	"paperbundle/config"
	"paperbundle/metrics"
	"paperbundle/report/engine"
	"paperbundle/stats"
)

// comparedIDs are the metrics compared between systems: the registry's
// compared set (headline metrics and those flagged Compared), cutoff
// metrics at the headline cutoff. Each is compared where it applies.
func (c *computer) comparedIDs() []metrics.ID { return metrics.ComparedIDs(c.headK()) }

// Tests of a comparison (Comparison.Test).
const (
	TestPermutation = "permutation" // paired sign-flip permutation test of per-query values
	TestDeLong      = "delong"      // DeLong's test for two correlated ROC curves
	TestBootstrap   = "bootstrap"   // p from the paired bootstrap distribution of the difference
)

// permutations is the number of sign-flip permutations of every paired
// permutation test.
const permutations = 10000

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
	switch {
	case id == metrics.NEAUROC.ID():
		if a.ne == nil || b.ne == nil || constant(a.ne) && constant(b.ne) {
			return cmp, false
		}
		_, _, z, p := stats.DeLongPaired(c.y, a.ne, b.ne)
		if math.IsNaN(p) {
			return cmp, false
		}
		cmp.Test, cmp.P = TestDeLong, Num(p)
		zz := Num(z)
		cmp.DeLongZ = &zz
		se := Num(stats.DeLongClusteredSE(c.y, a.ne, b.ne, c.group, c.nGroups))
		cmp.DeLongSEClust = &se
	case perA && perB:
		var xa, xb []float64
		var grp []int32
		for i := range va {
			if !isNaN(va[i]) && !isNaN(vb[i]) {
				xa, xb = append(xa, va[i]), append(xb, vb[i])
				grp = append(grp, c.group[i])
			}
		}
		if len(xa) == 0 || constant(xa) && constant(xb) {
			return cmp, false
		}
		if c.ds.PerSystemQueries && (len(xa) < ma.N || len(xa) < mb.N) {
			// The systems are evaluated on different queries (TREC runs
			// under missing_run: skip): the difference and its interval
			// are over the queries both have, not the two systems' own
			// means.
			cmp.Diff = Num(mean(xa) - mean(xb))
			cmp.CI = c.sharedDiffCI(va, vb)
		}
		grp, ng := compactGroups(grp)
		// One seed for every test: two metrics with the same per-query
		// values get the same p-value, whatever their id or pair.
		cmp.Test = TestPermutation
		cmp.P = Num(stats.PermutationTest(xa, xb, grp, ng, permutations, c.cfg.Seed))
		cmp.N = len(xa)
		higher := metrics.MustDef(id).Direction != metrics.Lower
		var w, t, l int
		for i := range xa {
			switch {
			case xa[i] == xb[i]:
				t++
			case (xa[i] > xb[i]) == higher:
				w++
			default:
				l++
			}
		}
		cd, dz := Num(stats.CohensD(xa, xb)), Num(stats.CohensDz(xa, xb))
		cmp.Wins, cmp.Ties, cmp.Losses, cmp.CohensD, cmp.DZ = &w, &t, &l, &cd, &dz
	default:
		if d == nil || c.ds.PerSystemQueries {
			// Without per-query values, a difference over the queries
			// both systems have cannot be formed when their query sets
			// differ: not compared.
			return cmp, false
		}
		ca, cb := c.bootColumn(si, id), c.bootColumn(ri, id)
		if constant(ca) && constant(cb) {
			return cmp, false
		}
		p := bootstrapP(d)
		if math.IsNaN(p) {
			return cmp, false
		}
		cmp.Test, cmp.P = TestBootstrap, Num(p)
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

// mean is the mean of x (NaN when empty).
func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
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

// bootstrapP is stats.BootstrapP: the two-sided p of a paired bootstrap.
func bootstrapP(d []float64) float64 { return stats.BootstrapP(d) }

// constant reports whether every defined value of x is the same (true for
// no defined value).
func constant(x []float64) bool {
	first := math.NaN()
	for _, v := range x {
		if isNaN(v) {
			continue
		}
		if isNaN(first) {
			first = v
			continue
		}
		if v != first {
			return false
		}
	}
	return true
}

// headK is the headline cutoff of the configuration (see headCutoff).
func (c *computer) headK() int { return HeadlineCutoff(c.cfg.Cutoffs) }

// compactGroups renumbers group ids to 0..n-1 in order of appearance.
func compactGroups(g []int32) ([]int32, int) {
	m := map[int32]int32{}
	out := make([]int32, len(g))
	for i, x := range g {
		y, ok := m[x]
		if !ok {
			y = int32(len(m))
			m[x] = y
		}
		out[i] = y
	}
	return out, len(m)
}
