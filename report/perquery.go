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
		vecs := make([][]float64, nc) // nil: not computed
		for j, id := range cols {
			vecs[j] = sc.perQ[id]
		}
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				qi := c.eval[i]
				q := &c.ds.Queries[qi]
				r := &sys.Rows[qi]
				pq := PerQuery{System: sc.name, Query: q.ID, Post: q.Post, Criterion: q.Criterion, Fold: q.Fold,
					NGold: len(q.Gold), NCand: len(r.Candidates), NEProb: NaN, SelectedK: sc.k[i]}
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
				for j, v := range vecs {
					pq.Values[j] = NaN
					if v != nil {
						pq.Values[j] = Num(v[i])
					}
				}
				c.rep.PerQuery[si*n+i] = pq
			}
		})
		// The rows hold the values now; the comparisons need only the
		// headline metrics', and only when some system has a reference.
		for id := range sc.perQ {
			if !compared[id] {
				delete(sc.perQ, id)
			}
		}
	}
}

// compared is the set of metrics whose per-query values the comparisons
// between systems read: the headline metrics, when some system has a
// reference.
func (c *computer) compared() map[metrics.ID]bool {
	set := map[metrics.ID]bool{}
	for si := range c.ds.Systems {
		if _, ok := c.cfg.ReferenceFor(si); ok {
			for _, id := range c.headlineIDs() {
				set[id] = true
			}
			break
		}
	}
	return set
}

// perQueryColumns is the metrics of per_query_metrics.csv.
func (c *computer) perQueryColumns() []metrics.ID {
	var cols []metrics.ID
	for _, k := range c.cfg.Cutoffs {
		cols = append(cols, metrics.At("rank.recall", k), metrics.At("rank.precision", k), metrics.At("rank.ndcg", k), metrics.At("rank.map", k))
	}
	return append(cols, "rank.mrr", "rank.map", "rank.ndcg", "rank.r_precision", "dynk.evidence_recall", "dynk.evidence_precision", "dynk.evidence_recall_all", "dynk.evidence_precision_all")
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
	for _, x := range append(c.perQueryColumns(), c.headlineIDs()...) {
		keep[x] = true
	}
	return keep
}
