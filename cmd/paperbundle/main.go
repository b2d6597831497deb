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
// Exit status: 0 success; 1 internal error; 2 bad input, configuration or
// usage (the message names file, line and column and what was expected; a
// bundle folder that does not exist is a usage error); 3 a hard consistency
// check failed, or verify found a bundle that is not valid; 130 interrupted
// by SIGINT, 143 by SIGTERM (nothing written).
package main

import (
	"context"
	"fmt"
	"os"

	"paperbundle/internal/interrupt"
	"runtime/debug"
)

// setMemoryLimit sets the collector's soft memory limit for inputs of
// inputBytes in all, unless the user set GOMEMLIMIT: 1,900 MiB, or 5.5
// times the inputs when that is more. The live heap of a build peaks at
// about 4.5 times its inputs (the parsed rows beside the raw bytes, then
// the report's columns and per-query rows beside the rows); the collector
// lets the heap grow to twice the live heap unless a limit stops it. With
// the limit the 1,000,000-query workload (b) of `make bench` stays under 2 GiB
// (docs/performance.md), and a larger input gets a limit that grows with
// it instead of a collector running without pause; small inputs never come
// near it.
func setMemoryLimit(inputBytes int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(max(1900<<20, inputBytes*11/2))
}

func main() {
	setMemoryLimit(0)
	// SIGINT and SIGTERM cancel ctx; the first one restores the default
	// handling, so a second one ends the process at once, and a command
	// that has not returned within interrupt.Grace is ended with its
	// temporary files removed (internal/interrupt).
	ctx, stop := interrupt.Notify(context.Background())
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if s, ok := interrupt.Cause(ctx); ok && err != nil {
		// A command that completed before it saw the signal (a build past
		// its commit point) exits as usual.
		fmt.Fprintf(os.Stderr, "paperbundle: %v: stopped, nothing written\n", s)
		os.Exit(s.Status())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "paperbundle:", err)
		os.Exit(exitCode(err))
	}
}
