package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyMachineFailures checks that a failure of the machine is no
// verdict on the bundle: a missing TMPDIR exits 1 naming it (was exit 3,
// "could not recompute"); and that a bundle replaced while verify reads
// it is seen (its stamp changes with a -force rebuild).
func TestVerifyMachineFailures(t *testing.T) {
	v1 := builtBundle(t)
	root := filepath.Dir(v1)
	dir := filepath.Dir(root)
	cfg := filepath.Join(dir, "paper.yaml")
	missing := filepath.Join(dir, "no-such-tmp")
	t.Setenv("TMPDIR", missing)
	_, errs, code := runCmd("verify", v1)
	if code != exitInternal || !strings.Contains(errs, "verify: "+missing+": ") || !strings.Contains(errs, "this machine failed") {
		t.Errorf("verify with TMPDIR missing: exit %d, %q; want exit 1 naming %s", code, errs, missing)
	}
	t.Setenv("TMPDIR", t.TempDir())
	before := bundleStamp(v1)
	if !bundleStamp(v1).same(before) {
		t.Fatal("the stamp of an unchanged bundle differs")
	}
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root, "-version", "v1", "-force"); code != 0 {
		t.Fatalf("build -force: exit %d: %s", code, msg)
	}
	if bundleStamp(v1).same(before) {
		t.Error("a bundle replaced with -force has the same stamp")
	}
}

// TestSourceDateEpochInvalid checks that a SOURCE_DATE_EPOCH that is set
// but not a whole number of seconds in range is exit 2 before anything is
// read (it was ignored, leaving the bundle undated).
func TestSourceDateEpochInvalid(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	for _, v := range []string{"yesterday", "1.5", "-1", "253402300800", "99999999999999999999"} {
		t.Setenv("SOURCE_DATE_EPOCH", v)
		code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", filepath.Join(dir, "out"))
		if code != exitInput || !strings.Contains(msg, "SOURCE_DATE_EPOCH: got ") {
			t.Errorf("SOURCE_DATE_EPOCH=%s: exit %d, %q; want exit 2", v, code, msg)
		}
	}
	if err := checkSourceDateEpoch("1767225600"); err != nil {
		t.Errorf("a valid epoch: %v", err)
	}
}

// TestStdoutWriteFailure checks, with the built binary, that a standard
// output that cannot be written is exit 1: /dev/full, and a pipe closed
// before the build prints (build | true), after which the bundle is
// committed and verifies and no claim is left.
func TestStdoutWriteFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		cmd := exec.Command(bin, "build", "-q", "-config", cfg, "-out", root)
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		full.Close()
		if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "could not write to the standard output") {
			t.Errorf("stdout /dev/full: exit %d, %v, %s", code, err, stderr.String())
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the build prints
	cmd := exec.Command(bin, "build", "-q", "-config", cfg, "-out", root, "-version", "v7")
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Run()
	w.Close()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("stdout a closed pipe: exit %d, %s", code, stderr.String())
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".claim") {
			t.Errorf("claim left: %s", e.Name())
		}
	}
	if code, msg := runGuarded(t, "verify", filepath.Join(root, "v7")); code != 0 {
		t.Errorf("verify v7: exit %d: %s", code, msg)
	}
}
