package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// exactSignFlipP enumerates all 2^G sign patterns of the group sums: the
// exact permutation p-value #{|T(s)| >= |T_obs|} / 2^G.
func exactSignFlipP(d []float64) float64 {
	var obs float64
	for _, v := range d {
		obs += v
	}
	obs = math.Abs(obs)
	hits := 0
	for m := range 1 << len(d) {
		var s float64
		for g, v := range d {
			if m&(1<<g) != 0 {
				s += v
			} else {
				s -= v
			}
		}
		if math.Abs(s) >= obs-1e-9 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<len(d))
}

func TestPermutationTestExact(t *testing.T) {
	// Hand example: d = (1, 2, 3), no groups. |Σ±d| over the 8 patterns:
	// 6, 0, 2, 4, 4, 2, 0, 6, so P(|T| >= 6) = 2/8 = 0.25.
	if got := exactSignFlipP([]float64{1, 2, 3}); got != 0.25 {
		t.Fatalf("exact helper = %v, want 0.25", got)
	}
	r := rand.New(rand.NewPCG(11, 12))
	const perms = 20000
	for trial := range 6 {
		nGroups := 4 + r.IntN(8)
		n := nGroups * 3
		a := make([]float64, n)
		b := make([]float64, n)
		group := make([]int32, n)
		d := make([]float64, nGroups)
		for i := range n {
			group[i] = int32(r.IntN(nGroups))
			a[i] = float64(r.IntN(5)) / 4 // 0/0.25/.. values: ties in T
			b[i] = float64(r.IntN(4)) / 4
			if i%5 == 0 {
				b[i] = math.NaN() // pair left out
			}
		}
		for i, g := range group {
			if !math.IsNaN(b[i]) {
				d[g] += a[i] - b[i]
			}
		}
		var dd []float64
		for g := range nGroups {
			used := false
			for i := range group {
				if int(group[i]) == g && !math.IsNaN(b[i]) {
					used = true
				}
			}
			if used {
				dd = append(dd, d[g])
			}
		}
		want := exactSignFlipP(dd)
		got := PermutationTest(a, b, group, nGroups, perms, uint64(trial))
		// Monte Carlo p has sd sqrt(p(1-p)/perms) <= 0.0036; allow 5 sd
		// plus the +1 correction.
		if math.Abs(got-want) > 5*math.Sqrt(want*(1-want)/perms)+2.0/perms {
			t.Errorf("trial %d: p = %v, exact %v", trial, got, want)
		}
		if again := PermutationTest(a, b, group, nGroups, perms, uint64(trial)); again != got {
			t.Errorf("trial %d: not deterministic: %v then %v", trial, got, again)
		}
	}
}

func TestPermutationTestProperties(t *testing.T) {
	a := []float64{0.9, 0.8, 0.7, 0.95, 0.85, 0.9, 0.75, 0.8}
	b := []float64{0.5, 0.4, 0.6, 0.55, 0.45, 0.5, 0.35, 0.4}
	// All 8 differences positive, no groups: exact p = 2/256.
	if p := PermutationTest(a, b, nil, 0, 10000, 1); math.Abs(p-2.0/256) > 0.005 {
		t.Errorf("p = %v, want about %v", p, 2.0/256)
	}
	// The same queries as two posts of 4: only 4 sign patterns, and the
	// observed one and its mirror are the most extreme: p ≈ 2/4.
	group := []int32{0, 0, 0, 0, 1, 1, 1, 1}
	if p := PermutationTest(a, b, group, 2, 10000, 1); math.Abs(p-0.5) > 0.03 {
		t.Errorf("grouped p = %v, want about 0.5", p)
	}
	// Identical systems: every permutation ties the statistic 0: p = 1.
	if p := PermutationTest(a, a, nil, 0, 500, 1); p != 1 {
		t.Errorf("identical systems: p = %v, want 1", p)
	}
	// p is never below 1/(1+perms).
	if p := PermutationTest([]float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, make([]float64, 20), nil, 0, 99, 1); p < 0.01 {
		t.Errorf("p = %v below 1/(1+perms)", p)
	}
	// More than 2^16 groups: the sign-at-a-time path.
	big := 70000
	x, z := make([]float64, big), make([]float64, big)
	for i := range x {
		x[i] = float64(i%7) / 7
		z[i] = x[i] - 0.01
	}
	if p := PermutationTest(x, z, nil, 0, 50, 1); p != 1.0/51 {
		t.Errorf("large, clear effect: p = %v, want 1/51", p)
	}
	if p := PermutationTest(x, x, nil, 0, 50, 1); p != 1 {
		t.Errorf("large, no difference: p = %v, want 1", p)
	}
	if p := PermutationTest([]float64{math.NaN()}, []float64{1}, nil, 0, 10, 1); !math.IsNaN(p) {
		t.Errorf("no pairs: p = %v, want NaN", p)
	}
}

func TestHolmEdge(t *testing.T) {
	got := Holm([]float64{math.NaN(), math.NaN()})
	for _, v := range got {
		if !math.IsNaN(v) {
			t.Errorf("Holm(NaN) = %v", got)
		}
	}
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
}

func TestEffectSizesEdge(t *testing.T) {
	tests := []struct {
		name string
		got  float64
	}{
		{"d: zero spread", CohensD([]float64{1, 1}, []float64{1, 1})},
		{"d: one each", CohensD([]float64{1}, []float64{2})},
		{"dz: one pair", CohensDz([]float64{1}, []float64{2})},
		{"dz: constant difference", CohensDz([]float64{1, 2, 3}, []float64{0, 1, 2})},
	}
	for _, tt := range tests {
		if !math.IsNaN(tt.got) {
			t.Errorf("%s = %v, want NaN", tt.name, tt.got)
		}
	}
	// NaN values are skipped: the same as leaving them out.
	if a, b := CohensD([]float64{1, 2, math.NaN(), 4}, []float64{0, 3}), CohensD([]float64{1, 2, 4}, []float64{0, 3}); a != b {
		t.Errorf("CohensD with NaN = %v, want %v", a, b)
	}
}

func TestIntervalEdge(t *testing.T) {
	nan := math.NaN()
	iv := Percentile([]float64{nan, nan}, 0.95)
	if !math.IsNaN(iv.Low) || !math.IsNaN(iv.High) || iv.Dropped != 2 {
		t.Errorf("all-NaN Percentile = %+v", iv)
	}
	// All replicates above theta: z0 = -Inf, BCa falls back to percentile.
	reps := []float64{2, 3, 4, 5, 6}
	iv = BCa(reps, 1, []float64{1, 1.1, 0.9}, 0.9)
	if iv.Method != MethodPercentile || iv.Low != 2.2 || iv.High != 5.8 {
		t.Errorf("BCa fallback = %+v, want percentile [2.2, 5.8]", iv)
	}
	iv = BCa(reps, nan, nil, 0.9)
	if !math.IsNaN(iv.Low) || iv.Method != MethodBCa {
		t.Errorf("BCa(NaN theta) = %+v", iv)
	}
	// Symmetric replicates around theta with a = 0: BCa = percentile.
	sym := []float64{-2, -1, -0.5, 0.5, 1, 2}
	b, p := BCa(sym, 0, []float64{-1, 1}, 0.8), Percentile(sym, 0.8)
	if !same(b.Low, p.Low, 1e-12) || !same(b.High, p.High, 1e-12) {
		t.Errorf("symmetric BCa = %+v, percentile %+v", b, p)
	}
	if q := Quantile(nil, 0.5); !math.IsNaN(q) {
		t.Errorf("Quantile(nil) = %v", q)
	}
	if q := Quantile([]float64{math.Inf(1), math.Inf(1)}, 0.5); !math.IsInf(q, 1) {
		t.Errorf("Quantile(+Inf, +Inf) = %v", q)
	}
}

func TestDeLongEdge(t *testing.T) {
	y := []bool{true, true, false}
	p := []float64{0.9, 0.8, 0.1}
	a1, _, z, pv := DeLongPaired(y, p, p)
	if a1 != 1 || !math.IsNaN(z) || !math.IsNaN(pv) {
		t.Errorf("one control: auc %v z %v p %v, want 1, NaN, NaN", a1, z, pv)
	}
	a1, _, _, _ = DeLongPaired([]bool{true, true}, []float64{1, 2}, []float64{1, 2})
	if !math.IsNaN(a1) {
		t.Errorf("one class: auc = %v, want NaN", a1)
	}
	if se := DeLongClusteredSE([]bool{true, false, true, false}, []float64{1, 0, 1, 0}, []float64{0, 1, 1, 0}, []int32{0, 0, 0, 0}, 1); !math.IsNaN(se) {
		t.Errorf("one cluster: se = %v, want NaN", se)
	}
}

// TestDeLongClusteredSimulation checks the clustered standard error on
// data with strong within-post correlation: its average over simulations
// matches the spread of auc1 - auc2 across simulations, while DeLong's
// unclustered SE understates it.
func TestDeLongClusteredSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	r := rand.New(rand.NewPCG(21, 22))
	const sims, nPost, per = 300, 60, 12
	var diffs, seC, seD []float64
	for range sims {
		n := nPost * per
		y := make([]bool, n)
		p1 := make([]float64, n)
		p2 := make([]float64, n)
		group := make([]int32, n)
		for g := range nPost {
			u1, u2 := r.NormFloat64(), r.NormFloat64()
			prev := 0.15 + 0.5*r.Float64()
			for k := range per {
				i := g*per + k
				group[i] = int32(g)
				y[i] = r.Float64() < prev
				mu := 0.0
				if y[i] {
					mu = 1
				}
				p1[i] = mu + 1.5*u1 + r.NormFloat64()
				p2[i] = 0.8*mu + 1.5*u2 + r.NormFloat64()
			}
		}
		a1, a2, z, _ := DeLongPaired(y, p1, p2)
		diffs = append(diffs, a1-a2)
		seC = append(seC, DeLongClusteredSE(y, p1, p2, group, nPost))
		seD = append(seD, (a1-a2)/z)
	}
	_, v, _ := meanVar(diffs)
	sd := math.Sqrt(v)
	mc, _, _ := meanVar(seC)
	md, _, _ := meanVar(seD)
	if math.Abs(mc/sd-1) > 0.15 {
		t.Errorf("clustered SE %.4f vs empirical SD %.4f", mc, sd)
	}
	if md/sd > 0.9 {
		t.Errorf("unclustered SE %.4f should understate empirical SD %.4f", md, sd)
	}
	t.Logf("empirical SD %.4f, clustered SE %.4f, DeLong SE %.4f", sd, mc, md)
}
