// Package engine is the bootstrap engine of the report: per-group column
// sums of the eval rows (Table), the matrix that weighs them by the group
// multiplicities of each bootstrap replicate (SumMatrix, with AVX2 kernels
// and their Go twins, which give the same bits), and the tail quantiles of
// the replicates (PercentileInterval, Percentiles).
//
// Almost every metric of the catalog is a function of a few sums over eval
// rows (a mean is Σx / Σ1, a rate Σnum / Σden, F1 and MCC functions of
// four counts, ECE a function of per-bin sums). Such a "sum statistic" is
// evaluated on the full sample, on each fold, and on each
// bootstrap resample from per-group (post) column sums: a resample draws
// groups with replacement, so its sums are Σ_g count_g · S_g. Metrics that
// are not sums (AUROC, AUPRC, ROC and PR bands) use the sorted-once weighted
// kernels of package stats.
package engine

import (
	"math"
	"runtime"
	"slices"

	"paperbundle/internal/par"
)

// Table holds per-group (post) sums of per-row columns over the eval
// rows of one system. Only the group sums are kept: the full-sample and
// per-fold values and every resample are functions of them (a group lies in
// one fold), so memory is groups x columns, not rows x columns. Columns
// with equal group sums are stored once, which keeps the bootstrap's inner
// loop short.
type Table struct {
	n      int
	group  []int32 // group of each row
	nG     int
	names  map[string]int
	byHash map[uint64][]int
	cols   [][]float64 // per column: sum over each group's rows
	// spans are ranges of rows that hold whole groups, when the input is
	// large and each group's rows are consecutive (the dataset's order):
	// a column is then filled on all cores, each group summed by one
	// goroutine in row order, so every sum is the one a single pass gives.
	spans [][2]int
	// free holds columns that turned out equal to one the table had:
	// the next column is filled in one of them, not in new memory (about
	// half of the columns repeat, and new memory costs page faults).
	free [][]float64
}

// ParallelRows is the number of rows from which a Table fills its columns
// on all cores (and from which other passes over rows are worth sharing
// out).
const ParallelRows = 1 << 16

// NewTable returns an empty table over n rows, row i in group group[i]
// of 0..nGroups-1.
func NewTable(n int, group []int32, nGroups int) *Table {
	t := &Table{n: n, group: group, nG: nGroups, names: map[string]int{}, byHash: map[uint64][]int{}}
	if n >= ParallelRows && runtime.GOMAXPROCS(0) > 1 {
		t.spans = groupSpans(group[:n], nGroups, 64)
	}
	return t
}

// groupSpans cuts 0..len(group)-1 into about k ranges at group
// boundaries; nil when some group's rows are not consecutive.
func groupSpans(group []int32, nGroups, k int) [][2]int {
	seen := make([]bool, nGroups)
	for i, g := range group {
		if i > 0 && g == group[i-1] {
			continue
		}
		if seen[g] {
			return nil
		}
		seen[g] = true
	}
	var spans [][2]int
	size := max(1, len(group)/k)
	lo := 0
	for lo < len(group) {
		hi := min(lo+size, len(group))
		for hi < len(group) && group[hi] == group[hi-1] {
			hi++
		}
		spans = append(spans, [2]int{lo, hi})
		lo = hi
	}
	return spans
}

// Col returns the index of column name, computing it with fill when new.
func (t *Table) Col(name string, fill func(i int) float64) int {
	return t.ColIn(name, nil, fill)
}

// ColIn is Col over the rows of sel only (every row when sel is nil): fill
// is called for them alone, in row order, so a sliced column costs the
// rows of its slice. Rows left out add nothing, as a fill of 0 would.
func (t *Table) ColIn(name string, sel *Rows, fill func(i int) float64) int {
	return t.build(name, sel, func(c []float64, all bool, rows []int, lo, hi int) {
		g := t.group
		if all {
			for i := lo; i < hi; i++ {
				if v := fill(i); v != 0 {
					c[g[i]] += v
				}
			}
			return
		}
		for _, i := range rows {
			if v := fill(i); v != 0 {
				c[g[i]] += v
			}
		}
	})
}

// Fill says what ColOf adds for a row i of a vector v.
type Fill int

const (
	Value   Fill = iota // v[i], NaN included
	NaNZero             // v[i], a NaN as 0
	NotNaN              // 1 where v[i] is not NaN
)

// ColOf is ColIn with the fill read from v as how says: the same column,
// without a function call per row.
func (t *Table) ColOf(name string, sel *Rows, v []float64, how Fill) int {
	return t.build(name, sel, func(c []float64, all bool, rows []int, lo, hi int) {
		g := t.group
		if all {
			switch how {
			case Value:
				for i := lo; i < hi; i++ {
					if x := v[i]; x != 0 {
						c[g[i]] += x
					}
				}
			case NaNZero:
				for i := lo; i < hi; i++ {
					if x := v[i]; x != 0 && x == x {
						c[g[i]] += x
					}
				}
			default:
				for i := lo; i < hi; i++ {
					if x := v[i]; x == x {
						c[g[i]]++
					}
				}
			}
			return
		}
		switch how {
		case Value:
			for _, i := range rows {
				if x := v[i]; x != 0 {
					c[g[i]] += x
				}
			}
		case NaNZero:
			for _, i := range rows {
				if x := v[i]; x != 0 && x == x {
					c[g[i]] += x
				}
			}
		default:
			for _, i := range rows {
				if x := v[i]; x == x {
					c[g[i]]++
				}
			}
		}
	})
}

// build returns the index of column name, making it when new: fill adds
// the rows lo..hi-1 (all: sel is nil) or the rows listed, in row order,
// into the zeroed column c, once for all rows or once per span on all
// cores.
func (t *Table) build(name string, sel *Rows, fill func(c []float64, all bool, rows []int, lo, hi int)) int {
	if j, ok := t.names[name]; ok {
		return j
	}
	var c []float64
	if k := len(t.free); k > 0 {
		c, t.free = t.free[k-1], t.free[:k-1]
		clear(c)
	} else {
		c = make([]float64, t.nG)
	}
	fillRows := func(lo, hi int) {
		if sel == nil {
			fill(c, true, nil, lo, hi)
			return
		}
		rows := sel.rows
		a, _ := slices.BinarySearch(rows, lo)
		b, _ := slices.BinarySearch(rows, hi)
		fill(c, false, rows[a:b], lo, hi)
	}
	if t.spans == nil || (sel != nil && len(sel.rows) < ParallelRows) {
		fillRows(0, t.n)
	} else {
		par.Jobs(0, len(t.spans), func() func(int) {
			return func(k int) { fillRows(t.spans[k][0], t.spans[k][1]) }
		})
	}
	n := len(t.cols)
	j := t.add(c)
	if j < n {
		t.free = append(t.free, c)
	}
	t.names[name] = j
	return j
}

// add returns the index of column c: an equal column's if the table has
// one, else c's, appended.
func (t *Table) add(c []float64) int {
	var sum uint64 = 14695981039346656037
	for _, v := range c {
		sum = (sum ^ math.Float64bits(v)) * 1099511628211
	}
	for _, j := range t.byHash[sum] {
		if slices.Equal(t.cols[j], c) {
			return j
		}
	}
	j := len(t.cols)
	t.byHash[sum] = append(t.byHash[sum], j)
	t.cols = append(t.cols, c)
	return j
}

// FoldSums returns the sum of each column over all groups and over the
// groups of each fold: part[g] is group g's fold index in 0..nPart-1, or -1
// for none. Each sum adds its terms in group order, as sums does; the
// columns are shared out between the cores.
func (t *Table) FoldSums(part []int, nPart, workers int) (total []float64, parts [][]float64) {
	total = make([]float64, len(t.cols))
	parts = make([][]float64, nPart)
	for k := range parts {
		parts[k] = make([]float64, len(t.cols))
	}
	par.Jobs(workers, (len(t.cols)+63)/64, func() func(int) {
		acc := make([]float64, nPart)
		return func(job int) {
			for j := job * 64; j < min(len(t.cols), (job+1)*64); j++ {
				clear(acc)
				var all float64
				for g, v := range t.cols[j] {
					all += v
					if k := part[g]; k >= 0 {
						acc[k] += v
					}
				}
				total[j] = all
				for k := range parts {
					parts[k][j] = acc[k]
				}
			}
		}
	})
	return total, parts
}

// A Rows is a subset of the eval rows: in(i) tells whether row i is in
// it, and rows lists them ascending, so that a column over the subset
// visits only its rows. A nil *Rows is every row.
type Rows struct {
	in   func(i int) bool
	rows []int
}

// SelectRows returns the rows 0..n-1 where in is true.
func SelectRows(n int, in func(i int) bool) *Rows {
	s := &Rows{in: in}
	for i := range n {
		if in(i) {
			s.rows = append(s.rows, i)
		}
	}
	return s
}

// NewRows returns the rows listed (ascending) in rows, in(i) telling
// whether row i is one of them.
func NewRows(rows []int, in func(i int) bool) *Rows { return &Rows{in: in, rows: rows} }

// Len returns the number of rows selected.
func (s *Rows) Len() int { return len(s.rows) }

// Has reports whether row i is selected (always, for a nil *Rows).
func (s *Rows) Has(i int) bool { return s == nil || s.in(i) }

// Cols returns the distinct columns, by index: Cols()[j][g] is the sum of
// column j over the rows of group g. The caller must not change them.
func (t *Table) Cols() [][]float64 { return t.cols }

// Fork returns an empty table over the same rows and groups as t, for
// columns made concurrently with t's; Join adds them back.
func (t *Table) Fork() *Table {
	return &Table{n: t.n, group: t.group, nG: t.nG, names: map[string]int{}, byHash: map[uint64][]int{}, spans: t.spans}
}

// Join adds the columns of o, a fork of t, to t and returns the index in t
// of each of o's columns: a column equal to one t already has is that
// column (as Col would have found it), so t ends as if o's columns had
// been made on t after its own.
func (t *Table) Join(o *Table) (remap []int) {
	remap = make([]int, len(o.cols))
	for j, col := range o.cols {
		remap[j] = t.add(col)
	}
	for name, j := range o.names {
		if _, ok := t.names[name]; !ok {
			t.names[name] = remap[j]
		}
	}
	return remap
}
