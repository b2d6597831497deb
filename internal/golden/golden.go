// Package golden compares what a test produced with a golden file under
// testdata and, when they differ, fails the test with a line diff of the
// two (github.com/google/go-cmp) and the command that accepts the change.
// `go test -update` rewrites the golden files instead. Every golden test of
// the module goes through this package, so the diff and the -update flag
// are the same everywhere.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the output the tests produce now")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the golden file at path (relative to the
// package's folder). When they differ it fails t with a line diff (- the
// file, + got); with -update it writes got to path, creating its folder.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	CheckWith(t, path, got, func(want, got []byte) error {
		if bytes.Equal(want, got) {
			return nil
		}
		return fmt.Errorf("differs (- %s, + got):\n%s", path, Diff(want, got))
	})
}

// CheckWith is Check with a comparison of its own: same returns nil when
// want and got match, else an error saying what differs (for files that
// are not text, such as PDF and PNG, or text compared with a tolerance).
func CheckWith(t testing.TB, path string, got []byte, same func(want, got []byte) error) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update writes it)", err, runPattern(t))
	}
	if err := same(want, got); err != nil {
		t.Errorf("%s: %v\n(if the change is intended: go test -run '%s' -update, and check the diff of %s)", path, err, runPattern(t), path)
	}
}

// Diff is a line diff of two texts: each line is a quoted string, lines
// only in want start with "-", lines only in got with "+", and runs of
// equal lines are elided. Text that is not UTF-8 is compared as bytes.
func Diff(want, got []byte) string {
	if !utf8.Valid(want) || !utf8.Valid(got) {
		return cmp.Diff(want, got)
	}
	return cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
}

// runPattern is the -run pattern of the test (the top-level name).
func runPattern(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return "^" + name + "$"
}
