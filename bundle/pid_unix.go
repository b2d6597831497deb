//go:build unix

package bundle

import "syscall"

// pidAlive reports whether a process with this pid may exist: signal 0
// fails with ESRCH only when there is none (EPERM: it exists, not ours).
func pidAlive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) != syscall.ESRCH
}
