package report

import (
	"paperbundle/dataset"
	"paperbundle/metrics"
)

// perQueryRows collects one row per eval query per system for
// per_query_metrics.csv and the per-query figures.
func (c *computer) perQueryRows() {
	cols := c.perQueryColumns()
	c.rep.PerQueryColumns = cols
	n, nc := len(c.eval), len(cols)
	compared := c.compared()
	c.rep.PerQuery = make([]PerQuery, len(c.sys)*n)
	values := make([]Num, len(c.sys)*n*nc)
	for si, sc := range c.sys {
		sys := &c.ds.Systems[si]
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				qi := c.eval[i]
				q := &c.ds.Queries[qi]
				r := &sys.Rows[qi]
				pq := PerQuery{System: sc.name, Query: q.ID, Post: q.Post, Criterion: q.Criterion, Fold: q.Fold,
					NGold: len(q.Gold), NCand: len(r.Scores), NEProb: NaN}
				if sc.k != nil { // nil without candidate lists (no Dynamic-K)
					pq.SelectedK = sc.k[i]
				}
				pq.Difficulty = NaN
				for _, g := range r.Rel {
					if g > 0 {
						pq.GoldInPool++
					}
				}
				if pq.NGold > 0 {
					pq.Difficulty = Num(float64(pq.NCand-pq.GoldInPool) / float64(pq.NGold))
				}
				if r.HasNEProb {
					pq.NEProb = Num(r.NEProb)
				}
				if sc.state[i] != dataset.StateNone {
					pq.State = sc.state[i].String()
				}
				at := (si*n + i) * nc
				pq.Values = values[at : at+nc : at+nc]
				c.rep.PerQuery[si*n+i] = pq
			}
		})
		// The rows' lists are done with, but for the primary system's
		// grades, which the baselines read.
		if c.opt.FreeRows {
			c.freeRows(si, si == c.primary)
		}
		// The values, a metric at a time: a vector is dropped as soon as
		// it is copied (the comparisons keep only the headline metrics',
		// and only when some system has a reference), so that the rows
		// and the vectors are not alive together in full.
		for j, id := range cols {
			v := sc.perQ[id]
			c.rows(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					x := NaN
					if v != nil {
						x = Num(v[i])
					}
					values[(si*n+i)*nc+j] = x
				}
			})
			if !compared[id] {
				delete(sc.perQ, id)
			}
		}
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

// perQueryColumns is the metrics of per_query_metrics.csv.
func (c *computer) perQueryColumns() []metrics.ID {
	var cols []metrics.ID
	for _, k := range c.cfg.Cutoffs {
		cols = append(cols, metrics.RankRecall.At(k), metrics.RankPrecision.At(k), metrics.RankNDCG.At(k), metrics.RankMAP.At(k))
	}
	cols = append(cols, metrics.RankMRR.ID(), metrics.RankMAP.ID(), metrics.RankNDCG.ID(), metrics.RankRPrecision.ID(), metrics.DynKEvidenceRecall.ID(), metrics.DynKEvidencePrecision.ID(), metrics.DynKEvidenceRecallAll.ID(), metrics.DynKEvidencePrecisionAll.ID())
	if c.ds.TRECConventions != nil {
		// The measures of TREC judgments, so that each can be checked per
		// query against trec_eval -q.
		cols = append(cols, metrics.RankBpref.ID(), metrics.Rank11ptAvg.ID())
		for _, l := range metrics.RecallLevels {
			cols = append(cols, metrics.RankIPrec.AtRecall(l))
		}
		for _, k := range c.cfg.Cutoffs {
			cols = append(cols, metrics.RankUnjudged.At(k))
		}
	}
	return cols
}

// keepPerQuery reports whether the per-query values of metric id of a
// system are kept after its sums are taken: those of per_query_metrics.csv
// and of the comparisons between systems (c.perQKeep), never a baseline's.
// The others would only hold memory (a million queries: 8 MB per metric
// and system).
func (c *computer) keepPerQuery(system string, id metrics.ID) bool {
	return !isBaseline(system) && c.perQKeep[id]
}

// perQueryKept is the set of metrics whose per-query values are kept.
func (c *computer) perQueryKept() map[metrics.ID]bool {
	keep := map[metrics.ID]bool{}
	for _, x := range append(c.perQueryColumns(), c.comparedIDs()...) {
		keep[x] = true
	}
	return keep
}
