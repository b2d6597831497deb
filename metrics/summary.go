package metrics

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the descriptive statistics of per-query values (mean ±
// std, median, P25, P75, P90, the K histogram), of fold values
// (contract.fold_std) and the coefficient of variation.

// Summary describes the distribution of a per-query metric over a
// population. Undefined (NaN) values are left out of every statistic and
// counted in Skipped. With no defined value every float field is NaN.
type Summary struct {
	N       int     // number of defined values
	Skipped int     // number of NaN values left out
	Mean    float64 // arithmetic mean
	Std     float64 // population standard deviation (ddof = 0, numpy's default)
	Median  float64 // 50th percentile
	P25     float64 // 25th percentile
	P75     float64 // 75th percentile
	P90     float64 // 90th percentile (workload planning of the selected K)
	Min     float64
	Max     float64
}

// Summarize returns the Summary of x, skipping NaN values. Std is the
// population standard deviation
//
//	Std = sqrt((1/N) Σ (x_i − Mean)²)
//
// (numpy's np.std default, ddof = 0): it describes the spread of the
// per-query values themselves rather than estimating a population
// parameter. Percentiles use Quantile (numpy's default "linear" method). x is
// not modified.
func Summarize(x []float64) Summary {
	s := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	out := Summary{N: len(s), Skipped: len(x) - len(s)}
	if len(s) == 0 {
		nan := math.NaN()
		out.Mean, out.Std, out.Median, out.P25, out.P75, out.P90, out.Min, out.Max = nan, nan, nan, nan, nan, nan, nan, nan
		return out
	}
	out.Mean, out.Std = summaryMeanStd(s, false)
	slices.Sort(s)
	out.Min, out.Max = s[0], s[len(s)-1]
	out.Median = Quantile(s, 0.5)
	out.P25 = Quantile(s, 0.25)
	out.P75 = Quantile(s, 0.75)
	out.P90 = Quantile(s, 0.9)
	return out
}

// summaryMeanStd returns the mean and standard deviation of x (no NaN) by
// the two-pass algorithm with the compensating term of Chan, Golub and
// LeVeque; sample selects the n−1 denominator.
func summaryMeanStd(x []float64, sample bool) (mean, std float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	var ss, comp float64
	for _, v := range x {
		d := v - mean
		ss += d * d
		comp += d
	}
	ss -= comp * comp / n
	den := n
	if sample {
		den = n - 1
	}
	return mean, math.Sqrt(ss / den)
}

// Quantile returns the q-quantile of sorted (ascending, without NaN) by
// linear interpolation between order statistics, numpy's default method
// ("linear", Hyndman and Fan type 7):
//
//	h = (n−1)·q,  j = ⌊h⌋,  Q(q) = x_j + (h−j)·(x_{j+1} − x_j)
//
// with 0-based x. Like numpy, the interpolation is computed from the upper
// neighbour, x_{j+1} − (1−(h−j))·(x_{j+1} − x_j), when h−j >= 0.5. An empty
// slice gives NaN. It panics if q is outside [0, 1]; it does not check that
// sorted is sorted.
func Quantile(sorted []float64, q float64) float64 {
	if !(q >= 0 && q <= 1) {
		panic(fmt.Sprintf("metrics: quantile %v outside [0, 1]", q))
	}
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * q
	j := int(math.Floor(h))
	if j >= n-1 {
		return sorted[n-1]
	}
	t := h - float64(j)
	a, b := sorted[j], sorted[j+1]
	if t >= 0.5 {
		return b - (b-a)*(1-t)
	}
	return a + (b-a)*t
}

// FoldStd returns the standard deviation of per-fold values
// (contract.fold_std), skipping NaN folds:
//
//	sample:     sqrt(Σ (x_i − x̄)² / (n − 1))   (the default)
//	population: sqrt(Σ (x_i − x̄)² / n)
//
// Fewer than two defined values with sample, or none with population, give
// NaN.
func FoldStd(x []float64, sample bool) float64 {
	s := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	if len(s) == 0 || (sample && len(s) < 2) {
		return math.NaN()
	}
	_, std := summaryMeanStd(s, sample)
	return std
}

// CV returns the coefficient of variation of the per-query values x,
// skipping NaN values:
//
//	CV = σ / μ
//
// with σ the population standard deviation, as scipy.stats.variation
// (ddof = 0); the sign of the mean is kept. A mean of 0 or no defined value
// gives NaN. CV > 0.5 is commonly read as a warning sign (high per-query variance).
func CV(x []float64) float64 {
	s := Summarize(x)
	if s.N == 0 || s.Mean == 0 {
		return math.NaN()
	}
	return s.Std / s.Mean
}

// Histogram counts the integer values of k (for example the selected K of
// each query) over the contiguous range [min(k), max(k)]:
// values[i] = min(k) + i and counts[i] is how many times it occurs, zero
// counts included, so a bar chart shows the gaps. An empty k gives nil
// slices.
func Histogram(k []int) (values []int, counts []int) {
	if len(k) == 0 {
		return nil, nil
	}
	lo, hi := slices.Min(k), slices.Max(k)
	values = make([]int, hi-lo+1)
	counts = make([]int, hi-lo+1)
	for i := range values {
		values[i] = lo + i
	}
	for _, v := range k {
		counts[v-lo]++
	}
	return values, counts
}
