package metrics

// Calibration kernels for the NE gate probability (population
// all_queries): ECE with equal-width and equal-mass bins, Brier score,
// reliability-diagram bins with Wilson intervals, logistic recalibration
// intercept and slope, and Spiegelhalter's z test. Probabilities are
// expected in [0, 1] (package dataset rejects others); a NaN probability
// is a programmer error and panics.

import (
	"fmt"
	"math"
	"sort"
)

// Binning strategies of Reliability, the values of paper.yaml's
// calibration.strategy.
const (
	CalibUniform  = "uniform"  // M equal-width bins [k/M, (k+1)/M), the last closed
	CalibQuantile = "quantile" // M equal-count bins by rank of p
)

// calibZ95 is the standard normal 0.975 quantile, the z of a two-sided 95%
// interval (scipy.stats.norm.ppf(0.975)).
const calibZ95 = 1.959963984540054

// calibCheck panics on a length mismatch, a NaN probability or fewer than
// one bin.
func calibCheck(y []bool, p []float64, bins int) {
	clfCheckLen(len(y), len(p))
	if bins < 1 {
		panic(fmt.Sprintf("metrics: %d calibration bins, need at least 1", bins))
	}
	for _, v := range p {
		if math.IsNaN(v) {
			panic("metrics: NaN probability")
		}
	}
}

// calibUniformBin returns the equal-width bin of p among m bins: the k with
// edge_k <= p < edge_{k+1}, edge_k = float64(k)/float64(m), p >= 1 in the
// last bin and p < 0 in the first. The edges are computed exactly as
// float64(k)/float64(M), so p = 0.3 lands in bin 3 of 10 (numpy's linspace edge
// 0.30000000000000004 would put it in bin 2).
func calibUniformBin(p float64, m int) int {
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return m - 1
	}
	fm := float64(m)
	k := min(int(p*fm), m-1)
	for k > 0 && p < float64(k)/fm {
		k--
	}
	for k < m-1 && p >= float64(k+1)/fm {
		k++
	}
	return k
}

// calibBin accumulates one calibration bin.
type calibBin struct {
	lo, hi float64
	n, pos int
	sumP   float64
}

// calibUniformBins returns m equal-width bins of (y, p).
func calibUniformBins(y []bool, p []float64, m int) []calibBin {
	bs := make([]calibBin, m)
	for k := range bs {
		bs[k].lo = float64(k) / float64(m)
		bs[k].hi = float64(k+1) / float64(m)
	}
	for i, v := range p {
		b := &bs[calibUniformBin(v, m)]
		b.n++
		b.sumP += v
		if y[i] {
			b.pos++
		}
	}
	return bs
}

// calibQuantileBins returns m equal-count bins of (y, p): the rows ordered
// by p ascending, ties negatives first, cut into m consecutive blocks whose
// sizes differ by at most one, the larger blocks first (numpy's
// array_split). Empty blocks (n < m) have NaN bounds.
func calibQuantileBins(y []bool, p []float64, m int) []calibBin {
	pos, neg := clfSplit(y, p)
	n := len(p)
	q, r := n/m, n%m
	bs := make([]calibBin, m)
	i, j := 0, 0 // next negative, next positive
	for k := range bs {
		b := &bs[k]
		size := q
		if k < r {
			size++
		}
		b.lo, b.hi = math.NaN(), math.NaN()
		for range size {
			var v float64
			if j >= len(pos) || (i < len(neg) && neg[i] <= pos[j]) {
				v = neg[i]
				i++
			} else {
				v = pos[j]
				j++
				b.pos++
			}
			if b.n == 0 {
				b.lo = v
			}
			b.hi = v
			b.n++
			b.sumP += v
		}
	}
	return bs
}

// calibECE returns Σ_k (n_k / n) |ȳ_k − p̄_k| over the non-empty bins; NaN
// when all are empty.
func calibECE(bs []calibBin) float64 {
	n := 0
	for _, b := range bs {
		n += b.n
	}
	if n == 0 {
		return math.NaN()
	}
	ece := 0.0
	for _, b := range bs {
		if b.n == 0 {
			continue
		}
		nb := float64(b.n)
		ece += nb / float64(n) * math.Abs(float64(b.pos)/nb-b.sumP/nb)
	}
	return ece
}

// ECE returns the expected calibration error with bins equal-width bins
// (`ne.ece`, M = 10 by default):
//
//	ECE = Σ_k (n_k / n) |ȳ_k − p̄_k|
//
// where bin k holds edge_k <= p < edge_{k+1}, edge_k = float64(k)/float64(M),
// the last bin also holds p = 1, and ȳ_k, p̄_k are the observed frequency
// and mean probability of its n_k rows; empty bins contribute nothing. This
// fixes a published reference code, which drops p = 1 and, through numpy's
// linspace edges, puts p = 0.3 in [0.2, 0.3) (docs/metrics.md). scikit-learn's
// calibration_curve also differs: it puts a p equal to an inner edge in the
// lower bin. NaN for an empty sample. It panics when bins < 1.
func ECE(y []bool, p []float64, bins int) float64 {
	calibCheck(y, p, bins)
	return calibECE(calibUniformBins(y, p, bins))
}

// ECEEqualMass returns the expected calibration error (same formula as ECE)
// over bins equal-count bins (`ne.ece_equal_mass`): the rows
// sorted by p ascending are cut into bins consecutive blocks whose sizes
// differ by at most one, the first n mod bins blocks holding one more row
// (numpy's array_split of the sorted order). Rows tied in p may fall on
// both sides of a cut; they are ordered negatives first so that the value
// depends only on the multiset of (y, p) pairs, never on row order. NaN for
// an empty sample. It panics when bins < 1.
func ECEEqualMass(y []bool, p []float64, bins int) float64 {
	calibCheck(y, p, bins)
	return calibECE(calibQuantileBins(y, p, bins))
}

// Brier returns the Brier score, the mean squared difference between the
// probability and the 0/1 label,
//
//	Brier = (1/n) Σ_i (p_i − y_i)²,
//
// as scikit-learn's brier_score_loss (`ne.brier`); NaN for an
// empty sample.
func Brier(y []bool, p []float64) float64 {
	clfCheckLen(len(y), len(p))
	if len(p) == 0 {
		return math.NaN()
	}
	s := 0.0
	for i, v := range p {
		d := v
		if y[i] {
			d = v - 1
		}
		s += d * d
	}
	return s / float64(len(p))
}

// ReliabilityBin is one bin of a reliability diagram: its probability
// range [Lo, Hi], the number of rows, their mean probability, the observed
// frequency of positives and its Wilson 95% score interval. A bin without
// rows has Count 0 and NaN means and interval.
type ReliabilityBin struct {
	Lo, Hi             float64
	Count              int
	MeanP, ObsFreq     float64
	WilsonLo, WilsonHi float64
}

// Reliability returns the reliability-diagram data of probabilities p for
// labels y in bins bins (per bin: count, mean probability, observed frequency,
// Wilson 95% interval). With strategy CalibUniform ("uniform")
// the bins are those of ECE and Lo, Hi are the bin edges k/M, (k+1)/M; with
// CalibQuantile ("quantile") they are those of ECEEqualMass and Lo, Hi are
// the smallest and largest probability in the bin (NaN for an empty bin,
// which happens only when n < bins). The result always has bins elements,
// empty bins included. It panics on an unknown strategy or bins < 1.
func Reliability(y []bool, p []float64, bins int, strategy string) []ReliabilityBin {
	calibCheck(y, p, bins)
	var bs []calibBin
	switch strategy {
	case CalibUniform:
		bs = calibUniformBins(y, p, bins)
	case CalibQuantile:
		bs = calibQuantileBins(y, p, bins)
	default:
		panic(fmt.Sprintf("metrics: unknown calibration strategy %q", strategy))
	}
	out := make([]ReliabilityBin, len(bs))
	for k, b := range bs {
		r := ReliabilityBin{Lo: b.lo, Hi: b.hi, Count: b.n}
		if b.n == 0 {
			r.MeanP, r.ObsFreq = math.NaN(), math.NaN()
		} else {
			r.MeanP = b.sumP / float64(b.n)
			r.ObsFreq = float64(b.pos) / float64(b.n)
		}
		r.WilsonLo, r.WilsonHi = Wilson(b.pos, b.n, calibZ95)
		out[k] = r
	}
	return out
}

// Wilson returns the Wilson score interval for a binomial proportion with
// successes out of n trials at normal quantile z (1.959963984540054 for
// 95%):
//
//	center = (p̂ + z²/(2n)) / (1 + z²/n)
//	half   = z / (1 + z²/n) · √(p̂(1−p̂)/n + z²/(4n²))
//
// with p̂ = successes/n, and the interval is [center − half, center + half]
// clipped to [0, 1] (exactly 0 when successes = 0, exactly 1 when
// successes = n). It matches scipy's binomtest(...).proportion_ci(
// method="wilson") and R's prop.test(correct = FALSE). n = 0 gives
// (NaN, NaN). It panics unless 0 <= successes <= n.
func Wilson(successes, n int, z float64) (lo, hi float64) {
	if n < 0 || successes < 0 || successes > n {
		panic(fmt.Sprintf("metrics: Wilson interval of %d successes in %d trials", successes, n))
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	nf := float64(n)
	ph := float64(successes) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (ph + z2/(2*nf)) / den
	half := z / den * math.Sqrt(ph*(1-ph)/nf+z2/(4*nf*nf))
	lo, hi = max(0, center-half), min(1, center+half)
	if successes == 0 {
		lo = 0
	}
	if successes == n {
		hi = 1
	}
	return lo, hi
}

// calibClip is the clipping bound of CalibrationFit: probabilities are
// moved into [calibClip, 1 − calibClip] before the logit, so p = 0 and
// p = 1 give logits of about ∓13.8 instead of infinities.
const calibClip = 1e-6

// CalibClip is calibClip for the callers that say when it decides the fit.
const CalibClip = calibClip

// CalibrationFit returns the logistic recalibration intercept and slope of
// probabilities p for labels y. With x = logit(p̃) and p̃ = p
// clipped to [1e-6, 1 − 1e-6]:
//
//	slope:     b of the fit   logit P(y=1) = a + b·x
//	intercept: a' of the fit  logit P(y=1) = a' + x   (x as an offset,
//	           "calibration-in-the-large")
//
// Both are unpenalised maximum-likelihood fits by Newton-Raphson with step
// halving; a perfectly calibrated model has intercept 0 and slope 1. The
// slope matches scikit-learn's LogisticRegression(penalty=None) coef_ and
// R's glm(y ~ x, binomial); the intercept matches R's
// glm(y ~ offset(x), binomial). Both are NaN when y lacks a class. The slope
// alone is NaN when x separates the classes (every negative's x <= every
// positive's x, or the reverse, which includes all p equal): its maximum-
// likelihood estimate is then infinite or not identified.
func CalibrationFit(y []bool, p []float64) (intercept, slope float64) {
	calibCheck(y, p, 1)
	x := make([]float64, len(p))
	npos := 0
	minPos, maxPos := math.Inf(1), math.Inf(-1)
	minNeg, maxNeg := math.Inf(1), math.Inf(-1)
	for i, v := range p {
		v = min(max(v, calibClip), 1-calibClip)
		x[i] = math.Log(v / (1 - v))
		if y[i] {
			npos++
			minPos, maxPos = min(minPos, x[i]), max(maxPos, x[i])
		} else {
			minNeg, maxNeg = min(minNeg, x[i]), max(maxNeg, x[i])
		}
	}
	if npos == 0 || npos == len(p) {
		return math.NaN(), math.NaN()
	}
	intercept, _ = calibLogistic(y, x, false)
	if maxNeg <= minPos || maxPos <= minNeg {
		return intercept, math.NaN()
	}
	_, slope = calibLogistic(y, x, true)
	return intercept, slope
}

// calibBernoulli returns, for the linear predictor η, the probability
// μ = 1/(1+e^−η), its complement 1−μ (both accurate near 0 and 1) and
// log(1+e^η), from one exponential and without overflow.
func calibBernoulli(eta float64) (mu, nu, softplus float64) {
	e := math.Exp(-math.Abs(eta))
	if eta >= 0 {
		return 1 / (1 + e), e / (1 + e), eta + math.Log1p(e)
	}
	return e / (1 + e), 1 / (1 + e), math.Log1p(e)
}

// calibLogLik returns the Bernoulli log-likelihood Σ y·η − log(1 + e^η) of
// η_i = a + b·x_i.
func calibLogLik(y []bool, x []float64, a, b float64) float64 {
	ll := 0.0
	for i, xi := range x {
		eta := a + b*xi
		_, _, sp := calibBernoulli(eta)
		if y[i] {
			ll += eta
		}
		ll -= sp
	}
	return ll
}

// calibLogistic maximises the log-likelihood of y ~ Bernoulli(σ(a + b·x))
// by Newton-Raphson with step halving, starting from (0, 1). With
// fitSlope false, b stays 1 (x is an offset). It returns NaN values when
// the Hessian is singular or 100 iterations do not converge.
func calibLogistic(y []bool, x []float64, fitSlope bool) (a, b float64) {
	a, b = 0, 1
	for range 100 {
		// One pass: log-likelihood, gradient and (negated) Hessian at (a, b).
		var ll, ga, gb, haa, hab, hbb float64
		for i, xi := range x {
			eta := a + b*xi
			mu, nu, sp := calibBernoulli(eta)
			r := -mu
			if y[i] {
				r = nu
				ll += eta
			}
			ll -= sp
			w := mu * nu
			ga += r
			haa += w
			if fitSlope {
				gb += r * xi
				hab += w * xi
				hbb += w * xi * xi
			}
		}
		var da, db float64
		if fitSlope {
			det := haa*hbb - hab*hab
			if !(det > 0) {
				break
			}
			da = (hbb*ga - hab*gb) / det
			db = (haa*gb - hab*ga) / det
		} else {
			if !(haa > 0) {
				break
			}
			da = ga / haa
		}
		if math.Max(math.Abs(da), math.Abs(db)) <= 1e-12*(1+math.Max(math.Abs(a), math.Abs(b))) {
			return a + da, b + db
		}
		// A Newton step promises a gain of about ½ g·Δ. Once that is below
		// the rounding noise of the summed log-likelihood (large n), the
		// likelihood cannot confirm the step, and the step is taken as is:
		// the iteration is then in Newton's quadratic region.
		if gain := (ga*da + gb*db) / 2; gain <= 1e-11*(1+math.Abs(ll)) {
			a, b = a+da, b+db
			continue
		}
		// Step halving: the log-likelihood is concave, so a short enough
		// Newton step never lowers it.
		t := 1.0
		for {
			na, nb := a+t*da, b+t*db
			if calibLogLik(y, x, na, nb) >= ll {
				a, b = na, nb
				break
			}
			t /= 2
			if t < 1e-12 {
				return math.NaN(), math.NaN()
			}
		}
	}
	return math.NaN(), math.NaN()
}

// SpiegelhalterZ returns Spiegelhalter's (1986) z statistic for the
// calibration of probabilities p against labels y and its two-sided
// normal p-value:
//
//	Z = Σ (y_i − p_i)(1 − 2p_i) / √(Σ (1 − 2p_i)² p_i (1 − p_i)),
//	pvalue = 2 (1 − Φ(|Z|)) = erfc(|Z| / √2).
//
// Under perfect calibration Z is approximately standard normal. Both are
// NaN when the denominator is 0 (every p in {0, ½, 1}, or an empty sample).
// Reference: the formula above, evaluated independently in
// testdata/clf_gen_reference.py.
func SpiegelhalterZ(y []bool, p []float64) (z, pvalue float64) {
	calibCheck(y, p, 1)
	var num, den float64
	for i, v := range p {
		yi := 0.0
		if y[i] {
			yi = 1
		}
		c := 1 - 2*v
		num += (yi - v) * c
		den += c * c * v * (1 - v)
	}
	if !(den > 0) {
		return math.NaN(), math.NaN()
	}
	z = num / math.Sqrt(den)
	return z, math.Erfc(math.Abs(z) / math.Sqrt2)
}

// MassBins assigns m equal-count bins, the bins of ECEEqualMass fixed on
// a sample (the bootstrap keeps them for every replicate): rows sorted by
// p ascending (ties: negatives first, then row order) are cut into m
// consecutive blocks, the first n mod m blocks one row larger.
func MassBins(m int, p []float64, y []bool) []int {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := idx[i], idx[j]
		if p[a] != p[b] {
			return p[a] < p[b]
		}
		return !y[a] && y[b]
	})
	out := make([]int, len(p))
	base, extra := len(p)/m, len(p)%m
	r := 0
	for b := 0; b < m; b++ {
		size := base
		if b < extra {
			size++
		}
		for k := 0; k < size; k++ {
			out[idx[r]] = b
			r++
		}
	}
	return out
}
