package report

import (
	"bytes"
	"encoding/csv"
	"strconv"

	"paperbundle/dataset"
)

// perQueryRows collects one row per eval query per system for
// per_query_metrics.csv and the per-query figures.
func (c *computer) perQueryRows() {
	var cols []string
	for _, k := range c.cfg.Cutoffs {
		ks := strconv.Itoa(k)
		cols = append(cols, "rank.recall@"+ks, "rank.precision@"+ks, "rank.ndcg@"+ks, "rank.map@"+ks)
	}
	cols = append(cols, "rank.mrr", "dynk.evidence_recall", "dynk.evidence_precision", "dynk.evidence_recall_all", "dynk.evidence_precision_all")
	c.rep.PerQueryColumns = cols
	for si, sc := range c.sys {
		sys := &c.ds.Systems[si]
		for i, qi := range c.eval {
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
			pq.Values = make([]Num, len(cols))
			for j, id := range cols {
				pq.Values[j] = NaN
				if v, ok := sc.perQ[id]; ok {
					pq.Values[j] = Num(v[i])
				}
			}
			c.rep.PerQuery = append(c.rep.PerQuery, pq)
		}
	}
}

// PerQueryCSV returns per_query_metrics.csv: one row per eval query per
// system; undefined values are empty cells.
func (r *Report) PerQueryCSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"system", "query_id", "post_id", "criterion_id", "fold", "n_gold", "n_candidates", "gold_in_pool", "difficulty", "ne_prob", "state", "selected_k"}
	w.Write(append(head, r.PerQueryColumns...))
	rec := make([]string, 0, len(head)+len(r.PerQueryColumns))
	num := func(n Num) string {
		if !n.Valid() {
			return ""
		}
		return strconv.FormatFloat(float64(n), 'g', -1, 64)
	}
	for _, q := range r.PerQuery {
		rec = rec[:0]
		rec = append(rec, csvSafe(q.System), csvSafe(q.Query), csvSafe(q.Post), csvSafe(q.Criterion), strconv.Itoa(q.Fold),
			strconv.Itoa(q.NGold), strconv.Itoa(q.NCand), strconv.Itoa(q.GoldInPool), num(q.Difficulty), num(q.NEProb), q.State, strconv.Itoa(q.SelectedK))
		for _, v := range q.Values {
			rec = append(rec, num(v))
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}
