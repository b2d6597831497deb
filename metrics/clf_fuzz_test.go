package metrics

import (
	"math"
	"testing"
)

// clfFuzzInput turns fuzz bytes into labels (low bit) and scores on a grid
// of 16 values (high bits), so ties are frequent.
func clfFuzzInput(data []byte) ([]bool, []float64) {
	y := make([]bool, len(data))
	p := make([]float64, len(data))
	for i, b := range data {
		y[i] = b&1 == 1
		p[i] = float64(b>>4) / 15
	}
	return y, p
}

// FuzzClassification checks, on arbitrary samples with ties: AUROC equals
// the O(n²) pair count exactly; AP, ECE, Brier lie in [0, 1] or are NaN
// exactly when undefined; the ROC curve is monotone and ends at (1, 1);
// the chosen thresholds meet their targets on the rows they were chosen
// from.
func FuzzClassification(f *testing.F) {
	f.Add([]byte{0x91, 0x70, 0x40, 0x20, 0x81})
	f.Add([]byte{0x51, 0x50, 0x51, 0x50})
	f.Add([]byte{0x01, 0xf0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 400 {
			data = data[:400]
		}
		y, p := clfFuzzInput(data)
		npos := 0
		for _, v := range y {
			if v {
				npos++
			}
		}
		nneg := len(y) - npos
		if got, want := AUROC(y, p), clfPairAUROC(y, p); !clfSame(got, want, 0) {
			t.Fatalf("AUROC = %v, pair count %v", got, want)
		}
		ap := AveragePrecision(y, p)
		if math.IsNaN(ap) != (npos == 0) || ap < 0 || ap > 1+1e-12 {
			t.Fatalf("AveragePrecision = %v with %d positives", ap, npos)
		}
		for _, v := range []float64{ECE(y, p, 10), ECEEqualMass(y, p, 7), Brier(y, p)} {
			if math.IsNaN(v) != (len(y) == 0) || v < 0 || v > 1+1e-12 {
				t.Fatalf("calibration value %v for n = %d", v, len(y))
			}
		}
		c := ROC(y, p)
		if npos > 0 && nneg > 0 {
			for i := 1; i < len(c.FPR); i++ {
				if c.FPR[i] < c.FPR[i-1] || c.TPR[i] < c.TPR[i-1] || c.Thresholds[i] >= c.Thresholds[i-1] {
					t.Fatalf("ROC not monotone at %d: %+v", i, c)
				}
			}
			if last := len(c.FPR) - 1; c.FPR[last] != 1 || c.TPR[last] != 1 {
				t.Fatalf("ROC ends at (%v, %v)", c.FPR[last], c.TPR[last])
			}
		}
		if th, ok := ChooseFPRThreshold(y, p, 0.1); ok {
			if m := ConfusionAt(y, p, th); m.FPR() > 0.1 {
				t.Fatalf("FPR-budget threshold %v has FPR %v", th, m.FPR())
			}
		}
		if th, ok := ChooseScreenThreshold(y, p, 0.9); ok {
			if m := ConfusionAt(y, p, th); m.Sensitivity() < 0.9 {
				t.Fatalf("screen threshold %v has sensitivity %v", th, m.Sensitivity())
			}
			if tp, ok := ChooseAlertThreshold(y, p, th, 0.6); ok {
				if m := ConfusionAt(y, p, tp); tp < th || m.Precision() < 0.6 {
					t.Fatalf("alert threshold %v (tau_neg %v) has precision %v", tp, th, m.Precision())
				}
			}
		}
	})
}
