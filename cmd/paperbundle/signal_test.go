//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptLimit is how long a process may take to end after a signal in
// these tests: the bound is one second (interrupt.Grace is 0.5 s); the
// slack is for a loaded test machine.
const interruptLimit = 2 * time.Second

// bigBootstrapProject is a small dataset with many resamples, so that the
// bootstrap and the steps around it take seconds.
func bigBootstrapProject(t *testing.T, resamples string) (dir, cfg string) {
	t.Helper()
	dir, cfg = writeProject(t, goodCSV)
	yaml := "title: test\nsystems:\n  - {name: sys, input: sys.csv}\nbootstrap: {resamples: " + resamples + "}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

// signalAfter starts cmd, sends sig after d (and again after d2 when d2 >
// 0), and returns the exit status and how long the process took to end
// after the first signal (0 when it ended before).
func signalAfter(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, d, d2 time.Duration) (status int, took time.Duration, stderr string) {
	t.Helper()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
		return exitStatus(t, err), 0, errb.String()
	case <-time.After(d):
	}
	sent := time.Now()
	_ = cmd.Process.Signal(sig)
	if d2 > 0 {
		select {
		case err = <-done:
			return exitStatus(t, err), time.Since(sent), errb.String()
		case <-time.After(d2):
		}
		_ = cmd.Process.Signal(sig)
	}
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("still running 30 s after %v", sig)
	}
	return exitStatus(t, err), time.Since(sent), errb.String()
}

func exitStatus(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()) // killed by the signal's default action, as a shell reports it
	}
	return ee.ExitCode()
}

// leftovers lists the entries of dir whose names start with prefix.
func leftovers(t *testing.T, dir, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// manyRowsProject is a dataset of 40,000 queries with few resamples, so
// that loading, the metrics and rendering take seconds.
func manyRowsProject(t *testing.T) (dir, cfg string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob\n")
	for i := range 40000 {
		fmt.Fprintf(&b, "P%05d,A.%d,%d,eval,s%d,s0;s1;s2;s3;s4,0.%03d;0.%03d;0.%03d;0.%03d;0.%03d,0.2;0.2;0.2;0.2;0.2,0.%03d\n",
			i, i%3, i%2, i%5, i*7%1000, i*13%1000, i*17%1000, i*19%1000, i*23%1000, i*29%1000)
	}
	return writeProject(t, b.String())
}

// checkInterrupted checks how a build into root signalled with sig ended
// (status, took after the signal; took 0: it ended before the signal): a
// build signalled after its commit point exits 0 with a v1 that verifies;
// otherwise it exits 128+sig, writes no v1 and says it was interrupted.
// Either way it ends within interruptLimit and leaves no temporary
// folder. It removes v1 for the next build.
func checkInterrupted(t *testing.T, bin, root, what string, sig syscall.Signal, status int, took time.Duration, stderr string) {
	t.Helper()
	want := 128 + int(sig)
	_, err := os.Stat(filepath.Join(root, "v1"))
	switch {
	case status == 0 && took == 0:
		t.Logf("%s: the build ended before the signal", what)
	case status == 0:
		if err != nil {
			t.Errorf("%s: exit 0 but no v1", what)
		} else if out, verr := exec.Command(bin, "verify", filepath.Join(root, "v1")).CombinedOutput(); verr != nil {
			t.Errorf("%s: signalled after its commit point, v1 does not verify: %s", what, out)
		}
	case status != want:
		t.Errorf("%s (%v): exit %d, want %d; stderr %s", what, sig, status, want, stderr)
	case err == nil:
		t.Errorf("%s: exit %d but v1 was written", what, status)
	case !strings.Contains(stderr, "interrupted by SIG"):
		t.Errorf("%s: stderr %q does not say the build was interrupted", what, stderr)
	}
	if took > interruptLimit {
		t.Errorf("%s: took %v to end after %v", what, took, sig)
	}
	if l := leftovers(t, root, "."); len(l) > 0 {
		t.Errorf("%s: temporary folders left: %v", what, l)
	}
	t.Logf("%s: %v -> exit %d after %v", what, sig.String(), status, took.Round(time.Millisecond))
	os.RemoveAll(filepath.Join(root, "v1"))
}

// TestBuildInterrupted sends SIGINT or SIGTERM to real builds at moments
// spread over two builds: one with a long bootstrap (50,000 resamples of
// a small dataset), one with 40,000 queries whose loading, metrics and
// rendering take about a second; and once the commit's temporary folder
// appears. Three moments a build (early, middle, late), both signals in
// each: every extra moment costs a build, and a build here costs about
// two CPU-seconds of make test.
// Each ends within interruptLimit with status 130 (143), no version
// folder and no temporary folder; or, signalled after its commit point,
// ends with 0 and a complete version. A second SIGINT ends a build at
// once.
func TestBuildInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs several builds of seconds each")
	}
	bin := buildBinary(t)
	type point struct {
		at  float64 // fraction of a build's span
		sig syscall.Signal
	}
	for _, p := range []struct {
		name   string
		dir    func(*testing.T) (string, string)
		points []point
	}{
		{"bootstrap", func(t *testing.T) (string, string) { return bigBootstrapProject(t, "50000") },
			[]point{{0.02, syscall.SIGINT}, {0.3, syscall.SIGTERM}, {0.6, syscall.SIGINT}}},
		{"40,000 queries", manyRowsProject,
			[]point{{0.05, syscall.SIGTERM}, {0.5, syscall.SIGINT}, {0.85, syscall.SIGTERM}}},
	} {
		dir, cfg := p.dir(t)
		root := filepath.Join(dir, "out")
		build := func() *exec.Cmd {
			return exec.Command(bin, "build", "-config", cfg, "-out", root, "-version", "v1", "-q")
		}
		// The span of one whole build. The input was just written and the
		// binary has run before, so nothing waits for the disk; a span
		// measured long only moves the late moments past the end, which
		// checkInterrupted logs as "ended before the signal".
		start := time.Now()
		if out, err := build().CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		span := time.Since(start)
		if err := os.RemoveAll(filepath.Join(root, "v1")); err != nil {
			t.Fatal(err)
		}
		for _, c := range p.points {
			status, took, stderr := signalAfter(t, build(), c.sig, time.Duration(c.at*float64(span)), 0)
			checkInterrupted(t, bin, root, fmt.Sprintf("%s, at %.0f%% of %v", p.name, 100*c.at, span.Round(time.Millisecond)), c.sig, status, took, stderr)
		}
		if p.name != "40,000 queries" {
			// Without a version: the claim of v1 is removed too.
			cmd := exec.Command(bin, "build", "-config", cfg, "-out", root, "-q")
			status, took, stderr := signalAfter(t, cmd, syscall.SIGINT, span*3/10, 0)
			checkInterrupted(t, bin, root, p.name+", no version, at 30%", syscall.SIGINT, status, took, stderr)
			continue
		}
		// At the commit: as soon as its temporary folder appears.
		cmd := build()
		var errb strings.Builder
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var sent time.Time
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if l := leftovers(t, root, ".v1.tmp-"); len(l) > 0 {
				sent = time.Now()
				cmd.Process.Signal(syscall.SIGINT)
				break
			}
		}
		err := cmd.Wait()
		took := time.Duration(0)
		if !sent.IsZero() {
			took = time.Since(sent)
		}
		checkInterrupted(t, bin, root, "at the commit", syscall.SIGINT, exitStatus(t, err), took, errb.String())
		// A second signal ends the process at once (default handling).
		status, took, _ := signalAfter(t, build(), syscall.SIGINT, span/3, 50*time.Millisecond)
		if status != 130 || took > interruptLimit {
			t.Errorf("two SIGINTs: exit %d after %v, want 130 at once", status, took)
		}
		if _, err := os.Stat(filepath.Join(root, "v1")); err == nil {
			t.Errorf("two SIGINTs: v1 was written")
		}
	}
}

// TestVerifyInterrupted interrupts verify while it recomputes: it ends
// with 130 and removes its temporary folder; a folder left by a killed
// verify (its process gone) is removed by the next verify.
func TestVerifyInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a bundle with a long bootstrap")
	}
	bin := buildBinary(t)
	dir, cfg := bigBootstrapProject(t, "100000")
	root := filepath.Join(dir, "out")
	if out, err := exec.Command(bin, "build", "-config", cfg, "-out", root, "-q").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	tmp := t.TempDir()
	verify := func() *exec.Cmd {
		cmd := exec.Command(bin, "verify", filepath.Join(root, "v1"))
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		return cmd
	}
	// A leftover of a verify killed long ago (pid 2^22+1 is above Linux's
	// pid_max default; its process is gone).
	stale := filepath.Join(tmp, "paperbundle-verify-4194305-123")
	if err := os.MkdirAll(filepath.Join(stale, "inputs"), 0o755); err != nil {
		t.Fatal(err)
	}
	status, took, stderr := signalAfter(t, verify(), syscall.SIGINT, time.Second, 0)
	if status != 130 || took > interruptLimit {
		t.Errorf("verify: exit %d after %v, want 130 within %v; stderr %s", status, took, interruptLimit, stderr)
	}
	if l := leftovers(t, tmp, "paperbundle-verify-"); len(l) > 0 {
		t.Errorf("verify interrupted: temporary folders left in TMPDIR: %v", l)
	}
	// SIGKILL leaves the folder; the next verify removes it.
	cmd := verify()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	killed := leftovers(t, tmp, "paperbundle-verify-")
	status, _, _ = signalAfter(t, verify(), syscall.SIGINT, 300*time.Millisecond, 0)
	if status != 130 && status != 0 {
		t.Errorf("verify after a killed one: exit %d", status)
	}
	for _, l := range leftovers(t, tmp, "paperbundle-verify-") {
		for _, k := range killed {
			if l == k {
				t.Errorf("the folder %s of a killed verify was not removed by the next one", l)
			}
		}
	}
}
