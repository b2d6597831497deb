package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"paperbundle/stats"
)

// TestPercentileIntervalEqualsStats: selection gives exactly the sorted
// quantiles of stats.Percentile, with ties, NaNs and tiny samples.
func TestPercentileIntervalEqualsStats(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var scratch []float64
	for trial := 0; trial < 500; trial++ {
		n := 1 + r.IntN(300)
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(r.NormFloat64()*4) / 4
			if r.IntN(20) == 0 {
				x[i] = math.NaN()
			}
		}
		for _, conf := range []float64{0.95, 0.9, 0.5} {
			want := stats.Percentile(append([]float64(nil), x...), conf)
			lo, hi, d := PercentileInterval(x, conf, &scratch)
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if !same(lo, want.Low) || !same(hi, want.High) || d != want.Dropped {
				t.Fatalf("n=%d conf=%v: got (%v, %v, %d), stats gives (%v, %v, %d)", n, conf, lo, hi, d, want.Low, want.High, want.Dropped)
			}
		}
	}
}

// TestTailQuantilesEqualsStats: the one-pass tail selection of large
// samples gives exactly the sorted quantiles of stats.Percentile, with
// ties, NaNs, sorted and reversed input, one repeated value and samples
// whose spacing the pivot sample can miss.
func TestTailQuantilesEqualsStats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var scratch []float64
	used := 0
	for trial := range 300 {
		n := 2048 + r.IntN(20000)
		x := make([]float64, n)
		for i := range x {
			switch trial % 6 {
			case 0:
				x[i] = r.NormFloat64()
			case 1:
				x[i] = math.Round(r.NormFloat64()*4) / 4 // heavy ties
			case 2:
				x[i] = float64(i) // sorted
			case 3:
				x[i] = float64(n - i) // reversed
			case 4:
				x[i] = 0.5 // one value
			default:
				// the sampled positions (multiples of n/256) hold
				// values unlike the rest
				x[i] = r.Float64()
				if i%(n/256) == 0 {
					x[i] = 10 + r.Float64()
					if trial%12 == 5 {
						x[i] = -x[i]
					}
				}
			}
			if r.IntN(50) == 0 {
				x[i] = math.NaN()
			}
		}
		for _, conf := range []float64{0.95, 0.9, 0.99, 0.5} {
			want := stats.Percentile(append([]float64(nil), x...), conf)
			lo, hi, d := PercentileInterval(append([]float64(nil), x...), conf, &scratch)
			if lo != want.Low || hi != want.High || d != want.Dropped {
				t.Fatalf("trial %d n=%d conf=%v: got (%v, %v, %d), stats gives (%v, %v, %d)", trial, n, conf, lo, hi, d, want.Low, want.High, want.Dropped)
			}
			f := make([]float64, 0, n)
			for _, v := range x {
				if !math.IsNaN(v) {
					f = append(f, v)
				}
			}
			if _, _, ok := tailQuantiles(f, (1-conf)/2, (1+conf)/2); ok {
				used++
			}
		}
	}
	if used < 500 {
		t.Errorf("the tail selection answered %d of 1200 cases: the test does not exercise it", used)
	}
}
