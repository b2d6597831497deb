package stats

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWeightsDocumented rebuilds replicate weights from the recipe in
// Plan.Weights' doc comment: rand.New(rand.NewPCG(hi, lo)) with hi, lo the
// SplitMix64 outputs 2b+1 and 2b+2 of Seed, NGroups draws of IntN(NGroups).
func TestWeightsDocumented(t *testing.T) {
	mix := func(z uint64) uint64 { // SplitMix64's finaliser (Steele, Lea, Flood 2014)
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	group := []int32{0, 0, 1, 2, 2, 2, 3, 4, 4, 5}
	plan := Plan{Group: group, NGroups: 6, B: 50, Seed: 20260118}
	got := make([]int32, len(group))
	for b := range plan.B {
		state := plan.Seed
		var words [2]uint64
		for k := range 2*b + 2 {
			state += 0x9e3779b97f4a7c15
			if k >= 2*b {
				words[k-2*b] = mix(state)
			}
		}
		r := rand.New(rand.NewPCG(words[0], words[1]))
		c := make([]int32, plan.NGroups)
		for range plan.NGroups {
			c[r.IntN(plan.NGroups)]++
		}
		plan.Weights(b, got)
		for i, g := range group {
			if got[i] != c[g] {
				t.Fatalf("replicate %d: w = %v, want counts %v expanded", b, got, c)
			}
		}
	}
}

// TestRunWorkers checks that Run passes the weights of Plan.Weights, fills
// row b with replicate b, starts out as NaN, and gives identical results
// for 1 and 4 workers (and for Workers = 0).
func TestRunWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	y, p, _ := randomSample(r, 300, 20, 1)
	group := make([]int32, len(y))
	for i := range group {
		group[i] = int32(i / 7)
	}
	ng := int(group[len(group)-1]) + 1
	s := NewScored(y, p)
	grid := []float64{0, 0.1, 0.5, 1}
	run := func(workers int, g []int32, n int) *Replicates {
		plan := Plan{Group: g, NGroups: n, B: 257, Seed: 99, Workers: workers}
		return RunWorkers(plan, 8, func() func(int, []int32, []float64) {
			c := s.NewEval()
			return func(b int, w []int32, out []float64) {
				c.Load(w)
				out[0] = c.AUROC()
				out[1] = c.AP()
				c.TPRAtGrid(grid, out[2:6])
				out[6] = float64(b)
				// out[7] left untouched: must stay NaN.
			}
		})
	}
	for _, g := range [][]int32{group, nil} {
		n := ng
		if g == nil {
			n = len(y)
		}
		one, four, auto := run(1, g, n), run(4, g, n), run(0, g, n)
		if !slices.EqualFunc(one.data, four.data, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) ||
			!slices.EqualFunc(one.data, auto.data, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Fatal("results differ between worker counts")
		}
		plan := Plan{Group: g, NGroups: n, B: 257, Seed: 99}
		w := make([]int32, plan.NItems())
		for b := range one.B {
			plan.Weights(b, w)
			if one.At(b, 0) != s.AUROC(w) || one.At(b, 6) != float64(b) || !math.IsNaN(one.At(b, 7)) {
				t.Fatalf("row %d = %v", b, one.Row(b))
			}
		}
	}
}

func TestWeightsDistribution(t *testing.T) {
	// Each replicate's multiplicities sum to NGroups; over many replicates
	// each group's mean multiplicity is 1 (binomial(G, 1/G)).
	const G, B = 50, 4000
	plan := Plan{NGroups: G, B: B, Seed: 1}
	var sum [G]float64
	c := make([]int32, G)
	for b := range B {
		plan.Counts(b, c)
		tot := 0
		for g, v := range c {
			tot += int(v)
			sum[g] += float64(v)
		}
		if tot != G {
			t.Fatalf("replicate %d: counts sum to %d", b, tot)
		}
	}
	// Var of a mean of B Binomial(G, 1/G) draws ≈ 1/B: allow 5 sd.
	for g, s := range sum {
		if m := s / B; math.Abs(m-1) > 5/math.Sqrt(B) {
			t.Errorf("group %d: mean multiplicity %v", g, m)
		}
	}
	// Different seeds and replicates give different draws.
	a, b2 := make([]int32, G), make([]int32, G)
	plan.Counts(0, a)
	Plan{NGroups: G, Seed: 2}.Counts(0, b2)
	if slices.Equal(a, b2) {
		t.Error("seeds 1 and 2 give the same replicate")
	}
}

func TestJackknife(t *testing.T) {
	group := []int32{2, 0, 1, 2, 0, 2}
	plan := Plan{Group: group, NGroups: 3, Workers: 2}
	jk := plan.Jackknife(1, func(g int, w []int32, out []float64) {
		var s float64
		for i, v := range w {
			if (v == 0) != (int(group[i]) == g) || v > 1 {
				t.Errorf("group %d: w = %v", g, w)
			}
			s += float64(v)
		}
		out[0] = s
	})
	// Items left when dropping group 0, 1, 2: 4, 5, 3.
	if got, want := jk.Column(0), []float64{4, 5, 3}; !slices.Equal(got, want) {
		t.Errorf("Jackknife sizes = %v, want %v", got, want)
	}
	ident := Plan{NGroups: 4}.Jackknife(1, func(g int, w []int32, out []float64) {
		out[0] = float64(slices.Index(w, 0))
	})
	if got, want := ident.Column(0), []float64{0, 1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("identity Jackknife = %v, want %v", got, want)
	}
}

func TestReplicatesDiff(t *testing.T) {
	plan := Plan{NGroups: 10, B: 20, Seed: 3}
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	z := []float64{2, 2, 2, 2, 2, 3, 3, 3, 3, 3}
	both := Run(plan, 2, func(_ int, w []int32, out []float64) {
		out[0] = WeightedMean(x, w)
		out[1] = WeightedMean(z, w)
	})
	a := Run(plan, 1, func(_ int, w []int32, out []float64) { out[0] = WeightedMean(x, w) })
	b := Run(plan, 1, func(_ int, w []int32, out []float64) { out[0] = WeightedMean(z, w) })
	if !slices.Equal(both.Sub(0, 1), Diff(a, b, 0)) {
		t.Error("Sub and Diff disagree")
	}
}

func TestPlanPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"group out of range", func() { Run(Plan{Group: []int32{0, 3}, NGroups: 2, B: 1}, 1, func(int, []int32, []float64) {}) }},
		{"negative B", func() { Run(Plan{NGroups: 2, B: -1}, 1, func(int, []int32, []float64) {}) }},
		{"weights length", func() { Plan{NGroups: 3}.Weights(0, make([]int32, 2)) }},
		{"conf", func() { Percentile([]float64{1}, 1) }},
		{"grid order", func() { NewScored([]bool{true}, []float64{1}).TPRAtGrid(nil, []float64{0.5, 0.1}, make([]float64, 2)) }},
		{"NaN score", func() { NewScored([]bool{true}, []float64{math.NaN()}) }},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tt.name)
				}
			}()
			tt.f()
		}()
	}
}

// TestCountsAsIntN checks drawCounts's multiplicities against the stream it
// documents (Plan.Weights): len(c) draws of rand.New(pcg).IntN(len(c)),
// for group counts that are and are not powers of two.
func TestCountsAsIntN(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 64, 100, 1477, 4096, 14770, 100000} {
		for _, b := range []int{0, 1, 999} {
			const seed = 20260118
			got := make([]int32, n)
			drawCounts(seed, b, got)
			hi, lo := streamSeed(seed, b)
			r := rand.New(rand.NewPCG(hi, lo))
			want := make([]int32, n)
			for range n {
				want[r.IntN(n)]++
			}
			if !slices.Equal(got, want) {
				t.Fatalf("n=%d b=%d: multiplicities differ from rand.IntN's", n, b)
			}
		}
	}
}

// TestRedraw checks the rejection loop where it matters: for n = 3·2⁶²
// a quarter of the draws are rejected (2⁶⁴ mod n = 2⁶²), and the values
// must be those of rand.Uint64N.
func TestRedraw(t *testing.T) {
	var n uint64 = 3 << 62
	thresh := -n % n
	sh, sl := uint64(1), uint64(2)
	ref := rand.New(rand.NewPCG(1, 2))
	rejected := 0
	for i := range 10000 {
		var x uint64
		x, sh, sl = pcgNext(sh, sl)
		hi, lo := bits.Mul64(x, n)
		if lo < thresh {
			rejected++
			hi, sh, sl = redraw(sh, sl, n, thresh)
		}
		if want := ref.Uint64N(n); hi != want {
			t.Fatalf("draw %d: %d, want %d", i, hi, want)
		}
	}
	if rejected < 2000 {
		t.Fatalf("only %d of 10000 draws rejected; the test does not exercise redraw", rejected)
	}
}

// TestPCGNext checks pcgNext against math/rand/v2's PCG over a long
// stream from several seeds.
func TestPCGNext(t *testing.T) {
	s1, s2 := streamSeed(20260118, 7)
	for _, seed := range [][2]uint64{{0, 0}, {1, 2}, {^uint64(0), 12345}, {s1, s2}} {
		ref := rand.NewPCG(seed[0], seed[1])
		hi, lo := seed[0], seed[1]
		for i := range 100000 {
			var x uint64
			x, hi, lo = pcgNext(hi, lo)
			if want := ref.Uint64(); x != want {
				t.Fatalf("seed %v draw %d: %#x, want %#x", seed, i, x, want)
			}
		}
	}
}
