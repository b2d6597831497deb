package metrics

import (
	"math"
	"slices"
)

// sortFloats sorts x ascending (x holds no NaN). Large slices (a million
// scores) are sorted by an LSD radix sort on the order-preserving bit
// pattern of each value, four passes of 16 bits, which is several times
// faster than comparison sorting; the result is the same sequence of
// values, except that -0 and +0, which compare equal and whose relative
// order a comparison sort leaves unspecified, come as -0 first.
func sortFloats(x []float64) {
	if len(x) < 1<<16 {
		slices.Sort(x)
		return
	}
	n := len(x)
	keys := make([]uint64, 2*n)
	a, b := keys[:n], keys[n:]
	for i, v := range x {
		u := math.Float64bits(v)
		if u>>63 != 0 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		a[i] = u
	}
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, u := range a {
			count[u>>shift&0xffff]++
		}
		if count[a[0]>>shift&0xffff] == n {
			continue // every key has these bits: the pass changes nothing
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, u := range a {
			d := u >> shift & 0xffff
			b[count[d]] = u
			count[d]++
		}
		a, b = b, a
	}
	for i, u := range a {
		if u>>63 != 0 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		x[i] = math.Float64frombits(u)
	}
}
