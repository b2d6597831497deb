package bundle

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// TempDir makes a temporary folder named <prefix><pid>-<random> in dir
// (os.TempDir() when dir is ""), after removing the folders of that form
// left there by processes that are gone (a killed verify) or older than
// LeftoverAge.
func TempDir(dir, prefix string) (string, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	RemoveStale(dir, prefix)
	return os.MkdirTemp(dir, prefix+strconv.Itoa(os.Getpid())+"-*")
}

// RemoveStale removes the folders <prefix><pid>-... in dir whose process
// is gone or that are older than LeftoverAge. Errors are ignored.
func RemoveStale(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil {
			continue // not one of ours
		}
		info, ierr := e.Info()
		if pidAlive(pid) && ierr == nil && time.Since(info.ModTime()) <= LeftoverAge {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
