package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"paperbundle/internal/interrupt"
)

// A build without a version claims the next one before it computes, so
// that two builds started together get consecutive versions: the claim of
// vN is a symbolic link .vN.claim in the root whose target is the pid of
// the build (made atomically; a second build finds it and takes vN+1). It
// is removed when the build ends; one left by a killed build (its process
// gone) is removed by the next claim.

// ErrNoNextVersion is the error of a root whose highest version has the
// largest number a version may have.
var ErrNoNextVersion = errors.New("no next version")

func claimPath(root, v string) string { return filepath.Join(root, "."+v+".claim") }

// ClaimNextVersion claims the first version vN above every version folder
// and every live claim in root, creating root if needed. release removes
// the claim (and root, when this call made it and it is still empty).
func ClaimNextVersion(root string) (v string, release func(), err error) {
	made := false
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return "", nil, err
		}
		made = true
	}
	pid := strconv.Itoa(os.Getpid())
	for tries := 0; tries < 1000; tries++ {
		n, err := highestVersion(root)
		if err != nil {
			return "", nil, err
		}
		if n >= MaxVersionNumber {
			return "", nil, fmt.Errorf("%w: %s holds version v%d, the largest there can be, expected room for a next version: give one with -version (a dotted one such as v%d.1) or another out", ErrNoNextVersion, root, n, n)
		}
		v = "v" + strconv.Itoa(n+1)
		p := claimPath(root, v)
		err = os.Symlink(pid, p)
		if err == nil {
			if _, err := os.Lstat(filepath.Join(root, v)); err == nil {
				os.Remove(p) // the folder appeared meanwhile: next
				continue
			}
			untrack := interrupt.Track(p) // removed if an interrupt ends the process
			return v, func() {
				os.Remove(p)
				untrack()
				if made {
					os.Remove(root) // only when empty
				}
			}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", nil, err
		}
		if target, err := os.Readlink(p); err == nil {
			if other, err := strconv.Atoi(target); err == nil && !pidAlive(other) {
				os.Remove(p) // a killed build's claim
			}
		}
	}
	return "", nil, fmt.Errorf("bundle: could not claim a version in %s", root)
}

// highestVersion is the highest N of the vN folders and the live claims
// .vN.claim in root (0 when there is none).
func highestVersion(root string) (int, error) {
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	high := 0
	for _, e := range entries {
		name := e.Name()
		if c, ok := strings.CutSuffix(strings.TrimPrefix(name, "."), ".claim"); ok && strings.HasPrefix(name, ".") {
			target, err := os.Readlink(filepath.Join(root, name))
			if pid, perr := strconv.Atoi(target); err != nil || perr != nil || !pidAlive(pid) {
				continue
			}
			name = c
		}
		// The first number counts: v3 comes after v2.5.
		if n := major(name); n > high {
			high = n
		}
	}
	return high, nil
}

// Ambiguous returns the version folder in root that is numerically equal
// to v but spelled otherwise (v01 or v1.0 beside v1), or "".
func Ambiguous(root, v string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return ""
	}
	key := versionKey(v)
	for _, e := range entries {
		if n := e.Name(); n != v && ValidVersion(n) && versionKey(n) == key {
			return n
		}
	}
	return ""
}

// versionKey is the numeric form of a version: its numbers without
// leading zeros and without trailing .0 (v01, v1.0 and v1 give "1").
func versionKey(v string) string {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	for i, p := range parts {
		if p = strings.TrimLeft(p, "0"); p == "" {
			p = "0"
		}
		parts[i] = p
	}
	for len(parts) > 1 && parts[len(parts)-1] == "0" {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ".")
}

// MaxVersionLen is the longest version: the temporary folder of a commit
// (.<version>.tmp-<pid>-<random>-old) must fit in a file name of 255
// bytes.
const MaxVersionLen = 200

// Preflight finds, before any computing, what would stop a commit of
// version v into root: root that is not a folder, a version too long for
// a file name, a root (or the folder it would be made in) that cannot be
// written. The errors are for the user: what is wrong and what to do.
func Preflight(root, v string) error {
	if len(v) > MaxVersionLen {
		return fmt.Errorf("version of %d characters, longer than the %d a folder name allows here, expected a short version such as v2 or v2.1", len(v), MaxVersionLen)
	}
	dir := root
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				if dir == root {
					return fmt.Errorf("%s is a file, expected a folder for the bundle versions (or a path where one can be made)", root)
				}
				return fmt.Errorf("%s is a file, so the folder %s cannot be made, expected a folder", dir, root)
			}
			if fsName := pseudoFS(dir); fsName != "" {
				return fmt.Errorf("%s is on %s, a file system the kernel makes up (not files on a disk), expected a folder on a disk", dir, fsName)
			}
			if err := writable(dir); err != nil {
				return fmt.Errorf("%s cannot be written (%v), expected a folder you can write to", dir, err)
			}
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}
