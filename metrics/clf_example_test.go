package metrics_test

import (
	"fmt"

	"paperbundle/metrics"
)

// A published verification example: every positive outscores every
// negative.
func ExampleAUROC() {
	y := []bool{true, true, false, false, true}
	p := []float64{0.9, 0.7, 0.4, 0.2, 0.8}
	fmt.Println(metrics.AUROC(y, p))
	fmt.Println(metrics.AUROC([]bool{true, true}, []float64{0.1, 0.2})) // one class
	// Output:
	// 1
	// NaN
}

// The FPR-budget operating point is chosen on tune rows only and then
// applied to eval rows.
func ExampleChooseFPRThreshold() {
	tuneY := []bool{true, true, false, true, false, false, false, false, false, false}
	tuneP := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05}
	t, ok := metrics.ChooseFPRThreshold(tuneY, tuneP, 0.15)
	fmt.Println(t, ok)

	evalY := []bool{true, false, true, false}
	evalP := []float64{0.65, 0.62, 0.3, 0.1}
	c := metrics.ConfusionAt(evalY, evalP, t)
	fmt.Printf("%+v TPR=%.2f FPR=%.2f\n", c, c.Sensitivity(), c.FPR())
	// Output:
	// 0.6 true
	// {TP:1 TN:1 FP:1 FN:1} TPR=0.50 FPR=0.50
}

// Equal-width bins with edges k/M: p = 0.3 falls in [0.3, 0.4), the fourth of ten bins.
func ExampleReliability() {
	bins := metrics.Reliability([]bool{true, false}, []float64{0.3, 0.35}, 10, metrics.CalibUniform)
	b := bins[3]
	fmt.Printf("[%g, %g) n=%d mean p=%.3f observed=%.2f\n", b.Lo, b.Hi, b.Count, b.MeanP, b.ObsFreq)
	fmt.Printf("ECE=%.3f\n", metrics.ECE([]bool{true, false}, []float64{0.3, 0.35}, 10))
	// Output:
	// [0.3, 0.4) n=2 mean p=0.325 observed=0.50
	// ECE=0.175
}
