package stats

import (
	"fmt"
	"math"
	"slices"
)

// Interval methods, as written into Interval.Method.
const (
	MethodPercentile = "percentile"
	MethodBCa        = "bca"
)

// Interval is a bootstrap confidence interval.
type Interval struct {
	Low, High float64
	// Method is MethodPercentile or MethodBCa: the method actually used.
	// BCa falls back to the percentile method when its bias correction is
	// infinite (see BCa).
	Method string
	// Dropped is the number of NaN replicates (resamples in which the
	// statistic was undefined) that were left out.
	Dropped int
}

// Quantile returns the q-quantile of the sorted, NaN-free slice x with
// linear interpolation between order statistics (numpy's default 'linear'
// method, R's type 7): with h = (n-1)q, lo = floor(h),
//
//	Q(q) = x[lo] + (h - lo) (x[lo+1] - x[lo]).
//
// It returns NaN for an empty x, and panics if q is outside [0, 1].
func Quantile(x []float64, q float64) float64 {
	if !(q >= 0 && q <= 1) {
		panic(fmt.Sprintf("stats: Quantile: q = %v outside [0, 1]", q))
	}
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * q
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return x[n-1]
	}
	a, b := x[lo], x[lo+1]
	if a == b {
		return a // also keeps equal infinities finite-safe
	}
	return a + (h-float64(lo))*(b-a)
}

// sortedFinite returns the non-NaN values of reps, sorted ascending, and
// the number of NaN values.
func sortedFinite(reps []float64) ([]float64, int) {
	s := make([]float64, 0, len(reps))
	for _, v := range reps {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	slices.Sort(s)
	return s, len(reps) - len(s)
}

func checkConf(conf float64) {
	if !(conf > 0 && conf < 1) {
		panic(fmt.Sprintf("stats: confidence level %v outside (0, 1)", conf))
	}
}

// Percentile returns the percentile bootstrap interval at confidence level
// conf (e.g. 0.95): the (1-conf)/2 and (1+conf)/2 quantiles (see Quantile)
// of the replicates that are not NaN. NaN replicates are dropped and
// counted in Interval.Dropped; with no replicate left both bounds are NaN.
// It panics if conf is outside (0, 1).
func Percentile(reps []float64, conf float64) Interval {
	checkConf(conf)
	s, dropped := sortedFinite(reps)
	return Interval{
		Low:     Quantile(s, (1-conf)/2),
		High:    Quantile(s, (1+conf)/2),
		Method:  MethodPercentile,
		Dropped: dropped,
	}
}

// normCDF is the standard normal distribution function.
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normQuantile is the inverse of normCDF.
func normQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// BCa returns the bias-corrected and accelerated bootstrap interval
// (Efron and Tibshirani 1993, section 14.3) at confidence level conf.
//
// theta is the statistic on the full sample, reps its bootstrap replicates
// and jack its jackknife values θ_(i), one per left-out resampling unit:
// leave one GROUP out when the bootstrap resamples groups. Compute them with
// Plan.Jackknife and the same weighted kernels as the replicates, e.g.
//
//	jack := plan.Jackknife(1, func(g int, w []int32, out []float64) { out[0] = s.AUROC(w) }).Column(0)
//
// With the NaN replicates dropped (and counted in Dropped) and n the number
// left,
//
//	z0 = Φ⁻¹((#{θ* < θ} + #{θ* = θ}/2) / n)
//	a  = Σ (θ̄ - θ_(i))³ / (6 (Σ (θ̄ - θ_(i))²)^(3/2))        (NaN θ_(i) skipped; a = 0 if the sum is 0)
//	α1 = Φ(z0 + (z0 + z_lo)/(1 - a (z0 + z_lo))),  z_lo = Φ⁻¹((1-conf)/2)
//	α2 = Φ(z0 + (z0 + z_hi)/(1 - a (z0 + z_hi))),  z_hi = Φ⁻¹((1+conf)/2)
//
// and the bounds are the α1 and α2 quantiles of the replicates (see
// Quantile). This is scipy.stats.bootstrap's method='BCa' given the same
// replicates. When every replicate lies on one side of theta, z0 is
// infinite and BCa is undefined: the percentile interval is returned with
// Method = MethodPercentile. A NaN theta, or no replicate left, gives NaN
// bounds.
func BCa(reps []float64, theta float64, jack []float64, conf float64) Interval {
	checkConf(conf)
	s, dropped := sortedFinite(reps)
	iv := Interval{Low: math.NaN(), High: math.NaN(), Method: MethodBCa, Dropped: dropped}
	if len(s) == 0 || math.IsNaN(theta) {
		return iv
	}
	less, equal := 0, 0
	for _, v := range s {
		switch {
		case v < theta:
			less++
		case v == theta:
			equal++
		}
	}
	z0 := normQuantile((float64(less) + 0.5*float64(equal)) / float64(len(s)))

	var mean float64
	var m int
	for _, v := range jack {
		if !math.IsNaN(v) {
			mean += v
			m++
		}
	}
	a := 0.0
	if m > 0 {
		mean /= float64(m)
		var s2, s3 float64
		for _, v := range jack {
			if !math.IsNaN(v) {
				d := mean - v
				s2 += d * d
				s3 += d * d * d
			}
		}
		if s2 > 0 {
			a = s3 / (6 * math.Pow(s2, 1.5))
		}
	}
	zlo := normQuantile((1 - conf) / 2)
	zhi := -zlo
	a1 := normCDF(z0 + (z0+zlo)/(1-a*(z0+zlo)))
	a2 := normCDF(z0 + (z0+zhi)/(1-a*(z0+zhi)))
	if math.IsInf(z0, 0) || math.IsNaN(a1) || math.IsNaN(a2) {
		iv.Low = Quantile(s, (1-conf)/2)
		iv.High = Quantile(s, (1+conf)/2)
		iv.Method = MethodPercentile
		return iv
	}
	iv.Low = Quantile(s, a1)
	iv.High = Quantile(s, a2)
	return iv
}
