// Command paperbundle turns the per-query outputs of an evidence-retrieval
// or learning-to-rank pipeline into a versioned paper bundle: every metric of
// the metric contracts computed once with bootstrap confidence intervals,
// written as report.html, metrics_master.json, figures, tables.xlsx, LaTeX
// and CSV tables, with a manifest and a copy of the inputs.
//
// Usage:
//
//	paperbundle build  [-config paper.yaml] [-version V] [-out DIR] [-force] [-q]
//	paperbundle check  [-config paper.yaml]       validate inputs and config only
//	paperbundle verify BUNDLE_DIR                 check hashes, recompute from inputs/ (exit 3 if not valid)
//	paperbundle diff   [-format text|md|csv|json|html] [-all] BUNDLE_A BUNDLE_B
//	paperbundle summary BUNDLE_DIR                print SUMMARY.md (the ticket text)
//	paperbundle audit  [-bundle DIR] [-format text|json|md] [-all] FILE...  check a manuscript's numbers against the bundle
//	paperbundle init   [-out paper.yaml] [-qrels FILE] FILE...  write a commented paper.yaml for these system files
//	paperbundle demo   -out DIR [-seed N]         write the demo dataset
//	paperbundle version                           tool, Go and module versions (also -version)
//	paperbundle help [SUBCOMMAND]                 a usage page (also -h, SUBCOMMAND -h)
//
// Flags may follow the positional arguments. A mistyped subcommand or flag
// gets "did you mean ...?".
//
// Exit status: 0 success; 1 internal error (a panic) or a failure of the
// machine (a temporary folder missing or full, a file that cannot be read,
// a standard output that cannot be written); 2 bad input, configuration or
// usage (the message names file, line and column and what was expected; a
// bundle folder that does not exist is a usage error); 3 a hard consistency
// check failed, or verify found a bundle that is not valid; 130 interrupted
// by SIGINT, 143 by SIGTERM (nothing written). audit exits 1 when the
// manuscript disagrees with the bundle (a stale, mismatched or claimed
// number), so that a Makefile or CI job can stop on it.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"paperbundle/internal/interrupt"
	"paperbundle/internal/sysmem"
	"paperbundle/internal/termsafe"
)

// setMemoryLimit sets the collector's soft memory limit for inputs of
// inputBytes in all, unless the user set GOMEMLIMIT: 1,900 MiB, or 5.5
// times the inputs when that is more, and never more than 90% of the
// memory this process may use (the machine's or its control group's,
// sysmem.Total), so that the collector works harder before the kernel
// would kill the process. The live heap of a build peaks at about 4.5
// times its inputs (the parsed rows beside the raw bytes, then the
// report's columns and per-query rows beside the rows); the collector
// lets the heap grow to twice the live heap unless a limit stops it. With
// the limit the 1,000,000-query workload (b) of `make bench` stays under 2 GiB
// (docs/performance.md), and a larger input gets a limit that grows with
// it instead of a collector running without pause; small inputs never come
// near it.
func setMemoryLimit(inputBytes int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(memoryLimit(inputBytes, sysmem.Total()))
}

// memoryLimit is setMemoryLimit's limit for inputs of inputBytes on a
// machine of machine bytes (0: unknown).
func memoryLimit(inputBytes int64, machine uint64) int64 {
	lim := max(1900<<20, inputBytes*11/2)
	if m := int64(machine / 10 * 9); machine > 0 && m < lim {
		lim = m
	}
	return lim
}

// firstError is a writer that remembers its first write error; later
// writes are not attempted.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.w.Write(p)
	f.err = err
	return n, err
}

func main() {
	// SIGINT and SIGTERM cancel ctx; the first one restores the default
	// handling, so a second one ends the process at once, and a command
	// that has not returned within interrupt.Grace is ended with its
	// temporary files removed (internal/interrupt). First, so that a
	// signal at start-up is handled too.
	ctx, stop := interrupt.Notify(context.Background())
	setMemoryLimit(0)
	// A write to a closed pipe (paperbundle build | head -1) returns an
	// error instead of killing the process, so that the command's
	// clean-ups run (its claim on a version) and the status says so.
	signal.Ignore(syscall.SIGPIPE)
	// What the commands print can hold a bundle's text and file names:
	// control characters reach the terminal escaped (internal/termsafe).
	stdout := &firstError{w: termsafe.Writer{W: os.Stdout}}
	err := runSafe(ctx, stdout, os.Stderr, os.Args[1:])
	if err == nil && stdout.err != nil {
		// What the command did is done (a bundle committed stays), but
		// what it printed was lost: not a success.
		err = withStatus(exitInternal, fmt.Errorf("could not write to the standard output: %v", stdout.err))
	}
	stop()
	if s, ok := interrupt.Cause(ctx); ok && err != nil {
		// A command that completed before it saw the signal (a build past
		// its commit point) exits as usual.
		fmt.Fprintf(os.Stderr, "paperbundle: %v: stopped, nothing written\n", s)
		os.Exit(s.Status())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "paperbundle:", termsafe.Text(err.Error()))
		os.Exit(exitCode(err))
	}
}
