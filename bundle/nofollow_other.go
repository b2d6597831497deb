//go:build !unix

package bundle

import "os"

// openNoFollow opens p for reading; the caller checked with Lstat that it
// is a regular file.
func openNoFollow(p string) (*os.File, error) { return os.Open(p) }

// writable cannot ask the system here: the commit reports what fails.
func writable(dir string) error { return nil }
