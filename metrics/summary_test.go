package metrics

import (
	"math"
	"slices"
	"testing"
)

type summaryRef struct {
	Name        string    `json:"name"`
	X           []rankNum `json:"x"`
	N           int       `json:"n"`
	Skipped     int       `json:"skipped"`
	Mean        rankNum   `json:"mean"`
	Std         rankNum   `json:"std"`
	Median      rankNum   `json:"median"`
	P25         rankNum   `json:"p25"`
	P75         rankNum   `json:"p75"`
	P90         rankNum   `json:"p90"`
	Min         rankNum   `json:"min"`
	Max         rankNum   `json:"max"`
	FoldStdPop  rankNum   `json:"fold_std_population"`
	FoldStdSamp rankNum   `json:"fold_std_sample"`
	CV          rankNum   `json:"cv"`
}

func summaryFloats(x []rankNum) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestSummaryReference checks Summarize, FoldStd and CV against numpy 1.24
// (mean, std with ddof 0 and 1, percentile method "linear" on the NaN-free
// values) and scipy.stats.variation (testdata/summary_reference.json).
func TestSummaryReference(t *testing.T) {
	const tol = 1e-12
	var ref struct {
		Cases     []summaryRef
		Quantiles struct {
			Sorted []float64
			Q      []float64
			Value  []float64
		}
	}
	rankLoadJSON(t, "summary_reference.json", &ref)
	for _, c := range ref.Cases {
		x := summaryFloats(c.X)
		orig := slices.Clone(x)
		s := Summarize(x)
		if s.N != c.N || s.Skipped != c.Skipped {
			t.Errorf("%s: N, Skipped = %d, %d; want %d, %d", c.Name, s.N, s.Skipped, c.N, c.Skipped)
		}
		for _, m := range []struct {
			name string
			got  float64
			want rankNum
		}{
			{"Mean", s.Mean, c.Mean}, {"Std", s.Std, c.Std}, {"Median", s.Median, c.Median},
			{"P25", s.P25, c.P25}, {"P75", s.P75, c.P75}, {"P90", s.P90, c.P90},
			{"Min", s.Min, c.Min}, {"Max", s.Max, c.Max},
			{"FoldStd/population", FoldStd(x, false), c.FoldStdPop},
			{"FoldStd/sample", FoldStd(x, true), c.FoldStdSamp},
			{"CV", CV(x), c.CV},
		} {
			if !rankSame(m.got, float64(m.want), tol) {
				t.Errorf("%s: %s = %.17g, want %.17g", c.Name, m.name, m.got, float64(m.want))
			}
		}
		if !slices.EqualFunc(x, orig, func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }) {
			t.Errorf("%s: Summarize modified its input", c.Name)
		}
	}
	q := ref.Quantiles
	for i, qq := range q.Q {
		if got := Quantile(q.Sorted, qq); !rankSame(got, q.Value[i], tol) {
			t.Errorf("Quantile(%v) = %.17g, want %.17g (numpy)", qq, got, q.Value[i])
		}
	}
}

// TestQuantileHand checks numpy's linear rule by hand on {1, 2, 4, 8}:
// h = 3q; q = 0.5 → h = 1.5 → 2 + 0.5·2 = 3; q = 0.9 → h = 2.7 → 4 + 0.7·4
// = 6.8; q = 0.1 → h = 0.3 → 1.3.
func TestQuantileHand(t *testing.T) {
	const tol = 1e-12
	x := []float64{1, 2, 4, 8}
	for _, tc := range []struct{ q, want float64 }{
		{0, 1}, {0.1, 1.3}, {0.5, 3}, {0.9, 6.8}, {1, 8},
	} {
		if got := Quantile(x, tc.q); math.Abs(got-tc.want) > tol {
			t.Errorf("Quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if !math.IsNaN(Quantile(nil, 0.5)) {
		t.Error("Quantile of empty is not NaN")
	}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Quantile(%v) did not panic", bad)
				}
			}()
			Quantile(x, bad)
		}()
	}
}

// TestFoldStdHand checks the two fold conventions on {1, 2, 3}: the squared
// deviations sum to 2, so sample std = 1 and population std = sqrt(2/3).
func TestFoldStdHand(t *testing.T) {
	const tol = 1e-12
	x := []float64{1, 2, math.NaN(), 3}
	if got := FoldStd(x, true); math.Abs(got-1) > tol {
		t.Errorf("sample = %v, want 1", got)
	}
	if got := FoldStd(x, false); math.Abs(got-math.Sqrt(2.0/3)) > tol {
		t.Errorf("population = %v, want sqrt(2/3)", got)
	}
	if !math.IsNaN(FoldStd([]float64{0.5}, true)) || FoldStd([]float64{0.5}, false) != 0 {
		t.Error("one fold: sample std must be NaN, population 0")
	}
}

// TestHistogram checks the contiguous buckets of the K distribution.
func TestHistogram(t *testing.T) {
	v, c := Histogram([]int{3, 2, 5, 3, 3, 2})
	if !slices.Equal(v, []int{2, 3, 4, 5}) || !slices.Equal(c, []int{2, 3, 0, 1}) {
		t.Errorf("Histogram = %v, %v", v, c)
	}
	if v, c := Histogram(nil); v != nil || c != nil {
		t.Errorf("Histogram(nil) = %v, %v", v, c)
	}
	v, c = Histogram([]int{0, 0})
	if !slices.Equal(v, []int{0}) || !slices.Equal(c, []int{2}) {
		t.Errorf("Histogram zeros = %v, %v", v, c)
	}
}
