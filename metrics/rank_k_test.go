package metrics

import (
	"slices"
	"testing"
)

// TestPercentileKs checks the percentile-based query-specific K by hand:
// K = min(n_pos, max(1, ⌈p·n_pos⌉)).
func TestPercentileKs(t *testing.T) {
	fracs := []float64{0.1, 0.25, 0.5, 0.75, 1}
	for _, tc := range []struct {
		nPos  int
		fracs []float64
		want  []int
	}{
		{120, fracs, []int{12, 30, 60, 90, 120}}, // a published worked example (query 06-1P-014D)
		{3, fracs, []int{1, 1, 2, 3, 3}},         // ⌈0.3⌉, ⌈0.75⌉, ⌈1.5⌉, ⌈2.25⌉, 3
		{30, fracs, []int{3, 8, 15, 23, 30}},     // ⌈7.5⌉ = 8, ⌈22.5⌉ = 23
		{1, fracs, []int{1, 1, 1, 1, 1}},         //
		{0, fracs, []int{1, 1, 1, 1, 1}},         // undefined n_pos: at least 1
		// 0.07·100 is 7.000000000000001 in float64: ceil must still give 7.
		{100, []float64{0.07, 0.55}, []int{7, 55}},
		{50, []float64{0.14}, []int{7}},
		{4, []float64{1.5, 0, -1}, []int{4, 1, 1}}, // clamped to [1, n_pos]
		{10, nil, []int{}},
	} {
		if got := PercentileKs(tc.nPos, tc.fracs); !slices.Equal(got, tc.want) {
			t.Errorf("PercentileKs(%d, %v) = %v, want %v", tc.nPos, tc.fracs, got, tc.want)
		}
	}
}

// TestFixedKsCapped checks the fixed cutoffs capped by n_pos: min(K, n_pos), at
// least 1, in the order given.
func TestFixedKsCapped(t *testing.T) {
	std := []int{5, 10, 20, 50, 100}
	for _, tc := range []struct {
		nPos int
		want []int
	}{
		{7, []int{5, 7, 7, 7, 7}},
		{120, []int{5, 10, 20, 50, 100}},
		{20, []int{5, 10, 20, 20, 20}},
		{0, []int{1, 1, 1, 1, 1}},
	} {
		if got := FixedKsCapped(tc.nPos, std); !slices.Equal(got, tc.want) {
			t.Errorf("FixedKsCapped(%d) = %v, want %v", tc.nPos, got, tc.want)
		}
	}
}

// TestAdaptiveKs checks the adaptive query-specific K at and around each band
// boundary (10 and 50), with duplicates removed.
func TestAdaptiveKs(t *testing.T) {
	for _, tc := range []struct {
		nPos int
		want []int
	}{
		{0, []int{1, 3}},
		{1, []int{1, 3}},
		{2, []int{1, 2, 3}},
		{3, []int{1, 3}},
		{9, []int{1, 3, 9}},
		{10, []int{5, 10, 20}},
		{15, []int{5, 10, 15, 20}},
		{20, []int{5, 10, 20}},
		{49, []int{5, 10, 20, 49}},
		{50, []int{10, 20, 50}},
		{120, []int{10, 20, 50, 120}},
	} {
		if got := AdaptiveKs(tc.nPos); !slices.Equal(got, tc.want) {
			t.Errorf("AdaptiveKs(%d) = %v, want %v", tc.nPos, got, tc.want)
		}
	}
}
