package report

import (
	"context"
	"math"
	"strings"
	"testing"

	"paperbundle/metrics"
)

// TestDenominatorHand checks the denominators of the hand dataset's ratio
// metrics against the counts derived from its comment: the eval queries are
// q1 (evidence, ne 0.8), q2 (none, 0.3), q3 (evidence, 0.6) and q4 (none,
// 0.7). At τ = 0.5, q1, q3 and q4 are flagged: 3 predicted positives, 2
// positives, 2 negatives, and 1 query not flagged (q2, a true negative).
func TestDenominatorHand(t *testing.T) {
	r, err := Compute(context.Background(), handConfig(0), handDataset(), Options{Version: "v1", Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[metrics.ID]int{
		metrics.NEPrecision.AtTau(0.5):   3, // TP + FP: q1, q3, q4
		metrics.NESensitivity.AtTau(0.5): 2, // TP + FN: q1, q3
		metrics.NESpecificity.AtTau(0.5): 2, // TN + FP: q2, q4
		metrics.NEFPR.AtTau(0.5):         2, // FP + TN
		metrics.NENPV.AtTau(0.5):         1, // TN + FN: q2
	}
	for id, n := range want {
		m, ok := r.Metric("sys", id, Whole)
		if !ok {
			t.Errorf("%s: missing", id)
			continue
		}
		if m.Denominator == nil || *m.Denominator != n {
			t.Errorf("%s: denominator %v, want %d", id, m.Denominator, n)
		}
		if m.ShownN() != n || m.N != 4 {
			t.Errorf("%s: n %d and shown n %d, want 4 and %d", id, m.N, m.ShownN(), n)
		}
	}
	// Not one ratio of counts: no denominator; a mean shows its n.
	for _, id := range []metrics.ID{metrics.NEF1.AtTau(0.5), metrics.NEMCC.AtTau(0.5), metrics.NETP.AtTau(0.5), metrics.RankMRR.ID(), metrics.NEAUROC.ID()} {
		if m, ok := r.Metric("sys", id, Whole); ok && m.Denominator != nil {
			t.Errorf("%s: denominator %d, want none", id, *m.Denominator)
		}
	}
}

// TestDenominatorWhole checks on the hand dataset with its bootstrap that
// every ratio's value times its denominator is a whole count (per 1,000
// for the rates per 1,000) and that no denominator exceeds the population.
func TestDenominatorWhole(t *testing.T) {
	r, err := Compute(context.Background(), handConfig(50), handDataset(), Options{Version: "v1", Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range r.Metrics {
		if m.Denominator == nil {
			continue
		}
		seen++
		if *m.Denominator > m.N && m.ID.Base() != "dynk.evidence_recall_micro" && m.ID.Base() != "dynk.evidence_recall_micro_conditional" {
			t.Errorf("%s %s: denominator %d above n %d", m.ID, m.Slice, *m.Denominator, m.N)
		}
		if !m.Value.Valid() {
			continue
		}
		v := float64(m.Value) * float64(*m.Denominator)
		if strings.HasSuffix(string(m.ID.Base()), "_per_1000") {
			v /= 1000
		}
		if math.Abs(v-math.Round(v)) > 1e-9 {
			t.Errorf("%s %s: value %v × denominator %d = %v, not a count", m.ID, m.Slice, float64(m.Value), *m.Denominator, v)
		}
	}
	if seen == 0 {
		t.Fatal("no metric has a denominator")
	}
}
