//go:build unix

package bundle

import (
	"os"
	"syscall"
)

// openNoFollow opens p for reading without following a symbolic link in
// its last element and without blocking on a FIFO.
func openNoFollow(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// writable reports (nil) whether this process may make entries in dir.
func writable(dir string) error {
	return syscall.Access(dir, 2|1) // W_OK|X_OK
}
