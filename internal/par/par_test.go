package par

import (
	"strings"
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

// TestJobsPanic checks that a job's panic reaches the caller of Jobs, with
// the job's value and stack, where it can be recovered.
func TestJobsPanic(t *testing.T) {
	defer func() {
		p, ok := recover().(*Panic)
		if !ok || p.Value != "job 7" || !strings.Contains(string(p.Stack), "par_test.go") {
			t.Fatalf("recovered %#v, want a *Panic of job 7 with its stack", p)
		}
	}()
	Jobs(2, 100, func() func(int) {
		return func(k int) {
			if k == 7 {
				panic("job 7")
			}
		}
	})
	t.Fatal("Jobs returned after a job panicked")
}
