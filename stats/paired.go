package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// PermutationTest returns the two-sided p-value of the paired sign-flip
// permutation test of H0: "a and b are exchangeable within each pair" for
// per-query values a and b of two systems on the same queries
// (docs/statistics.md "Comparing systems").
//
// With d_i = a_i - b_i (pairs where a_i or b_i is NaN are left out) and
// D_g = Σ_{i in g} d_i the sum over group g, the statistic is
//
//	T(s) = |Σ_g s_g D_g| / n,   s_g ∈ {-1, +1},
//
// i.e. the absolute mean difference with the signs of whole groups flipped:
// all queries of a post flip together, matching the post-level bootstrap.
// A nil group makes every query its own group (nGroups is then ignored).
// Permutation k (0 <= k < perms) draws independent fair signs from its own
// PCG stream, seeded from (seed, k) as bootstrap replicate k is (see
// Plan.Weights), eight signs per byte of r.Uint64(), least significant bit
// first. With T_obs = T(+1, ..., +1),
//
//	p = (1 + #{k : T(s_k) >= T_obs - ε}) / (1 + perms),
//
// where ε = 1e-12 Σ_g |D_g| absorbs summation rounding so that exactly
// tied statistics (frequent for 0/1 metrics) count as ties. p is never 0.
// It is NaN when no pair is left. The result does not depend on the number
// of CPUs. It panics if len(a) != len(b), perms < 1 or a group index is out
// of range.
func PermutationTest(a, b []float64, group []int32, nGroups int, perms int, seed uint64) float64 {
	if len(a) != len(b) {
		panic("stats: PermutationTest: len(a) != len(b)")
	}
	if group != nil && len(group) != len(a) {
		panic("stats: PermutationTest: len(group) != len(a)")
	}
	if perms < 1 {
		panic("stats: PermutationTest: perms < 1")
	}
	d := groupDiffs(a, b, group, nGroups)
	if len(d) == 0 {
		return math.NaN()
	}
	var scale float64
	for _, x := range d {
		scale += math.Abs(x)
	}
	eps := 1e-12 * scale
	stat := signFlipStat(d)
	obs := stat(func() uint64 { return math.MaxUint64 })

	var count atomic.Int64
	var next atomic.Int64
	const chunk = 64
	nw := max(1, min(runtime.GOMAXPROCS(0), (perms+chunk-1)/chunk))
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pcg := rand.NewPCG(0, 0)
			var local int64
			for {
				k0 := int(next.Add(chunk) - chunk)
				if k0 >= perms {
					break
				}
				for k := k0; k < min(k0+chunk, perms); k++ {
					pcg.Seed(streamSeed(seed, k))
					if stat(pcg.Uint64) >= obs-eps {
						local++
					}
				}
			}
			count.Add(local)
		}()
	}
	wg.Wait()
	return float64(1+count.Load()) / float64(1+perms)
}

// Holm returns Holm's step-down adjusted p-values (Holm 1979), in the
// order of p, as R's p.adjust(p, "holm"): with the m non-NaN p-values
// sorted ascending, p_(1) <= ... <= p_(m),
//
//	p̃_(i) = min(1, max_{j <= i} (m - j + 1) p_(j)).
//
// NaN p-values stay NaN and do not count in m. Ties are ordered by index.
func Holm(p []float64) []float64 {
	adj := make([]float64, len(p))
	idx := make([]int, 0, len(p))
	for i, v := range p {
		adj[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(p[i], p[j]) })
	m := len(idx)
	run := 0.0
	for r, i := range idx {
		run = max(run, float64(m-r)*p[i])
		adj[i] = min(1, run)
	}
	return adj
}

// meanVar returns the mean and the sample variance (n-1) of the non-NaN
// values of x, and their number.
func meanVar(x []float64) (mean, variance float64, n int) {
	for _, v := range x {
		if !math.IsNaN(v) {
			mean += v
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	mean /= float64(n)
	var ss float64
	for _, v := range x {
		if !math.IsNaN(v) {
			ss += (v - mean) * (v - mean)
		}
	}
	if n < 2 {
		return mean, math.NaN(), n
	}
	return mean, ss / float64(n-1), n
}

// CohensD returns Cohen's d with the pooled standard deviation:
//
//	d = (mean(a) - mean(b)) / s_p,  s_p = sqrt(((n_a-1) s_a² + (n_b-1) s_b²) / (n_a + n_b - 2)),
//
// with s² the sample variances (n-1). NaN values are skipped in each
// sample. It is NaN when n_a + n_b - 2 < 1 or s_p = 0.
func CohensD(a, b []float64) float64 {
	ma, _, na := meanVar(a)
	mb, _, nb := meanVar(b)
	if na == 0 || nb == 0 || na+nb-2 < 1 {
		return math.NaN()
	}
	var ss float64
	for _, v := range a {
		if !math.IsNaN(v) {
			ss += (v - ma) * (v - ma)
		}
	}
	for _, v := range b {
		if !math.IsNaN(v) {
			ss += (v - mb) * (v - mb)
		}
	}
	sp := math.Sqrt(ss / float64(na+nb-2))
	if sp == 0 {
		return math.NaN()
	}
	return (ma - mb) / sp
}

// CohensDz returns the paired effect size d_z = mean(d) / sd(d) of the
// differences d_i = a_i - b_i, sd with n-1; pairs where a_i or b_i is NaN
// are left out. It is NaN with fewer than two pairs or sd(d) = 0. It panics
// if len(a) != len(b).
func CohensDz(a, b []float64) float64 {
	if len(a) != len(b) {
		panic("stats: CohensDz: len(a) != len(b)")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	m, v, n := meanVar(d)
	if n < 2 || v == 0 {
		return math.NaN()
	}
	return m / math.Sqrt(v)
}

// groupDiffs are the sums of the defined differences a[i] - b[i] per group
// that has one, in group order (each defined difference alone when group is
// nil). It panics on a group index outside [0, nGroups).
func groupDiffs(a, b []float64, group []int32, nGroups int) []float64 {
	var d []float64
	if group == nil {
		for i := range a {
			if x := a[i] - b[i]; !math.IsNaN(x) {
				d = append(d, x)
			}
		}
	} else {
		sum := make([]float64, nGroups)
		used := make([]bool, nGroups)
		for i, g := range group {
			if g < 0 || int(g) >= nGroups {
				panic(fmt.Sprintf("stats: PermutationTest: group[%d] = %d outside [0, %d)", i, g, nGroups))
			}
			if x := a[i] - b[i]; !math.IsNaN(x) {
				sum[g] += x
				used[g] = true
			}
		}
		for g, u := range used {
			if u {
				d = append(d, sum[g])
			}
		}
	}
	return d
}

// signFlipStat returns T(s) = |Σ_g s_g d_g|, the signs s_g drawn from
// src: bit g%64 of the (g/64)-th word, a set bit meaning +1.
func signFlipStat(d []float64) func(src func() uint64) float64 {
	// With up to 2^16 groups, byte tables: tab[c][m] = Σ_{t<8} ±d[8c+t], +
	// where bit t of m is set, so that one permutation costs G/8 lookups
	// (at most 32 MiB of tables). Beyond that, one sign at a time.
	nc := (len(d) + 7) / 8
	if len(d) <= 1<<16 {
		tab := make([]float64, nc*256)
		for c := range nc {
			t := tab[c*256 : (c+1)*256]
			for m := range 256 {
				var s float64
				for bit := range 8 {
					i := 8*c + bit
					if i >= len(d) {
						break
					}
					if m&(1<<bit) != 0 {
						s += d[i]
					} else {
						s -= d[i]
					}
				}
				t[m] = s
			}
		}
		return func(src func() uint64) float64 {
			var s float64
			var word uint64
			for c := range nc {
				if c%8 == 0 {
					word = src()
				}
				s += tab[c*256+int(word&0xFF)]
				word >>= 8
			}
			return math.Abs(s)
		}
	}
	return func(src func() uint64) float64 {
		var s float64
		var word uint64
		for i, x := range d {
			if i%64 == 0 {
				word = src()
			}
			if word&1 != 0 {
				s += x
			} else {
				s -= x
			}
			word >>= 1
		}
		return math.Abs(s)
	}
}

// BootstrapP is the two-sided p-value of a paired difference from its
// bootstrap replicates d (NaN replicates, where the statistic was
// undefined, are left out), with the +1 of a permutation test so that it
// is never 0:
//
//	p = min(1, 2 · min(1 + #{d ≤ 0}, 1 + #{d ≥ 0}) / (B + 1))
//
// where B counts the defined replicates. It is NaN when none is defined.
// Both the comparisons of one bundle and the changes between two bundles
// use it, so one metric is always tested the same way.
func BootstrapP(d []float64) float64 {
	var le, ge, n int
	for _, x := range d {
		if math.IsNaN(x) {
			continue
		}
		n++
		if x <= 0 {
			le++
		}
		if x >= 0 {
			ge++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Min(1, 2*float64(min(le, ge)+1)/float64(n+1))
}
