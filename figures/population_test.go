package figures

import (
	"slices"
	"testing"

	"paperbundle/figures/internal/figtest"
	"paperbundle/metrics"
	"paperbundle/report"
)

// TestAllPositivesN: the line of the whole population in Recall@K is
// named by that population, in the words of the kind of input, with the
// n of the queries it averages over (the whole-population Recall@K's n),
// not the dataset's positive-query count: a TREC run judged on 40
// queries with 33 positives in the dataset summary plots "All judged
// queries (n = 40)", and its y axis does not say "positive queries".
func TestAllPositivesN(t *testing.T) {
	for _, tc := range []struct {
		kind      report.InputKind
		pop       metrics.Population
		want, axe string
	}{
		{report.KindEvidence, metrics.PositivesOnly, "All queries with evidence (n = 40)", "Recall@K (mean over positive queries)"},
		{report.KindTREC, metrics.PositivesOnly, "All queries with a relevant document (n = 40)", "Recall@K (mean over positive queries)"},
		{report.KindTREC, metrics.JudgedQueries, "All judged queries (n = 40)", "Recall@K (mean over the queries of each line)"},
	} {
		r := figtest.Fixture()
		r.Settings.InputKind = tc.kind
		r.Dataset.PositiveQueries = 33
		r.Metrics = append(r.Metrics, report.Metric{System: "sys-a", ID: metrics.RankRecall.At(1), Slice: report.Whole,
			Population: tc.pop, N: 40, Value: 0.5})
		r.Reindex()
		s := specByID(t, r, "recall_at_k_sys_a")
		var names []string
		for _, l := range elements[*Line](s) {
			names = append(names, l.Name)
		}
		if !slices.Contains(names, tc.want) {
			t.Errorf("%s, %s: no line %q among %q", tc.kind, tc.pop, tc.want, names)
		}
		if got := s.Panels[0].Y.Label; got != tc.axe {
			t.Errorf("%s, %s: y axis %q, want %q", tc.kind, tc.pop, got, tc.axe)
		}
	}
}
