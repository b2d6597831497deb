// Command pbbench measures the benchmark workloads of docs/performance.md
// ((a) demo, (b) 1,000,000 queries, (c) TREC run, (d) one demo-scale
// system) end to end. For each it
// runs `paperbundle build` as a separate process and prints its wall time,
// CPU time (user + sys), peak memory (max RSS) and the split by stage that
// the build writes with -stages (load, metrics, bootstrap, figures, html,
// xlsx, write, other; see cmd/paperbundle/stages.go):
//
//	(a) the demo, 14,770 queries x ~20 candidates, 5 folds with
//	    tune rows, 6 systems, B = 10,000;
//	(b) 1,000,000 queries x 20 candidates, one system, B = 1,000;
//	(c) a TREC run of 5,000 queries x 1,000 documents with graded qrels
//	    (3-120 relevant per query, grades 1-3), one system, B = 1,000; with
//	    a trec_eval binary it also times trec_eval on the same files for the
//	    measures both compute, prints the ratio of the times and whether
//	    the values agree to 1e-4;
//	(d) one demo-scale system (the demo's full system), B = 2,000,
//	    bootstrap unit query.
//
// After (a) it prints the size of the bundle's report.html and its
// DOMContentLoaded and load times opened from disk in headless Chromium
// (Debian's chromium; skipped when it is not on PATH), the median and max of
// 4 loads in fresh tabs after a warm-up: the budgets of docs/report.md are
// 4 MB and a DOMContentLoaded of 1 s.
//
// It is run by `make bench`; it is a measurement, not a test: it prints the
// numbers and never checks them against the targets.
//
// Usage:
//
//	pbbench [-bin bin/paperbundle] [-only a,b,c,d] [-trec_eval PATH] [-dir DIR]
//
// -trec_eval defaults to trec_eval on PATH; -trec_eval none skips it.
// docs/performance.md says how to build trec_eval v10.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/paperbundle", "paperbundle binary")
	only := flag.String("only", "a,b,c,d,e", "workloads to run, comma-separated (a demo, b 1,000,000 queries, c TREC run, d one system, e 2,000 criteria)")
	trecEval := flag.String("trec_eval", "", "trec_eval binary to compare (c) with (default: trec_eval on PATH; none: skip)")
	dir := flag.String("dir", "", "work folder (default: a temporary folder)")
	profiles := flag.String("profiles", "", "write each workload's CPU profile to DIR/<id>.prof (paperbundle build -cpuprofile)")
	flag.Parse()
	if err := run(*bin, *dir, *only, *trecEval, *profiles); err != nil {
		fmt.Fprintln(os.Stderr, "pbbench:", err)
		os.Exit(1)
	}
}

// A workload is one of the benchmark builds (docs/performance.md).
type workload struct {
	id, title, target string
	// prepare writes the inputs under dir and returns the configuration
	// file to build.
	prepare func(b *bench) (string, error)
	// after, if set, measures more on the finished bundle in out.
	after func(b *bench, out string) error
}

var workloads = []workload{
	{id: "a", title: "demo: 14,770 queries x ~20 candidates, 5 folds with tune rows, 6 systems, B = 10,000",
		target: "<= 2 s wall", prepare: (*bench).demoConfig,
		after: func(_ *bench, out string) error { measureReport(out); return nil }},
	{id: "b", title: "1,000,000 queries x 20 candidates, 1 system, B = 1,000",
		target: "<= 30 s wall, <= 2 GiB peak", prepare: (*bench).largeConfig},
	{id: "c", title: "TREC run: 5,000 queries x 1,000 documents, graded qrels (3-120 relevant), 1 system, B = 1,000",
		target: "<= 0.45 of trec_eval's time (-m all_trec)", prepare: (*bench).trecConfig, after: (*bench).compareTrecEval},
	{id: "d", title: "one demo-scale system: 14,770 queries, B = 2,000, unit query",
		target: "<= 1 s wall", prepare: (*bench).oneSystemConfig},
	{id: "e", title: "2,000 criteria x 2 posts (a 70 KB table), ranking and ne_prob, 1 system, B = 200",
		target: "<= 1 GiB peak (docs/reliability.md: figures draw at most 60 criteria)", prepare: (*bench).manyCriteriaConfig},
}

// bench is the state of one pbbench run.
type bench struct {
	bin      string // absolute path of paperbundle
	dir      string // work folder
	trecEval string // trec_eval binary, "" if none
	demo     string // the demo's folder once written
	last     usage  // of the last build
}

func run(bin, dir, only, trecEval, profiles string) error {
	want := map[string]bool{}
	for _, id := range strings.Split(only, ",") {
		id = strings.TrimSpace(id)
		known := false
		for _, w := range workloads {
			known = known || w.id == id
		}
		if !known {
			return fmt.Errorf("-only: unknown workload %q, expected a comma-separated list of a, b, c, d, e", id)
		}
		want[id] = true
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "pbbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	b := &bench{bin: abs, dir: dir}
	switch trecEval {
	case "none":
	case "":
		b.trecEval, _ = exec.LookPath("trec_eval")
	default:
		if b.trecEval, err = exec.LookPath(trecEval); err != nil {
			return fmt.Errorf("-trec_eval: %w", err)
		}
	}
	fmt.Printf("pbbench: %s, %d CPUs\n", bin, runtime.NumCPU())
	for _, w := range workloads {
		if !want[w.id] {
			continue
		}
		name := fmt.Sprintf("(%s) %s", w.id, w.title)
		cfg, err := w.prepare(b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out := filepath.Join(dir, "out_"+w.id)
		stagesFile := filepath.Join(dir, "stages_"+w.id+".txt")
		load := loadAverage()
		args := []string{"build", "-q", "-config", cfg, "-out", out, "-stages", stagesFile}
		if profiles != "" {
			if err := os.MkdirAll(profiles, 0o755); err != nil {
				return err
			}
			p, err := filepath.Abs(filepath.Join(profiles, w.id+".prof"))
			if err != nil {
				return err
			}
			args = append(args, "-cpuprofile", p)
		}
		u, err := measure(exec.Command(b.bin, args...))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		b.last = u
		fmt.Printf("%s\n    target %s; load average before: %s\n    %s\n", name, w.target, load, u)
		printStages(stagesFile, u.wall)
		if w.after != nil {
			if err := w.after(b, out); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		// The bundles of (b) and (c) hold gzip copies of inputs of hundreds
		// of MB: free the disk as we go.
		os.RemoveAll(out)
	}
	return nil
}

// usage is what one process cost.
type usage struct {
	wall, user, sys time.Duration
	peak            int64 // max RSS, bytes
}

func (u usage) cpu() time.Duration { return u.user + u.sys }

func (u usage) String() string {
	return fmt.Sprintf("wall %.2f s, CPU %.2f s (user %.2f s, sys %.2f s), peak memory %.0f MiB",
		u.wall.Seconds(), u.cpu().Seconds(), u.user.Seconds(), u.sys.Seconds(), float64(u.peak)/(1<<20))
}

// measure runs cmd, whose standard error goes to ours, and returns what it
// cost.
func measure(cmd *exec.Cmd) (usage, error) {
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return usage{}, fmt.Errorf("%s: %w", filepath.Base(cmd.Path), err)
	}
	u := usage{wall: time.Since(start), user: cmd.ProcessState.UserTime(), sys: cmd.ProcessState.SystemTime()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.peak = ru.Maxrss * 1024 // KiB on Linux
	}
	return u, nil
}

// printStages prints the stages file of a build (cmd/paperbundle/stages.go)
// with each stage's share of the process's wall time; the time before main
// and after the file was written is wall minus the file's total.
func printStages(path string, wall time.Duration) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Printf("    stages: %v\n", err)
		return
	}
	defer f.Close()
	fmt.Printf("    %-10s %8s %8s %8s %6s\n", "stage", "start s", "end s", "wall s", "share")
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		sec, err := strconv.ParseFloat(fs[3], 64)
		if err != nil {
			fmt.Printf("    stages: %s: bad line %q\n", path, sc.Text())
			return
		}
		if fs[0] == "total" {
			fmt.Printf("    %-10s %8s %8s %8.3f %5.1f%%  (process start to main, exit)\n", "outside", "", "", wall.Seconds()-sec, 100*(wall.Seconds()-sec)/wall.Seconds())
			continue
		}
		fmt.Printf("    %-10s %8s %8s %8.3f %5.1f%%\n", fs[0], fs[1], fs[2], sec, 100*sec/wall.Seconds())
	}
	if err := sc.Err(); err != nil {
		fmt.Printf("    stages: %v\n", err)
	}
}

// versionDir returns out/<version>, the single folder in out.
func versionDir(out string) (string, error) {
	entries, err := os.ReadDir(out)
	if err != nil {
		return "", err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("want one version folder in %s, found %d %q", out, len(dirs), dirs)
	}
	return filepath.Join(out, dirs[0]), nil
}

// loadAverage is the 1, 5 and 15 minute load average (Linux), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	fs := strings.Fields(string(b))
	if len(fs) < 3 {
		return "?"
	}
	return strings.Join(fs[:3], " ")
}
