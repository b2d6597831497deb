// Package par runs independent jobs on all cores: the one worker pool of
// the module (the report's per-system and per-row work, the bootstrap's
// batches, the loader's ranges).
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Jobs runs the jobs 0..n-1 on up to workers goroutines (0 means
// GOMAXPROCS), each job once, and returns when all are done. Each goroutine
// calls worker once for the function it runs its jobs with, so that
// function may own scratch memory. Jobs must only write to their own
// outputs; then the results do not depend on the number of goroutines.
func Jobs(workers, n int, worker func() func(job int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		run := worker()
		for k := range n {
			run(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := worker()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				run(k)
			}
		}()
	}
	wg.Wait()
}
