package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAtCutoffMatchesKernels: AtCutoff, RandomAtCutoff and RandomCut give,
// bit for bit, what the single-measure kernels give (whose values are checked
// against trec_eval and the reference implementations in rank_test.go and
// rank_random_test.go), on random rankings with ties of grades, pools
// without gold, empty rankings, gold outside the pool, no gold at all,
// cutoffs below, at and beyond the ranking's length, and every MAP
// denominator.
func TestAtCutoffMatchesKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 7))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	// One RandomCut per cutoff and denominator across the trials, so that
	// pools of the same size and gold count meet it again.
	cuts := map[[2]int]*RandomCut{}
	for trial := range 1500 {
		rel := make([]int, rng.IntN(40))
		gold := 0
		for i := range rel {
			if rng.IntN(3) == 0 {
				rel[i] = 1 + rng.IntN(3)
				gold++
			}
		}
		nGold := gold + rng.IntN(5) // gold outside the pool
		if trial%10 == 0 {
			nGold = 0
		}
		k := 1 + rng.IntN(50)
		for _, d := range []MAPDenominator{MAPGold, MAPMinGoldK, MAPHits} {
			got := AtCutoff(rel, nGold, k, d)
			want := CutValues{
				Recall: RecallAt(rel, nGold, k), CappedRecall: CappedRecallAt(rel, nGold, k),
				Precision: PrecisionAt(rel, k), Hit: HitAt(rel, k), AP: APAt(rel, nGold, k, d), RR: RRAt(rel, k),
			}
			rgot := RandomAtCutoff(rel, nGold, k, d)
			rwant := CutValues{
				Recall: RandomExpectedRecallAt(rel, nGold, k), CappedRecall: RandomExpectedCappedRecallAt(rel, nGold, k),
				Precision: RandomExpectedPrecisionAt(rel, k), Hit: RandomExpectedHitAt(rel, k),
				AP: RandomExpectedAPAt(rel, nGold, k, d), RR: RandomExpectedRRAt(rel, k),
			}
			rc := cuts[[2]int{k, int(d)}]
			if rc == nil {
				rc = NewRandomCut(k, d)
				cuts[[2]int{k, int(d)}] = rc
			}
			for _, c := range []struct {
				name      string
				got, want CutValues
			}{{"AtCutoff", got, want}, {"RandomAtCutoff", rgot, rwant}, {"RandomCut.At", rc.At(rel, nGold), rwant},
				// The same pool size and gold count again, with another
				// n_gold: the parts RandomCut kept.
				{"RandomCut.At again", rc.At(rel, gold+3), RandomAtCutoff(rel, gold+3, k, d)}} {
				g, w := c.got, c.want
				if !same(g.Recall, w.Recall) || !same(g.CappedRecall, w.CappedRecall) || !same(g.Precision, w.Precision) ||
					!same(g.Hit, w.Hit) || !same(g.AP, w.AP) || !same(g.RR, w.RR) {
					t.Fatalf("%s(%v, nGold %d, k %d, %v) = %+v, want the kernels' %+v", c.name, rel, nGold, k, d, g, w)
				}
			}
		}
	}
}

// TestIdealDCGCounted: the ideal DCG from counted grades equals the one
// from a sorted copy, bit for bit, for both gains, every cutoff, grades
// past the counted range (up to 1023 under an exponential gain, scaled)
// and grades of 0 and below among the gold.
func TestIdealDCGCounted(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 8))
	for trial := range 3000 {
		gold := make([]int, rng.IntN(80))
		top := []int{4, oracleGrades, 1024}[rng.IntN(3)]
		low := 0
		if trial%4 == 0 {
			low = -1 // a grade below 0 takes the sorted path
		}
		for i := range gold {
			gold[i] = low + rng.IntN(top-low)
		}
		k := 1 + rng.IntN(90)
		for _, g := range []Gain{GainLinear, GainExponential} {
			shift := g.gainShift(gold)
			got, want := rankIdealDCG(gold, k, g, shift), rankIdealDCGSorted(gold, k, g, shift)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("rankIdealDCG(%v, k %d, %v) = %v, sorted: %v", gold, k, g, got, want)
			}
		}
	}
}

// TestPoolGain: the pool's summed gain equals the sum of the gains added
// in order as float64, bit for bit, for both gains, with grades below 1,
// and with linear grades too large for the integer sum.
func TestPoolGain(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 9))
	for trial := range 2000 {
		rel := make([]int, rng.IntN(300))
		top := []int{4, 1000, 1 << 21, 1 << 40}[trial%4]
		for i := range rel {
			rel[i] = rng.IntN(top+1) - 1
		}
		for _, g := range []Gain{GainLinear, GainExponential} {
			shift := g.gainShift(rel)
			var want float64
			for _, r := range rel {
				want += g.value(r, shift)
			}
			if got := poolGain(rel, g, shift); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("poolGain(%v, %v) = %v, want %v", rel, g, got, want)
			}
		}
	}
}

// TestDCGDirect: the DCG summed with the linear gain's direct form equals
// the general form (Gain.value and rankDiscount), bit for bit, for
// rankings within and beyond the discount table.
func TestDCGDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 11))
	for trial := range 300 {
		rel := make([]int, rng.IntN(60))
		if trial%50 == 0 {
			rel = make([]int, discountTable+rng.IntN(3)-1)
		}
		for i := range rel {
			rel[i] = rng.IntN(6) - 1
		}
		var want float64
		for i, r := range rel {
			if r > 0 {
				want += GainLinear.value(r, 0) * rankDiscount(i)
			}
		}
		if got := rankDCG(rel, GainLinear, 0); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("rankDCG(%d grades) = %v, want %v", len(rel), got, want)
		}
	}
}
