package paired

import (
	"math"
	"testing"
)

// TestReplicates: the p-value of a difference from its bootstrap
// replicates, by hand: 2 · min(1 + #{d ≤ 0}, 1 + #{d ≥ 0}) / (B + 1).
func TestReplicates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d    []float64
		want float64
	}{
		{[]float64{0.1, 0.2, 0.3, -0.1}, 2 * 2.0 / 5},         // one replicate <= 0
		{[]float64{0.1, 0.2, 0.3, 0.4}, 2 * 1.0 / 5},          // none
		{[]float64{0, 0, 0}, 1},                               // identical systems
		{[]float64{-0.1, math.NaN(), -0.2, 0.3}, 2 * 2.0 / 4}, // NaN left out: B = 3
		{[]float64{math.NaN()}, math.NaN()},
	} {
		got := Replicates(tc.d).P
		if !(got == tc.want || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("Replicates(%v).P = %v, want %v", tc.d, got, tc.want)
		}
	}
}
