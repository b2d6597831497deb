package metrics

import (
	"fmt"
	"testing"
)

func TestRegistryIDs(t *testing.T) {
	// Every id of the catalog that outside scripts read (docs/metrics.md
	// "Ids") must resolve.
	binding := []ID{
		"ne.auroc", "ne.auprc", "ne.brier", "ne.ece", "ne.ece_equal_mass",
		"ne.tpr@fpr=0.05", "ne.heldout_tpr@fpr=0.05", "ne.heldout_fpr@fpr=0.1",
		"ne.tp@tau=0.5", "ne.tn@tau=0.5", "ne.fp@tau=0.5", "ne.fn@tau=0.5",
		"ne.sensitivity@tau=0.5", "ne.specificity@tau=0.5", "ne.fpr@tau=0.5",
		"ne.precision@tau=0.5", "ne.npv@tau=0.5", "ne.f1@tau=0.5", "ne.mcc@tau=0.5",
		"ne.balanced_accuracy@tau=0.5",
		"rank.recall@10", "rank.capped_recall@10", "rank.precision@10", "rank.hit@10",
		"rank.ndcg@10", "rank.map@10", "rank.mrr", "rank.mrr@10",
		"rank.map", "rank.ndcg", "rank.r_precision",
		"dynk.evidence_recall", "dynk.evidence_precision", "dynk.evidence_recall_all",
		"dynk.evidence_precision_all", "dynk.avg_k_all", "dynk.avg_k_pred_pos",
		"dynk.evidence_recall_micro", "dynk.evidence_recall_micro_conditional",
		"clinical.screen_sensitivity", "clinical.screen_fn_per_1000",
		"clinical.alert_precision", "clinical.alert_rate_per_1000",
		"e2e.fpr", "e2e.fnr", "e2e.precision", "e2e.recall", "e2e.f1",
		"multilabel.exact_match", "multilabel.hamming_score", "multilabel.hamming_loss",
		"multilabel.micro_f1", "multilabel.macro_f1_posts", "multilabel.macro_f1_criteria",
		"multilabel.weighted_f1", "dynk.evidence_recall@gamma=0.9",
	}
	for _, id := range binding {
		if _, ok := Lookup(id); !ok {
			t.Errorf("Lookup(%q): not in the registry", id)
		}
	}
	for _, d := range Defs() {
		if d.Title == "" || d.Population == "" || d.Direction == "" {
			t.Errorf("%s: incomplete definition %+v", d.ID(10), d)
		}
	}
}

func TestDefID(t *testing.T) {
	tests := []struct {
		id   ID
		x    float64
		want ID
	}{
		{"ne.tpr@fpr=0.05", 0.05, "ne.tpr@fpr=0.05"},
		{"ne.tpr@fpr=0.1", 0.10, "ne.tpr@fpr=0.1"},
		{"ne.mcc@tau=0.5", 0.5, "ne.mcc@tau=0.5"},
		{"rank.ndcg@10", 10, "rank.ndcg@10"},
		{"rank.mrr", 0, "rank.mrr"},
		{"dynk.mean_k@gamma=0.95", 0.95, "dynk.mean_k@gamma=0.95"},
	}
	for _, tt := range tests {
		if got := MustDef(tt.id).ID(tt.x); got != tt.want {
			t.Errorf("ID(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
}

// TestTablesFromRegistry: every table of the bundle has rows, the
// scorecard has the eight headline metrics (the registry's Headline set), and
// every metric a table shows has the words a reader needs.
func TestTablesFromRegistry(t *testing.T) {
	for _, tb := range []TableID{TableNEGate, TableCalibration, TableRanking, TableDynamicK, TableClinical, TablePerPost, TablePerCriterion, TableStrata} {
		ds := InTable(tb)
		if len(ds) == 0 {
			t.Errorf("table %s: no metric shows in it", tb)
		}
		for _, d := range ds {
			if d.Title == "" || d.Meaning == "" && d.Family() != "data" {
				t.Errorf("table %s: %s lacks a title or a meaning", tb, d.Base)
			}
		}
	}
	var head []string
	for _, d := range Defs() {
		if d.Headline {
			head = append(head, string(d.ID(10)))
		}
	}
	want := "[clinical.alert_precision clinical.screen_sensitivity dynk.evidence_recall ne.auprc ne.auroc ne.ece rank.ndcg@10 rank.recall@10]"
	if got := fmt.Sprint(head); got != want {
		t.Errorf("headline metrics = %s, want %s", got, want)
	}
}
