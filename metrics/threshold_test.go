package metrics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestThresholdReference checks the three choosers against a brute-force
// evaluation of their definitions in testdata/clf_gen_reference.py (every
// observed score tried as a threshold, rates counted with numpy), on every
// reference case, for FPR budgets 0..1, screening sensitivities 0.5..1.01
// and alert precisions 0..1 above several tau_neg.
func TestThresholdReference(t *testing.T) {
	for _, c := range clfRef(t).Cases {
		t.Run(c.Name, func(t *testing.T) {
			y := c.labels()
			for _, w := range c.FPRThreshold {
				got, ok := ChooseFPRThreshold(y, c.P, float64(w.Budget))
				if got != float64(w.Threshold) || ok != w.OK {
					t.Errorf("ChooseFPRThreshold(budget %v) = (%v, %v), want (%v, %v)",
						float64(w.Budget), got, ok, float64(w.Threshold), w.OK)
				}
			}
			for _, w := range c.ScreenThreshold {
				got, ok := ChooseScreenThreshold(y, c.P, float64(w.MinSensitivity))
				if got != float64(w.Threshold) || ok != w.OK {
					t.Errorf("ChooseScreenThreshold(%v) = (%v, %v), want (%v, %v)",
						float64(w.MinSensitivity), got, ok, float64(w.Threshold), w.OK)
				}
			}
			if len(c.AlertThreshold) == 0 {
				t.Fatal("no alert cases")
			}
			for _, w := range c.AlertThreshold {
				got, ok := ChooseAlertThreshold(y, c.P, float64(w.TauNeg), float64(w.MinPrecision))
				if got != float64(w.Threshold) || ok != w.OK {
					t.Errorf("ChooseAlertThreshold(tauNeg %v, %v) = (%v, %v), want (%v, %v)",
						float64(w.TauNeg), float64(w.MinPrecision), got, ok, float64(w.Threshold), w.OK)
				}
			}
		})
	}
}

// TestThresholdHandCases checks the choosers on small tune sets worked out
// by hand.
func TestThresholdHandCases(t *testing.T) {
	inf := math.Inf(1)
	// Ten rows, scores descending; labels 1 1 0 1 0 0 0 0 0 0 (3 positives,
	// 7 negatives). Walking down: t=0.9 (TP 1, FP 0), 0.8 (2, 0),
	// 0.7 (2, 1: FPR 1/7 ≈ 0.143), 0.6 (3, 1), 0.5 (3, 2: FPR 0.286) ...
	y := []bool{true, true, false, true, false, false, false, false, false, false}
	p := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05}
	// Equal TPR, highest threshold: y = 1 0 0 1 at 0.9 0.8 0.7 0.2.
	yTie := []bool{true, false, false, true}
	pTie := []float64{0.9, 0.8, 0.7, 0.2}
	// 100 negatives, 5 of them above every positive: FPR exactly 5/100.
	yExact := make([]bool, 110)
	pExact := make([]float64, 110)
	for i := range yExact {
		switch {
		case i < 5: // negatives on top
			pExact[i] = 0.99
		case i < 15: // positives
			yExact[i] = true
			pExact[i] = 0.9
		default:
			pExact[i] = 0.1
		}
	}
	fpr := []struct {
		name   string
		y      []bool
		p      []float64
		budget float64
		want   float64
		ok     bool
	}{
		{"budget 0: best TP with no FP", y, p, 0, 0.8, true},
		{"budget 0.15: TP 3 at FPR 1/7", y, p, 0.15, 0.6, true},
		{"budget 1: everything", y, p, 1, 0.6, true}, // TPR 1 first reached at 0.6
		{"ties in TPR keep the highest", yTie, pTie, 0.5, 0.9, true},
		{"ties in TPR, full budget", yTie, pTie, 1, 0.2, true},
		{"FPR exactly at budget", yExact, pExact, 0.05, 0.9, true},
		{"FPR just above budget", yExact, pExact, 0.049, inf, false},
		{"no negatives", []bool{true, true}, []float64{0.3, 0.6}, 0.1, inf, false},
		{"no positives", []bool{false, false}, []float64{0.3, 0.6}, 0.1, inf, false},
		{"empty", nil, nil, 0.1, inf, false},
		{"NaN budget", y, p, math.NaN(), inf, false},
	}
	for _, tt := range fpr {
		if got, ok := ChooseFPRThreshold(tt.y, tt.p, tt.budget); got != tt.want || ok != tt.ok {
			t.Errorf("ChooseFPRThreshold %s = (%v, %v), want (%v, %v)", tt.name, got, ok, tt.want, tt.ok)
		}
	}

	// Screening: positives at 0.9, 0.8, 0.6; sensitivity 1/3 at 0.9, 2/3
	// at 0.8 and 0.7, 1 at 0.6 and below.
	screen := []struct {
		min  float64
		want float64
		ok   bool
	}{
		{0, 0.9, true},
		{1.0 / 3, 0.9, true},
		{0.5, 0.8, true},
		{2.0 / 3, 0.8, true},
		{0.995, 0.6, true},
		{1, 0.6, true},
		{1.01, math.Inf(-1), false},
	}
	for _, tt := range screen {
		if got, ok := ChooseScreenThreshold(y, p, tt.min); got != tt.want || ok != tt.ok {
			t.Errorf("ChooseScreenThreshold(%v) = (%v, %v), want (%v, %v)", tt.min, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := ChooseScreenThreshold([]bool{false, false}, []float64{0.2, 0.4}, 0.9); !math.IsInf(got, -1) || ok {
		t.Errorf("ChooseScreenThreshold(no positives) = (%v, %v), want (-Inf, false)", got, ok)
	}

	// Alert: precision at 0.9 = 1, 0.8 = 1, 0.7 = 2/3, 0.6 = 3/4,
	// 0.5 = 3/5, 0.4 = 1/2, ... 0.05 = 3/10.
	alert := []struct {
		tauNeg, min float64
		want        float64
		ok          bool
	}{
		{0, 1, 0.8, true},      // smallest with precision 1
		{0, 0.75, 0.6, true},   // 0.6 qualifies although 0.7 does not
		{0, 0.7, 0.6, true},    //
		{0, 0.6, 0.5, true},    // 3/5
		{0.55, 0.6, 0.6, true}, // 0.5 is below tau_neg
		{0, 0.3, 0.05, true},   // the lowest score
		{0.95, 0, inf, false},  // no observed score >= tau_neg
		{0, 1.1, inf, false},   //
	}
	for _, tt := range alert {
		if got, ok := ChooseAlertThreshold(y, p, tt.tauNeg, tt.min); got != tt.want || ok != tt.ok {
			t.Errorf("ChooseAlertThreshold(%v, %v) = (%v, %v), want (%v, %v)", tt.tauNeg, tt.min, got, ok, tt.want, tt.ok)
		}
	}
	if got, ok := ChooseAlertThreshold([]bool{false, false}, []float64{0.2, 0.4}, 0, 0.5); got != inf || ok {
		t.Errorf("ChooseAlertThreshold(no positives) = (%v, %v), want (+Inf, false)", got, ok)
	}
}

// Compile-time proof of the first half of the leakage rule (thresholds are
// chosen on tune rows only, docs/metrics.md "Thresholds"): the choosers accept the
// labels and scores of one set of rows plus scalar targets, and nothing
// else (no fold handle, no dataset, no callback, no options struct that
// could carry eval rows).
var (
	_ func(tuneY []bool, tuneP []float64, budget float64) (float64, bool)               = ChooseFPRThreshold
	_ func(tuneY []bool, tuneP []float64, minSensitivity float64) (float64, bool)       = ChooseScreenThreshold
	_ func(tuneY []bool, tuneP []float64, tauNeg, minPrecision float64) (float64, bool) = ChooseAlertThreshold
)

// TestThresholdsCannotSeeEvalRows demonstrates the leakage guarantee (eval
// labels cannot reach a threshold chooser, docs/metrics.md "Thresholds")
// on one fold stored as a single table, tune rows first and eval rows after
// them in the same backing arrays, the layout in which a careless chooser
// could most easily read eval rows (by re-slicing up to the capacity).
//
// The tune rows are passed as full slice expressions y[:k:k], whose
// capacity ends at the last tune row, so no re-slicing can reach an eval
// row. Then every eval label and score is rewritten in several adversarial
// ways (all positive, all negative, flipped, scores copied from tune rows,
// scores that would move every threshold); the chosen thresholds never
// change. The choosers must also leave their inputs unmodified and give
// the same answer on copies of the tune rows in fresh memory.
func TestThresholdsCannotSeeEvalRows(t *testing.T) {
	const nTune, nEval = 300, 700
	y, p := clfRandom(7, nTune+nEval, 0.15, 50)
	tuneY, tuneP := y[:nTune:nTune], p[:nTune:nTune]
	if cap(tuneY) != nTune || cap(tuneP) != nTune {
		t.Fatal("tune slices reach past the tune rows")
	}

	type chosen struct {
		fpr, neg, pos    float64
		okF, okNeg, okPo bool
	}
	choose := func(ty []bool, tp []float64) chosen {
		var c chosen
		c.fpr, c.okF = ChooseFPRThreshold(ty, tp, 0.05)
		c.neg, c.okNeg = ChooseScreenThreshold(ty, tp, 0.95)
		c.pos, c.okPo = ChooseAlertThreshold(ty, tp, c.neg, 0.22)
		return c
	}
	before := choose(tuneY, tuneP)
	if !before.okF || !before.okNeg || !before.okPo {
		t.Fatalf("fixture should meet every target: %+v", before)
	}
	wantY, wantP := slices.Clone(tuneY), slices.Clone(tuneP)

	rng := rand.New(rand.NewPCG(99, 1))
	scrambles := map[string]func(i int){
		"all positive":     func(i int) { y[i] = true },
		"all negative":     func(i int) { y[i] = false },
		"flipped":          func(i int) { y[i] = !y[i] },
		"scores from tune": func(i int) { p[i] = tuneP[i%nTune]; y[i] = !tuneY[i%nTune] },
		"extreme scores":   func(i int) { p[i] = float64(i % 2); y[i] = i%2 == 0 },
		"random":           func(i int) { p[i] = rng.Float64(); y[i] = rng.IntN(2) == 0 },
	}
	names := make([]string, 0, len(scrambles))
	for name := range scrambles {
		names = append(names, name)
	}
	slices.Sort(names)
	leaky := 0 // scrambles that move the thresholds chosen on all rows
	for _, name := range names {
		for i := nTune; i < nTune+nEval; i++ {
			scrambles[name](i)
		}
		if all := choose(y, p); all != before {
			leaky++
		}
		if got := choose(tuneY, tuneP); got != before {
			t.Errorf("%s: eval rows changed the thresholds: %+v, want %+v", name, got, before)
		}
	}
	// The scrambles are strong enough that a chooser reading eval rows
	// would have been caught.
	if leaky != len(scrambles) {
		t.Errorf("only %d of %d scrambles change thresholds chosen on all rows", leaky, len(scrambles))
	}
	if !slices.Equal(tuneY, wantY) || !slices.Equal(tuneP, wantP) {
		t.Error("a chooser modified its tune rows")
	}
	if got := choose(slices.Clone(tuneY), slices.Clone(tuneP)); got != before {
		t.Errorf("copies of the tune rows gave %+v, want %+v", got, before)
	}
}

// TestThresholdFilesAreStateless checks the source of the choosers and the
// helpers they call: no package-level variables (no state carried from one
// call to the next, e.g. from an eval-time call), and no imports beyond
// math and slices (no unsafe or reflect to reach memory outside the
// arguments, no I/O).
func TestThresholdFilesAreStateless(t *testing.T) {
	allowed := map[string]bool{"math": true, "slices": true}
	fset := token.NewFileSet()
	for _, name := range []string{"threshold.go", "clf.go"} {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[path] {
				t.Errorf("%s imports %q", name, path)
			}
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				t.Errorf("%s: package-level var at %v", name, fset.Position(g.Pos()))
			}
		}
	}
}
