package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"paperbundle/config"
	"paperbundle/metrics"
	"paperbundle/report/engine"
	"paperbundle/report/paired"
	"paperbundle/stats"
)

// comparedIDs are the metrics compared between systems: the registry's
// compared set (headline metrics and those flagged Compared), cutoff
// metrics at the headline cutoff. Each is compared where it applies.
func (c *computer) comparedIDs() []metrics.ID { return metrics.ComparedIDs(c.headK()) }

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

// checks evaluates the consistency checks (see Check) on the computed report.
func (c *computer) checks() {
	add := func(id string, hard, ok bool, detail string) {
		c.rep.Checks = append(c.rep.Checks, Check{ID: id, Hard: hard, Passed: ok, Detail: detail})
	}
	// Structural checks already enforced by the loader (it refuses the
	// input otherwise); listed so the reader sees they were made.
	add("folds_post_disjoint", true, true, "every post is evaluated in exactly one fold")
	add("tune_eval_disjoint", true, true, "within each fold, tune and eval rows share no post")
	add("gold_identical_across_systems", true, true, identicalGold(len(c.ds.Systems)))
	add("probabilities_in_range", true, true, "every ne_prob and node_prob is in [0, 1]")

	// Confusion matrices add up.
	npos := c.rep.Dataset.PositiveQueries
	n := len(c.eval)
	bad := []string{}
	for _, s := range c.rep.Systems {
		if s.Kind != Pipeline {
			continue
		}
		for _, pre := range c.confusionPrefixes() {
			tp, ok1 := c.rep.Metric(s.Name, pre.tp, "")
			fn, ok2 := c.rep.Metric(s.Name, pre.fn, "")
			fp, ok3 := c.rep.Metric(s.Name, pre.fp, "")
			tn, ok4 := c.rep.Metric(s.Name, pre.tn, "")
			if !ok1 || !ok2 || !ok3 || !ok4 {
				continue
			}
			if int(tp.Value+fn.Value) != npos || int(tp.Value+fn.Value+fp.Value+tn.Value) != n {
				bad = append(bad, s.Name+" "+string(pre.tp))
			}
		}
	}
	add("confusion_matrices_add_up", true, len(bad) == 0, detailList(bad, fmt.Sprintf("TP+FN = %d positives and TP+TN+FP+FN = %d queries for every operating point", npos, n)))

	// Rates inside their range.
	bad = bad[:0]
	for _, m := range c.rep.Metrics {
		d := metrics.MustDef(m.ID)
		if !m.Value.Valid() || d.Hi < d.Lo {
			continue
		}
		if d.Base == metrics.NETPRThreshold && !c.ds.HasNEProb {
			continue // a threshold over ne_score, not a probability
		}
		v := float64(m.Value)
		if v < d.Lo-1e-12 || v > d.Hi+1e-12 {
			bad = append(bad, fmt.Sprintf("%s %s %s = %g", m.System, m.ID, m.Slice, v))
		}
	}
	add("rates_in_range", true, len(bad) == 0, detailList(bad, "every rate and score lies in its range"))

	// Soft checks.
	// Checks of a section that does not apply are not made (a
	// classifier-only input has no candidate pool to miss gold from).
	if gm := c.rep.Dataset.GoldMissing; c.has(Ranking) {
		add("gold_in_candidate_pool", false, gm == 0, fmt.Sprintf("%d gold items of eval queries are missing from the primary system's candidates", gm))
	}
	sizes := map[int]bool{}
	for _, f := range c.rep.Dataset.Folds {
		sizes[f.Posts] = true
	}
	add("folds_equal_size", false, len(sizes) <= 1, fmt.Sprintf("posts per fold: %s", foldSizes(c.rep.Dataset.Folds)))
	var noPos []string
	for _, cr := range c.criteria {
		if m, ok := c.rep.Metric(c.ds.Systems[c.primary].Name, metrics.DataNPos.ID(), critSlice(cr)); ok && m.Value == 0 {
			noPos = append(noPos, cr)
		}
	}
	if c.has(PerCriterion) {
		add("criteria_have_positives", false, len(noPos) == 0, detailList(noPos, "every criterion has at least one positive eval query"))
	}
	var unmet []string
	for _, t := range c.rep.Thresholds {
		for _, p := range t.FPR {
			if !p.Met {
				unmet = append(unmet, fmt.Sprintf("%s fold %d FPR budget %g", t.System, t.Fold, float64(p.Budget)))
			}
		}
		if t.TauNeg.Valid() && !t.TauNegMet {
			unmet = append(unmet, fmt.Sprintf("%s fold %d screening sensitivity", t.System, t.Fold))
		}
		if t.TauNeg.Valid() && !t.TauPosMet {
			unmet = append(unmet, fmt.Sprintf("%s fold %d alert precision (no POS state)", t.System, t.Fold))
		}
	}
	add("thresholds_met", false, len(unmet) == 0, detailList(unmet, "every threshold target was met on tune rows"))
}

type confPrefix struct{ tp, fn, fp, tn metrics.ID }

func (c *computer) confusionPrefixes() []confPrefix {
	out := []confPrefix{{metrics.E2ETP.ID(), metrics.E2EFN.ID(), metrics.E2EFP.ID(), metrics.E2ETN.ID()}}
	for _, x := range c.cfg.OperatingPoints {
		out = append(out, confPrefix{metrics.NETP.AtTau(x), metrics.NEFN.AtTau(x), metrics.NEFP.AtTau(x), metrics.NETN.AtTau(x)})
	}
	for _, x := range c.cfg.FPRTargets {
		out = append(out, confPrefix{metrics.NEHeldoutTP.AtFPR(x), metrics.NEHeldoutFN.AtFPR(x), metrics.NEHeldoutFP.AtFPR(x), metrics.NEHeldoutTN.AtFPR(x)})
	}
	return out
}

func detailList(items []string, ok string) string {
	if len(items) == 0 {
		return ok
	}
	sort.Strings(items)
	if len(items) > 10 {
		return fmt.Sprintf("%d failures, first: %v", len(items), items[:10])
	}
	return fmt.Sprintf("failures: %v", items)
}

func foldSizes(f []FoldSummary) string {
	s := ""
	for i, x := range f {
		if i > 0 {
			s += ", "
		}
		s += strconv.Itoa(x.Posts)
	}
	return s
}

// identicalGold is the detail of the gold_identical_across_systems check.
func identicalGold(n int) string {
	if n == 1 {
		return "one system: nothing to compare"
	}
	return fmt.Sprintf("%d systems carry identical gold", n)
}
