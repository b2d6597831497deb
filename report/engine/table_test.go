package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// consecutiveGroups returns n rows in groups of consecutive rows, a new
// group starting at a row with probability 1/every, and the number of
// groups.
func consecutiveGroups(r *rand.Rand, n, every int) ([]int32, int) {
	group := make([]int32, n)
	g := int32(0)
	for i := range group {
		if i > 0 && r.IntN(every) == 0 {
			g++
		}
		group[i] = g
	}
	return group, int(g) + 1
}

// Columns filled on all cores (large inputs whose groups are consecutive)
// hold the very sums of one pass, and inputs whose groups are not
// consecutive take the one pass.
func TestColTableParallelSameSums(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := ParallelRows + 12345
	group, nG := consecutiveGroups(r, n, 7)
	g := int32(nG - 1)
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64() / 3
	}
	par := NewTable(n, group, int(g)+1)
	if par.spans == nil {
		t.Skip("one core: no parallel fill")
	}
	seq := NewTable(n, group, int(g)+1)
	seq.spans = nil
	fill := func(i int) float64 { return v[i] }
	a, b := par.cols[par.Col("x", fill)], seq.cols[seq.Col("x", fill)]
	for k := range a {
		if a[k] != b[k] {
			t.Fatalf("group %d: %v on all cores, %v in one pass", k, a[k], b[k])
		}
	}
	group[n-1] = 0 // group 0's rows are no longer consecutive
	if NewTable(n, group, int(g)+1).spans != nil {
		t.Error("non-consecutive groups filled in parallel")
	}
}

// foldSums gives each column's total and per-fold sums as plain loops
// over the groups in order give them, bit for bit, on 1 and 2 workers; a
// group of no fold (-1) counts in the total only.
func TestFoldSums(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const G, C, folds = 1000, 150, 5
	tab := &Table{}
	for range C {
		c := make([]float64, G)
		for g := range c {
			c[g] = (r.Float64() - 0.3) * 1e3 / float64(1+r.IntN(50))
		}
		tab.cols = append(tab.cols, c)
	}
	part := make([]int, G)
	for g := range part {
		part[g] = r.IntN(folds+1) - 1
	}
	for _, workers := range []int{1, 2} {
		total, parts := tab.FoldSums(part, folds, workers)
		for j, c := range tab.cols {
			var all float64
			want := make([]float64, folds)
			for g, v := range c {
				all += v
				if part[g] >= 0 {
					want[part[g]] += v
				}
			}
			if total[j] != all {
				t.Fatalf("workers %d, column %d: total %v, want %v", workers, j, total[j], all)
			}
			for k := range want {
				if parts[k][j] != want[k] {
					t.Fatalf("workers %d, column %d, fold %d: %v, want %v", workers, j, k, parts[k][j], want[k])
				}
			}
		}
	}
}

// A column equal to one the table has is that column, and its memory is
// where the next column is filled: the next column must still be its own
// sums, not the repeated column's.
func TestColTableReusesRepeats(t *testing.T) {
	group := []int32{0, 0, 1, 2, 2, 2}
	tab := NewTable(len(group), group, 3)
	v := []float64{1, 2, 3, 4, 5, 6}
	a := tab.Col("a", func(i int) float64 { return v[i] })
	b := tab.Col("b", func(i int) float64 { return v[i] }) // the same sums
	if a != b || len(tab.free) != 1 {
		t.Fatalf("repeat: columns %d and %d, %d free", a, b, len(tab.free))
	}
	even := &Rows{rows: []int{0, 2, 4}}
	c := tab.ColIn("c", even, func(i int) float64 { return 10 * v[i] })
	want := []float64{10, 30, 50}
	got := tab.cols[c]
	if len(tab.free) != 0 || c != 1 {
		t.Fatalf("column c is %d with %d free, want the repeat's memory as column 1", c, len(tab.free))
	}
	for g := range want {
		if got[g] != want[g] {
			t.Fatalf("column c: %v, want %v", got, want)
		}
	}
	if s := tab.cols[a]; s[0] != 3 || s[1] != 3 || s[2] != 15 {
		t.Fatalf("column a changed: %v", s)
	}
}

// ColOf makes the column ColIn makes with the fill it stands for, bit for
// bit: NaN, -0 and 0 values, every row, no row, some rows, one pass and
// the spans of a large table.
func TestColOfMatchesColIn(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{50, ParallelRows + 999} {
		group, nG := consecutiveGroups(r, n, 3)
		g := int32(nG - 1)
		v := make([]float64, n)
		for i := range v {
			switch r.IntN(5) {
			case 0:
				v[i] = math.NaN()
			case 1:
				v[i] = math.Copysign(0, -1)
			case 2:
				v[i] = 0
			default:
				v[i] = r.NormFloat64()
			}
		}
		fills := map[Fill]func(i int) float64{
			Value: func(i int) float64 { return v[i] },
			NaNZero: func(i int) float64 {
				if math.IsNaN(v[i]) {
					return 0
				}
				return v[i]
			},
			NotNaN: func(i int) float64 {
				if math.IsNaN(v[i]) {
					return 0
				}
				return 1
			},
		}
		sels := []*Rows{nil, {}, SelectRows(n, func(i int) bool { return i%3 != 1 })}
		for how, fill := range fills {
			for k, sel := range sels {
				a := NewTable(n, group, int(g)+1)
				b := NewTable(n, group, int(g)+1)
				x, y := a.cols[a.ColOf("c", sel, v, how)], b.cols[b.ColIn("c", sel, fill)]
				for j := range x {
					if math.Float64bits(x[j]) != math.Float64bits(y[j]) && !(math.IsNaN(x[j]) && math.IsNaN(y[j])) {
						t.Fatalf("n=%d fill %d selection %d group %d: colOf %v, colIn %v", n, how, k, j, x[j], y[j])
					}
				}
			}
		}
	}
}

// A fork's columns joined back are the columns a serial run makes: a
// column equal to one the table has is that one (hand-checked sums of
// groups {0,1}, {2}, {3,4,5}), a new one is appended, and a name the
// table already has keeps its column.
func TestTableForkJoin(t *testing.T) {
	group := []int32{0, 0, 1, 2, 2, 2}
	v := []float64{1, 2, 3, 4, 5, 6}
	tab := NewTable(len(group), group, 3)
	a := tab.Col("a", func(i int) float64 { return v[i] }) // 3, 3, 15
	f := tab.Fork()
	fb := f.Col("b", func(i int) float64 { return v[i] })     // equal to a
	fc := f.Col("c", func(i int) float64 { return 1 })        // 2, 1, 3
	fa := f.Col("a", func(i int) float64 { return 2 * v[i] }) // name a: t keeps its own
	remap := tab.Join(f)
	if remap[fb] != a || remap[fc] != 1 || len(tab.Cols()) != 3 {
		t.Fatalf("remap %v, %d columns; want b -> %d, c -> 1, 3 columns", remap, len(tab.Cols()), a)
	}
	if got := tab.Col("a", nil); got != a || remap[fa] != 2 {
		t.Fatalf("a is column %d (want %d), the fork's a is %d (want 2)", got, a, remap[fa])
	}
	if got := tab.Col("c", nil); !slices.Equal(tab.Cols()[got], []float64{2, 1, 3}) {
		t.Fatalf("c = %v, want [2 1 3]", tab.Cols()[got])
	}
}
