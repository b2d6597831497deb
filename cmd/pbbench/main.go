// Command pbbench measures the SPEC 11 workloads end to end: the wall time
// and peak memory of `paperbundle build` on (a) the seed-scale demo with
// B = 10,000 and (b) 1,000,000 queries x 20 candidates, one system,
// B = 1,000. After (a) it prints the size of the bundle's report.html and
// its DOMContentLoaded and load times opened from disk in headless Chromium
// (Debian's chromium; skipped when it is not on PATH), the median and max of
// 4 loads in fresh tabs after a warm-up: the SPEC 7 budgets are 4 MB and 1 s.
// It is run by `make bench`; it is a measurement, not a test: it prints the
// numbers and never checks them.
//
// Usage: pbbench [-bin bin/paperbundle] [-large=true] [-dir DIR]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/paperbundle", "paperbundle binary")
	large := flag.Bool("large", true, "also run the 1,000,000-query workload")
	dir := flag.String("dir", "", "work folder (default: a temporary folder)")
	flag.Parse()
	if err := run(*bin, *dir, *large); err != nil {
		fmt.Fprintln(os.Stderr, "pbbench:", err)
		os.Exit(1)
	}
}

func run(bin, dir string, large bool) error {
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
	demo := filepath.Join(dir, "demo")
	if err := exec.Command(abs, "demo", "-out", demo).Run(); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := measure("(a) demo: 14,770 queries x ~20 candidates, 6 systems, B = 10,000", abs,
		"build", "-q", "-config", filepath.Join(demo, "paper.yaml"), "-out", filepath.Join(dir, "out_a")); err != nil {
		return err
	}
	measureReport(filepath.Join(dir, "out_a"))
	if !large {
		return nil
	}
	big := filepath.Join(dir, "big")
	if err := writeLarge(big, 1_000_000, 20); err != nil {
		return err
	}
	return measure("(b) 1,000,000 queries x 20 candidates, 1 system, B = 1,000", abs,
		"build", "-q", "-config", filepath.Join(big, "paper.yaml"), "-out", filepath.Join(dir, "out_b"))
}

// measure runs the command and prints its wall time and peak RSS.
func measure(name, bin string, args ...string) error {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	wall := time.Since(start)
	peak := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss * 1024
	}
	fmt.Printf("%s\n    wall %.2f s, peak memory %.0f MiB, user %.2f s\n", name, wall.Seconds(), float64(peak)/(1<<20), cmd.ProcessState.UserTime().Seconds())
	return nil
}

// writeLarge writes a one-system dataset of n queries (10 criteria per
// post, 5 folds, no tune rows so thresholds are cross-fitted) with k
// candidates each.
func writeLarge(dir string, n, k int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "big.csv"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob\n")
	r := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	for q := 0; q < n; q++ {
		post := q / 10
		buf = buf[:0]
		buf = append(buf, 'P')
		buf = strconv.AppendInt(buf, int64(post), 10)
		buf = append(buf, ",A."...)
		buf = strconv.AppendInt(buf, int64(q%10+1), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(post%5), 10)
		buf = append(buf, ",eval,"...)
		pos := r.Float64() < 0.0934
		nGold := 0
		if pos {
			nGold = 1 + r.IntN(3)
			for g := 0; g < nGold; g++ {
				if g > 0 {
					buf = append(buf, ';')
				}
				buf = append(buf, 's')
				buf = strconv.AppendInt(buf, int64(g), 10)
			}
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			buf = append(buf, 's')
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			s := r.NormFloat64()
			if c < nGold {
				s += 1.5
			}
			buf = strconv.AppendFloat(buf, float64(int(s*1000))/1000, 'f', -1, 64)
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			p := r.Float64() * 0.2
			if c < nGold {
				p += 0.5
			}
			buf = strconv.AppendFloat(buf, float64(int(p*1000))/1000, 'f', -1, 64)
		}
		buf = append(buf, ',')
		p := r.Float64() * 0.5
		if pos {
			p += 0.4
		}
		buf = strconv.AppendFloat(buf, float64(int(p*10000))/10000, 'f', -1, 64)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	cfg := "title: large benchmark\nsystems:\n  - {name: big, input: big.csv}\nbootstrap: {resamples: 1000}\n"
	return os.WriteFile(filepath.Join(dir, "paper.yaml"), []byte(cfg), 0o644)
}
