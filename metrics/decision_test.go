package metrics

import (
	"math"
	"testing"
)

// TestNetBenefitReference checks NetBenefit against the decision-curve
// formulas evaluated with numpy counts in testdata/clf_gen_reference.py, at
// thresholds inside [0, 1) and outside it (NaN).
func TestNetBenefitReference(t *testing.T) {
	const tol = 1e-12
	for _, c := range clfRef(t).Cases {
		model, all := NetBenefit(c.labels(), c.P, c.NetBenefit.Thresholds)
		clfCheckSlice(t, c.Name+" model", model, c.NetBenefit.Model, tol)
		clfCheckSlice(t, c.Name+" treat all", all, c.NetBenefit.TreatAll, tol)
	}
}

// TestNetBenefitHand checks a hand calculation. Rows (y, p): (1, 0.9),
// (0, 0.6), (1, 0.4), (0, 0.1); n = 4. At t = 0.5 (odds 1): TP 1, FP 1,
// NB = 1/4 − 1/4 = 0; treat all = 2/4 − 2/4 = 0. At t = 0.2 (odds 1/4):
// TP 2, FP 1, NB = 2/4 − 1/16 = 0.4375; treat all = 1/2 − 1/8 = 0.375.
// At t = 0 every row is positive, so the model equals treat all (0.5).
func TestNetBenefitHand(t *testing.T) {
	const tol = 1e-12
	y := []bool{true, false, true, false}
	p := []float64{0.9, 0.6, 0.4, 0.1}
	model, all := NetBenefit(y, p, []float64{0.5, 0.2, 0, 1, math.NaN()})
	wantM := []float64{0, 0.4375, 0.5, math.NaN(), math.NaN()}
	wantA := []float64{0, 0.375, 0.5, math.NaN(), math.NaN()}
	for i := range wantM {
		if !clfSame(model[i], wantM[i], tol) || !clfSame(all[i], wantA[i], tol) {
			t.Errorf("threshold %d: (%v, %v), want (%v, %v)", i, model[i], all[i], wantM[i], wantA[i])
		}
	}
	if m, a := NetBenefit(nil, nil, []float64{0.1}); !math.IsNaN(m[0]) || !math.IsNaN(a[0]) {
		t.Errorf("empty: (%v, %v), want NaN", m, a)
	}
}
