package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"paperbundle/dataset"
	"paperbundle/metrics"
)

// perQueryRows collects the evidence of every eval query of every system
// (Report.PerQuery, which per_query_metrics.csv, the per-query figures and
// the paired tests read), which of its fields apply, and the metric
// columns: every mean of per-query values the systems have. The values
// are not copied: a system's per-query vectors become the columns of its
// rows' values (evidenceValues), so they are held once.
func (c *computer) perQueryRows() {
	cols := c.perQueryColumns()
	c.rep.PerQueryColumns = cols
	c.rep.PerQueryFields = c.evidenceFields()
	n := len(c.eval)
	compared := c.compared()
	c.rep.PerQuery = make([]Evidence, len(c.sys)*n)
	for si, sc := range c.sys {
		vals := &evidenceValues{cols: make([][]float64, len(cols))}
		for j, id := range cols {
			vals.cols[j] = sc.perQ[id] // nil: the system has no such metric
		}
		sys := &c.ds.Systems[si]
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				c.rep.PerQuery[si*n+i] = c.evidence(sc, &sys.Rows[c.eval[i]], i, vals)
			}
		})
		// The rows' lists are done with, but for the primary system's
		// grades, which the baselines read.
		if c.opt.FreeRows {
			c.freeRows(si, si == c.primary)
		}
		// The comparisons between systems read the vectors of the compared
		// metrics only (and only when some pair is compared).
		sc.perQSeen = nil
		for id := range sc.perQ {
			if !compared[id] {
				delete(sc.perQ, id)
			}
		}
	}
	if c.ds.PerSystemQueries {
		// A system has no row for a query it is not evaluated on.
		kept := c.rep.PerQuery[:0]
		for k, pq := range c.rep.PerQuery {
			if !c.ds.Systems[k/n].Rows[c.eval[k%n]].Absent {
				kept = append(kept, pq)
			}
		}
		c.rep.PerQuery = kept
	}
}

// evidence is the evidence of system sc on its i-th eval row r, whose
// metric values are row i of vals.
func (c *computer) evidence(sc *sysCalc, r *dataset.Row, i int, vals *evidenceValues) Evidence {
	q := &c.ds.Queries[c.eval[i]]
	e := Evidence{System: sc.name, Query: q.ID, Post: q.Post, Criterion: q.Criterion, Fold: q.Fold, Label: q.HasEvidence(),
		NGold: len(q.Gold), NCand: len(r.Scores), Difficulty: NaN, Score: NaN, State: sc.state[i], values: vals, row: i}
	if sc.k != nil { // nil without candidate lists (no Dynamic-K)
		e.SelectedK = sc.k[i]
	}
	for _, g := range r.Rel {
		if g > 0 {
			e.GoldInPool++
		}
	}
	if e.NGold > 0 {
		e.Difficulty = Num(float64(e.NCand-e.GoldInPool) / float64(e.NGold))
	}
	switch {
	case r.HasNEProb:
		e.Score = Num(r.NEProb)
	case r.HasNEScore && c.rep.PerQueryFields.Score == ScoreRaw:
		e.Score = Num(r.NEScore)
	}
	return e
}

// evidenceFields says which of the evidence's fields apply: candidates
// when the ranking applies (the input has candidate lists), the score as
// a probability when some row gives ne_prob, else as a score when every
// row gives ne_score, gate states when the clinical gate applies or the
// input gives states, the selected K when Dynamic-K applies.
func (c *computer) evidenceFields() EvidenceFields {
	f := EvidenceFields{Label: true, Criteria: c.ds.HasCriteria, Candidates: c.has(Ranking),
		State: c.has(ClinicalGate), SelectedK: c.has(DynamicK)}
	switch {
	case c.ds.HasNEProb || c.anyRow(func(r *dataset.Row) bool { return r.HasNEProb }):
		f.Score = ScoreProb
	case c.ds.HasNEScore:
		f.Score = ScoreRaw
	}
	for _, sc := range c.sys {
		f.State = f.State || slices.ContainsFunc(sc.state, func(s dataset.State) bool { return s != dataset.StateNone })
	}
	return f
}

// anyRow reports whether some eval row of some system satisfies ok.
func (c *computer) anyRow(ok func(*dataset.Row) bool) bool {
	for si := range c.ds.Systems {
		for _, qi := range c.eval {
			if ok(&c.ds.Systems[si].Rows[qi]) {
				return true
			}
		}
	}
	return false
}

// freeCandidateIDs frees the candidate id lists of the rows that have no
// selected set to match them with (Options.FreeRows): the rest of the
// computation reads only their lengths, which the scores give.
func (c *computer) freeCandidateIDs() {
	for si := range c.ds.Systems {
		rows := c.ds.Systems[si].Rows
		for i := range rows {
			if !rows[i].HasSelected {
				rows[i].Candidates = nil
			}
		}
	}
}

// freeRows frees the per-candidate lists of system si's rows
// (Options.FreeRows) once the per-query rows have read them; the grades
// too unless keepRel.
func (c *computer) freeRows(si int, keepRel bool) {
	rows := c.ds.Systems[si].Rows
	for i := range rows {
		r := &rows[i]
		r.Candidates, r.Scores, r.NodeProbs, r.Selected, r.Judged = nil, nil, nil, nil, nil
		if !keepRel {
			r.Rel, r.Gain = nil, nil
		}
	}
}

// compared is the set of metrics whose per-query values the comparisons
// between systems read: the compared set, when some pair is compared.
func (c *computer) compared() map[metrics.ID]bool {
	set := map[metrics.ID]bool{}
	if len(c.cfg.Pairs()) > 0 {
		for _, id := range c.comparedIDs() {
			set[id] = true
		}
	}
	return set
}

// perQueryColumns is the metrics of per_query_metrics.csv: every mean of
// per-query values that some system has on the whole population (each
// registered through addMean, so that a metric added to the registry and
// computed as a mean gets its column), in registry order, a parameter's
// values in increasing order. The registry's test kind of each is
// metrics.TestMean (TestPerQueryColumnsAreMeans).
func (c *computer) perQueryColumns() []metrics.ID {
	set := map[metrics.ID]bool{}
	for _, sc := range c.sys {
		for id := range sc.perQ {
			set[id] = true
		}
	}
	cols := make([]metrics.ID, 0, len(set))
	for id := range set {
		cols = append(cols, id)
	}
	slices.SortFunc(cols, compareIDs)
	return cols
}

// compareIDs orders metric ids by the registry, then by parameter value.
func compareIDs(a, b metrics.ID) int {
	da, _ := a.Def()
	db, _ := b.Def()
	if o := cmp.Compare(da.Order(), db.Order()); o != 0 {
		return o
	}
	_, pa := a.Param()
	_, pb := b.Param()
	xa, errA := strconv.ParseFloat(trimParamName(pa), 64)
	xb, errB := strconv.ParseFloat(trimParamName(pb), 64)
	if errA == nil && errB == nil && xa != xb {
		return cmp.Compare(xa, xb)
	}
	return cmp.Compare(a, b)
}

// trimParamName drops the "fpr=" of a parameter such as "fpr=0.05".
func trimParamName(arg string) string {
	if i := strings.IndexByte(arg, '='); i >= 0 {
		return arg[i+1:]
	}
	return arg
}

// keepPerQ keeps v as the per-query values of metric id. When a vector
// equal to v bit for bit is kept already, that one is kept for id
// instead, and v is freed once its section is done with it: metrics that
// agree on every query (recall@K and hit@K when each query has one gold
// item, the cutoffs at or past the longest list, ...) hold one vector
// between them. In the benchmark of a million queries with one gold item
// each, 32 of the 75 vectors repeat one: 256 MB.
func (sc *sysCalc) keepPerQ(id metrics.ID, v []float64) {
	h := uint64(14695981039346656037) // FNV-1 over the values' bits
	for _, x := range v {
		h = (h ^ math.Float64bits(x)) * 1099511628211
	}
	if sc.perQSeen == nil {
		sc.perQSeen = map[uint64][][]float64{}
	}
	for _, w := range sc.perQSeen[h] {
		if sameBits(w, v) {
			sc.perQ[id] = w
			return
		}
	}
	sc.perQSeen[h] = append(sc.perQSeen[h], v)
	sc.perQ[id] = v
}

// sameBits reports whether a and b hold the same values bit for bit (NaN
// equal to NaN, -0 not equal to 0: the same text in per_query_metrics.csv).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, x := range a {
		if math.Float64bits(x) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// keepPerQuery reports whether the per-query values of a mean of system
// are kept after its sums are taken: every system's but a baseline's (the
// columns of per_query_metrics.csv and the comparisons between systems).
func (c *computer) keepPerQuery(system string) bool { return !isBaseline(system) }
