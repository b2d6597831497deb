// Package par runs independent jobs on all cores: the one worker pool of
// the module (the report's per-system and per-row work, the bootstrap's
// batches, the loader's ranges).
package par

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// A Panic is a panic of a job, raised again in the goroutine that called
// Jobs (a panic in another goroutine would end the process before any
// caller could recover it). Stack is the job's stack when it panicked.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprint(p.Value) }

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
	var first atomic.Pointer[Panic]
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					first.CompareAndSwap(nil, &Panic{Value: v, Stack: debug.Stack()})
					next.Store(int64(n)) // the other workers take no new job
				}
			}()
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
	if p := first.Load(); p != nil {
		panic(p)
	}
}
