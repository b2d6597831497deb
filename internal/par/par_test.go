package par

import (
	"sync/atomic"
	"testing"
)

// TestJobsEachOnce checks that every job runs exactly once, and that each
// goroutine asks for its function once, for several worker counts.
func TestJobsEachOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 7, 100} {
		for _, n := range []int{0, 1, 5, 1000} {
			runs := make([]atomic.Int32, n)
			var fns atomic.Int32
			Jobs(workers, n, func() func(int) {
				fns.Add(1)
				return func(k int) { runs[k].Add(1) }
			})
			for k := range runs {
				if got := runs[k].Load(); got != 1 {
					t.Fatalf("workers %d, n %d: job %d ran %d times", workers, n, k, got)
				}
			}
			if w := fns.Load(); n > 0 && (w < 1 || (workers > 0 && int(w) > min(workers, n))) {
				t.Fatalf("workers %d, n %d: %d worker functions", workers, n, w)
			}
		}
	}
}
