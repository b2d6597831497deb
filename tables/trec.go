package tables

import (
	"paperbundle/metrics"
	"paperbundle/report"
)

// trecEvalTable is the "trec_eval measures" table of TREC input: for each
// system, every measure trec_eval 10 prints with `-m all_trec` (runid and
// relstring aside) under trec_eval's name, in trec_eval's order, with the
// bundle's id, n and value (and its CI where the bundle bootstraps one).
// Counts are sums over the queries, as trec_eval's `all` line. Not built
// for input without TREC judgments.
func trecEvalTable(r *report.Report) (Table, bool) {
	t := Table{ID: metrics.TableTrecEval, Title: "trec_eval measures",
		Population: string(metrics.JudgedQueries), N: r.Dataset.EvalQueries,
		Meaning: "Every measure trec_eval 10 prints with -m all_trec, under its trec_eval name: the numbers of trec_eval's all line, for checking the bundle against it.",
		Columns: []Column{
			{Key: "system", Title: "Run", Kind: Text},
			{Key: "trec_eval", Title: "trec_eval", Kind: Text},
			{Key: "id", Title: "Id", Kind: Text},
			{Key: "population", Title: "Population", Kind: Text},
			{Key: "n", Title: "n", Kind: Count},
			{Key: "value", Title: "Value [CI]", FlatTitle: "Value", Kind: Number, Digits: 4, CI: true},
		}}
	ids := metrics.TrecEvalIDs(r.Settings.Cutoffs)
	for _, sys := range r.SystemsOf(report.Pipeline) {
		if _, judged := r.Metric(sys, metrics.RankNumQ.ID(), report.Whole); !judged {
			continue // a per-query table system: no judgments, no trec_eval measures
		}
		for _, id := range ids {
			m, ok := r.Metric(sys, id, report.Whole)
			if !ok {
				continue
			}
			name, _ := metrics.TrecEvalName(id)
			d := metrics.MustDef(id)
			row := metricRow(r, m, d, false)
			t.Population = string(m.Population)
			t.Rows = append(t.Rows, Row{
				Cells:  []Cell{row.Cells[0], TextCell(name), row.Cells[2], row.Cells[3], row.Cells[4], row.Cells[5]},
				Group:  string(id),
				Anchor: Anchor(sys, id, "trec_eval"),
				System: sys,
			})
		}
	}
	return t, len(t.Rows) > 0
}
