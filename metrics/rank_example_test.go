package metrics_test

import (
	"fmt"

	"paperbundle/metrics"
)

// A query whose two gold sentences were ranked 2nd and 4th.
func ExampleNDCGAt() {
	rel := []int{0, 1, 0, 1} // gold grade of each candidate, in ranked order
	gold := []int{1, 1}      // grades of all gold items of the query
	fmt.Printf("recall@2 %.4f\n", metrics.RecallAt(rel, len(gold), 2))
	fmt.Printf("nDCG@4   %.4f\n", metrics.NDCGAt(rel, gold, 4, metrics.GainLinear))
	fmt.Printf("AP       %.4f\n", metrics.AP(rel, len(gold)))
	fmt.Printf("RR       %.4f\n", metrics.RR(rel))
	// Output:
	// recall@2 0.5000
	// nDCG@4   0.6509
	// AP       0.5000
	// RR       0.5000
}

// The three MAP@K conventions (contract.map_denominator) on the same ranking: three gold
// items, one found at rank 2 within the cutoff.
func ExampleAPAt() {
	rel := []int{0, 1, 0, 0, 1}
	for _, d := range []metrics.MAPDenominator{metrics.MAPGold, metrics.MAPMinGoldK, metrics.MAPHits} {
		fmt.Printf("%-10s %.4f\n", d, metrics.APAt(rel, 3, 2, d))
	}
	// Output:
	// gold       0.1667
	// min_gold_k 0.2500
	// hits       0.5000
}

// Probabilities sum to 1.79; by probability the order is 1 (0.7), 3 (0.6),
// 5 (0.3), 0 (0.1), ... with cumulative mass 0.391, 0.726, 0.894, 0.950.
// gamma 0.5 needs 2 candidates; gamma 0.9 needs 4, which is k_max =
// min(10, ⌊8·0.5⌋).
func ExampleDynKPolicy_Select() {
	p := metrics.DynKPolicy{KMin: 2, HardCap: 10, KMaxRatio: 0.5}
	probs := []float64{0.1, 0.7, 0.05, 0.6, 0.02, 0.3, 0.01, 0.01}
	fmt.Println("k_max:", p.KMax(len(probs)))
	fmt.Println("gamma 0.5:", p.Select(probs, 0.5))
	fmt.Println("gamma 0.9:", p.Select(probs, 0.9))
	// Output:
	// k_max: 4
	// gamma 0.5: [1 3]
	// gamma 0.9: [1 3 5 0]
}

func ExamplePercentileKs() {
	fmt.Println(metrics.PercentileKs(120, []float64{0.1, 0.25, 0.5, 0.75, 1}))
	fmt.Println(metrics.AdaptiveKs(7), metrics.AdaptiveKs(30), metrics.AdaptiveKs(120))
	// Output:
	// [12 30 60 90 120]
	// [1 3 7] [5 10 20 30] [10 20 50 120]
}

// Difficulty n_neg/n_pos against recall@K; the output agrees with
// scipy.stats.spearmanr on the same vectors.
func ExampleSpearman() {
	difficulty := []float64{2, 5, 9, 14, 30, 41}
	recall := []float64{1, 1, 0.5, 0.75, 0.25, 0.25}
	rho, p := metrics.Spearman(difficulty, recall)
	fmt.Printf("rho %.4f p %.4f\n", rho, p)
	// Output:
	// rho -0.9122 p 0.0112
}
