package metrics

import (
	"math"
	"testing"
)

// TestNDCGLargeGrades: under exponential gain the gains of grades near
// 1023 (the largest with 2^g − 1 finite) sum past float64's range; nDCG
// must still be the ratio of the two sums, never NaN. By hand, with three
// gold documents of grade 1023 (each gain 2^1023 − 1, the −1 negligible):
//
//	ranked first to third:  DCG = IDCG, nDCG = 1
//	ranked second to fourth: nDCG = (1/log2 3 + 1/log2 4 + 1/log2 5) /
//	                                (1 + 1/log2 3 + 1/log2 4)
//	                              = (0.630930 + 0.5 + 0.430677) / 2.130930
//	                              = 0.732829
//
// and grades 1 and 2 keep their unscaled values (the shift is 0).
func TestNDCGLargeGrades(t *testing.T) {
	const tol = 1e-6
	gold := []int{1023, 1023, 1023}
	for _, tc := range []struct {
		name string
		rel  []int
		k    int
		want float64
	}{
		{"first three", []int{1023, 1023, 1023, 0}, 10, 1},
		{"second to fourth", []int{0, 1023, 1023, 1023}, 10, 0.732829},
	} {
		got := NDCGAt(tc.rel, gold, tc.k, GainExponential)
		if math.IsNaN(got) || math.Abs(got-tc.want) > tol {
			t.Errorf("%s: nDCG@%d = %v, want %v", tc.name, tc.k, got, tc.want)
		}
	}
	// Grade 1 among 1023s: its gain is 2^-1022 of the others', nothing.
	if got := NDCGAt([]int{1, 1023}, []int{1023, 1}, 10, GainExponential); math.Abs(got-1/math.Log2(3)) > tol {
		t.Errorf("nDCG with a grade 1 first = %v, want 1/log2 3 = %v", got, 1/math.Log2(3))
	}
	if got := RandomExpectedNDCGAt([]int{1023, 1023, 1023, 0}, gold, 10, GainExponential); math.IsNaN(got) || got <= 0 || got > 1 {
		t.Errorf("random expected nDCG with grades 1023 = %v, want in (0, 1]", got)
	}
	// Small grades: (2^2 − 1)/1 + (2^1 − 1)/log2 3 over itself is 1, and
	// gold [2, 1] ranked [1, 2]: (1 + 3/log2 3) / (3 + 1/log2 3).
	want := (1 + 3/math.Log2(3)) / (3 + 1/math.Log2(3))
	if got := NDCGAt([]int{1, 2}, []int{2, 1}, 10, GainExponential); math.Abs(got-want) > 1e-15 {
		t.Errorf("nDCG of grades 1, 2 = %v, want %v", got, want)
	}
}
