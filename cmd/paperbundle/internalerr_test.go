package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"paperbundle/internal/par"
)

// TestPanicIsInternalError checks that a panic, in the command's goroutine
// or in a job of the worker pool, becomes exit status 1 with "internal
// error", the panic's value and what to report, the stack written to a
// file; never 2, the status of bad input.
func TestPanicIsInternalError(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for name, f := range map[string]func(){
		"command": func() { panic("boom") },
		"job": func() {
			par.Jobs(2, 10, func() func(int) {
				return func(k int) {
					if k == 3 {
						panic("boom")
					}
				}
			})
		},
	} {
		err := func() (err error) {
			defer recoverTo(&err)
			f()
			return nil
		}()
		if code := exitCode(err); code != exitInternal {
			t.Errorf("%s: exit %d, want %d", name, code, exitInternal)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "internal error (a bug in paperbundle, not a problem of the input): boom. Please report it with the stack trace in ") {
			t.Errorf("%s: message %q", name, msg)
			continue
		}
		file := regexp.MustCompile(`\S+paperbundle-crash-\S+\.txt`).FindString(msg)
		data, rerr := os.ReadFile(file)
		if rerr != nil || !strings.Contains(string(data), "panic: boom") || !strings.Contains(string(data), "internalerr_test.go") {
			t.Errorf("%s: stack file %q: %v\n%s", name, file, rerr, data)
		}
	}
}

// TestMemoryLimit checks the collector's limit: 1,900 MiB or 5.5 times
// the inputs, at most 90% of the machine's memory when it is known.
func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		inputs  int64
		machine uint64
		want    int64
	}{
		{0, 0, 1900 << 20},
		{0, 64 << 30, 1900 << 20},
		{1 << 30, 64 << 30, 11 << 29},
		{1 << 30, 0, 11 << 29},
		{0, 1 << 30, (1 << 30) / 10 * 9},
		{1 << 30, 2 << 30, (2 << 30) / 10 * 9},
	} {
		if got := memoryLimit(tc.inputs, tc.machine); got != tc.want {
			t.Errorf("memoryLimit(%d, %d) = %d, want %d", tc.inputs, tc.machine, got, tc.want)
		}
	}
}
