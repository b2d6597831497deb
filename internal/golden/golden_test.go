package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what the helper reports.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.golden")
	if err := os.WriteFile(path, []byte("alpha\nbeta\ngamma\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	r := &recorder{TB: t}
	Check(r, path, []byte("alpha\nbeta\ngamma\n"))
	if len(r.errors) != 0 {
		t.Errorf("equal bytes reported: %q", r.errors)
	}

	r = &recorder{TB: t}
	Check(r, path, []byte("alpha\nBETA\ngamma\n"))
	if len(r.errors) != 1 {
		t.Fatalf("%d errors for a changed line, want 1", len(r.errors))
	}
	// go-cmp varies the white space of its report on purpose (so that no
	// test depends on it): compare the lines with their blanks collapsed.
	msg := r.errors[0]
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		lines = append(lines, strings.Join(strings.Fields(strings.ReplaceAll(l, "\u00a0", " ")), " "))
	}
	for _, want := range []string{`- "beta",`, `+ "BETA",`} {
		if !slices.Contains(lines, want) {
			t.Errorf("message lacks the line %q:\n%s", want, msg)
		}
	}
	for _, want := range []string{"-run '^TestCheck$' -update", path} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if slices.Contains(lines, `- "alpha",`) || slices.Contains(lines, `+ "alpha",`) {
		t.Errorf("an equal line is reported as changed:\n%s", msg)
	}

	r = &recorder{TB: t}
	Check(r, filepath.Join(dir, "absent.golden"), []byte("x"))
	if !r.fatal || !strings.Contains(r.errors[0], "-update writes it") {
		t.Errorf("a missing golden file: %q", r.errors)
	}

	r = &recorder{TB: t}
	CheckWith(r, path, []byte("anything"), func(want, got []byte) error { return nil })
	if len(r.errors) != 0 {
		t.Errorf("CheckWith with a comparison that accepts: %q", r.errors)
	}
}

func TestUpdate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "y.golden")
	*update = true
	defer func() { *update = false }()
	Check(t, path, []byte("new\n"))
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new\n" {
		t.Errorf("-update wrote %q, %v", b, err)
	}
}

func TestDiffBinary(t *testing.T) {
	if d := Diff([]byte{0xff, 1}, []byte{0xff, 2}); d == "" {
		t.Error("no diff for different bytes")
	}
	if d := Diff([]byte("a\n"), []byte("a\n")); d != "" {
		t.Errorf("diff of equal texts: %q", d)
	}
}
