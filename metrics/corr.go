package metrics

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds the rank correlation of the difficulty analysis
// (docs/metrics.md): Spearman's rho of query difficulty n_neg/n_pos
// against a per-query metric.

// AverageRanks returns the 1-based ranks of x in ascending order, tied
// values sharing the mean of the ranks they span (scipy.stats.rankdata's
// "average" method): x = {10, 20, 10, 30} gives {1.5, 3, 1.5, 4}. If x holds
// a NaN every rank is NaN, as scipy does with nan_policy "propagate".
func AverageRanks(x []float64) []float64 {
	r := make([]float64, len(x))
	if slices.ContainsFunc(x, math.IsNaN) {
		for i := range r {
			r[i] = math.NaN()
		}
		return r
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		// Positions i..j-1 (0-based) hold one value: ranks i+1..j.
		avg := float64(i+1+j) / 2
		for _, p := range idx[i:j] {
			r[p] = avg
		}
		i = j
	}
	return r
}

// Spearman returns Spearman's rank correlation of x and y and its two-sided
// p-value, as scipy.stats.spearmanr computes them by default:
//
//	rho = Pearson correlation of AverageRanks(x) and AverageRanks(y)
//	t   = rho · sqrt((n−2) / ((1+rho)(1−rho)))
//	p   = 2 · P(T_{n−2} > |t|)
//
// with T_{n−2} Student's t distribution with n−2 degrees of freedom (the
// large-sample approximation; no exact permutation distribution). |rho| = 1
// gives p = 0. Fewer than 3 pairs, a constant x or y, or a NaN in either
// gives NaN for both. It panics if the lengths differ.
func Spearman(x, y []float64) (rho, p float64) {
	if len(x) != len(y) {
		panic(fmt.Sprintf("metrics: Spearman length mismatch %d != %d", len(x), len(y)))
	}
	n := len(x)
	if n < 3 || slices.ContainsFunc(x, math.IsNaN) || slices.ContainsFunc(y, math.IsNaN) {
		return math.NaN(), math.NaN()
	}
	rx, ry := AverageRanks(x), AverageRanks(y)
	rho = corrPearson(rx, ry)
	if math.IsNaN(rho) {
		return math.NaN(), math.NaN()
	}
	rho = math.Max(-1, math.Min(1, rho))
	if math.Abs(rho) == 1 {
		return rho, 0
	}
	df := float64(n - 2)
	t := rho * math.Sqrt(df/((1+rho)*(1-rho)))
	p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
	return rho, math.Min(p, 1)
}

// corrPearson returns the Pearson correlation of x and y (equal lengths, no
// NaN), or NaN when either is constant.
func corrPearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
