package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestBundleBytesIndependentOfCores: the same inputs, configuration and seed
// give byte-identical bundles with GOMAXPROCS = 1 and 2: a bundle's bytes
// depend on its inputs, configuration and seed only.
func TestBundleBytesIndependentOfCores(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var dirs []string
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		root := filepath.Join(dir, "out"+string(rune('0'+procs)))
		if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
			t.Fatalf("GOMAXPROCS=%d: %s", procs, stderr)
		}
		dirs = append(dirs, filepath.Join(root, "v1"))
	}
	n := 0
	filepath.Walk(dirs[0], func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dirs[0], p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(dirs[1], rel))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between GOMAXPROCS=1 and 2", rel)
		}
		n++
		return nil
	})
	if n < 10 {
		t.Errorf("only %d files compared", n)
	}
}
