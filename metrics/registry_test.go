package metrics

import "testing"

func TestRegistryIDs(t *testing.T) {
	// Every id that SPEC 4 names as binding must resolve.
	binding := []string{
		"ne.auroc", "ne.auprc", "ne.brier", "ne.ece", "ne.ece_equal_mass",
		"ne.tpr@fpr=0.05", "ne.heldout_tpr@fpr=0.05", "ne.heldout_fpr@fpr=0.1",
		"ne.tp@tau=0.5", "ne.tn@tau=0.5", "ne.fp@tau=0.5", "ne.fn@tau=0.5",
		"ne.sensitivity@tau=0.5", "ne.specificity@tau=0.5", "ne.fpr@tau=0.5",
		"ne.precision@tau=0.5", "ne.npv@tau=0.5", "ne.f1@tau=0.5", "ne.mcc@tau=0.5",
		"ne.balanced_accuracy@tau=0.5",
		"rank.recall@10", "rank.capped_recall@10", "rank.precision@10", "rank.hit@10",
		"rank.ndcg@10", "rank.map@10", "rank.mrr", "rank.mrr@10",
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
		id   string
		x    float64
		want string
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
