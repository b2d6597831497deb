package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/internal/termsafe"
)

// TestTerminalSafety checks that a bundle's text and file names reach the
// terminal with their control characters escaped: summary refuses a
// SUMMARY.md that differs from the manifest (exit 3, nothing printed),
// and verify names an extra file whose name holds an escape sequence
// escaped.
func TestTerminalSafety(t *testing.T) {
	v1 := builtBundle(t)
	if out, errs, code := runCmd("summary", v1); code != 0 || !strings.HasPrefix(out, "# test") {
		t.Fatalf("summary of an intact bundle: exit %d, %q, %q", code, out, errs)
	}
	attack := "\x1b]0;PWNED\a\x1b[2J"
	sm := filepath.Join(v1, "SUMMARY.md")
	orig, _ := os.ReadFile(sm)
	writeFile(t, sm, append(append([]byte{}, orig...), attack...))
	out, errs, code := runCmd("summary", v1)
	if code != exitCheck || out != "" || !strings.Contains(errs, "SUMMARY.md differs from its manifest") {
		t.Errorf("summary of an edited SUMMARY.md: exit %d, stdout %q, stderr %q; want exit 3, nothing printed", code, out, errs)
	}
	writeFile(t, sm, orig)

	// A file name with an escape sequence, extra in the bundle: verify
	// prints it escaped, through the same writer main uses.
	writeFile(t, filepath.Join(v1, "x"+attack), []byte("x"))
	var stdout, stderr bytes.Buffer
	err := runSafe(context.Background(), termsafe.Writer{W: &stdout}, &stderr, []string{"verify", v1})
	if exitCode(err) != exitCheck {
		t.Errorf("verify with an extra file: %v, want exit 3", err)
	}
	if strings.ContainsAny(stdout.String(), "\x1b\a") || !strings.Contains(stdout.String(), `EXTRA    x\x1b]0;PWNED\x07\x1b[2J`) {
		t.Errorf("verify printed %q", stdout.String())
	}
}

// TestInitRefusesControlNames checks that init never writes a control
// character into paper.yaml: a system file whose name holds one is
// refused (exit 2, the name escaped), and no paper.yaml is written.
func TestInitRefusesControlNames(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x\x1b[2Jy.csv")
	writeFile(t, f, []byte(goodCSV))
	out := filepath.Join(dir, "paper.yaml")
	_, errs, code := runCmd("init", "-out", out, f)
	if code != exitInput || !strings.Contains(errs, `x\x1b[2Jy.csv: the file name holds a control character`) {
		t.Errorf("init: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("init wrote paper.yaml")
	}
}
