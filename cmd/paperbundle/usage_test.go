package main

import (
	"strings"
	"testing"
)

// With no arguments or -h, paperbundle prints a short manual with an
// example; without arguments it also says where to start (exit 2).
func TestUsageManual(t *testing.T) {
	out, errOut, code := runCmd()
	if code != 2 || !strings.Contains(errOut, "example") || !strings.Contains(errOut, "paperbundle init") ||
		!strings.Contains(errOut, "start with") {
		t.Errorf("no arguments: exit %d, stderr %q", code, errOut)
	}
	if out != "" {
		t.Errorf("no arguments wrote to stdout: %q", out)
	}
	for _, h := range []string{"-h", "--help", "help"} {
		out, _, code := runCmd(h)
		if code != 0 || !strings.Contains(out, "example") || !strings.Contains(out, "exit status") {
			t.Errorf("%s: exit %d, stdout %q", h, code, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 80 {
				t.Errorf("%s: line longer than 80 columns: %q", h, line)
			}
		}
	}
	_, errOut, code = runCmd("biuld")
	if code != 2 || !strings.Contains(errOut, "expected one of") {
		t.Errorf("misspelled subcommand: exit %d, %q", code, errOut)
	}
}
