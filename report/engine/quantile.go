package engine

import (
	"context"
	"math"
	"slices"

	"paperbundle/internal/par"
	"paperbundle/stats"
)

// Interval is the percentile interval of one column of replicates: Lo and
// Hi are its quantiles (1−conf)/2 and (1+conf)/2 over the finite values,
// Dropped how many values were not finite (NaN or ±Inf).
type Interval struct {
	Lo, Hi  float64
	Dropped int
}

// Percentiles returns the percentile interval of every column of reps,
// computed on all cores (workers = 0: GOMAXPROCS). The columns are read in
// blocks of 8 so that each row of reps is read a cache line at a time.
func Percentiles(ctx context.Context, reps *stats.Replicates, conf float64, workers int) []Interval {
	out := make([]Interval, reps.NStat)
	const blk = 8
	nb := (reps.NStat + blk - 1) / blk
	par.Jobs(workers, nb, func() func(int) {
		cols := make([][]float64, blk)
		for q := range cols {
			cols[q] = make([]float64, reps.B)
		}
		var scratch []float64
		return func(k int) {
			if ctx.Err() != nil {
				return // interrupted: the caller discards the intervals
			}
			j0, j1 := k*blk, min((k+1)*blk, reps.NStat)
			for b := range reps.B {
				row := reps.Row(b)
				for j := j0; j < j1; j++ {
					cols[j-j0][b] = row[j]
				}
			}
			for j := j0; j < j1; j++ {
				p := &out[j]
				p.Lo, p.Hi, p.Dropped = PercentileInterval(cols[j-j0], conf, &scratch)
			}
		}
	})
	return out
}

// PercentileInterval returns the numpy-"linear" quantiles (1−conf)/2 and
// (1+conf)/2 of the finite values of reps, and how many were not finite.
// It equals stats.Percentile but selects instead of sorting: O(B) per
// metric rather than O(B log B), which matters for hundreds of metrics and
// 402 band points per system. scratch is reused between calls.
func PercentileInterval(reps []float64, conf float64, scratch *[]float64) (lo, hi float64, dropped int) {
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
		return math.NaN(), math.NaN(), dropped
	}
	if lo, hi, ok := tailQuantiles(s, (1-conf)/2, (1+conf)/2); ok {
		return lo, hi, dropped
	}
	return selectQuantile(s, (1-conf)/2), selectQuantile(s, (1+conf)/2), dropped
}

// tailQuantiles returns selectQuantile(x, qlo) and selectQuantile(x, qhi)
// for quantiles near the two ends (a confidence interval's), by one pass
// instead of two selections over x: pivots taken from a sample of x bound
// the ranks wanted, the pass keeps the values at or below the low pivot
// and at or above the high one, and the ranks are selected within those
// few. The order statistics are values, whatever finds them, so the
// results are the same bits. ok is false, and x untouched, when x is
// small or the quantiles are not in its tails, or when the sample misled
// the pivots; then selectQuantile does the work.
func tailQuantiles(x []float64, qlo, qhi float64) (lo, hi float64, ok bool) {
	const m, margin = 256, 8 // sample size; pivot safety, in sample ranks
	n := len(x)
	if n < 8*m || !(qlo < 0.2 && qhi > 0.8) {
		return 0, 0, false
	}
	hlo, hhi := float64(n-1)*qlo, float64(n-1)*qhi
	klo, khi := int(math.Floor(hlo)), int(math.Floor(hhi))
	if khi >= n-1 {
		return 0, 0, false
	}
	var sample [m]float64
	for i := range sample {
		sample[i] = x[i*n/m]
	}
	slices.Sort(sample[:])
	// Pivot sample ranks: the low pivot should lie above rank klo+1 of x,
	// the high one below rank khi.
	tl := (klo+2)*m/n + margin
	th := khi*m/n - margin
	if tl >= th || th < 0 || tl >= m {
		return 0, 0, false
	}
	pl, ph := sample[tl], sample[th]
	var low, high []float64
	for _, v := range x {
		if v <= pl {
			low = append(low, v)
		}
		if v >= ph {
			high = append(high, v)
		}
	}
	// Every value left out of low is above all of low; every value left
	// out of high is below all of high.
	rh := khi - (n - len(high))
	if len(low) < klo+2 || rh < 0 || rh+1 >= len(high) {
		return 0, 0, false
	}
	return interpolate(low, klo, hlo-float64(klo)), interpolate(high, rh, hhi-float64(khi)), true
}

// interpolate returns a + frac·(b-a) for the k-th and (k+1)-th smallest
// a, b of x (k+1 < len(x)), as selectQuantile does with frac = h-k; it
// reorders x.
func interpolate(x []float64, k int, frac float64) float64 {
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
	return a + frac*(b-a)
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
	return interpolate(x, k, h-float64(k))
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
