//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// twoTables returns two per-query tables of the same length that differ
// in their scores (every row of b ranks the gold candidate last).
func twoTables(rows int) (a, b []byte) {
	var sa, sb strings.Builder
	head := "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob\n"
	sa.WriteString(head)
	sb.WriteString(head)
	for i := range rows {
		fmt.Fprintf(&sa, "P%05d,A.1,%d,eval,s1,s1;s2;s3,0.9;0.5;0.1,0.8;0.1;0.1,0.%d\n", i, i%2, 1+i%9)
		fmt.Fprintf(&sb, "P%05d,A.1,%d,eval,s1,s1;s2;s3,0.1;0.5;0.9,0.8;0.1;0.1,0.%d\n", i, i%2, 9-i%9)
	}
	return []byte(sa.String()), []byte(sb.String())
}

// TestInputRewrittenDuringBuild rewrites an input in place, piece by
// piece, while builds read it: every build that succeeds records in its
// manifest the hash of the bytes it parsed, so verify, which recomputes
// the bundle from the copy of those bytes, finds it valid.
func TestInputRewrittenDuringBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("several builds and verifies")
	}
	a, b := twoTables(2000)
	dir, cfg := writeProject(t, string(a))
	root := filepath.Join(dir, "out")
	input := filepath.Join(dir, "sys.csv")
	f, err := os.OpenFile(input, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		// Flip the file between a and b in pieces of 4 KB, without
		// changing its size.
		for round := 0; !stop.Load(); round++ {
			src := a
			if round%2 == 1 {
				src = b
			}
			for off := 0; off < len(src) && !stop.Load(); off += 4096 {
				f.WriteAt(src[off:min(off+4096, len(src))], int64(off))
			}
		}
	})
	built := 0
	deadline := time.Now().Add(20 * time.Second)
	for i := 1; i <= 4 && time.Now().Before(deadline); i++ {
		v := fmt.Sprintf("v%d", i)
		_, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", v, "-q")
		if code != 0 {
			t.Logf("build %s: exit %d: %s", v, code, firstLine(stderr))
			continue
		}
		built++
		out, stderr, code := runCmd("verify", filepath.Join(root, v))
		if code != 0 {
			t.Errorf("verify %s of a build whose input was rewritten meanwhile: exit %d\n%s%s", v, code, out, stderr)
		}
	}
	stop.Store(true)
	wg.Wait()
	if built == 0 {
		t.Fatal("no build succeeded")
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestBuildFromFIFO builds from an input that is a FIFO (read once, as
// /dev/stdin would be): the manifest records the bytes written into it,
// and the bundle verifies.
func TestBuildFromFIFO(t *testing.T) {
	a, _ := twoTables(300)
	dir, cfg := writeProject(t, goodCSV)
	fifo := filepath.Join(dir, "sys.csv")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(a)
		w.Close()
	}()
	root := filepath.Join(dir, "out")
	done := make(chan struct{})
	var stderr string
	var code int
	go func() {
		defer close(done)
		_, stderr, code = runCmd("build", "-config", cfg, "-out", root, "-q")
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("build from a FIFO hangs")
	}
	if code != 0 {
		t.Fatalf("build from a FIFO: exit %d: %s", code, stderr)
	}
	m, err := os.ReadFile(filepath.Join(root, "v1", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"bytes": %d,`, len(a)); !strings.Contains(string(m), `"path": "sys.csv",`+"\n      "+want) {
		t.Errorf("manifest does not record sys.csv as %d bytes:\n%s", len(a), m)
	}
	if out, stderr, code := runCmd("verify", filepath.Join(root, "v1")); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, stderr)
	}
}

// TestDevZeroEverywhere: /dev/zero given to init, as -config, or as an
// input of check ends with exit 2 and the file, within seconds.
func TestDevZeroEverywhere(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "paper.yaml")
	os.WriteFile(cfg, []byte("title: t\nsystems:\n  - {name: sys, input: /dev/zero, format: jsonl}\n"), 0o644)
	for _, args := range [][]string{
		{"init", "-out", filepath.Join(dir, "p.yaml"), "/dev/zero"},
		{"check", "-config", "/dev/zero"},
		{"check", "-config", cfg},
	} {
		start := time.Now()
		_, stderr, code := runCmd(args...)
		if code != 2 || !strings.Contains(stderr, "/dev/zero:1") || !strings.Contains(stderr, "MiB") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v: took %v", args, d)
		}
	}
}
