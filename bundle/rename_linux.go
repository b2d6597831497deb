//go:build linux

package bundle

import (
	"os"

	"golang.org/x/sys/unix"
)

// sysExchange swaps the paths a and b atomically with renameat2
// RENAME_EXCHANGE. It returns errNoExchange when the kernel (ENOSYS) or the
// filesystem (EINVAL) does not support it.
func sysExchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch err {
	case nil:
		return nil
	case unix.EINVAL, unix.ENOSYS:
		return errNoExchange
	}
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: err}
}

// renameNoReplace renames a to b, failing with an error that matches
// os.ErrExist when b exists: atomically with renameat2 RENAME_NOREPLACE, or,
// where the kernel or filesystem lacks it, by a check before the rename.
func renameNoReplace(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
	switch err {
	case nil:
		return nil
	case unix.EINVAL, unix.ENOSYS:
		return renameIfAbsent(a, b)
	}
	return &os.LinkError{Op: "rename", Old: a, New: b, Err: err}
}
