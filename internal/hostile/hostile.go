// Package hostile reads the shared corpus of hostile strings,
// testdata/hostile.txt (docs/reliability.md "Hostile strings"), for the tests of every renderer: one
// string per line, lines starting with "# " are comments, `\t` stands for
// a tab.
package hostile

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Path is the corpus file, found from this source file, so tests in any
// package read the same list.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "hostile.txt")
}

// Strings returns the hostile strings; it fails the test when the corpus
// cannot be read or holds fewer than ten strings.
func Strings(tb testing.TB) []string {
	tb.Helper()
	data, err := os.ReadFile(Path())
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		out = append(out, strings.ReplaceAll(line, `\t`, "\t"))
	}
	if len(out) < 10 {
		tb.Fatalf("%s: %d strings, expected at least 10 (testdata/hostile.txt)", Path(), len(out))
	}
	return out
}
