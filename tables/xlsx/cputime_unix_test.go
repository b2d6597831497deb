//go:build unix

package xlsx

import (
	"syscall"
	"time"
)

// cpuTime is the user plus system CPU time of the process so far: the
// benchmarks report it per render, a figure that the load of other
// processes on a shared machine disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
