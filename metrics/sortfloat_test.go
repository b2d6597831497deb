package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The radix sort gives slices.Sort's sequence, value for value (±0 compare
// equal), on large inputs with ties, zeros of both signs, subnormals and
// infinities.
func TestSortFloatsMatchesSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1, -1}
	for _, n := range []int{10, 1 << 16, 200_000} {
		x := make([]float64, n)
		for i := range x {
			switch r.IntN(4) {
			case 0:
				x[i] = special[r.IntN(len(special))]
			case 1:
				x[i] = math.Round(r.Float64()*1e3) / 1e3 // ties
			default:
				x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			}
		}
		want := slices.Clone(x)
		slices.Sort(want)
		sortFloats(x)
		for i := range x {
			if x[i] != want[i] {
				t.Fatalf("n=%d: item %d is %v, slices.Sort gives %v", n, i, x[i], want[i])
			}
			if i > 0 && x[i] == 0 && x[i-1] == 0 && math.Signbit(x[i]) && !math.Signbit(x[i-1]) {
				t.Fatalf("n=%d: +0 before -0 at %d", n, i)
			}
		}
	}
}

func BenchmarkSortFloats(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	src := make([]float64, 1_000_000)
	for i := range src {
		src[i] = math.Round(r.Float64()*1e4) / 1e4
	}
	x := make([]float64, len(src))
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(x, src)
			sortFloats(x)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for b.Loop() {
			copy(x, src)
			slices.Sort(x)
		}
	})
}
