package engine

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sumShape is a random SumMatrix input: G groups; dense float columns,
// dense count columns and sparse columns (non-zero in about one group in
// sparseEvery).
type sumShape struct {
	G, floats, counts, sparse, sparseEvery int
}

func (sh sumShape) cols(rng *rand.Rand) [][]float64 {
	var cols [][]float64
	for range sh.floats {
		c := make([]float64, sh.G)
		for g := range c {
			c[g] = rng.NormFloat64()
		}
		cols = append(cols, c)
	}
	for range sh.counts {
		c := make([]float64, sh.G)
		for g := range c {
			c[g] = float64(rng.IntN(21))
		}
		cols = append(cols, c)
	}
	for range sh.sparse {
		c := make([]float64, sh.G)
		for g := range c {
			if rng.IntN(sh.sparseEvery) == 0 {
				c[g] = rng.Float64() - 0.25
			}
		}
		cols = append(cols, c)
	}
	return cols
}

// multiplicities draws R replicates of G group multiplicities (R x G).
func multiplicities(rng *rand.Rand, G, R int) []int32 {
	cnt := make([]int32, R*G)
	for r := range R {
		for range G {
			cnt[r*G+rng.IntN(G)]++
		}
	}
	return cnt
}

// TestSumMatrixWeigh checks every storage path of SumMatrix against the
// plain sum Σ_g cnt[g]·S[g] over the drawn groups in group order: the same
// float64 bits, for full and partial batches, with columns repeated (the
// aliases), a few dense columns (which join the sparse lists) and
// non-finite values (which must not meet a zero multiplicity).
func TestSumMatrixWeigh(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range []sumShape{
		{G: 50, floats: 20, counts: 9, sparse: 30, sparseEvery: 7},
		{G: 300, floats: 3, counts: 2, sparse: 40, sparseEvery: 40},
		{G: 7, floats: 0, counts: 0, sparse: 5, sparseEvery: 2},
		{G: 1000, floats: 130, counts: 70, sparse: 0, sparseEvery: 1},
		{G: 1300, floats: 2, counts: 9, sparse: 12, sparseEvery: 3}, // three group blocks
	} {
		cols := sh.cols(rng)
		cols = append(cols, cols[0], cols[len(cols)-1])
		inf := make([]float64, sh.G)
		inf[sh.G/2] = math.Inf(1)
		cols = append(cols, inf)
		// The Go loops and, where the CPU has them, the AVX2 kernels.
		goM, avxM := NewSumMatrix(sh.G, cols, false), NewSumMatrix(sh.G, cols, true)
		if avxM.avx2 != HasAVX2() || goM.avx2 {
			t.Fatalf("avx2 = %v, %v; want false, %v", goM.avx2, avxM.avx2, HasAVX2())
		}
		for k, R := range []int{Batch, Batch, 3, 1, Batch} {
			// A full batch with the Go loops, then with the AVX2
			// kernels; partial batches (the Go loops whatever avx2
			// says) with both.
			m := goM
			if k%2 == 1 || k == 4 {
				m = avxM
			}
			cnt := multiplicities(rng, sh.G, R)
			s := m.Scratch(R)
			m.Weigh(cnt, s)
			got := make([]float64, len(cols))
			for r := range R {
				m.Sums(s, r, got)
				for j, c := range cols {
					var want float64
					for g, v := range c {
						if k := cnt[r*sh.G+g]; k != 0 {
							want += float64(k) * v
						}
					}
					if math.Float64bits(got[j]) != math.Float64bits(want) {
						t.Fatalf("%+v R=%d replicate %d column %d: got %v, want %v", sh, R, r, j, got[j], want)
					}
				}
			}
		}
	}
}

// BenchmarkSumMatrixWeigh weighs one batch of replicates, on the shapes
// of the demo (workload a: 1,477 posts, 6 systems) and of one system
// under unit: query (workload d: 14,770 queries).
func BenchmarkSumMatrixWeigh(b *testing.B) {
	for _, bc := range []struct {
		name string
		sh   sumShape
	}{
		{"a_demo_posts", sumShape{G: 1477, floats: 184, counts: 225, sparse: 499, sparseEvery: 13}},
		{"d_one_system_queries", sumShape{G: 14770, floats: 8, counts: 14, sparse: 198, sparseEvery: 20}},
		{"b_large_posts", sumShape{G: 100000, floats: 10, counts: 24, sparse: 120, sparseEvery: 10}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, 4))
			m := NewSumMatrix(bc.sh.G, bc.sh.cols(rng), HasAVX2())
			cnt := multiplicities(rng, bc.sh.G, Batch)
			s := m.Scratch(Batch)
			for b.Loop() {
				m.Weigh(cnt, s)
			}
		})
	}
}

// TestWeighSparse16 checks the AVX2 kernel against the scalar loop, bit
// for bit, on values of every scale (subnormal to 1e300, both signs) and
// entries in any group order.
func TestWeighSparse16(t *testing.T) {
	if !HasAVX2() {
		t.Skip("no AVX2 on this machine")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	val := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return math.Ldexp(rng.Float64(), -1070) // subnormal
		case 1:
			return (rng.Float64() - 0.5) * 1e300
		default:
			return rng.NormFloat64()
		}
	}
	for trial := range 200 {
		nb, g0 := 1+rng.IntN(600), rng.IntN(5000)
		kf := make([]float64, nb*16)
		for i := range kf {
			kf[i] = float64(rng.IntN(5))
		}
		n := rng.IntN(300)
		grp, vals := make([]int32, n), make([]float64, n)
		for e := range grp {
			grp[e], vals[e] = int32(g0+rng.IntN(nb)), val()
		}
		var got, want [16]float64
		for r := range got {
			got[r] = val()
			want[r] = got[r]
		}
		weighSparse(got[:], kf, 16, grp, vals, g0, true)
		weighSparse(want[:], kf, 16, grp, vals, g0, false)
		for r := range got {
			if math.Float64bits(got[r]) != math.Float64bits(want[r]) {
				t.Fatalf("trial %d replicate %d: AVX2 %v, scalar %v", trial, r, got[r], want[r])
			}
		}
	}
}

// TestWeighWords16 checks the AVX2 kernel of the packed words against
// Go's uint64 arithmetic: words of every size (products that wrap past
// 2⁶⁴ included) and multiplicities up to 2³¹-1, with a stride of W words.
func TestWeighWords16(t *testing.T) {
	if !HasAVX2() {
		t.Skip("no AVX2 on this machine")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 300 {
		W, nb := 1+rng.IntN(8), rng.IntN(70)
		ki := make([]uint64, nb*16)
		for i := range ki {
			switch rng.IntN(3) {
			case 0:
				ki[i] = uint64(rng.Int32())
			default:
				ki[i] = uint64(rng.IntN(6))
			}
		}
		p := make([]uint64, max(0, (nb-1)*W+1))
		for i := range p {
			p[i] = rng.Uint64() >> rng.IntN(64)
		}
		var got, want [16]uint64
		for r := range got {
			got[r] = rng.Uint64()
			want[r] = got[r]
		}
		weighWords16(&got, ki, p, W)
		for b := range nb {
			for r := range want {
				want[r] += ki[b*16+r] * p[b*W]
			}
		}
		if got != want {
			t.Fatalf("trial %d (W=%d, %d groups): AVX2 %v, Go %v", trial, W, nb, got, want)
		}
	}
}

// TestAxpy16 checks the AVX2 kernels of the dense columns against Go
// loops, bit for bit: rows of every length up to 130 (the four-wide steps
// and their tails), multiplicities with zeros (skipped), products that
// wrap past 2⁶⁴, and the stride between replicates' rows.
func TestAxpy16(t *testing.T) {
	if !HasAVX2() {
		t.Skip("no AVX2 on this machine")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := range 400 {
		L := rng.IntN(131)
		stride := L + rng.IntN(5)
		var kf [16]float64
		var ki [16]uint64
		for r := range kf {
			if rng.IntN(3) > 0 {
				k := rng.IntN(7)
				if rng.IntN(10) == 0 {
					k = int(rng.Int32())
				}
				kf[r], ki[r] = float64(k), uint64(k)
			}
		}
		row, rowW := make([]float64, L), make([]uint64, L)
		for i := range row {
			row[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			rowW[i] = rng.Uint64() >> rng.IntN(64)
		}
		n := 15*stride + L
		acc, accW := make([]float64, n), make([]uint64, n)
		for i := range acc {
			acc[i], accW[i] = rng.NormFloat64(), rng.Uint64()
		}
		want, wantW := slices.Clone(acc), slices.Clone(accW)
		for r := range 16 {
			if ki[r] == 0 {
				continue
			}
			for i := range L {
				want[r*stride+i] += kf[r] * row[i]
				wantW[r*stride+i] += ki[r] * rowW[i]
			}
		}
		axpyRows16(acc, stride, row, &kf)
		axpyWords16(accW, stride, rowW, &ki)
		for i := range acc {
			if math.Float64bits(acc[i]) != math.Float64bits(want[i]) || accW[i] != wantW[i] {
				t.Fatalf("trial %d (L=%d, stride %d) at %d: AVX2 %v %d, Go %v %d", trial, L, stride, i, acc[i], accW[i], want[i], wantW[i])
			}
		}
	}
}
