package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCalibReference checks ECE, ECEEqualMass, Brier, Reliability (both
// strategies), CalibrationFit and SpiegelhalterZ against
// testdata/clf_gen_reference.py: scikit-learn's brier_score_loss and
// LogisticRegression(penalty=None, solver="newton-cholesky", tol=1e-14),
// scipy's brentq (calibration-in-the-large), binomtest Wilson intervals and
// norm.sf, and an independent evaluation of our ECE binning (edges k/M
// in float64, bisect) and numpy's array_split for equal-mass bins.
func TestCalibReference(t *testing.T) {
	const tol = 1e-12
	for _, c := range clfRef(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			y := c.labels()
			if got := Brier(y, c.P); !clfSame(got, float64(c.Brier), tol) {
				t.Errorf("Brier = %v, want %v", got, float64(c.Brier))
			}
			for _, w := range c.ECE {
				if got := ECE(y, c.P, w.Bins); !clfSame(got, float64(w.ECE), tol) {
					t.Errorf("ECE(%d bins) = %v, want %v", w.Bins, got, float64(w.ECE))
				}
				if got := ECEEqualMass(y, c.P, w.Bins); !clfSame(got, float64(w.ECEEqualMass), tol) {
					t.Errorf("ECEEqualMass(%d bins) = %v, want %v", w.Bins, got, float64(w.ECEEqualMass))
				}
			}
			for _, w := range c.Reliability {
				got := Reliability(y, c.P, w.Bins, w.Strategy)
				if len(got) != len(w.Bin) {
					t.Fatalf("Reliability(%d, %s): %d bins, want %d", w.Bins, w.Strategy, len(got), len(w.Bin))
				}
				for k, b := range w.Bin {
					g := got[k]
					if g.Count != b.Count ||
						!clfSame(g.Lo, float64(b.Lo), 0) || !clfSame(g.Hi, float64(b.Hi), 0) ||
						!clfSame(g.MeanP, float64(b.MeanP), tol) || !clfSame(g.ObsFreq, float64(b.ObsFreq), tol) ||
						!clfSame(g.WilsonLo, float64(b.WilsonLo), tol) || !clfSame(g.WilsonHi, float64(b.WilsonHi), tol) {
						t.Errorf("Reliability(%d, %s)[%d] = %+v, want %+v", w.Bins, w.Strategy, k, g, b)
					}
				}
			}
			a, s := CalibrationFit(y, c.P)
			if !clfSame(a, float64(c.CalibrationFit.Intercept), tol) || !clfSame(s, float64(c.CalibrationFit.Slope), tol) {
				t.Errorf("CalibrationFit = (%v, %v), want (%v, %v)", a, s,
					float64(c.CalibrationFit.Intercept), float64(c.CalibrationFit.Slope))
			}
			z, pv := SpiegelhalterZ(y, c.P)
			if !clfSame(z, float64(c.Spiegelhalter.Z), tol) || !clfSame(pv, float64(c.Spiegelhalter.PValue), tol) {
				t.Errorf("SpiegelhalterZ = (%v, %v), want (%v, %v)", z, pv,
					float64(c.Spiegelhalter.Z), float64(c.Spiegelhalter.PValue))
			}
		})
	}
}

// TestCalibrationFitReferenceR checks CalibrationFit against R's glm
// (binomial; y ~ offset(x) for the intercept, y ~ x for the slope), a
// second reference. glm stops on the relative change of the deviance and
// loses accuracy when fitted probabilities come within 1e-10 of 0 or 1, so
// the tolerance is looser than against scikit-learn.
func TestCalibrationFitReferenceR(t *testing.T) {
	const tol = 1e-7
	cases := clfRef(t).Cases
	for i, w := range clfRefR(t).Cases {
		c := &cases[i]
		if w.Name != c.Name {
			t.Fatalf("R case %d is %q, want %q", i, w.Name, c.Name)
		}
		a, s := CalibrationFit(c.labels(), c.P)
		if !clfSame(a, float64(w.Intercept), tol) || !clfSame(s, float64(w.Slope), tol) {
			t.Errorf("%s: CalibrationFit = (%v, %v), glm (%v, %v)", c.Name, a, s, float64(w.Intercept), float64(w.Slope))
		}
	}
}

// TestWilsonReference checks Wilson against scipy's binomtest(k, n).
// proportion_ci(method="wilson") and R's prop.test(correct = FALSE).
func TestWilsonReference(t *testing.T) {
	const tol = 1e-12
	ref := clfRef(t)
	if ref.Z95 != calibZ95 {
		t.Errorf("calibZ95 = %v, scipy norm.ppf(0.975) = %v", calibZ95, ref.Z95)
	}
	for _, w := range ref.Wilson {
		lo, hi := Wilson(w.Successes, w.N, w.Z)
		if !clfSame(lo, float64(w.Lo), tol) || !clfSame(hi, float64(w.Hi), tol) {
			t.Errorf("Wilson(%d, %d) = (%v, %v), scipy (%v, %v)", w.Successes, w.N, lo, hi, float64(w.Lo), float64(w.Hi))
		}
	}
	for _, w := range clfRefR(t).Wilson {
		lo, hi := Wilson(w.Successes, w.N, calibZ95)
		if !clfSame(lo, w.Lo, 1e-13) || !clfSame(hi, w.Hi, 1e-13) {
			t.Errorf("Wilson(%d, %d) = (%v, %v), prop.test (%v, %v)", w.Successes, w.N, lo, hi, w.Lo, w.Hi)
		}
	}
}

// TestECEBinEdges checks the ECE binning (docs/metrics.md): bin k of M holds
// float64(k)/float64(M) <= p < float64(k+1)/float64(M), the last bin holds
// 1.0. In particular p = 0.3 is in bin 3 of 10, where numpy's linspace edge
// (0.30000000000000004) would put it in bin 2.
func TestECEBinEdges(t *testing.T) {
	if got := calibUniformBin(0.3, 10); got != 3 {
		t.Errorf("0.3 is in bin %d of 10, want 3", got)
	}
	r := Reliability([]bool{true}, []float64{0.3}, 10, CalibUniform)
	if r[3].Count != 1 || r[3].Lo != 0.3 || r[3].Hi != 0.4 {
		t.Errorf("Reliability puts 0.3 in %+v", r)
	}
	for m := 1; m <= 100; m++ {
		if got := calibUniformBin(1, m); got != m-1 {
			t.Errorf("M=%d: 1.0 in bin %d, want %d", m, got, m-1)
		}
		if got := calibUniformBin(0, m); got != 0 {
			t.Errorf("M=%d: 0 in bin %d, want 0", m, got)
		}
		for k := 1; k < m; k++ {
			e := float64(k) / float64(m)
			if got := calibUniformBin(e, m); got != k {
				t.Errorf("M=%d: edge %v in bin %d, want %d", m, e, got, k)
			}
			if got := calibUniformBin(math.Nextafter(e, 0), m); got != k-1 {
				t.Errorf("M=%d: just below edge %v in bin %d, want %d", m, e, got, k-1)
			}
		}
	}
	// Hand value: p = 0.3 (y = 1) and p = 0.35 (y = 0) share bin 3 of 10:
	// mean p 0.325, frequency 0.5, ECE = |0.5 − 0.325| = 0.175.
	if got := ECE([]bool{true, false}, []float64{0.3, 0.35}, 10); math.Abs(got-0.175) > 1e-12 {
		t.Errorf("ECE = %v, want 0.175", got)
	}
}

// TestECEEqualMassOrderFree checks that equal-mass ECE depends only on the
// multiset of (y, p) pairs, ties included, and that the quantile bins have
// sizes differing by at most one, larger first.
func TestECEEqualMassOrderFree(t *testing.T) {
	for seed := range uint64(20) {
		n := 7 + int(seed)*13
		y, p := clfRandom(seed, n, 0.3, 4) // heavy ties
		want := ECEEqualMass(y, p, 10)
		perm := rand.New(rand.NewPCG(seed, 3)).Perm(n)
		yp, pp := make([]bool, n), make([]float64, n)
		for i, j := range perm {
			yp[i], pp[i] = y[j], p[j]
		}
		if got := ECEEqualMass(yp, pp, 10); got != want {
			t.Errorf("seed %d: permuted ECEEqualMass = %v, want %v", seed, got, want)
		}
		bins := Reliability(y, p, 10, CalibQuantile)
		for k, b := range bins {
			size := n / 10
			if k < n%10 {
				size++
			}
			if b.Count != size {
				t.Errorf("seed %d: quantile bin %d holds %d rows, want %d", seed, k, b.Count, size)
			}
		}
	}
}

// TestCalibEdgeCases checks undefined values and hand calculations.
func TestCalibEdgeCases(t *testing.T) {
	for name, v := range map[string]float64{
		"ECE(empty)":          ECE(nil, nil, 10),
		"ECEEqualMass(empty)": ECEEqualMass(nil, nil, 10),
		"Brier(empty)":        Brier(nil, nil),
	} {
		if !math.IsNaN(v) {
			t.Errorf("%s = %v, want NaN", name, v)
		}
	}
	// Perfectly separated logits: intercept defined, slope not.
	a, s := CalibrationFit([]bool{false, false, true, true}, []float64{0.1, 0.2, 0.8, 0.9})
	if math.IsNaN(a) || !math.IsNaN(s) {
		t.Errorf("separated CalibrationFit = (%v, %v), want (finite, NaN)", a, s)
	}
	// One class: both undefined.
	a, s = CalibrationFit([]bool{true, true}, []float64{0.1, 0.9})
	if !math.IsNaN(a) || !math.IsNaN(s) {
		t.Errorf("one-class CalibrationFit = (%v, %v), want NaN", a, s)
	}
	// Calibration-in-the-large by hand: all p = 0.5 (offset 0), 1 positive
	// of 4: a' = logit(1/4) = −ln 3.
	a, _ = CalibrationFit([]bool{true, false, false, false}, []float64{0.5, 0.5, 0.5, 0.5})
	if math.Abs(a+math.Log(3)) > 1e-12 {
		t.Errorf("intercept = %v, want %v", a, -math.Log(3))
	}
	// Spiegelhalter undefined when every p is 0, ½ or 1.
	if z, pv := SpiegelhalterZ([]bool{true, false}, []float64{0.5, 1}); !math.IsNaN(z) || !math.IsNaN(pv) {
		t.Errorf("SpiegelhalterZ = (%v, %v), want NaN", z, pv)
	}
	// Wilson by hand, 0 of n: [0, z²/(n+z²)].
	lo, hi := Wilson(0, 20, calibZ95)
	if want := calibZ95 * calibZ95 / (20 + calibZ95*calibZ95); lo != 0 || math.Abs(hi-want) > 1e-15 {
		t.Errorf("Wilson(0, 20) = (%v, %v), want (0, %v)", lo, hi, want)
	}
	if lo, hi := Wilson(0, 0, calibZ95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("Wilson(0, 0) = (%v, %v), want NaN", lo, hi)
	}
	// Empty uniform bins keep their edges and have NaN statistics.
	r := Reliability([]bool{true}, []float64{0.95}, 4, CalibUniform)
	if len(r) != 4 || r[0].Count != 0 || !math.IsNaN(r[0].MeanP) || !math.IsNaN(r[0].WilsonLo) || r[0].Hi != 0.25 || r[3].Count != 1 {
		t.Errorf("Reliability = %+v", r)
	}
	for name, f := range map[string]func(){
		"bins":     func() { ECE([]bool{true}, []float64{0.5}, 0) },
		"nan":      func() { ECE([]bool{true}, []float64{math.NaN()}, 10) },
		"strategy": func() { Reliability([]bool{true}, []float64{0.5}, 10, "kmeans") },
		"wilson":   func() { Wilson(3, 2, calibZ95) },
		"length":   func() { Brier([]bool{true}, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestCalibrationFitLargeN checks the fit where the summed log-likelihood
// is too noisy to confirm the last Newton steps (n = 100,000 with ties):
// it must converge, and doubling every row must not move the estimates
// (the maximum-likelihood estimate of duplicated data is the same). On
// 1,000,000 rows of this generator the fit was checked once against
// scikit-learn's LogisticRegression(penalty=None) and scipy's brentq to
// 1e-14; those rows are too many to commit.
func TestCalibrationFitLargeN(t *testing.T) {
	const tol = 1e-10
	y, p := clfRandom(1, 50_000, 0.0934, 1000)
	a1, s1 := CalibrationFit(y, p)
	a2, s2 := CalibrationFit(append(y, y...), append(p, p...))
	if math.IsNaN(a1) || math.IsNaN(s1) || math.Abs(a1-a2) > tol || math.Abs(s1-s2) > tol {
		t.Errorf("CalibrationFit n and 2n: (%v, %v) and (%v, %v)", a1, s1, a2, s2)
	}
}
