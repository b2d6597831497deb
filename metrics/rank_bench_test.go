package metrics

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// rankBenchQuery returns a ranked query of n candidates, about 5% gold with
// grades 1-3, and the gold list with two items outside the pool.
func rankBenchQuery(n int) (rel, gold []int) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	rel = make([]int, n)
	for i := range rel {
		if rng.Float64() < 0.05 {
			rel[i] = 1 + rng.IntN(3)
			gold = append(gold, rel[i])
		}
	}
	gold = append(gold, 1, 2)
	return rel, gold
}

// rankBenchSizes are the pool sizes of the tool's users: ~20 candidates per
// query (evidence retrieval) up to 500-5,000 (learning-to-rank pools).
var rankBenchSizes = []int{20, 500, 5000}

func BenchmarkRankKernels(b *testing.B) {
	for _, n := range rankBenchSizes {
		rel, gold := rankBenchQuery(n)
		nGold := len(gold)
		b.Run("NDCGAt10/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				NDCGAt(rel, gold, 10, GainExponential)
			}
		})
		b.Run("RecallAt10/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RecallAt(rel, nGold, 10)
			}
		})
		b.Run("AP/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				AP(rel, nGold)
			}
		})
		b.Run("RR/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RR(rel)
			}
		})
		b.Run("Oracle/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				Oracle(rel)
			}
		})
		b.Run("RandomExpectedNDCGAt10/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RandomExpectedNDCGAt(rel, gold, 10, GainExponential)
			}
		})
		b.Run("RandomExpectedRR/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RandomExpectedRR(rel)
			}
		})
		b.Run("RandomExpectedAPAt10Hits/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RandomExpectedAPAt(rel, nGold, 10, MAPHits)
			}
		})
		b.Run("RandomAPMonteCarlo1000/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				RandomAPMonteCarlo(rel, nGold, 10, MAPHits, 1000, 7)
			}
		})
	}
}

func BenchmarkDynKSelect(b *testing.B) {
	for _, n := range rankBenchSizes {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		probs := make([]float64, n)
		for i := range probs {
			probs[i] = rng.Float64()
		}
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				dynkDefault.Select(probs, 0.9)
			}
		})
	}
}

func BenchmarkSummaryCorr(b *testing.B) {
	for _, n := range []int{1379, 14770, 1000000} {
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		x := make([]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = float64(rng.IntN(20)) / 19
			y[i] = rng.Float64()
		}
		b.Run("Summarize/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				Summarize(x)
			}
		})
		b.Run("Spearman/n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				Spearman(x, y)
			}
		})
	}
}

func BenchmarkMultilabel(b *testing.B) {
	for _, posts := range []int{1477, 100000} {
		rng := rand.New(rand.NewPCG(4, uint64(posts)))
		truth := make([][]bool, posts)
		pred := make([][]bool, posts)
		for p := range truth {
			truth[p] = make([]bool, 10)
			pred[p] = make([]bool, 10)
			for c := range truth[p] {
				truth[p][c] = rng.Float64() < 0.1
				pred[p][c] = truth[p][c] != (rng.Float64() < 0.05)
			}
		}
		b.Run("AllSeven/posts="+strconv.Itoa(posts), func(b *testing.B) {
			for b.Loop() {
				ExactMatch(truth, pred)
				HammingScore(truth, pred)
				HammingLoss(truth, pred)
				MicroF1(truth, pred)
				MacroF1Posts(truth, pred)
				MacroF1Criteria(truth, pred)
				WeightedF1(truth, pred)
			}
		})
	}
}
