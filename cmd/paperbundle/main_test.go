package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// shared is a folder of the whole test run for what several tests share
// (the built binary, the default reduced demo bundle), made on first use
// and removed by TestMain.
var shared struct {
	once sync.Once
	dir  string
	err  error
}

func sharedDir() (string, error) {
	shared.once.Do(func() { shared.dir, shared.err = os.MkdirTemp("", "paperbundle-test-") })
	return shared.dir, shared.err
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// sharedBinary is the paperbundle binary built once for the tests that run
// it as a process (kills, signals, concurrent builds).
var sharedBinary = sync.OnceValues(func() (string, error) {
	dir, err := sharedDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "paperbundle")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// buildBinary returns the shared binary.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin, err := sharedBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// demoBundle is the reduced demo project with the default cutoffs and its
// bundle v1, built once: its paper.yaml and the bundle's folder. Tests
// only read them; a test that writes beside paper.yaml uses new names.
type demoBundle struct{ cfg, v1 string }

var sharedDemoOnce = sync.OnceValues(func() (demoBundle, error) {
	dir, err := sharedDir()
	if err != nil {
		return demoBundle{}, err
	}
	cfg, err := writeDemoProject(filepath.Join(dir, "demo"), "[1, 3, 5, 10, 20]")
	if err != nil {
		return demoBundle{}, err
	}
	root := filepath.Join(dir, "demo-out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
		return demoBundle{}, fmt.Errorf("build %s: exit %d: %s", cfg, code, stderr)
	}
	return demoBundle{cfg: cfg, v1: filepath.Join(root, "v1")}, nil
})

// sharedDemo returns the shared demo project and bundle (skipped in -short
// mode, like every build of the demo).
func sharedDemo(t *testing.T) demoBundle {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the demo bundle")
	}
	d, err := sharedDemoOnce()
	if err != nil {
		t.Fatal(err)
	}
	return d
}
