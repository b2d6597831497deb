package stats

import (
	"math"
	"testing"
)

// FuzzKernels decodes a sample from bytes (three per item: label and score
// level, weight, score fine bits) and checks the one-pass kernels against
// the plain computations on the expanded rows.
func FuzzKernels(f *testing.F) {
	f.Add([]byte{0x81, 1, 0, 0x02, 2, 0, 0x85, 0, 7, 0x05, 3, 0})
	f.Add([]byte{0x80, 1, 0, 0x00, 1, 0})
	f.Add([]byte{0xff, 3, 0xff, 0x7f, 3, 0xff, 0x40, 1, 0x10, 0xc0, 2, 0x20, 0x10, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		const tol = 1e-12
		n := min(len(data)/3, 64)
		y := make([]bool, n)
		p := make([]float64, n)
		w := make([]int32, n)
		for i := range n {
			a, b, c := data[3*i], data[3*i+1], data[3*i+2]
			y[i] = a&0x80 != 0
			// Coarse levels give ties; the fine bits give distinct scores.
			p[i] = float64(a&0x0f)/15 + float64(c)/(15*256)
			p[i] = math.Min(p[i], 1)
			w[i] = int32(b % 4)
		}
		s := NewScored(y, p)
		ye, pe := expandRows(y, p, w)
		check := func(what string, got, want float64) {
			if !same(got, want, tol) {
				t.Fatalf("%s = %v, want %v\ny=%v\np=%v\nw=%v", what, got, want, y, p, w)
			}
		}
		check("AUROC", s.AUROC(w), plainAUROC(ye, pe))
		check("AP", s.AP(w), plainAP(ye, pe))
		check("Brier", s.Brier(w), plainBrier(ye, pe))
		check("ECE", s.ECE(w, 10), plainECE(ye, pe, 10))
		check("Calibration.ECE", NewCalibration(y, p, nil, 0, 10).ECE(w), plainECE(ye, pe, 10))
		grid := []float64{0, 0.1, 0.25, 1.0 / 3, 0.5, 0.8, 1}
		out := make([]float64, len(grid))
		s.TPRAtGrid(w, grid, out)
		for j, want := range plainTPRAtGrid(ye, pe, grid) {
			check("TPRAtGrid", out[j], want)
		}
		s.PrecisionAtRecallGrid(w, grid, out)
		for j, want := range plainPrecisionAtRecall(ye, pe, grid) {
			check("PrecisionAtRecallGrid", out[j], want)
		}
		s.TPRAtFPR(w, grid, out)
		for j, want := range plainTPRAtFPR(ye, pe, grid) {
			check("TPRAtFPR", out[j], want)
		}
		for _, thr := range []float64{0, 0.5, 1} {
			tp, fp, tn, fn := s.Confusion(w, thr)
			a, b, c, d := plainConfusion(ye, pe, thr)
			if tp != a || fp != b || tn != c || fn != d {
				t.Fatalf("Confusion(%v) = %v %v %v %v, want %v %v %v %v", thr, tp, fp, tn, fn, a, b, c, d)
			}
		}
	})
}
