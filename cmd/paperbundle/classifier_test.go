package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// classifierCSV is a classifier-only table (a label and a score per
// case, no candidate lists) in two folds with the same six cases each:
// positives score 3, 1.5, 0.2 and negatives -1, 0.5, 2.
func classifierCSV(scoreCol string, scale func(float64) float64) string {
	var b strings.Builder
	b.WriteString("query_id,fold,label," + scoreCol + "\n")
	rows := []struct {
		label int
		score float64
	}{{1, 3}, {1, 1.5}, {1, 0.2}, {0, -1}, {0, 0.5}, {0, 2}}
	for f := range 2 {
		for i, r := range rows {
			b.WriteString("q" + strconv.Itoa(f*10+i) + "," + strconv.Itoa(f) + "," + strconv.Itoa(r.label) + "," + strconv.FormatFloat(scale(r.score), 'g', -1, 64) + "\n")
		}
	}
	return b.String()
}

// TestClassifierOnlyBuild builds a bundle from a classifier-only table.
// AUROC by hand: of the 6 x 6 (positive, negative) pairs, the positive
// 3 beats all 6 negatives, 1.5 beats 4 (-1 and 0.5, twice), 0.2 beats 2
// (-1, twice): (6+4+2)*2 = 24 of 36, AUROC 2/3 (sklearn's roc_auc_score
// gives the same on these 12 cases).
func TestClassifierOnlyBuild(t *testing.T) {
	t.Parallel()
	t.Run("ne_score", func(t *testing.T) {
		m := buildDegenerate(t, degenCase{csvText: classifierCSV("ne_score", func(x float64) float64 { return x })})
		v, _ := m.metric(t, "ne.auroc", "")
		if v == nil || math.Abs(*v-2.0/3) > 1e-12 {
			t.Errorf("ne.auroc %s, want 2/3", show(v))
		}
		for _, x := range m.Metrics {
			for _, p := range []string{"ne.brier", "ne.ece", "ne.calibration", "ne.spiegelhalter", "rank.", "dynk.", "clinical.", "e2e.", "multilabel."} {
				if strings.HasPrefix(x.ID, p) {
					t.Errorf("metric %s [%s] of a classifier-only table with ne_score, want it absent", x.ID, x.Slice)
				}
			}
			if strings.Contains(x.ID, "@tau=") {
				t.Errorf("metric %s: fixed-threshold metrics need probabilities", x.ID)
			}
		}
		if _, ok := findMetric(m, "ne.heldout_tpr@fpr=0.1"); !ok {
			t.Error("no held-out operating point (ne.heldout_tpr@fpr=0.1): thresholds over observed scores apply to ne_score")
		}
		if present, why := m.section(t, "calibration"); present || !strings.Contains(why, "scores are not probabilities") {
			t.Errorf("calibration section present %v, reason %q; want absent, saying scores are not probabilities", present, why)
		}
		if present, why := m.section(t, "ranking"); present || !strings.Contains(why, "no candidate lists") {
			t.Errorf("ranking section present %v, reason %q; want absent for want of candidate lists", present, why)
		}
		if !strings.Contains(m.html, "scores are not probabilities") {
			t.Error("report.html does not say that the scores are not probabilities")
		}
		// ROC and precision-recall need only a score to rank by; the
		// reliability diagram needs probabilities.
		for _, fig := range []string{`id="fig-roc_`, `id="fig-pr_`} {
			if !strings.Contains(m.html, fig) {
				t.Errorf("report.html has no %s figure: a curve of a score needs no probabilities", fig)
			}
		}
		if strings.Contains(m.html, `id="fig-reliability`) {
			t.Error("report.html has a reliability diagram of scores that are not probabilities")
		}
	})
	t.Run("ne_prob", func(t *testing.T) {
		// The same order as probabilities: AUROC unchanged, Brier present.
		m := buildDegenerate(t, degenCase{csvText: classifierCSV("ne_prob", func(x float64) float64 { return 1 / (1 + math.Exp(-x)) })})
		v, _ := m.metric(t, "ne.auroc", "")
		if v == nil || math.Abs(*v-2.0/3) > 1e-12 {
			t.Errorf("ne.auroc %s, want 2/3", show(v))
		}
		if _, ok := findMetric(m, "ne.brier"); !ok {
			t.Error("no ne.brier with probabilities")
		}
		// The clinical gate needs ne_prob and tune rows or two folds, not
		// candidate lists: its screening sensitivity and alert precision
		// are about queries.
		if present, why := m.section(t, "clinical_gate"); !present {
			t.Errorf("clinical_gate section absent (%q); want it with ne_prob and two folds", why)
		}
		if _, ok := findMetric(m, "clinical.screen_sensitivity"); !ok {
			t.Error("no clinical.screen_sensitivity with ne_prob and two folds")
		}
		for _, x := range m.Metrics {
			if strings.HasPrefix(x.ID, "rank.") || strings.HasPrefix(x.ID, "dynk.") || strings.HasPrefix(x.ID, "e2e.") {
				t.Errorf("metric %s [%s] of a classifier-only table, want it absent", x.ID, x.Slice)
			}
		}
	})
}

func findMetric(m *master, id string) (*float64, bool) {
	for _, x := range m.Metrics {
		if x.System == "sys" && x.ID == id && x.Slice == "" {
			return x.Value, true
		}
	}
	return nil, false
}
