package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"paperbundle/internal/par"
)

// runSafe is run with a panic turned into an internal error (exit 1): a
// panic is a bug of the tool, never bad input, and the deferred clean-ups
// of the command (its temporary folder, its claim on a version) have run
// by the time it is recovered here.
func runSafe(ctx context.Context, stdout, stderr io.Writer, args []string) (err error) {
	defer recoverTo(&err)
	return run(ctx, stdout, stderr, args)
}

// recoverTo, deferred, turns a panic of its goroutine into an internal
// error stored in *err.
func recoverTo(err *error) {
	if v := recover(); v != nil {
		*err = internalError(v, debug.Stack())
	}
}

// internalError is the error of a recovered panic v: exit status 1, what
// happened and what to report. The stack goes to a file in the temporary
// folder (it is long, and the user needs it only to report the bug); a
// job's panic carries the stack of the goroutine that panicked.
func internalError(v any, stack []byte) error {
	var p *par.Panic
	if e, ok := v.(error); ok && errors.As(e, &p) {
		v, stack = p.Value, p.Stack
	}
	where := "(the stack trace could not be written)"
	if f, err := os.CreateTemp("", "paperbundle-crash-*.txt"); err == nil {
		fmt.Fprintf(f, "paperbundle %s: panic: %v\n\n%s", toolVersion(), v, stack)
		if f.Close() == nil {
			where = "with the stack trace in " + f.Name()
		}
	}
	return withStatus(exitInternal, fmt.Errorf("internal error (a bug in paperbundle, not a problem of the input): %v. Please report it %s, the command and its paper.yaml", v, where))
}
