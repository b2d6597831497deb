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
//	paperbundle init   [-out paper.yaml] [-qrels FILE] FILE...  write a commented paper.yaml for these system files
//	paperbundle demo   -out DIR [-seed N]         write the demo dataset
//
// Exit status: 0 success; 1 internal error; 2 bad input or configuration
// (the message names file, line and column and what was expected); 3 a hard
// consistency check failed, or verify found a bundle that is not valid.
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
