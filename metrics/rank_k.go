package metrics

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the three query-specific cutoff strategies (percentile,
// fixed capped by n_pos, adaptive; docs/metrics.md "Query-specific cutoffs"),
// for queries whose number of gold items n_pos varies widely.

// rankSnapTol is the relative distance within which a product such as
// 0.07·100 = 7.000000000000001 (in float64) is taken to be the integer it
// approximates before ceil or floor is applied.
const rankSnapTol = 1e-9

// rankSnap returns the nearest integer to x when x is within rankSnapTol
// (relative) of it, and x otherwise.
func rankSnap(x float64) float64 {
	r := math.Round(x)
	if math.Abs(x-r) <= rankSnapTol*math.Max(1, math.Abs(x)) {
		return r
	}
	return x
}

// PercentileKs returns the percentile-based cutoffs, one per fraction, in
// the order of fracs:
//
//	K_p = min(n_pos, max(1, ⌈p · n_pos⌉))
//
// p · n_pos is snapped to the nearest integer first when it is within a
// relative 1e-9 of it, so that 0.07 · 100 gives 7 and not 8. Equal cutoffs are
// kept (n_pos = 3 and fracs {0.1, 0.25} give {1, 1}) so that the result lines
// up with fracs. n_pos < 1 gives 1 for every fraction. It panics on a NaN
// fraction or a negative n_pos.
func PercentileKs(nPos int, fracs []float64) []int {
	if nPos < 0 {
		panic(fmt.Sprintf("metrics: negative n_pos %d", nPos))
	}
	ks := make([]int, len(fracs))
	for i, p := range fracs {
		if math.IsNaN(p) {
			panic("metrics: NaN fraction in PercentileKs")
		}
		k := math.Ceil(rankSnap(p * float64(nPos)))
		ks[i] = int(math.Min(math.Max(k, 1), math.Max(float64(nPos), 1)))
	}
	return ks
}

// FixedKsCapped returns the standard cutoffs capped by the query's capacity,
// in the order of ks:
//
//	K_actual = max(1, min(K, n_pos))
//
// Equal cutoffs are kept so that the result lines up with ks.
func FixedKsCapped(nPos int, ks []int) []int {
	out := make([]int, len(ks))
	for i, k := range ks {
		out[i] = max(1, min(k, nPos))
	}
	return out
}

// AdaptiveKs returns the adaptive cutoffs (the recommended query-specific
// strategy), sorted ascending without duplicates:
//
//	n_pos < 10:       {1, 3, n_pos}
//	10 <= n_pos < 50: {5, 10, 20, n_pos}
//	n_pos >= 50:      {10, 20, 50, n_pos}
//
// n_pos < 1 gives {1, 3}: the seed does not define it, and a cutoff of 0 is
// never useful.
func AdaptiveKs(nPos int) []int {
	var ks []int
	switch {
	case nPos < 1:
		return []int{1, 3}
	case nPos < 10:
		ks = []int{1, 3, nPos}
	case nPos < 50:
		ks = []int{5, 10, 20, nPos}
	default:
		ks = []int{10, 20, 50, nPos}
	}
	slices.Sort(ks)
	return slices.Compact(ks)
}
