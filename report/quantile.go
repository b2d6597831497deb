package report

import "math"

// percentileInterval returns the numpy-"linear" quantiles (1−conf)/2 and
// (1+conf)/2 of the finite values of reps, and how many were not finite.
// It equals stats.Percentile but selects instead of sorting: O(B) per
// metric rather than O(B log B), which matters for hundreds of metrics and
// 402 band points per system. scratch is reused between calls.
func percentileInterval(reps []float64, conf float64, scratch *[]float64) (lo, hi float64, dropped int) {
	s := (*scratch)[:0]
	for _, v := range reps {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			dropped++
			continue
		}
		s = append(s, v)
	}
	*scratch = s
	if len(s) == 0 {
		return nan, nan, dropped
	}
	return selectQuantile(s, (1-conf)/2), selectQuantile(s, (1+conf)/2), dropped
}

// selectQuantile is stats.Quantile of sorted(x) computed by selection; it
// reorders x.
func selectQuantile(x []float64, q float64) float64 {
	n := len(x)
	h := float64(n-1) * q
	k := int(math.Floor(h))
	if k >= n-1 {
		return maxOf(x)
	}
	a := nthElement(x, k)
	// the (k+1)-th smallest is the minimum of what lies right of k
	b := x[k+1]
	for _, v := range x[k+2:] {
		if v < b {
			b = v
		}
	}
	if a == b {
		return a
	}
	return a + (h-float64(k))*(b-a)
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// nthElement reorders x so that x[k] is the k-th smallest, everything left
// of it <= x[k] and everything right of it >= x[k], and returns x[k].
func nthElement(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		// median of three as pivot
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		p := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < p {
				i++
			}
			for x[j] > p {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}
