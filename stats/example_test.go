package stats_test

import (
	"fmt"

	"paperbundle/stats"
)

// A post-level bootstrap of an AUROC: the queries of a post move together.
func ExampleRun() {
	y := []bool{true, false, false, true, false, true, false, false}
	p := []float64{0.9, 0.3, 0.6, 0.7, 0.2, 0.4, 0.5, 0.1}
	post := []int32{0, 0, 1, 1, 2, 2, 3, 3}
	s := stats.NewScored(y, p)
	plan := stats.Plan{Group: post, NGroups: 4, B: 2000, Seed: 20260118}
	reps := stats.RunWorkers(plan, 1, func() func(int, []int32, []float64) {
		e := s.NewEval() // per-worker scratch
		return func(_ int, w []int32, out []float64) {
			e.Load(w)
			out[0] = e.AUROC()
		}
	})
	iv := stats.Percentile(reps.Column(0), 0.95)
	fmt.Printf("AUROC %.3f\n", s.AUROC(nil))
	fmt.Printf("replicates with one class only: %d of %d\n", iv.Dropped, reps.B)
	// Output:
	// AUROC 0.867
	// replicates with one class only: 8 of 2000
}

// Holm's step-down adjustment of three p-values.
func ExampleHolm() {
	// Sorted: 0.01 (x3), 0.02 (x2), 0.04 (x1) -> 0.03, 0.04, 0.04.
	fmt.Println(stats.Holm([]float64{0.04, 0.01, 0.02}))
	// Output: [0.04 0.03 0.04]
}

// The ROC curve at fixed FPR values, as drawn for a bootstrap band.
func ExampleEval_TPRAtGrid() {
	y := []bool{true, true, false, true, false, false}
	p := []float64{0.9, 0.8, 0.7, 0.6, 0.4, 0.4}
	e := stats.NewScored(y, p).NewEval()
	e.Load(nil) // full sample
	fpr := []float64{0, 0.25, 1.0 / 3, 0.5, 1}
	tpr := make([]float64, len(fpr))
	e.TPRAtGrid(fpr, tpr)
	// Vertices: (0,0) (0,1/3) (0,2/3) (1/3,2/3) (1/3,1) (1,1); at FPR 1/3
	// the larger TPR, 1; at 0.25 between (0, 2/3) and (1/3, 2/3).
	fmt.Printf("%.3f\n", tpr)
	// Output: [0.667 0.667 1.000 1.000 1.000]
}
