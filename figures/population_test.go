package figures

import (
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
	"paperbundle/metrics"
	"paperbundle/report"
)

// TestAllPositivesN: the "All positives" line of Recall@K names the n of
// the queries it averages over (the whole-population Recall@K's n), not
// the dataset's positive-query count: a TREC run judged on 40 queries
// with 33 positives in the dataset summary plots 40.
func TestAllPositivesN(t *testing.T) {
	r := figtest.Fixture()
	r.Dataset.PositiveQueries = 33
	r.Metrics = append(r.Metrics, report.Metric{System: "sys-a", ID: metrics.RankRecall.At(1), Slice: report.Whole,
		Population: metrics.PositivesOnly, N: 40, Value: 0.5})
	r.Reindex()
	s := specByID(t, r, "recall_at_k_sys_a")
	var names []string
	for _, l := range elements[*Line](s) {
		names = append(names, l.Name)
		if strings.HasPrefix(l.Name, "All positives") && l.Name != "All positives (n = 40)" {
			t.Errorf("the line of all positives is named %q, want \"All positives (n = 40)\"", l.Name)
		}
	}
	if !strings.Contains(strings.Join(names, "|"), "All positives") {
		t.Fatalf("no line of all positives among %q", names)
	}
}
