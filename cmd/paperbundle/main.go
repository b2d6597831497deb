// Command paperbundle turns the per-query outputs of an evidence-retrieval
// or learning-to-rank pipeline into a versioned paper bundle: every metric of
// the metric contracts computed once with bootstrap confidence intervals,
// written as metrics_master.json, figures, tables.xlsx, LaTeX and CSV
// tables.
//
// Usage:
//
//	paperbundle build  [-config paper.yaml] [-version V] [-out DIR] [-force] [-q]
//	paperbundle check  [-config paper.yaml]       validate inputs and config only
//	paperbundle verify BUNDLE_DIR                 not implemented yet (exit 1)
//	paperbundle diff   BUNDLE_A BUNDLE_B          not implemented yet (exit 1)
//	paperbundle demo   -out DIR [-seed N]         write the demo dataset
//
// Exit status: 0 success; 1 internal error; 2 bad input or configuration
// (the message names file, line and column and what was expected); 3 a hard
// consistency check failed.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
)

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit makes the collector work harder before the heap of a
		// very large input (SPEC 11b: 1,000,000 queries) passes 4 GiB;
		// small inputs never come near it.
		debug.SetMemoryLimit(3 << 30)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "paperbundle:", err)
		os.Exit(exitCode(err))
	}
}
