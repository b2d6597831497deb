package report

import (
	"math/rand/v2"
	"testing"
)

// Columns filled on all cores (large inputs whose groups are consecutive)
// hold the very sums of one pass, and inputs whose groups are not
// consecutive take the one pass.
func TestColTableParallelSameSums(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := parallelRows + 12345
	group := make([]int32, n)
	g := int32(0)
	for i := range group {
		if i > 0 && r.IntN(7) == 0 {
			g++
		}
		group[i] = g
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64() / 3
	}
	par := newColTable(n, group, int(g)+1)
	if par.spans == nil {
		t.Skip("one core: no parallel fill")
	}
	seq := newColTable(n, group, int(g)+1)
	seq.spans = nil
	fill := func(i int) float64 { return v[i] }
	a, b := par.cols[par.col("x", fill)], seq.cols[seq.col("x", fill)]
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("group %d: %v on all cores, %v in one pass", k, a[k], b[k])
		}
	}
	group[n-1] = 0 // group 0's rows are no longer consecutive
	if newColTable(n, group, int(g)+1).spans != nil {
		t.Error("non-consecutive groups filled in parallel")
	}
}
