package compare

import (
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/stats"
)

// perQuery indexes a report's per-query rows.
type perQuery struct {
	r   *report.Report
	col map[metrics.ID]int        // metric id -> index in PerQuery.Values
	at  map[string]map[string]int // system -> query id -> row
	sys map[string][]int          // system -> its rows in order
	qs  map[string]struct{}       // the query ids of every system
	_   struct{}
}

func newPerQuery(r *report.Report) *perQuery {
	p := &perQuery{r: r, col: map[metrics.ID]int{}, at: map[string]map[string]int{}, sys: map[string][]int{}, qs: map[string]struct{}{}}
	for j, id := range r.PerQueryColumns {
		p.col[id] = j
	}
	for i, q := range r.PerQuery {
		m := p.at[q.System]
		if m == nil {
			m = map[string]int{}
			p.at[q.System] = m
		}
		m[q.Query] = i
		p.sys[q.System] = append(p.sys[q.System], i)
		p.qs[q.Query] = struct{}{}
	}
	return p
}

// sameQueries returns "" when both reports hold per-query rows for the
// same eval queries, and otherwise says what differs.
func sameQueries(a, b *perQuery) string {
	switch {
	case len(a.r.PerQuery) == 0 && len(b.r.PerQuery) == 0:
		return "neither bundle holds per-query rows"
	case len(a.r.PerQuery) == 0:
		return "bundle A holds no per-query rows"
	case len(b.r.PerQuery) == 0:
		return "bundle B holds no per-query rows"
	}
	if len(a.qs) != len(b.qs) {
		return "the bundles do not hold the same eval queries"
	}
	for q := range a.qs {
		if _, ok := b.qs[q]; !ok {
			return "the bundles do not hold the same eval queries"
		}
	}
	return ""
}

// kind is how a metric is tested, decided by the metric alone (so that
// two metrics with identical per-query values are tested the same way).
type kind int

const (
	kindBootstrap   kind = iota // paired bootstrap of the difference
	kindPermutation             // a mean of per-query values
	kindDeLong                  // ne.auroc
	kindStatistic               // a test statistic or p-value: listed
)

// meanBases are the metrics whose value is the mean of per-query values
// over their population (the positive queries for ranking metrics, every
// query for ne.brier).
var meanBases = map[metrics.Base]bool{
	metrics.RankRecall: true, metrics.RankCappedRecall: true, metrics.RankPrecision: true, metrics.RankHit: true, metrics.RankNDCG: true,
	metrics.RankMAP: true, metrics.RankMRR: true, metrics.RankRPrecision: true,
	metrics.DynKEvidenceRecall: true, metrics.DynKEvidencePrecision: true, metrics.DynKEvidenceRecallAll: true, metrics.DynKEvidencePrecisionAll: true,
	metrics.DynKKMean: true, metrics.DynKAvgKAll: true, // the mean selected K over every query
	metrics.NEBrier: true,
}

// statisticBases are metrics that are themselves a test statistic or a
// p-value: a difference of two p-values means nothing.
var statisticBases = map[metrics.Base]bool{
	metrics.RankSpearmanDifficultyP: true, metrics.NESpiegelhalterZ: true, metrics.NESpiegelhalterP: true,
}

func kindOf(id metrics.ID) kind {
	base := id.Base()
	switch {
	case statisticBases[base]:
		return kindStatistic
	case base == metrics.NEAUROC:
		return kindDeLong
	case meanBases[base]:
		return kindPermutation
	}
	return kindBootstrap
}

// tester decides rows.
type tester struct {
	c       *Changes
	a, b    *perQuery
	workers int
}

// decide sets the delta, verdict and test of one row:
//
//   - a test statistic or p-value is listed: no delta, no test;
//   - both values undefined, or equal: unchanged, no test;
//   - one value undefined: untested;
//   - paired mode (same eval queries): the metric's test on the per-query
//     rows of both bundles (permutation for means of per-query values,
//     DeLong for ne.auroc, the paired bootstrap for the rest), significant
//     when p < alpha, with no multiple-comparison adjustment; untested when
//     the rows do not hold what the test needs;
//   - CI-overlap mode: significant when both intervals exist and are
//     disjoint; untested without both intervals.
func (t *tester) decide(row *Row) {
	k := kindOf(row.ID)
	switch {
	case k == kindStatistic:
		row.Verdict = Listed
		if same(row.A, row.B) {
			row.Verdict = Unchanged
		}
		return
	case same(row.A, row.B):
		row.Verdict = Unchanged
		return
	case !row.A.Valid() || !row.B.Valid():
		row.Verdict, row.Reason = Untested, "undefined in A"
		if row.A.Valid() {
			row.Reason = "undefined in B"
		}
		return
	}
	row.Delta = row.B - row.A
	if t.c.Mode == ModeCIOverlap {
		if !ciDefined(row.CIA) || !ciDefined(row.CIB) {
			row.Verdict, row.Reason = Untested, "no CI"
			return
		}
		row.Test, row.Verdict = TestCIOverlap, NotSignificant
		if row.CIA.High < row.CIB.Low || row.CIB.High < row.CIA.Low {
			row.Verdict = Significant
		}
		return
	}
	ia, ib, reason := t.pairs(row.System, row.Slice)
	var p float64
	var n int
	if reason == "" {
		switch k {
		case kindPermutation:
			p, n, reason = t.permutation(row, ia, ib)
			row.Test = TestPermutation
		case kindDeLong:
			p, n, reason = t.delong(row, ia, ib)
			row.Test = TestDeLong
		default:
			p, n, reason = t.bootstrap(row, ia, ib)
			row.Test = TestBootstrap
		}
	}
	if reason != "" {
		row.Test, row.Verdict, row.Reason = TestNone, Untested, reason
		return
	}
	row.P, row.Pairs, row.Verdict = report.Num(p), n, NotSignificant
	if p < t.c.Alpha {
		row.Verdict = Significant
	}
}

func same(a, b report.Num) bool { return a == b || !a.Valid() && !b.Valid() }

func ciDefined(c *report.CI) bool { return c != nil && c.Low.Valid() && c.High.Valid() }

// pairs returns the per-query rows of system on slice in b (in b's
// order) and the rows of the same queries in a, or why there are none.
// Slices other than the whole population, one criterion and the queries
// with or without gold are not a set of queries both bundles agree on (a
// state depends on the system's gate; a stratum or a macro average is not
// a query set of the rows).
func (t *tester) pairs(system string, slice report.Slice) (ia, ib []int, reason string) {
	in := func(*report.PerQuery) bool { return true }
	switch {
	case slice == report.Whole:
	case slice.Kind() == report.SliceCriterion && slice != report.CriterionSlice("macro"):
		crit := strings.TrimPrefix(string(slice), "criterion=")
		in = func(q *report.PerQuery) bool { return q.Criterion == crit }
	case slice == report.EvidenceSlice(true):
		in = func(q *report.PerQuery) bool { return q.NGold > 0 }
	case slice == report.EvidenceSlice(false):
		in = func(q *report.PerQuery) bool { return q.NGold == 0 }
	default:
		return nil, nil, "no paired test on this slice"
	}
	at := t.a.at[system]
	for _, i := range t.b.sys[system] {
		q := &t.b.r.PerQuery[i]
		if !in(q) {
			continue
		}
		j, ok := at[q.Query]
		if !ok {
			return nil, nil, "the system's queries differ"
		}
		ia, ib = append(ia, j), append(ib, i)
	}
	if len(ib) == 0 {
		return nil, nil, "no per-query rows of this system"
	}
	return ia, ib, ""
}

// values returns the per-query values of id on rows ia of a and ib of b
// (NaN where undefined), or ok false when a bundle's rows lack them.
// ne.brier's are computed from the rows' probability and label.
func (t *tester) values(id metrics.ID, ia, ib []int) (va, vb []float64, ok bool) {
	get := func(p *perQuery, rows []int) ([]float64, bool) {
		out := make([]float64, len(rows))
		if id == metrics.NEBrier.ID() {
			for k, i := range rows {
				q := &p.r.PerQuery[i]
				y := 0.0
				if q.NGold > 0 {
					y = 1
				}
				d := float64(q.NEProb) - y
				out[k] = d * d // NaN without a probability
			}
			return out, true
		}
		j, ok := p.col[id]
		if !ok && (id == metrics.DynKKMean.ID() || id == metrics.DynKAvgKAll.ID()) {
			for k, i := range rows {
				out[k] = float64(p.r.PerQuery[i].SelectedK)
			}
			return out, true
		}
		if !ok {
			return nil, false
		}
		for k, i := range rows {
			out[k] = float64(p.r.PerQuery[i].Values[j])
		}
		return out, true
	}
	va, okA := get(t.a, ia)
	vb, okB := get(t.b, ib)
	return va, vb, okA && okB
}

// groups returns the post of each of b's rows as a group index, so that
// the queries of one post flip signs or are resampled together.
func (t *tester) groups(ib []int) ([]int32, int) {
	ids := map[string]int32{}
	g := make([]int32, len(ib))
	for k, i := range ib {
		post := t.b.r.PerQuery[i].Post
		x, ok := ids[post]
		if !ok {
			x = int32(len(ids))
			ids[post] = x
		}
		g[k] = x
	}
	return g, len(ids)
}

// seed is the seed of a row's test: B's seed mixed with the FNV-1a hash
// of (system, slice). The metric id is left out, so that two metrics with
// identical per-query values get identical p-values.
func (t *tester) seed(row *Row) uint64 {
	h := fnv.New64a()
	h.Write([]byte(row.System))
	h.Write([]byte{0})
	h.Write([]byte(row.Slice))
	return t.c.Seed ^ h.Sum64()
}

func (t *tester) permutation(row *Row, ia, ib []int) (float64, int, string) {
	va, vb, ok := t.values(row.ID, ia, ib)
	if !ok {
		return 0, 0, "no per-query values of this metric in the bundles"
	}
	g, ng := t.groups(ib)
	n := 0
	for k := range va {
		if !math.IsNaN(va[k]) && !math.IsNaN(vb[k]) {
			n++
		}
	}
	if n == 0 {
		return 0, 0, "no query with a value in both bundles"
	}
	if !reproduces(definedMean(va), row.A) || !reproduces(definedMean(vb), row.B) {
		return 0, 0, "the per-query rows do not reproduce the bundles' values"
	}
	p := stats.PermutationTest(vb, va, g, ng, t.c.Permutations, t.seed(row))
	if math.IsNaN(p) {
		return 0, 0, "no query with a value in both bundles"
	}
	return p, n, ""
}

// definedMean is the mean of the defined values of x (NaN without one).
func definedMean(x []float64) float64 {
	s, n := 0.0, 0
	for _, v := range x {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	return s / float64(n)
}

// reproduces reports whether x, recomputed from the per-query rows, is
// the bundle's value v up to summation rounding: a test on rows that do
// not give the value would test something else (rows of another
// population, a metric defined another way).
func reproduces(x float64, v report.Num) bool {
	return math.Abs(x-float64(v)) <= 1e-9*max(1, math.Abs(x))
}

// scores returns the labels (the query has gold) and the NE probabilities
// of both bundles on the rows where both are defined.
func (t *tester) scores(ia, ib []int) (y []bool, pa, pb []float64, keep []int) {
	for k := range ib {
		qa, qb := &t.a.r.PerQuery[ia[k]], &t.b.r.PerQuery[ib[k]]
		if qa.NEProb.Valid() && qb.NEProb.Valid() {
			y = append(y, qb.NGold > 0)
			pa, pb = append(pa, float64(qa.NEProb)), append(pb, float64(qb.NEProb))
			keep = append(keep, ib[k])
		}
	}
	return y, pa, pb, keep
}

func (t *tester) delong(row *Row, ia, ib []int) (float64, int, string) {
	y, pa, pb, _ := t.scores(ia, ib)
	if len(y) == 0 {
		return 0, 0, "no per-query NE probabilities in the bundles"
	}
	aucB, aucA, _, p := stats.DeLongPaired(y, pb, pa)
	if !reproduces(aucA, row.A) || !reproduces(aucB, row.B) {
		return 0, 0, "the per-query rows do not reproduce the bundles' values"
	}
	if math.IsNaN(p) {
		return 0, 0, "DeLong undefined (one class only, or identical scores)"
	}
	return p, len(y), ""
}

// bootstrap runs the paired bootstrap of B - A for the metrics the
// per-query rows can recompute from each query's NE probability and label
// (see bootStat). Posts are resampled whole; the two-sided p is
// stats.BootstrapP, the same p as the comparisons within a bundle.
func (t *tester) bootstrap(row *Row, ia, ib []int) (float64, int, string) {
	var fa, fb func(w []int32) float64
	var keep []int
	if row.ID.Base().Family() == "clinical" {
		var reason string
		if fa, fb, keep, reason = t.clinical(row.ID, ia, ib); reason != "" {
			return 0, 0, reason
		}
	} else {
		y, pa, pb, kept := t.scores(ia, ib)
		if len(y) == 0 {
			return 0, 0, "no per-query NE probabilities in the bundles"
		}
		var reason string
		if fa, reason = bootStat(row.ID, y, pa, t.a.r.Settings.Calibration.Bins); reason != "" {
			return 0, 0, reason
		}
		if fb, reason = bootStat(row.ID, y, pb, t.b.r.Settings.Calibration.Bins); reason != "" {
			return 0, 0, reason
		}
		keep = kept
	}
	ones := make([]int32, len(keep))
	for i := range ones {
		ones[i] = 1
	}
	if !reproduces(fa(ones), row.A) || !reproduces(fb(ones), row.B) {
		return 0, 0, "the per-query rows do not reproduce the bundles' values"
	}
	g, ng := t.groups(keep)
	plan := stats.Plan{Group: g, NGroups: ng, B: t.c.Resamples, Seed: t.seed(row), Workers: t.workers}
	reps := stats.Run(plan, 1, func(_ int, w []int32, out []float64) { out[0] = fb(w) - fa(w) })
	p := stats.BootstrapP(reps.Column(0))
	if math.IsNaN(p) {
		return 0, 0, "the metric is undefined on every resample"
	}
	return p, len(keep), ""
}

// clinical returns a clinical gate metric of both bundles as a function
// of the bootstrap weights, from each query's gate state (NEG, UNCERTAIN,
// POS) and label (the query has gold), on the queries with a state in
// both: screening sensitivity (evidence queries not sent to NEG),
// alert precision (POS queries with evidence), the NEG, UNCERTAIN and POS
// rates, alerts and screening misses per 1,000 queries.
func (t *tester) clinical(id metrics.ID, ia, ib []int) (fa, fb func(w []int32) float64, keep []int, reason string) {
	type num struct {
		yes, of func(y bool, state string) bool
	}
	all := func(bool, string) bool { return true }
	per := map[metrics.ID]struct {
		n     num
		scale float64
	}{
		metrics.ClinicalScreenSensitivity.ID(): {num{func(y bool, s string) bool { return y && s != "NEG" }, func(y bool, _ string) bool { return y }}, 1},
		metrics.ClinicalAlertPrecision.ID():    {num{func(y bool, s string) bool { return y && s == "POS" }, func(_ bool, s string) bool { return s == "POS" }}, 1},
		metrics.ClinicalNegRate.ID():           {num{func(_ bool, s string) bool { return s == "NEG" }, all}, 1},
		metrics.ClinicalUncertainRate.ID():     {num{func(_ bool, s string) bool { return s == "UNCERTAIN" }, all}, 1},
		metrics.ClinicalPosRate.ID():           {num{func(_ bool, s string) bool { return s == "POS" }, all}, 1},
		metrics.ClinicalAlertRatePer1000.ID():  {num{func(_ bool, s string) bool { return s == "POS" }, all}, 1000},
		metrics.ClinicalScreenFNPer1000.ID():   {num{func(y bool, s string) bool { return y && s == "NEG" }, all}, 1000},
	}
	def, ok := per[id]
	if !ok {
		return nil, nil, nil, "the per-query rows do not hold what this metric is computed from"
	}
	var y []bool
	var sa, sb []string
	for k := range ib {
		qa, qb := &t.a.r.PerQuery[ia[k]], &t.b.r.PerQuery[ib[k]]
		if qa.State != "" && qb.State != "" {
			y, sa, sb = append(y, qb.NGold > 0), append(sa, qa.State), append(sb, qb.State)
			keep = append(keep, ib[k])
		}
	}
	if len(keep) == 0 {
		return nil, nil, nil, "no gate states in the per-query rows"
	}
	f := func(state []string) func(w []int32) float64 {
		return func(w []int32) float64 {
			var a, b int64
			for i := range y {
				if def.n.of(y[i], state[i]) {
					b += int64(w[i])
					if def.n.yes(y[i], state[i]) {
						a += int64(w[i])
					}
				}
			}
			if b == 0 {
				return math.NaN()
			}
			return def.scale * float64(a) / float64(b)
		}
	}
	return f(sa), f(sb), keep, ""
}

// confusionValues are the NE metrics at a fixed threshold tau (ne.X@tau=t)
// that a confusion matrix gives, a query predicted positive when its
// probability is at least tau.
var confusionValues = map[metrics.Base]func(metrics.Confusion) float64{
	metrics.NETP:               func(c metrics.Confusion) float64 { return float64(c.TP) },
	metrics.NETN:               func(c metrics.Confusion) float64 { return float64(c.TN) },
	metrics.NEFP:               func(c metrics.Confusion) float64 { return float64(c.FP) },
	metrics.NEFN:               func(c metrics.Confusion) float64 { return float64(c.FN) },
	metrics.NESensitivity:      metrics.Confusion.Sensitivity,
	metrics.NESpecificity:      metrics.Confusion.Specificity,
	metrics.NEFPR:              metrics.Confusion.FPR,
	metrics.NEPrecision:        metrics.Confusion.Precision,
	metrics.NENPV:              metrics.Confusion.NPV,
	metrics.NEF1:               metrics.Confusion.F1,
	metrics.NEMCC:              metrics.Confusion.MCC,
	metrics.NEBalancedAccuracy: metrics.Confusion.BalancedAccuracy,
}

// bootStat returns metric id as a function of the bootstrap weights of
// the queries with labels y and probabilities p: ne.auprc (average
// precision), ne.ece (equal-width bins, bins of them), the in-sample TPR
// at an FPR budget (ne.tpr@fpr=x) and the confusion metrics at a fixed
// tau. The reason says why another metric cannot be
// recomputed from the per-query rows.
func bootStat(id metrics.ID, y []bool, p []float64, bins int) (func(w []int32) float64, string) {
	switch id {
	case metrics.NEAUPRC.ID():
		s := stats.NewScored(y, p)
		return s.AP, ""
	case metrics.NEECE.ID():
		if bins < 1 {
			return nil, "no calibration bins in bundle B's settings"
		}
		s := stats.NewScored(y, p)
		return func(w []int32) float64 { return s.ECE(w, bins) }, ""
	}
	base, param, arg := metrics.ParseID(id)
	if base == metrics.NETPR && param == metrics.ParamFPR {
		budget, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return nil, "the per-query rows do not hold what this metric is computed from"
		}
		s := stats.NewScored(y, p)
		return func(w []int32) float64 {
			var out [1]float64
			s.TPRAtFPR(w, []float64{budget}, out[:])
			return out[0]
		}, ""
	}
	value, isConfusion := confusionValues[base]
	tau, err := strconv.ParseFloat(strings.TrimPrefix(arg, "tau="), 64)
	if !isConfusion || param != metrics.ParamTau || err != nil {
		return nil, "the per-query rows do not hold what this metric is computed from"
	}
	return func(w []int32) float64 {
		var c metrics.Confusion
		for i := range y {
			n := int(w[i])
			switch pos := p[i] >= tau; {
			case pos && y[i]:
				c.TP += n
			case pos:
				c.FP += n
			case y[i]:
				c.FN += n
			default:
				c.TN += n
			}
		}
		return value(c)
	}, ""
}
