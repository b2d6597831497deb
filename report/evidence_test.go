package report

import (
	"context"
	"slices"
	"testing"

	"paperbundle/metrics"
)

// TestPerQueryColumnsAreMeans: every metric computed as a mean of
// per-query values has a column of per_query_metrics.csv (hit@K and capped
// recall@K among them, which it used to lack), and the registry compares
// each by the permutation test of those values (metrics.TestMean): a mean
// added to the registry without its test kind fails here.
func TestPerQueryColumnsAreMeans(t *testing.T) {
	t.Parallel()
	r, err := Compute(context.Background(), handConfig(0), handDataset(), Options{Version: "v1", Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range r.PerQueryColumns {
		if metrics.TestOf(id) != metrics.TestMean {
			t.Errorf("column %s: test kind %s, want mean", id, metrics.TestOf(id))
		}
	}
	for _, id := range []metrics.ID{metrics.RankHit.At(1), metrics.RankCappedRecall.At(2), metrics.RankRecall.At(2), metrics.RankMRR.ID(), metrics.NEBrier.ID()} {
		if !slices.Contains(r.PerQueryColumns, id) {
			t.Errorf("no column %s in %v", id, r.PerQueryColumns)
		}
	}
	want := EvidenceFields{Label: true, Criteria: true, Candidates: true, Score: ScoreProb, State: r.Has(ClinicalGate), SelectedK: r.Has(DynamicK)}
	if r.PerQueryFields != want {
		t.Errorf("fields %+v, want %+v", r.PerQueryFields, want)
	}
}
