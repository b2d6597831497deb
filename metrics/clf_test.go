package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestClfReference checks AUROC, AveragePrecision, ROC, PR, TPRAtFPR and
// the confusion-matrix rates against scikit-learn 1.2.1
// (testdata/clf_gen_reference.py) on every reference case: a published
// checksum example (AUROC 1), ties across classes, all scores tied, one class
// only, p exactly 0 and 1, and deterministic random samples of 200 and
// 2,000 rows with ties.
func TestClfReference(t *testing.T) {
	const tol = 1e-12
	for _, c := range clfRef(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			y := c.labels()
			if got := AUROC(y, c.P); !clfSame(got, float64(c.AUROC), tol) {
				t.Errorf("AUROC = %v, want %v", got, float64(c.AUROC))
			}
			if got := AveragePrecision(y, c.P); !clfSame(got, float64(c.AP), tol) {
				t.Errorf("AveragePrecision = %v, want %v", got, float64(c.AP))
			}
			roc := ROC(y, c.P)
			clfCheckSlice(t, "ROC.FPR", roc.FPR, c.ROC.FPR, tol)
			clfCheckSlice(t, "ROC.TPR", roc.TPR, c.ROC.TPR, tol)
			clfCheckSlice(t, "ROC.Thresholds", roc.Thresholds, c.ROC.Thresholds, 0)
			pr := PR(y, c.P)
			clfCheckSlice(t, "PR.Precision", pr.Precision, c.PR.Precision, tol)
			clfCheckSlice(t, "PR.Recall", pr.Recall, c.PR.Recall, tol)
			clfCheckSlice(t, "PR.Thresholds", pr.Thresholds, c.PR.Thresholds, 0)
			for _, w := range c.TPRAtFPR {
				tpr, fpr, thr := TPRAtFPR(roc, float64(w.Target))
				if !clfSame(tpr, float64(w.TPR), tol) || !clfSame(fpr, float64(w.FPR), tol) || !clfSame(thr, float64(w.Threshold), 0) {
					t.Errorf("TPRAtFPR(%v) = (%v, %v, %v), want (%v, %v, %v)", float64(w.Target),
						tpr, fpr, thr, float64(w.TPR), float64(w.FPR), float64(w.Threshold))
				}
			}
			for _, w := range c.Confusion {
				th := float64(w.Threshold)
				m := ConfusionAt(y, c.P, th)
				if want := (Confusion{TP: w.TP, TN: w.TN, FP: w.FP, FN: w.FN}); m != want {
					t.Errorf("ConfusionAt(%v) = %+v, want %+v", th, m, want)
				}
				if m.N() != len(y) {
					t.Errorf("ConfusionAt(%v).N() = %d, want %d", th, m.N(), len(y))
				}
				for _, r := range []struct {
					name      string
					got, want float64
				}{
					{"Sensitivity", m.Sensitivity(), float64(w.Sensitivity)},
					{"Specificity", m.Specificity(), float64(w.Specificity)},
					{"FPR", m.FPR(), float64(w.FPR)},
					{"FNR", m.FNR(), float64(w.FNR)},
					{"Precision", m.Precision(), float64(w.Precision)},
					{"NPV", m.NPV(), float64(w.NPV)},
					{"F1", m.F1(), float64(w.F1)},
					{"MCC", m.MCC(), float64(w.MCC)},
					{"BalancedAccuracy", m.BalancedAccuracy(), float64(w.BalancedAccuracy)},
					{"Accuracy", m.Accuracy(), float64(w.Accuracy)},
				} {
					if !clfSame(r.got, r.want, tol) {
						t.Errorf("at %v: %s = %v, want %v", th, r.name, r.got, r.want)
					}
				}
			}
		})
	}
}

// TestClfAUROCReferenceR checks AUROC against R's pROC 1.18.0 (auc(roc(y,
// p, direction = "<"))), a second implementation (testdata/
// clf_gen_reference_r.R; jsonlite prints 15 significant digits).
func TestClfAUROCReferenceR(t *testing.T) {
	const tol = 1e-13
	cases := clfRef(t).Cases
	r := clfRefR(t)
	if len(r.Cases) != len(cases) {
		t.Fatalf("R reference has %d cases, want %d", len(r.Cases), len(cases))
	}
	for i, w := range r.Cases {
		c := &cases[i]
		if w.Name != c.Name {
			t.Fatalf("R case %d is %q, want %q", i, w.Name, c.Name)
		}
		if got := AUROC(c.labels(), c.P); !clfSame(got, float64(w.AUROC), tol) {
			t.Errorf("%s: AUROC = %v, pROC %v", c.Name, got, float64(w.AUROC))
		}
	}
}

// TestClfHandCases checks values worked out by hand.
func TestClfHandCases(t *testing.T) {
	const tol = 1e-12
	// A published checksum example: y = [1,1,0,0,1], p = [0.9,0.7,0.4,0.2,0.8]; every
	// positive is above every negative.
	y := []bool{true, true, false, false, true}
	p := []float64{0.9, 0.7, 0.4, 0.2, 0.8}
	if got := AUROC(y, p); got != 1 {
		t.Errorf("checksum example AUROC = %v, want 1", got)
	}
	// Ties: positives {0.5, 0.5}, negatives {0.5, 0.1}. Pairs: (0.5,0.5)
	// ties twice (½ each), (0.5,0.1) wins twice: (2·½ + 2) / 4 = 0.75.
	y = []bool{true, true, false, false}
	p = []float64{0.5, 0.5, 0.5, 0.1}
	if got := AUROC(y, p); math.Abs(got-0.75) > tol {
		t.Errorf("tied AUROC = %v, want 0.75", got)
	}
	// AP of the same: one distinct threshold 0.5 reaches recall 1 with
	// precision 2/3; AP = 1 · 2/3.
	if got := AveragePrecision(y, p); math.Abs(got-2.0/3) > tol {
		t.Errorf("tied AP = %v, want 2/3", got)
	}
	// -0 and +0 are one score, reported as +0.
	c := ROC([]bool{true, false}, []float64{math.Copysign(0, -1), 0})
	if len(c.Thresholds) != 2 || math.Signbit(c.Thresholds[1]) {
		t.Errorf("ROC with ±0 thresholds = %v, want [+Inf 0]", c.Thresholds)
	}
	// Empty input: undefined everything, one ROC point.
	if got := AUROC(nil, nil); !math.IsNaN(got) {
		t.Errorf("AUROC(empty) = %v, want NaN", got)
	}
	if got := AveragePrecision(nil, nil); !math.IsNaN(got) {
		t.Errorf("AveragePrecision(empty) = %v, want NaN", got)
	}
	if c := ROC(nil, nil); len(c.FPR) != 1 || !math.IsNaN(c.FPR[0]) || !math.IsInf(c.Thresholds[0], 1) {
		t.Errorf("ROC(empty) = %+v", c)
	}
	if c := PR(nil, nil); len(c.Thresholds) != 0 || !slices.Equal(c.Recall, []float64{0}) || !slices.Equal(c.Precision, []float64{1}) {
		t.Errorf("PR(empty) = %+v", c)
	}
}

// TestConfusionUndefined checks that 0/0 rates are NaN, never 0, and the
// F1 convention 2TP/(2TP+FP+FN).
func TestConfusionUndefined(t *testing.T) {
	const tol = 1e-12
	nan := math.NaN()
	tests := []struct {
		c                                        Confusion
		sens, spec, prec, npv, f1, mcc, bal, acc float64
	}{
		// Nothing predicted positive, no positive row: precision 0/0,
		// sensitivity 0/0, F1 0/0, MCC undefined.
		{Confusion{TN: 5}, nan, 1, nan, 1, nan, nan, nan, 1},
		// Nothing predicted positive, positives present: F1 = 0/(0+0+3) = 0.
		{Confusion{TN: 5, FN: 3}, 0, 1, nan, 5.0 / 8, 0, nan, 0.5, 5.0 / 8},
		// Everything predicted positive.
		{Confusion{TP: 2, FP: 6}, 1, 0, 0.25, nan, 4.0 / 10, nan, 0.5, 0.25},
		// Empty matrix.
		{Confusion{}, nan, nan, nan, nan, nan, nan, nan, nan},
		// A full matrix: MCC = (3·4 − 1·2)/√(4·5·5·6) = 10/√600.
		{Confusion{TP: 3, TN: 4, FP: 1, FN: 2}, 0.6, 0.8, 0.75, 4.0 / 6, 6.0 / 9, 10 / math.Sqrt(600), 0.7, 0.7},
	}
	for _, tt := range tests {
		c := tt.c
		for _, r := range []struct {
			name      string
			got, want float64
		}{
			{"Sensitivity", c.Sensitivity(), tt.sens},
			{"Specificity", c.Specificity(), tt.spec},
			{"Precision", c.Precision(), tt.prec},
			{"NPV", c.NPV(), tt.npv},
			{"F1", c.F1(), tt.f1},
			{"MCC", c.MCC(), tt.mcc},
			{"BalancedAccuracy", c.BalancedAccuracy(), tt.bal},
			{"Accuracy", c.Accuracy(), tt.acc},
		} {
			if !clfSame(r.got, r.want, tol) {
				t.Errorf("%+v.%s() = %v, want %v", c, r.name, r.got, r.want)
			}
		}
	}
	sum := Confusion{1, 2, 3, 4}.Add(Confusion{10, 20, 30, 40})
	if sum != (Confusion{11, 22, 33, 44}) || sum.N() != 110 {
		t.Errorf("Add = %+v", sum)
	}
}

// clfRandom returns n labels with prevalence prev and scores drawn from
// levels distinct values (levels 0: continuous), from a seeded PCG stream.
func clfRandom(seed uint64, n int, prev float64, levels int) ([]bool, []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	y := make([]bool, n)
	p := make([]float64, n)
	for i := range y {
		y[i] = rng.Float64() < prev
		v := rng.Float64()
		if y[i] {
			v = math.Sqrt(v) // positives lean high
		}
		if levels > 0 {
			v = math.Floor(v*float64(levels)) / float64(levels)
		}
		p[i] = v
	}
	return y, p
}

// clfPairAUROC is the O(n²) definition of AUROC: wins plus half ties over
// all positive-negative pairs.
func clfPairAUROC(y []bool, p []float64) float64 {
	var twice, pairs int
	for i := range y {
		if !y[i] {
			continue
		}
		for j := range y {
			if y[j] {
				continue
			}
			pairs++
			switch {
			case p[i] > p[j]:
				twice += 2
			case p[i] == p[j]:
				twice++
			}
		}
	}
	if pairs == 0 {
		return math.NaN()
	}
	return float64(twice) / float64(2*pairs)
}

// TestAUROCPairCount checks AUROC against the O(n²) pair count, exactly
// (both are the correctly rounded ratio of the same integers), and the
// symmetries AUROC(−p) = 1 − AUROC(p), invariance under row permutation and
// under a strictly increasing transform, and that the trapezoidal area
// under ROC equals AUROC.
func TestAUROCPairCount(t *testing.T) {
	const tol = 1e-12
	for seed := range uint64(40) {
		n := 1 + int(seed*7%97)
		levels := []int{0, 2, 5, 20}[seed%4]
		y, p := clfRandom(seed, n, 0.3, levels)
		got, want := AUROC(y, p), clfPairAUROC(y, p)
		if !clfSame(got, want, 0) {
			t.Fatalf("seed %d: AUROC = %v, pair count %v", seed, got, want)
		}
		if math.IsNaN(want) {
			continue
		}
		neg := make([]float64, n)
		for i, v := range p {
			neg[i] = -v
		}
		if r := AUROC(y, neg); math.Abs(r-(1-got)) > tol {
			t.Errorf("seed %d: AUROC(-p) = %v, want %v", seed, r, 1-got)
		}
		exp := make([]float64, n)
		for i, v := range p {
			exp[i] = math.Exp(3 * v)
		}
		if r := AUROC(y, exp); r != got {
			t.Errorf("seed %d: AUROC(exp p) = %v, want %v", seed, r, got)
		}
		perm := rand.New(rand.NewPCG(seed, 1)).Perm(n)
		yp, pp := make([]bool, n), make([]float64, n)
		for i, j := range perm {
			yp[i], pp[i] = y[j], p[j]
		}
		if r := AUROC(yp, pp); r != got {
			t.Errorf("seed %d: AUROC(permuted) = %v, want %v", seed, r, got)
		}
		c := ROC(y, p)
		area := 0.0
		for i := 1; i < len(c.FPR); i++ {
			area += (c.FPR[i] - c.FPR[i-1]) * (c.TPR[i] + c.TPR[i-1]) / 2
		}
		if math.Abs(area-got) > tol {
			t.Errorf("seed %d: trapezoid area of ROC = %v, AUROC %v", seed, area, got)
		}
	}
}

// TestAveragePrecisionDistinct checks AP against its textbook form for
// distinct scores: the mean over positives of the precision at the
// positive's rank.
func TestAveragePrecisionDistinct(t *testing.T) {
	const tol = 1e-12
	for seed := range uint64(20) {
		y, p := clfRandom(seed, 60, 0.25, 0)
		idx := make([]int, len(p))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case p[a] > p[b]:
				return -1
			case p[a] < p[b]:
				return 1
			}
			return 0
		})
		hits, sum := 0, 0.0
		for r, i := range idx {
			if y[i] {
				hits++
				sum += float64(hits) / float64(r+1)
			}
		}
		want := sum / float64(hits)
		if got := AveragePrecision(y, p); math.Abs(got-want) > tol {
			t.Errorf("seed %d: AP = %v, want %v", seed, got, want)
		}
	}
}

// TestTPRAtFPRProperties checks that the in-sample point agrees with
// ChooseFPRThreshold fitted on the same rows (same TPR; same threshold
// whenever that TPR is positive), that its FPR respects the target and
// that a larger target never lowers the TPR.
func TestTPRAtFPRProperties(t *testing.T) {
	for seed := range uint64(30) {
		y, p := clfRandom(seed, 150, 0.2, int(seed%3)*10)
		c := ROC(y, p)
		prev := -1.0
		for _, target := range []float64{0, 0.01, 0.03, 0.05, 0.1, 0.3, 1} {
			tpr, fpr, thr := TPRAtFPR(c, target)
			if math.IsNaN(tpr) || fpr > target {
				t.Fatalf("seed %d target %v: (%v, %v, %v)", seed, target, tpr, fpr, thr)
			}
			if tpr < prev {
				t.Errorf("seed %d: TPR fell from %v to %v at target %v", seed, prev, tpr, target)
			}
			prev = tpr
			got, ok := ChooseFPRThreshold(y, p, target)
			m := ConfusionAt(y, p, got)
			if m.Sensitivity() != tpr {
				t.Errorf("seed %d target %v: chooser TPR %v (t=%v ok=%v), curve TPR %v", seed, target, m.Sensitivity(), got, ok, tpr)
			}
			if tpr > 0 && got != thr {
				t.Errorf("seed %d target %v: chooser threshold %v, curve threshold %v", seed, target, got, thr)
			}
		}
	}
}

// TestClfPanics checks the programmer errors.
func TestClfPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"length": func() { AUROC([]bool{true}, []float64{0.1, 0.2}) },
		"nan":    func() { AUROC([]bool{true, false}, []float64{math.NaN(), 0.2}) },
		"curve":  func() { TPRAtFPR(ROCCurve{FPR: []float64{0}}, 0.1) },
		"conf":   func() { ConfusionAt([]bool{true}, nil, 0.5) },
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
