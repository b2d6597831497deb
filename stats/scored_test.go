package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Plain reference implementations on explicitly expanded rows: item i
// repeated w[i] times. They sort, count pairs and scan thresholds the
// obvious way, sharing no code with the one-pass kernels.

func expandRows(y []bool, p []float64, w []int32) ([]bool, []float64) {
	var ye []bool
	var pe []float64
	for i := range y {
		for range w[i] {
			ye = append(ye, y[i])
			pe = append(pe, p[i])
		}
	}
	return ye, pe
}

// plainAUROC counts positive-negative pairs, O(n²).
func plainAUROC(y []bool, p []float64) float64 {
	var num2, np, nn int64
	for i := range y {
		if !y[i] {
			nn++
			continue
		}
		np++
		for j := range y {
			if y[j] {
				continue
			}
			switch {
			case p[i] > p[j]:
				num2 += 2
			case p[i] == p[j]:
				num2++
			}
		}
	}
	if np == 0 || nn == 0 {
		return math.NaN()
	}
	return float64(num2) / (2 * float64(np) * float64(nn))
}

type rocPoint struct{ fpr, tpr, prec, rec float64 }

// plainCurve returns the curve points after each distinct threshold
// (scores descending), computed by counting p >= threshold from scratch.
func plainCurve(y []bool, p []float64) (pts []rocPoint, np, nn int) {
	for _, v := range y {
		if v {
			np++
		} else {
			nn++
		}
	}
	th := slices.Clone(p)
	slices.Sort(th)
	th = slices.Compact(th)
	slices.Reverse(th)
	for _, t := range th {
		var tp, fp int
		for i := range y {
			if p[i] >= t {
				if y[i] {
					tp++
				} else {
					fp++
				}
			}
		}
		pts = append(pts, rocPoint{
			fpr:  float64(fp) / float64(nn),
			tpr:  float64(tp) / float64(np),
			prec: float64(tp) / float64(tp+fp),
			rec:  float64(tp) / float64(np),
		})
	}
	return pts, np, nn
}

// plainAP is scikit-learn's Σ (R_k - R_{k-1}) P_k.
func plainAP(y []bool, p []float64) float64 {
	pts, np, _ := plainCurve(y, p)
	if np == 0 {
		return math.NaN()
	}
	var ap, prev float64
	for _, q := range pts {
		ap += (q.rec - prev) * q.prec
		prev = q.rec
	}
	return ap
}

// plainTPRAtGrid: largest TPR among vertices at FPR = g, else linear
// interpolation between the neighbouring vertices.
func plainTPRAtGrid(y []bool, p []float64, grid []float64) []float64 {
	pts, np, nn := plainCurve(y, p)
	out := make([]float64, len(grid))
	if np == 0 || nn == 0 {
		fillNaN(out)
		return out
	}
	pts = append([]rocPoint{{}}, pts...)
	for j, g := range grid {
		best := math.Inf(-1)
		for _, q := range pts {
			if q.fpr == g {
				best = max(best, q.tpr)
			}
		}
		if !math.IsInf(best, -1) {
			out[j] = best
			continue
		}
		var lo, hi rocPoint
		for k := 1; k < len(pts); k++ {
			if pts[k-1].fpr < g && g < pts[k].fpr {
				lo, hi = pts[k-1], pts[k]
			}
		}
		out[j] = lo.tpr + (g-lo.fpr)/(hi.fpr-lo.fpr)*(hi.tpr-lo.tpr)
	}
	return out
}

func plainTPRAtFPR(y []bool, p []float64, budgets []float64) []float64 {
	pts, np, nn := plainCurve(y, p)
	out := make([]float64, len(budgets))
	if np == 0 || nn == 0 {
		fillNaN(out)
		return out
	}
	for j, b := range budgets {
		for _, q := range pts {
			if q.fpr <= b {
				out[j] = max(out[j], q.tpr)
			}
		}
	}
	return out
}

func plainPrecisionAtRecall(y []bool, p []float64, grid []float64) []float64 {
	pts, np, _ := plainCurve(y, p)
	out := make([]float64, len(grid))
	if np == 0 {
		fillNaN(out)
		return out
	}
	for j, r := range grid {
		out[j] = math.Inf(-1)
		for _, q := range pts {
			if q.rec >= r {
				out[j] = max(out[j], q.prec)
			}
		}
	}
	return out
}

func plainConfusion(y []bool, p []float64, thr float64) (tp, fp, tn, fn float64) {
	for i := range y {
		switch pos := p[i] >= thr; {
		case pos && y[i]:
			tp++
		case pos:
			fp++
		case y[i]:
			fn++
		default:
			tn++
		}
	}
	return
}

func plainBrier(y []bool, p []float64) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	var s float64
	for i := range y {
		d := p[i]
		if y[i] {
			d -= 1
		}
		s += d * d
	}
	return s / float64(len(y))
}

// plainECE bins by comparing with the edges k/m directly.
func plainECE(y []bool, p []float64, m int) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	var e float64
	for k := range m {
		lo, hi := float64(k)/float64(m), float64(k+1)/float64(m)
		var n, sy, sp float64
		for i := range y {
			in := p[i] >= lo && p[i] < hi
			if k == m-1 {
				in = p[i] >= lo
			}
			if in {
				n++
				sp += p[i]
				if y[i] {
					sy++
				}
			}
		}
		if n > 0 {
			e += n / float64(len(y)) * math.Abs(sy/n-sp/n)
		}
	}
	return e
}

// randomSample returns n items with scores drawn from `levels` distinct
// values in [0, 1] (many ties), labels with a score-dependent probability,
// and weights in 0..wmax with many zeros.
func randomSample(r *rand.Rand, n, levels, wmax int) ([]bool, []float64, []int32) {
	y := make([]bool, n)
	p := make([]float64, n)
	w := make([]int32, n)
	for i := range n {
		p[i] = float64(r.IntN(levels+1)) / float64(levels)
		y[i] = r.Float64() < 0.2+0.6*p[i]
		w[i] = int32(r.IntN(wmax + 1))
	}
	return y, p, w
}

// TestKernelsExpanded is the central property of the package: every
// weighted one-pass kernel equals the plain computation on the expanded
// resample, over hundreds of random samples and weight vectors.
func TestKernelsExpanded(t *testing.T) {
	const tol = 1e-12
	r := rand.New(rand.NewPCG(1, 2))
	grid := []float64{0, 0.01, 0.05, 0.1, 0.2, 1.0 / 3, 0.5, 0.75, 0.9, 1}
	for trial := range 600 {
		n := 1 + r.IntN(40)
		levels := 1 + r.IntN(12)
		y, p, w := randomSample(r, n, levels, 3)
		if trial%3 == 0 {
			// Distinct scores: the no-ties pass.
			for i := range p {
				p[i] = r.Float64()
			}
		}
		if trial%10 == 0 {
			for i := range w {
				w[i] = 1
			}
		}
		s := NewScored(y, p)
		ye, pe := expandRows(y, p, w)
		check := func(what string, got, want float64) {
			t.Helper()
			if !same(got, want, tol) {
				t.Fatalf("trial %d: %s = %.17g, want %.17g\ny=%v\np=%v\nw=%v", trial, what, got, want, y, p, w)
			}
		}
		if got, want := s.AUROC(w), plainAUROC(ye, pe); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d: AUROC = %.17g, want exactly %.17g", trial, got, want)
		}
		c := s.NewEval()
		c.Load(w)
		check("Eval.AUROC", c.AUROC(), plainAUROC(ye, pe))
		check("AP", s.AP(w), plainAP(ye, pe))
		check("Brier", s.Brier(w), plainBrier(ye, pe))
		// Calibration reads one weight per group: give the items groups
		// of 1-3 consecutive items sharing a weight.
		group := make([]int32, n)
		gw := slices.Clone(w)
		for i := 1; i < n; i++ {
			group[i] = group[i-1]
			if r.IntN(2) == 0 {
				group[i]++
			}
			if group[i] == group[i-1] {
				gw[i] = gw[i-1]
			}
		}
		ng := int(group[n-1]) + 1
		yg, pg := expandRows(y, p, gw)
		for _, m := range []int{1, 3, 10, 40, 70} {
			check("ECE", s.ECE(w, m), plainECE(ye, pe, m))
			cal := NewCalibration(y, p, group, ng, m)
			check("Calibration.ECE", cal.ECE(gw), plainECE(yg, pg, m))
			check("Calibration.Brier", cal.Brier(gw), plainBrier(yg, pg))
			check("Calibration.ECE(query unit)", NewCalibration(y, p, nil, 0, m).ECE(w), plainECE(ye, pe, m))
		}
		for _, thr := range []float64{-1, 0, 0.25, 0.5, 1, 2} {
			tp, fp, tn, fn := s.Confusion(w, thr)
			a, b, cc, d := plainConfusion(ye, pe, thr)
			if tp != a || fp != b || tn != cc || fn != d {
				t.Fatalf("trial %d: Confusion(%v) = %v %v %v %v, want %v %v %v %v", trial, thr, tp, fp, tn, fn, a, b, cc, d)
			}
		}
		out := make([]float64, len(grid))
		c.TPRAtGrid(grid, out)
		for j, want := range plainTPRAtGrid(ye, pe, grid) {
			check("TPRAtGrid", out[j], want)
		}
		c.TPRAtFPR(grid, out)
		for j, want := range plainTPRAtFPR(ye, pe, grid) {
			check("TPRAtFPR", out[j], want)
		}
		c.PrecisionAtRecallGrid(grid, out)
		for j, want := range plainPrecisionAtRecall(ye, pe, grid) {
			check("PrecisionAtRecallGrid", out[j], want)
		}
		// A vertex grid: every FPR the curve visits, where the
		// "largest TPR at equal FPR" rule matters.
		fpr, tpr := c.ROC()
		if fpr != nil {
			vg := slices.Compact(slices.Clone(fpr))
			vout := make([]float64, len(vg))
			c.TPRAtGrid(vg, vout)
			for j, want := range plainTPRAtGrid(ye, pe, vg) {
				check("TPRAtGrid(vertices)", vout[j], want)
			}
			if fpr[0] != 0 || tpr[0] != 0 || fpr[len(fpr)-1] != 1 || tpr[len(tpr)-1] != 1 {
				t.Fatalf("trial %d: ROC ends at (%v,%v) .. (%v,%v)", trial, fpr[0], tpr[0], fpr[len(fpr)-1], tpr[len(tpr)-1])
			}
		}
	}
}

// TestEvalReload checks that an Eval carries nothing over between loads
// and that nil weights are unit weights.
func TestEvalReload(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	y, p, w := randomSample(r, 50, 7, 4)
	s := NewScored(y, p)
	c := s.NewEval()
	c.Load(w)
	c.Load(nil)
	ones := make([]int32, len(y))
	for i := range ones {
		ones[i] = 1
	}
	if got, want := c.AP(), s.AP(ones); got != want {
		t.Errorf("AP after reload = %v, want %v", got, want)
	}
	if got, want := NewCalibration(y, p, nil, 0, 10).ECE(nil), s.ECE(ones, 10); !same(got, want, 1e-12) {
		t.Errorf("Calibration.ECE(nil) = %v, want %v", got, want)
	}
	if got, want := s.AUROC(nil), plainAUROC(y, p); got != want {
		t.Errorf("AUROC(nil) = %v, want %v", got, want)
	}
	if c.Positives()+c.Negatives() != float64(len(y)) {
		t.Errorf("unit weights total %v, want %d", c.Positives()+c.Negatives(), len(y))
	}
}

func TestKernelsUndefined(t *testing.T) {
	y := []bool{true, true, false}
	p := []float64{0.9, 0.4, 0.2}
	s := NewScored(y, p)
	onlyPos := []int32{1, 2, 0}
	onlyNeg := []int32{0, 0, 3}
	zero := []int32{0, 0, 0}
	grid := []float64{0, 0.5, 1}
	out := make([]float64, 3)
	tests := []struct {
		name string
		got  float64
	}{
		{"AUROC one class", s.AUROC(onlyPos)},
		{"AUROC no positive", s.AUROC(onlyNeg)},
		{"AP no positive", s.AP(onlyNeg)},
		{"Brier no weight", s.Brier(zero)},
		{"ECE no weight", s.ECE(zero, 10)},
		{"WeightedMean no weight", WeightedMean([]float64{1, 2, 3}, zero)},
		{"WeightedMean all NaN", WeightedMean([]float64{math.NaN(), math.NaN(), math.NaN()}, onlyPos)},
	}
	for _, tt := range tests {
		if !math.IsNaN(tt.got) {
			t.Errorf("%s = %v, want NaN", tt.name, tt.got)
		}
	}
	s.TPRAtGrid(onlyPos, grid, out)
	for j, v := range out {
		if !math.IsNaN(v) {
			t.Errorf("TPRAtGrid one class [%d] = %v, want NaN", j, v)
		}
	}
	if got := s.AP(onlyPos); got != 1 {
		t.Errorf("AP with positives only = %v, want 1", got)
	}
	// Empty sample.
	e := NewScored(nil, nil)
	if !math.IsNaN(e.AUROC(nil)) || !math.IsNaN(e.AP(nil)) || !math.IsNaN(e.Brier(nil)) {
		t.Error("empty sample: want NaN")
	}
}

// TestBinOf checks the ECE bin edges (docs/metrics.md): p = 0.3 is in [0.3, 0.4), p = 1 in
// the last bin, for values exactly on edges computed as k/m.
func TestBinOf(t *testing.T) {
	tests := []struct {
		p    float64
		m    int
		want int
	}{
		{0, 10, 0}, {0.1, 10, 1}, {0.3, 10, 3}, {0.29999999999999999, 10, 3},
		{math.Nextafter(0.3, 0), 10, 2}, {0.7, 10, 7}, {0.99, 10, 9}, {1, 10, 9},
		{-0.1, 10, 0}, {1.5, 10, 9}, {0.5, 1, 0}, {2.0 / 3, 3, 2}, {1.0 / 3, 3, 1},
	}
	for _, tt := range tests {
		if got := binOf(tt.p, tt.m); got != tt.want {
			t.Errorf("binOf(%v, %d) = %d, want %d", tt.p, tt.m, got, tt.want)
		}
	}
	// Every edge k/m lands in bin k.
	for m := 1; m <= 200; m++ {
		for k := range m {
			if got := binOf(float64(k)/float64(m), m); got != k {
				t.Fatalf("binOf(%d/%d) = %d", k, m, got)
			}
			if k > 0 {
				if got := binOf(math.Nextafter(float64(k)/float64(m), 0), m); got != k-1 {
					t.Fatalf("binOf(%d/%d - ulp) = %d", k, m, got)
				}
			}
		}
	}
}

func TestWeightedMeans(t *testing.T) {
	const tol = 1e-12
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		nGroups := 1 + r.IntN(20)
		n := nGroups + r.IntN(60)
		group := make([]int32, n)
		x := make([]float64, n)
		for i := range n {
			group[i] = int32(i % nGroups) // every group non-empty
			x[i] = r.NormFloat64()
			if r.IntN(4) == 0 {
				x[i] = math.NaN()
			}
		}
		plan := Plan{Group: group, NGroups: nGroups, B: 5, Seed: uint64(trial)}
		gm := NewGroupedMean(x, group, nGroups)
		w := make([]int32, n)
		for b := range plan.B {
			plan.Weights(b, w)
			// Plain mean over the expanded rows.
			var s float64
			var m int
			for i := range x {
				for range w[i] {
					if !math.IsNaN(x[i]) {
						s += x[i]
						m++
					}
				}
			}
			want := s / float64(m)
			if m == 0 {
				want = math.NaN()
			}
			if got := WeightedMean(x, w); !same(got, want, tol) {
				t.Fatalf("trial %d: WeightedMean = %v, want %v", trial, got, want)
			}
			if got := gm.Mean(w); !same(got, want, tol) {
				t.Fatalf("trial %d: GroupedMean = %v, want %v", trial, got, want)
			}
		}
		ones := make([]int32, n)
		for i := range ones {
			ones[i] = 1
		}
		if got, want := gm.Mean(nil), WeightedMean(x, ones); !same(got, want, tol) {
			t.Fatalf("GroupedMean(nil) = %v, want %v", got, want)
		}
	}
}
