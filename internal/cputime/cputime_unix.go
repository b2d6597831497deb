//go:build unix

// Package cputime measures the CPU time of the process, for benchmarks: a
// figure that the load of other processes on a shared machine disturbs
// less than wall time.
package cputime

import (
	"syscall"
	"time"
)

// Now is the user plus system CPU time of the process so far.
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
