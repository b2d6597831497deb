package report

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
			lo, hi, d := percentileInterval(x, conf, &scratch)
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if !same(lo, want.Low) || !same(hi, want.High) || d != want.Dropped {
				t.Fatalf("n=%d conf=%v: got (%v, %v, %d), stats gives (%v, %v, %d)", n, conf, lo, hi, d, want.Low, want.High, want.Dropped)
			}
		}
	}
}
