package dataset

import (
	"runtime"
	"slices"
	"sync"

	"paperbundle/internal/par"
)

// This file holds the two helpers that spread the work on a large input
// over the cores: a loop over independent items, and a sort. Both give
// the result of one core.

// parallelMin is the number of items of work (rows, documents) from
// which inRanges and sortFunc use more than one core (a variable for the
// tests, which set it low).
var parallelMin = 1 << 14

// ranges returns how many ranges inRanges cuts n items into.
func ranges(n, work int) int {
	if work < parallelMin {
		return 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), n))
}

// inRanges calls f on consecutive ranges [lo, hi) that cover [0, n), the
// part-th of ranges(n, work), concurrently: one range per core when the
// items hold parallelMin items of work or more in all (work), else one.
func inRanges(n, work int, f func(part, lo, hi int)) {
	k := ranges(n, work)
	if k == 1 {
		f(0, 0, n)
		return
	}
	par.Jobs(k, k, func() func(int) {
		return func(i int) { f(i, n*i/k, n*(i+1)/k) }
	})
}

// sortFunc sorts s by cmp, which must be a total order (no two items of s
// compare equal), so that the result is the one slices.SortFunc gives: the
// two halves of s are sorted concurrently and merged, recursively while
// cores are left.
func sortFunc[T any](s []T, cmp func(a, b T) int) {
	ways := runtime.GOMAXPROCS(0)
	if ways == 1 || len(s) < parallelMin {
		slices.SortFunc(s, cmp)
		return
	}
	sortWays(s, make([]T, len(s)), cmp, ways)
}

// sortWays sorts s on up to ways cores, using tmp (as long as s) to merge.
func sortWays[T any](s, tmp []T, cmp func(a, b T) int, ways int) {
	if ways < 2 || len(s) < max(parallelMin, 2) {
		slices.SortFunc(s, cmp)
		return
	}
	h := len(s) / 2
	a, b := s[:h], s[h:]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sortWays(a, tmp[:h], cmp, ways/2)
	}()
	sortWays(b, tmp[h:], cmp, ways-ways/2)
	wg.Wait()
	if cmp(a[len(a)-1], b[0]) < 0 {
		return // the halves are already in order
	}
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			tmp[k] = b[j]
			j++
		} else {
			tmp[k] = a[i]
			i++
		}
		k++
	}
	k += copy(tmp[k:], a[i:])
	copy(tmp[k:], b[j:])
	copy(s, tmp)
}

// sumInts returns the sum of xs.
func sumInts(xs []int) int {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum
}
