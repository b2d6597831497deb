package stats

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// A Grouped sample loaded with group multiplicities must give exactly the
// numbers of the item sample loaded with the expanded item weights, tied
// scores or not, and RunCounts / JackknifeCounts exactly those of
// RunWorkers / Jackknife.
func TestGroupedMatchesItemWeights(t *testing.T) {
	for _, decimals := range []float64{0, 1, 2, -1, -2} { // 0: distinct scores; -1: all tied; -2: one class
		y, p, _, group, ng := benchData(2000)
		switch decimals {
		case -1:
			for i := range p {
				p[i] = 0.5
			}
		case -2:
			for i := range y {
				y[i] = false
			}
		}
		if decimals > 0 {
			s := math.Pow(10, decimals)
			for i := range p {
				p[i] = math.Round(p[i]*s) / s
			}
		}
		s := NewScored(y, p)
		gs := s.Grouped(group, ng)
		grid := fprGrid(21)
		stat := func(e *Eval, out []float64) {
			out[0], out[1] = e.AUROC(), e.AP()
			e.TPRAtGrid(grid, out[2:23])
			e.PrecisionAtRecallGrid(grid, out[23:44])
			e.TPRAtFPR([]float64{0, 0.01, 0.05, 0.1, 0.5, 1}, out[44:50])
		}
		plan := Plan{Group: group, NGroups: ng, B: 200, Seed: 7}
		want := RunWorkers(plan, 50, func() func(int, []int32, []float64) {
			e := s.NewEval()
			return func(_ int, w []int32, out []float64) { e.Load(w); stat(e, out) }
		})
		got := RunCounts(plan, 50, func() func(int, []int32, []float64) {
			e := gs.NewEval()
			return func(_ int, c []int32, out []float64) { e.Load(c); stat(e, out) }
		})
		wantJ := plan.Jackknife(50, func(_ int, w []int32, out []float64) { e := s.NewEval(); e.Load(w); stat(e, out) })
		gotJ := plan.JackknifeCounts(50, func(_ int, c []int32, out []float64) { e := gs.NewEval(); e.Load(c); stat(e, out) })
		for _, pair := range [][2]*Replicates{{want, got}, {wantJ, gotJ}} {
			a, b := pair[0], pair[1]
			for r := range a.B {
				for j := range a.NStat {
					x, z := a.At(r, j), b.At(r, j)
					if x != z && !(math.IsNaN(x) && math.IsNaN(z)) {
						t.Fatalf("decimals %v: row %d stat %d: grouped %v, item weights %v", decimals, r, j, z, x)
					}
				}
			}
		}
		// Load(nil) is the full sample in both forms.
		e1, e2 := s.NewEval(), gs.NewEval()
		e1.Load(nil)
		e2.Load(nil)
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !same(e1.AUROC(), e2.AUROC()) || !same(e1.AP(), e2.AP()) {
			t.Errorf("decimals %v: full sample differs: %v %v vs %v %v", decimals, e1.AUROC(), e1.AP(), e2.AUROC(), e2.AP())
		}
	}
}

func TestGroupedPanics(t *testing.T) {
	s := NewScored([]bool{true, false}, []float64{0.9, 0.1})
	for name, f := range map[string]func(){
		"length":      func() { s.Grouped([]int32{0}, 1) },
		"range":       func() { s.Grouped([]int32{0, 2}, 2) },
		"load length": func() { s.Grouped([]int32{0, 1}, 2).NewEval().Load([]int32{1, 1, 1}) },
		"confusion":   func() { e := s.Grouped([]int32{0, 1}, 2).NewEval(); e.Load(nil); e.Confusion(0.5) },
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

// tiedData is benchData with probabilities rounded to 4 decimals, as the
// demo's ne_prob column: about a third of the items end a tie group.
func tiedData(n int) (y []bool, p []float64, group []int32, nGroups int) {
	y, p, _, group, nGroups = benchData(n)
	for i := range p {
		p[i] = math.Round(p[i]*1e4) / 1e4
	}
	return y, p, group, nGroups
}

// BenchmarkLoad measures one weighted pass (Eval.Load) per op, by item
// weights and by group multiplicities, on samples graded by size. Each op
// takes the next of 16 replicates' weights, as the bootstrap does: with
// one set of weights loaded again and again, the branch predictor learns
// it and hides the cost of the branches that depend on the weights.
func BenchmarkLoad(b *testing.B) {
	const nRep = 16
	for _, n := range []int{1_000, 14_770, 1_000_000} {
		y, p, group, ng := tiedData(n)
		s := NewScored(y, p)
		r := rand.New(rand.NewPCG(3, 4))
		c := make([][]int32, nRep)
		w := make([][]int32, nRep)
		for k := range c {
			c[k] = make([]int32, ng)
			for range ng {
				c[k][r.IntN(ng)]++
			}
			w[k] = make([]int32, n)
			expand(group, c[k], w[k])
		}
		b.Run("items/n="+itoa(n), func(b *testing.B) {
			e := s.NewEval()
			k := 0
			for b.Loop() {
				e.Load(w[k%nRep])
				k++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
		})
		b.Run("groups/n="+itoa(n), func(b *testing.B) {
			e := s.Grouped(group, ng).NewEval()
			k := 0
			for b.Loop() {
				e.Load(c[k%nRep])
				k++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
		})
		// Scores of two decimals: many tie groups mix classes.
		p2 := make([]float64, n)
		for i := range p {
			p2[i] = math.Round(p[i]*100) / 100
		}
		b.Run("groups_2dp/n="+itoa(n), func(b *testing.B) {
			e := NewScored(y, p2).Grouped(group, ng).NewEval()
			k := 0
			for b.Loop() {
				e.Load(c[k%nRep])
				k++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/item")
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
