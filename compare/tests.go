package compare

import (
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/report/paired"
)

// perQuery indexes a report's per-query rows.
type perQuery struct {
	r   *report.Report
	col map[metrics.ID]int        // metric id -> index in Evidence.Values
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

// tester decides rows.
type tester struct {
	c    *Changes
	a, b *perQuery
	opt  paired.Options
}

// decide sets the delta, verdict and test of one row:
//
//   - a test statistic or p-value is listed: no delta, no test;
//   - both values undefined, or equal: unchanged, no test;
//   - one value undefined: untested;
//   - paired mode (same eval queries): the metric's test (report/paired,
//     by the registry's test kind) on the evidence of both bundles,
//     significant when p < alpha, with no multiple-comparison adjustment;
//     untested when the evidence does not hold what the test needs;
//   - CI-overlap mode: significant when both intervals exist and are
//     disjoint; untested without both intervals.
func (t *tester) decide(row *Row) {
	switch {
	case metrics.TestOf(row.ID) == metrics.TestListed:
		row.Verdict = Listed
		if as := metrics.ListedAs(row.ID.Base()); as != metrics.ListedAs(metrics.NESpiegelhalterZ) {
			row.Reason = as
		}
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
	if reason != "" {
		row.Test, row.Verdict, row.Reason = TestNone, Untested, reason
		return
	}
	g, ng := t.groups(ib)
	x, y := t.b.r.PairedSide(row.ID, row.System, ib), t.a.r.PairedSide(row.ID, row.System, ia)
	x.Key, y.Key = "B\x00"+row.System+"\x00"+string(row.Slice), "A\x00"+row.System+"\x00"+string(row.Slice)
	r := paired.Compare(row.ID, paired.Pairs{X: x, Y: y, Group: g, NGroups: ng}, t.opt)
	if r.Test == paired.None {
		row.Test, row.Verdict, row.Reason = TestNone, Untested, r.Reason
		return
	}
	row.Test, row.P, row.Pairs, row.Verdict = Test(r.Test), report.Num(r.P), r.N, NotSignificant
	if r.P < t.c.Alpha {
		row.Verdict = Significant
	}
}

func same(a, b report.Num) bool { return a == b || !a.Valid() && !b.Valid() }

func ciDefined(c *report.CI) bool { return c != nil && c.Low.Valid() && c.High.Valid() }

// pairs returns the per-query rows of system on slice in b (in b's
// order) and the rows of the same queries in a, or why there are none.
// Slices other than the whole population, one criterion and the queries
// with or without evidence are not a set of queries both bundles agree on
// (a state depends on the system's gate; a stratum or a macro average is
// not a query set of the rows).
func (t *tester) pairs(system string, slice report.Slice) (ia, ib []int, reason string) {
	in := func(*report.Evidence) bool { return true }
	switch {
	case slice == report.Whole:
	case slice.Kind() == report.SliceCriterion && slice != report.CriterionSlice("macro"):
		crit := slice.Value()
		in = func(q *report.Evidence) bool { return q.Criterion == crit }
	case slice == report.EvidenceSlice(true) || slice == report.EvidenceSlice(false):
		if !t.a.r.PerQueryFields.Label || !t.b.r.PerQueryFields.Label {
			return nil, nil, "no labels in a bundle's per-query rows (written by an older version)"
		}
		want := slice == report.EvidenceSlice(true)
		in = func(q *report.Evidence) bool { return q.Label == want }
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
