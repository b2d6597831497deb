package metrics

import (
	"math"
	"testing"
)

type corrRef struct {
	Name   string    `json:"name"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Rho    rankNum   `json:"rho"`
	P      rankNum   `json:"p"`
	RanksX []float64 `json:"ranks_x"`
	RanksY []float64 `json:"ranks_y"`
}

// TestSpearmanReference checks Spearman and AverageRanks against scipy 1.10
// (scipy.stats.spearmanr, two-sided t-distribution p-value, and
// scipy.stats.rankdata(method="average")) in testdata/corr_reference.json,
// including heavy ties (a difficulty n_neg/n_pos against a recall-like
// metric).
func TestSpearmanReference(t *testing.T) {
	const tol = 1e-12
	const ptol = 1e-10 // the t survival function of gonum and scipy differ in the last digits
	var ref struct{ Cases []corrRef }
	rankLoadJSON(t, "corr_reference.json", &ref)
	if len(ref.Cases) < 5 {
		t.Fatalf("only %d reference cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		rho, p := Spearman(c.X, c.Y)
		if !rankSame(rho, float64(c.Rho), tol) {
			t.Errorf("%s: rho = %.17g, want %.17g", c.Name, rho, float64(c.Rho))
		}
		if !rankSame(p, float64(c.P), ptol) {
			t.Errorf("%s: p = %.17g, want %.17g", c.Name, p, float64(c.P))
		}
		for i, r := range AverageRanks(c.X) {
			if r != c.RanksX[i] {
				t.Errorf("%s: rank x[%d] = %v, want %v", c.Name, i, r, c.RanksX[i])
			}
		}
		for i, r := range AverageRanks(c.Y) {
			if r != c.RanksY[i] {
				t.Errorf("%s: rank y[%d] = %v, want %v", c.Name, i, r, c.RanksY[i])
			}
		}
	}
}

// TestSpearmanEdges checks the undefined cases and |rho| = 1 by hand.
func TestSpearmanEdges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x, y   []float64
		rho, p float64
	}{
		{"n=2", []float64{1, 2}, []float64{2, 1}, math.NaN(), math.NaN()},
		{"constant x", []float64{1, 1, 1}, []float64{1, 2, 3}, math.NaN(), math.NaN()},
		{"constant y", []float64{1, 2, 3}, []float64{5, 5, 5}, math.NaN(), math.NaN()},
		{"NaN", []float64{1, math.NaN(), 3}, []float64{1, 2, 3}, math.NaN(), math.NaN()},
		{"monotone", []float64{1, 2, 3, 4}, []float64{10, 20, 25, 100}, 1, 0},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1, 0},
	} {
		rho, p := Spearman(tc.x, tc.y)
		if !rankSame(rho, tc.rho, 1e-15) || !rankSame(p, tc.p, 1e-15) {
			t.Errorf("%s: Spearman = %v, %v; want %v, %v", tc.name, rho, p, tc.rho, tc.p)
		}
	}
	r := AverageRanks([]float64{10, 20, 10, 30})
	if r[0] != 1.5 || r[1] != 3 || r[2] != 1.5 || r[3] != 4 {
		t.Errorf("AverageRanks = %v", r)
	}
	if r := AverageRanks([]float64{1, math.NaN()}); !math.IsNaN(r[0]) || !math.IsNaN(r[1]) {
		t.Errorf("AverageRanks with NaN = %v", r)
	}
	defer func() {
		if recover() == nil {
			t.Error("length mismatch did not panic")
		}
	}()
	Spearman([]float64{1, 2, 3}, []float64{1, 2})
}

// FuzzAverageRanks checks that ranks sum to n(n+1)/2, lie in [1, n], and
// preserve order, on any input without NaN.
func FuzzAverageRanks(f *testing.F) {
	f.Add([]byte{3, 1, 1, 2})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		x := make([]float64, len(raw))
		for i, b := range raw {
			x[i] = float64(b % 7)
		}
		r := AverageRanks(x)
		n := float64(len(x))
		var sum float64
		for i := range r {
			sum += r[i]
			if r[i] < 1 || r[i] > n {
				t.Fatalf("rank %v outside [1, %v]", r[i], n)
			}
			for j := range r {
				if (x[i] < x[j]) != (r[i] < r[j]) {
					t.Fatalf("order not kept: x=%v r=%v", x, r)
				}
			}
		}
		if math.Abs(sum-n*(n+1)/2) > 1e-9 {
			t.Fatalf("ranks sum to %v, want %v", sum, n*(n+1)/2)
		}
	})
}
