package metrics

import (
	"fmt"
	"testing"
)

// clfBenchSizes are the demo-scale population (1,477 posts x 10 criteria)
// and the large run of docs/performance.md (1,000,000 queries).
var clfBenchSizes = []int{14_770, 1_000_000}

// clfBench runs f on continuous scores and on scores rounded to 3 decimals
// (heavy ties) at each size, with the demo's 9.34% prevalence (docs/demo-dataset.md).
func clfBench(b *testing.B, f func(y []bool, p []float64)) {
	for _, n := range clfBenchSizes {
		for _, levels := range []int{0, 1000} {
			y, p := clfRandom(1, n, 0.0934, levels)
			b.Run(fmt.Sprintf("n=%d/levels=%d", n, levels), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					f(y, p)
				}
			})
		}
	}
}

func BenchmarkAUROC(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { AUROC(y, p) })
}

func BenchmarkAveragePrecision(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { AveragePrecision(y, p) })
}

func BenchmarkROC(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { ROC(y, p) })
}

func BenchmarkECE(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { ECE(y, p, 10) })
}

func BenchmarkECEEqualMass(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { ECEEqualMass(y, p, 10) })
}

func BenchmarkCalibrationFit(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { CalibrationFit(y, p) })
}

func BenchmarkChooseFPRThreshold(b *testing.B) {
	clfBench(b, func(y []bool, p []float64) { ChooseFPRThreshold(y, p, 0.05) })
}
