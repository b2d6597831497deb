package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The grid statistics compare integer counts with thresholds instead of
// dividing at every vertex (leastAbove, leastAtLeast, the exact running
// maximum of PrecisionAtRecallGrid). These are the divided forms, a
// division per vertex, that they must match bit for bit.

func dividedFirstFPRAbove(e *Eval, lo int, g, fN float64) int {
	for lo < len(e.cumF) && !(float64(e.cumF[lo])/fN > g) {
		lo++
	}
	return lo
}

func dividedTPRAtGrid(e *Eval, grid, out []float64) {
	if e.pos == 0 || e.neg == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP, fN := float64(e.pos), float64(e.neg)
	for j, g := range grid {
		k := dividedFirstFPRAbove(e, 0, g, fN)
		f0, t0 := 0.0, 0.0
		if k > 0 {
			f0, t0 = float64(e.cumF[k-1])/fN, float64(e.cumT[k-1])/fP
		}
		if k == len(e.cumF) || f0 == g {
			out[j] = t0
			continue
		}
		f1, t1 := float64(e.cumF[k])/fN, float64(e.cumT[k])/fP
		out[j] = t0 + (g-f0)/(f1-f0)*(t1-t0)
	}
}

func dividedTPRAtFPR(e *Eval, budgets, out []float64) {
	if e.pos == 0 || e.neg == 0 {
		fillNaN(out[:len(budgets)])
		return
	}
	fP, fN := float64(e.pos), float64(e.neg)
	for j, b := range budgets {
		k := dividedFirstFPRAbove(e, 0, b, fN)
		out[j] = 0
		if k > 0 {
			out[j] = float64(e.cumT[k-1]) / fP
		}
	}
}

func dividedPrecisionAtRecallGrid(e *Eval, grid, out []float64) {
	if e.pos == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP := float64(e.pos)
	best := math.Inf(-1)
	j := len(grid) - 1
	for k := len(e.cumT) - 1; k >= 0 && j >= 0; k-- {
		t := e.cumT[k]
		var above int32
		if k > 0 {
			above = e.cumT[k-1]
		}
		if t == above {
			continue
		}
		best = max(best, float64(t)/(float64(t)+float64(e.cumF[k])))
		prevR := float64(above) / fP
		for j >= 0 && grid[j] > prevR {
			out[j] = best
			j--
		}
	}
	for ; j >= 0; j-- {
		out[j] = best
	}
}

func TestLeastAbove(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		d := float64(1 + r.IntN(1<<r.IntN(31)))
		var x float64
		switch r.IntN(3) {
		case 0:
			x = r.Float64()
		case 1: // an exact vertex
			x = float64(r.IntN(int(d)+1)) / d
		default:
			x = float64(r.IntN(201)) / 200
		}
		c := leastAbove(x, d)
		if !(float64(c)/d > x) || (c > 0 && float64(c-1)/d > x) {
			t.Fatalf("leastAbove(%v, %v) = %d", x, d, c)
		}
		c = leastAtLeast(x, d)
		if !(float64(c)/d >= x) || (c > 0 && float64(c-1)/d >= x) {
			t.Fatalf("leastAtLeast(%v, %v) = %d", x, d, c)
		}
	}
}

// TestGridStatsMatchDivided loads item and grouped samples, small and tied
// (so grid points fall on vertices) and larger, with bootstrap weights,
// and compares every grid statistic with its divided form bit for bit.
func TestGridStatsMatchDivided(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	grids := [][]float64{fprGrid(201), fprGrid(11), {0, 0.01, 0.05, 0.1, 1.0 / 3, 0.5, 1}, {0.25, 0.25, 0.75}}
	for trial := range 400 {
		n := 2 + r.IntN(60)
		if trial%10 == 0 {
			n = 2000 + r.IntN(3000)
		}
		y, p := make([]bool, n), make([]float64, n)
		group := make([]int32, n)
		ng := 1 + n/(1+r.IntN(5))
		dec := float64(1 + r.IntN(3))
		for i := range n {
			y[i] = r.IntN(4) == 0
			p[i] = math.Round(r.Float64()*math.Pow(10, dec)) / math.Pow(10, dec)
			group[i] = int32(r.IntN(ng))
		}
		s := NewScored(y, p)
		c := make([]int32, ng)
		for range ng {
			c[r.IntN(ng)]++
		}
		w := make([]int32, n)
		expand(group, c, w)
		items, grouped := s.NewEval(), s.Grouped(group, ng).NewEval()
		items.Load(w)
		grouped.Load(c)
		for _, e := range []*Eval{items, grouped} {
			for _, grid := range grids {
				got, want := make([]float64, len(grid)), make([]float64, len(grid))
				check := func(name string) {
					t.Helper()
					for j := range grid {
						if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
							t.Fatalf("trial %d: %s at %v: %v, divided form %v", trial, name, grid[j], got[j], want[j])
						}
					}
				}
				e.TPRAtGrid(grid, got)
				dividedTPRAtGrid(e, grid, want)
				check("TPRAtGrid")
				e.TPRAtFPR(grid, got)
				dividedTPRAtFPR(e, grid, want)
				check("TPRAtFPR")
				e.PrecisionAtRecallGrid(grid, got)
				dividedPrecisionAtRecallGrid(e, grid, want)
				check("PrecisionAtRecallGrid")
			}
		}
	}
}
