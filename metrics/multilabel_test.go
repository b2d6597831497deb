package metrics

import (
	"math"
	"testing"
)

type multilabelRef struct {
	Name            string   `json:"name"`
	Truth           [][]bool `json:"truth"`
	Pred            [][]bool `json:"pred"`
	ExactMatch      rankNum  `json:"exact_match"`
	HammingScore    rankNum  `json:"hamming_score"`
	HammingLoss     rankNum  `json:"hamming_loss"`
	MicroF1         rankNum  `json:"micro_f1"`
	MacroF1Posts    rankNum  `json:"macro_f1_posts"`
	MacroF1Criteria rankNum  `json:"macro_f1_criteria"`
	WeightedF1      rankNum  `json:"weighted_f1"`
}

// TestMultilabelReference checks the per-post metrics against scikit-learn
// 1.2 (testdata/multilabel_reference.json): accuracy_score (exact match),
// hamming_loss, and f1_score with average micro, samples (F1 over posts),
// macro (over criteria) and weighted, zero_division=0, on a random 60 × 10
// fixture, a sparse one with empty posts and an empty criterion, and the
// all-negative, perfect and all-wrong cases.
func TestMultilabelReference(t *testing.T) {
	const tol = 1e-12
	var ref struct{ Cases []multilabelRef }
	rankLoadJSON(t, "multilabel_reference.json", &ref)
	if len(ref.Cases) < 5 {
		t.Fatalf("only %d reference cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		for _, m := range []struct {
			name string
			got  float64
			want rankNum
		}{
			{"ExactMatch", ExactMatch(c.Truth, c.Pred), c.ExactMatch},
			{"HammingScore", HammingScore(c.Truth, c.Pred), c.HammingScore},
			{"HammingLoss", HammingLoss(c.Truth, c.Pred), c.HammingLoss},
			{"MicroF1", MicroF1(c.Truth, c.Pred), c.MicroF1},
			{"MacroF1Posts", MacroF1Posts(c.Truth, c.Pred), c.MacroF1Posts},
			{"MacroF1Criteria", MacroF1Criteria(c.Truth, c.Pred), c.MacroF1Criteria},
			{"WeightedF1", WeightedF1(c.Truth, c.Pred), c.WeightedF1},
		} {
			if !rankSame(m.got, float64(m.want), tol) {
				t.Errorf("%s: %s = %.17g, want %.17g", c.Name, m.name, m.got, float64(m.want))
			}
		}
	}
}

// TestMultilabelHand checks a 2-post × 3-criterion case by hand.
//
//	truth  = [1 0 1]  pred = [1 1 0]
//	         [0 0 0]         [0 0 0]
//
// Exact match 1/2 (post 2 only). Hamming loss 2/6. Micro: TP 1, FP 1, FN 1
// → 2/4. Posts: post 1 F1 = 2/(2+1+1) = 1/2, post 2 has no positive → 0,
// mean 1/4. Criteria: c1 F1 1, c2 0 (FP only), c3 0 (FN only) → 1/3.
// Weighted by support (1, 0, 1): (1·1 + 1·0)/2 = 1/2.
func TestMultilabelHand(t *testing.T) {
	const tol = 1e-12
	truth := [][]bool{{true, false, true}, {false, false, false}}
	pred := [][]bool{{true, true, false}, {false, false, false}}
	for _, m := range []struct {
		name      string
		got, want float64
	}{
		{"ExactMatch", ExactMatch(truth, pred), 0.5},
		{"HammingLoss", HammingLoss(truth, pred), 2.0 / 6},
		{"HammingScore", HammingScore(truth, pred), 4.0 / 6},
		{"MicroF1", MicroF1(truth, pred), 0.5},
		{"MacroF1Posts", MacroF1Posts(truth, pred), 0.25},
		{"MacroF1Criteria", MacroF1Criteria(truth, pred), 1.0 / 3},
		{"WeightedF1", WeightedF1(truth, pred), 0.5},
		{"empty", MicroF1(nil, nil), math.NaN()},
		{"empty exact", ExactMatch(nil, nil), math.NaN()},
	} {
		if !rankSame(m.got, m.want, tol) {
			t.Errorf("%s = %v, want %v", m.name, m.got, m.want)
		}
	}
}

func TestMultilabelShapePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"posts":    func() { ExactMatch([][]bool{{true}}, nil) },
		"ragged":   func() { MicroF1([][]bool{{true}, {true, false}}, [][]bool{{true}, {true, false}}) },
		"mismatch": func() { WeightedF1([][]bool{{true, false}}, [][]bool{{true}}) },
		"no crit":  func() { HammingLoss([][]bool{{}}, [][]bool{{}}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
