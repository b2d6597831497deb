package metrics

import (
	"slices"
	"testing"
)

// TestComparedIDs: the compared set is the headline metrics plus those the
// registry flags Compared, cutoff metrics at the headline cutoff.
func TestComparedIDs(t *testing.T) {
	got := ComparedIDs(10)
	want := []ID{"ne.auroc", "ne.auprc", "ne.ece", "rank.recall@10", "rank.ndcg@10", "dynk.evidence_recall",
		"clinical.screen_sensitivity", "clinical.alert_precision",
		"rank.mrr", "rank.map", "rank.hit@10", "rank.capped_recall@10", "rank.map@10", "rank.mrr@10",
		"ne.brier", "dynk.evidence_precision", "e2e.f1"}
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("ComparedIDs(10) = %v, want the set %v", got, want)
	}
	for _, id := range got {
		if d := MustDef(id); !d.InComparisons() {
			t.Errorf("%s listed but not InComparisons", id)
		}
	}
}
