package stats

import (
	"math/rand/v2"
	"testing"
)

// TestCumulate checks cumulate (assembly on amd64) against cumulateGo on
// every length from 0 to 40 (the four-at-a-step loop and its tail) and on
// long lists, with weights up to 2³¹-1 so that the sums pass 2³².
func TestCumulate(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for n := range 200 {
		if n > 40 {
			n = r.IntN(100_000)
		}
		w := make([]int32, 1+r.IntN(3000))
		for i := range w {
			if r.IntN(10) == 0 {
				w[i] = r.Int32()
			} else {
				w[i] = int32(r.IntN(6))
			}
		}
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(r.IntN(len(w)))
		}
		got, want := make([]int64, n+1), make([]int64, n+1)
		got[n], want[n] = -7, -7 // not written
		cumulate(w, idx, got[:n])
		cumulateGo(w, idx, want[:n])
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("length %d: dst[%d] = %d, want %d", n, j, got[j], want[j])
			}
		}
	}
}
