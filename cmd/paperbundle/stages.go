package main

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// This file times the stages of a build for `make bench` (its report splits the
// wall time by stage; docs/performance.md). `paperbundle build -stages FILE`
// writes, once the bundle is committed, one line per stage:
//
//	# stage    start      end  seconds   (seconds from process start)
//	load       0.004    1.812    1.808
//	metrics    1.812    2.290    0.478
//	...
//	other      0.000   13.250    0.311
//	total      0.000   13.250   13.250
//
// start and end are the first start and the last end of the stage's spans,
// seconds the sum of their durations; a stage that did not run shows "-"
// for both and 0 seconds. other is the time up to total that no span
// covers (flags, the comparison with the previous version, the JSON, CSV
// and LaTeX tables); spans may overlap, so stages may run concurrently.
// total is when the file is written. Offsets count from the
// initialization of package main, which is as close to the start of the
// process as Go code sees (the runtime and the imported packages start
// first; cmd/pbbench reports that difference).
//
// The stages, and where their spans are taken:
//
//	load       config and dataset.Load (run.go)
//	metrics    report.Compute up to its "bootstrap" progress step
//	bootstrap  report.Compute from that step on (bootstrap intervals,
//	           comparisons, checks)
//	figures    the figure catalogue and plot.Render (render.go)
//	html       chart options and report.html (render.go)
//	xlsx       tables.xlsx (render.go)
//	write      the input copies and bundle Commit (run.go)

// stage is one timed stage of a build.
type stage int

const (
	stageLoad stage = iota
	stageMetrics
	stageBootstrap
	stageFigures
	stageHTML
	stageXLSX
	stageWrite
	numStages
)

var stageNames = [numStages]string{"load", "metrics", "bootstrap", "figures", "html", "xlsx", "write"}

func (s stage) String() string { return stageNames[s] }

// processStart is the origin of the offsets of a stages file.
var processStart = time.Now()

// span is one timed interval of a stage, as offsets from processStart.
type span struct {
	start, end time.Duration
}

// stageClock records the spans of the stages of one build and writes them
// to the file its -stages flag names (it is that flag's flag.Value). With
// no file it records nothing. It is safe for concurrent use.
type stageClock struct {
	mu    sync.Mutex
	path  string
	spans [numStages][]span
}

// stages is the clock of the build of this process: render is shared with
// verify, so the clock is reached through this variable rather than a
// parameter. Only build sets its file.
var stages stageClock

func (c *stageClock) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.path
}

// Set names the file to write; it starts the clock.
func (c *stageClock) Set(path string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.path = path
	c.spans = [numStages][]span{}
	return nil
}

func (c *stageClock) on() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.path != ""
}

// begin starts a span of s and returns the function that ends it.
func (c *stageClock) begin(s stage) (end func()) {
	if !c.on() {
		return func() {}
	}
	start := time.Since(processStart)
	return func() {
		sp := span{start, time.Since(processStart)}
		c.mu.Lock()
		c.spans[s] = append(c.spans[s], sp)
		c.mu.Unlock()
	}
}

// compute begins the metrics stage of report.Compute. It returns the
// Progress callback for Compute, which calls next and, at Compute's
// "bootstrap" step (report/compute.go), ends metrics and begins bootstrap;
// and the function that ends whichever of the two is open when Compute
// returns.
func (c *stageClock) compute(next func(string)) (progress func(string), end func()) {
	var mu sync.Mutex
	endStage := c.begin(stageMetrics)
	progress = func(step string) {
		if step == "bootstrap" {
			mu.Lock()
			endStage()
			endStage = c.begin(stageBootstrap)
			mu.Unlock()
		}
		next(step)
	}
	end = func() {
		mu.Lock()
		endStage()
		endStage = func() {}
		mu.Unlock()
	}
	return progress, end
}

// write writes the stages file, if one was asked for (format above).
func (c *stageClock) write() error {
	total := time.Since(processStart)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.path == "" {
		return nil
	}
	var b bytes.Buffer
	sec := func(d time.Duration) float64 { return d.Seconds() }
	fmt.Fprintf(&b, "# %-9s %8s %8s %8s   (seconds from process start)\n", "stage", "start", "end", "seconds")
	var all []span
	for s := range numStages {
		sp := c.spans[s]
		if len(sp) == 0 {
			fmt.Fprintf(&b, "%-11s %8s %8s %8.3f\n", s, "-", "-", 0.0)
			continue
		}
		first, last, sum := sp[0].start, sp[0].end, time.Duration(0)
		for _, x := range sp {
			first, last, sum = min(first, x.start), max(last, x.end), sum+x.end-x.start
		}
		fmt.Fprintf(&b, "%-11s %8.3f %8.3f %8.3f\n", s, sec(first), sec(last), sec(sum))
		all = append(all, sp...)
	}
	fmt.Fprintf(&b, "%-11s %8.3f %8.3f %8.3f\n", "other", 0.0, sec(total), sec(total-covered(all)))
	fmt.Fprintf(&b, "%-11s %8.3f %8.3f %8.3f\n", "total", 0.0, sec(total), sec(total))
	return os.WriteFile(c.path, b.Bytes(), 0o644)
}

// covered is the length of the union of the spans.
func covered(spans []span) time.Duration {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var sum, end time.Duration
	for _, s := range spans {
		start := max(s.start, end)
		if s.end > start {
			sum += s.end - start
			end = s.end
		}
	}
	return sum
}
