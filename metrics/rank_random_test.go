package metrics

import (
	"math"
	"testing"
)

type rankRandomRef struct {
	Name            string  `json:"name"`
	Method          string  `json:"method"`
	Rel             []int   `json:"rel"`
	Gold            []int   `json:"gold"`
	K               int     `json:"k"`
	Recall          rankNum `json:"recall"`
	CappedRecall    rankNum `json:"capped_recall"`
	Precision       rankNum `json:"precision"`
	Hit             rankNum `json:"hit"`
	NDCGLinear      rankNum `json:"ndcg_linear"`
	NDCGExponential rankNum `json:"ndcg_exponential"`
	RRAt            rankNum `json:"rr_at"`
	RR              rankNum `json:"rr"`
	APGold          rankNum `json:"ap_gold"`
	APMinGoldK      rankNum `json:"ap_min_gold_k"`
	APHits          rankNum `json:"ap_hits"`
}

// TestRandomExpectedReference checks the exact random baselines against
// testdata/rank_random_reference.json. Small pools: the mean of each
// trec_eval-style metric over every ordering of the pool (brute force).
// Larger pools: AP@k and RR@k from enumerating every gold/non-gold pattern
// of the top k with its exact hypergeometric probability (rational
// arithmetic), and Hit@k from scipy.stats.hypergeom.
func TestRandomExpectedReference(t *testing.T) {
	const tol = 1e-12
	var ref struct{ Cases []rankRandomRef }
	rankLoadJSON(t, "rank_random_reference.json", &ref)
	if len(ref.Cases) < 20 {
		t.Fatalf("only %d reference cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		nGold, k := len(c.Gold), c.K
		check := func(what string, got float64, want rankNum) {
			t.Helper()
			if !rankSame(got, float64(want), tol) {
				t.Errorf("%s k=%d (%s): %s = %.17g, want %.17g", c.Name, k, c.Method, what, got, float64(want))
			}
		}
		check("recall", RandomExpectedRecallAt(c.Rel, nGold, k), c.Recall)
		check("precision", RandomExpectedPrecisionAt(c.Rel, k), c.Precision)
		check("hit", RandomExpectedHitAt(c.Rel, k), c.Hit)
		check("rr@k", RandomExpectedRRAt(c.Rel, k), c.RRAt)
		check("ap/gold", RandomExpectedAPAt(c.Rel, nGold, k, MAPGold), c.APGold)
		check("ap/min_gold_k", RandomExpectedAPAt(c.Rel, nGold, k, MAPMinGoldK), c.APMinGoldK)
		check("ap/hits", RandomExpectedAPAt(c.Rel, nGold, k, MAPHits), c.APHits)
		if c.Method == "brute_force_permutations" {
			check("capped recall", RandomExpectedCappedRecallAt(c.Rel, nGold, k), c.CappedRecall)
			check("ndcg/linear", RandomExpectedNDCGAt(c.Rel, c.Gold, k, GainLinear), c.NDCGLinear)
			check("ndcg/exponential", RandomExpectedNDCGAt(c.Rel, c.Gold, k, GainExponential), c.NDCGExponential)
			check("rr", RandomExpectedRR(c.Rel), c.RR)
		}
	}
}

// TestRandomExpectedHand checks hand calculations.
func TestRandomExpectedHand(t *testing.T) {
	const tol = 1e-12
	// Pool of 4 with 2 gold (rel=[0,1,0,1]), k=2: P(no gold in the top 2)
	// = C(2,2)/C(4,2) = 1/6, so E[hit@2] = 5/6. E[hits@2] = 2·2/4 = 1, so
	// E[recall@2] = 1/2 and E[precision@2] = 1/2. E[RR]: first gold at rank
	// 1 w.p. 1/2, rank 2 w.p. (2/4)(2/3) = 1/3, rank 3 w.p. (2/4)(1/3) = 1/6:
	// 1/2 + 1/6 + 1/18 = 13/18.
	pool := []int{0, 1, 0, 1}
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"hit@2", RandomExpectedHitAt(pool, 2), 5.0 / 6},
		{"recall@2", RandomExpectedRecallAt(pool, 2, 2), 0.5},
		{"precision@2", RandomExpectedPrecisionAt(pool, 2), 0.5},
		{"rr", RandomExpectedRR(pool), 13.0 / 18},
		{"rr@1", RandomExpectedRRAt(pool, 1), 0.5},
		{"no gold hit", RandomExpectedHitAt([]int{0, 0}, 1), 0},
		{"no gold rr", RandomExpectedRR([]int{0, 0}), 0},
		{"empty pool recall", RandomExpectedRecallAt(nil, 1, 3), 0},
		{"empty pool ndcg", RandomExpectedNDCGAt(nil, []int{1}, 3, GainLinear), 0},
		{"undefined recall", RandomExpectedRecallAt(pool, 0, 3), math.NaN()},
		{"undefined capped", RandomExpectedCappedRecallAt(pool, 0, 3), math.NaN()},
		{"undefined ndcg", RandomExpectedNDCGAt(pool, nil, 3, GainLinear), math.NaN()},
		{"undefined ap", RandomExpectedAPAt(pool, 0, 3, MAPGold), math.NaN()},
		{"undefined ap mc", RandomAPMonteCarlo(pool, 0, 3, MAPGold, 10, 1), math.NaN()},
		// All gold: every ordering is perfect.
		{"all gold ap", RandomExpectedAPAt([]int{1, 1, 1}, 3, 2, MAPMinGoldK), 1},
		{"all gold hits ap", RandomExpectedAPAt([]int{1, 1, 1}, 3, 2, MAPHits), 1},
		{"no gold in pool ap", RandomExpectedAPAt([]int{0, 0}, 1, 2, MAPHits), 0},
		{"single ap", RandomExpectedAPAt([]int{1}, 1, 5, MAPGold), 1},
	} {
		if !rankSame(tc.got, tc.want, tol) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}

// TestRandomAPMonteCarlo checks that the Monte Carlo estimate is
// reproducible for a seed and converges to the exact expectation (itself
// checked against enumeration above): with 40,000 orderings the standard
// error is below 0.002 for these pools, so a 0.01 tolerance is > 5 sigma.
func TestRandomAPMonteCarlo(t *testing.T) {
	const tol = 0.01
	pools := [][]int{
		{0, 1, 0, 1},
		{0, 3, 0, 1, 0, 0, 2},
		append(append(make([]int, 35), 1, 1, 1), 1, 1),
	}
	for _, pool := range pools {
		nGold := Hits(pool, len(pool)) + 1 // one gold outside the pool
		for _, d := range []MAPDenominator{MAPGold, MAPMinGoldK, MAPHits} {
			for _, k := range []int{1, 3, 10} {
				a := RandomAPMonteCarlo(pool, nGold, k, d, 40000, 42)
				b := RandomAPMonteCarlo(pool, nGold, k, d, 40000, 42)
				if a != b {
					t.Fatalf("same seed, different estimates %v %v", a, b)
				}
				if want := RandomExpectedAPAt(pool, nGold, k, d); math.Abs(a-want) > tol {
					t.Errorf("pool %v k=%d %v: Monte Carlo %v, exact %v", pool, k, d, a, want)
				}
			}
		}
	}
	if RandomAPMonteCarlo(pools[1], 4, 3, MAPGold, 100, 1) == RandomAPMonteCarlo(pools[1], 4, 3, MAPGold, 100, 2) {
		t.Error("different seeds gave identical estimates")
	}
}
