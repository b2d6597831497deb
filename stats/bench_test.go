package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchData returns n queries in posts of 10 with 9.34% positives and a
// calibrated-looking probability (the shape of the demo dataset,
// docs/demo-dataset.md), plus a per-query
// value that is NaN on negatives (a positives_only metric).
func benchData(n int) (y []bool, p, x []float64, group []int32, nGroups int) {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	y = make([]bool, n)
	p = make([]float64, n)
	x = make([]float64, n)
	group = make([]int32, n)
	for i := range n {
		group[i] = int32(i / 10)
		y[i] = r.Float64() < 0.0934
		z := r.NormFloat64() - 2.2
		if y[i] {
			z += 2.5
			x[i] = r.Float64()
		} else {
			x[i] = math.NaN()
		}
		p[i] = 1 / (1 + math.Exp(-z))
	}
	return y, p, x, group, int(group[n-1]) + 1
}

func fprGrid(n int) []float64 {
	g := make([]float64, n)
	for i := range g {
		g[i] = float64(i) / float64(n-1)
	}
	return g
}

// BenchmarkRun_AUROC_14770x10000 is one system's bootstrap at the demo's
// scale (workload (a) of docs/performance.md): 14,770 queries in 1,477 posts, post unit, B = 10,000;
// per replicate AUROC, AP, TPR on a 201-point FPR grid, Brier, ECE (10
// bins) and one grouped weighted mean. One op is the whole Run.
func BenchmarkRun_AUROC_14770x10000(b *testing.B) {
	y, p, x, group, ng := benchData(14770)
	s := NewScored(y, p)
	gm := NewGroupedMean(x, group, ng)
	cal := NewCalibration(y, p, group, ng, 10)
	grid := fprGrid(201)
	plan := Plan{Group: group, NGroups: ng, B: 10000, Seed: 1}
	nStat := 4 + len(grid) + 1
	for b.Loop() {
		RunWorkers(plan, nStat, func() func(int, []int32, []float64) {
			c := s.NewEval()
			return func(_ int, w []int32, out []float64) {
				c.Load(w)
				out[0] = c.AUROC()
				out[1] = c.AP()
				out[2] = cal.Brier(w)
				out[3] = cal.ECE(w)
				c.TPRAtGrid(grid, out[4:4+len(grid)])
				out[nStat-1] = gm.Mean(w)
			}
		})
	}
}

// BenchmarkRun_AUROC_1Mx1000 is the scale of workload (b) of
// docs/performance.md for the AUROC alone:
// 1,000,000 queries in 100,000 posts, post unit, B = 1,000. One op is the
// whole Run.
func BenchmarkRun_AUROC_1Mx1000(b *testing.B) {
	y, p, _, group, ng := benchData(1_000_000)
	s := NewScored(y, p)
	plan := Plan{Group: group, NGroups: ng, B: 1000, Seed: 1}
	for b.Loop() {
		Run(plan, 1, func(_ int, w []int32, out []float64) { out[0] = s.AUROC(w) })
	}
}

// Per-replicate kernel costs, graded by size.

func benchKernels(b *testing.B, n int) {
	y, p, x, group, ng := benchData(n)
	s := NewScored(y, p)
	plan := Plan{Group: group, NGroups: ng, B: 1, Seed: 1}
	w := make([]int32, n)
	plan.Weights(0, w)
	c := s.NewEval()
	c.Load(w)
	grid := fprGrid(201)
	out := make([]float64, len(grid))
	gm := NewGroupedMean(x, group, ng)
	cal := NewCalibration(y, p, group, ng, 10)
	b.Run("Weights", func(b *testing.B) {
		cnt := make([]int32, ng)
		for b.Loop() {
			drawCounts(1, 0, cnt)
			expand(group, cnt, w)
		}
	})
	b.Run("AUROC", func(b *testing.B) {
		for b.Loop() {
			s.AUROC(w)
		}
	})
	b.Run("EvalLoad", func(b *testing.B) {
		for b.Loop() {
			c.Load(w)
		}
	})
	b.Run("EvalLoadTied", func(b *testing.B) {
		// Probabilities rounded to 3 decimals: about 1,000 tie groups.
		pr := make([]float64, len(p))
		for i, v := range p {
			pr[i] = math.Round(v*1000) / 1000
		}
		e := NewScored(y, pr).NewEval()
		for b.Loop() {
			e.Load(w)
		}
	})
	b.Run("EvalAUROC", func(b *testing.B) {
		for b.Loop() {
			c.AUROC()
		}
	})
	b.Run("EvalAP", func(b *testing.B) {
		for b.Loop() {
			c.AP()
		}
	})
	b.Run("EvalTPRAtGrid201", func(b *testing.B) {
		for b.Loop() {
			c.TPRAtGrid(grid, out)
		}
	})
	b.Run("EvalPrecisionAtRecall201", func(b *testing.B) {
		for b.Loop() {
			c.PrecisionAtRecallGrid(grid, out)
		}
	})
	b.Run("Brier", func(b *testing.B) {
		for b.Loop() {
			s.Brier(w)
		}
	})
	b.Run("ECE10", func(b *testing.B) {
		for b.Loop() {
			s.ECE(w, 10)
		}
	})
	b.Run("CalibrationBrier", func(b *testing.B) {
		for b.Loop() {
			cal.Brier(w)
		}
	})
	b.Run("CalibrationECE10", func(b *testing.B) {
		for b.Loop() {
			cal.ECE(w)
		}
	})
	b.Run("WeightedMean", func(b *testing.B) {
		for b.Loop() {
			WeightedMean(x, w)
		}
	})
	b.Run("GroupedMean", func(b *testing.B) {
		for b.Loop() {
			gm.Mean(w)
		}
	})
}

func BenchmarkKernels_1e3(b *testing.B)   { benchKernels(b, 1_000) }
func BenchmarkKernels_14770(b *testing.B) { benchKernels(b, 14_770) }
func BenchmarkKernels_1e6(b *testing.B)   { benchKernels(b, 1_000_000) }

func BenchmarkPermutationTest_1477x10000(b *testing.B) {
	_, _, x, group, ng := benchData(14770)
	a := make([]float64, len(x))
	c := make([]float64, len(x))
	r := rand.New(rand.NewPCG(3, 3))
	for i := range a {
		a[i] = r.Float64()
		c[i] = a[i] - 0.01 + 0.1*r.NormFloat64()
	}
	for b.Loop() {
		PermutationTest(a, c, group, ng, 10000, 1)
	}
}

func BenchmarkDeLongPaired_14770(b *testing.B) {
	y, p, _, _, _ := benchData(14770)
	r := rand.New(rand.NewPCG(4, 4))
	p2 := make([]float64, len(p))
	for i := range p {
		p2[i] = p[i] + 0.05*r.NormFloat64()
	}
	for b.Loop() {
		DeLongPaired(y, p, p2)
	}
}

// BenchmarkCounts_14770 draws the multiplicities of one replicate of
// 14,770 groups (workload (d) draws 2,000 of them).
func BenchmarkCounts_14770(b *testing.B) {
	c := make([]int32, 14770)
	for i := 0; b.Loop(); i++ {
		drawCounts(1, i, c)
	}
}
