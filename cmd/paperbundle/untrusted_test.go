//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// copyBundle copies a bundle folder (regular files and folders only).
func copyBundle(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "v1")
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return dst
}

// runBounded runs the command in process and fails the test when it takes
// more than 20 s (a hang on a FIFO) or allocates more than maxAlloc bytes.
func runBounded(t *testing.T, maxAlloc uint64, args ...string) (string, string, int) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	type res struct {
		out, errOut string
		code        int
	}
	done := make(chan res, 1)
	go func() {
		o, e, c := runCmd(args...)
		done <- res{o, e, c}
	}()
	select {
	case r := <-done:
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > maxAlloc {
			t.Errorf("%v allocated %d MB, want at most %d MB", args, a>>20, maxAlloc>>20)
		}
		return r.out, r.errOut, r.code
	case <-time.After(20 * time.Second):
		t.Fatalf("%v still running after 20 s (reading a FIFO or a device?)", args)
	}
	return "", "", 0
}

// TestUntrustedBundle: verify and diff never follow a symbolic link, nor
// open a FIFO or a device inside a bundle (NOT A FILE, exit 3), and
// decompressing an input copy stops at the size the manifest records
// with constant memory (a gzip bomb whose manifest says 3 GiB).
func TestUntrustedBundle(t *testing.T) {
	good := builtBundle(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFO:", err)
	}
	link := func(dir, name, target string) {
		p := filepath.Join(dir, name)
		os.Remove(p)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	inputCopy := "inputs/sys.csv.gz"
	cases := []struct {
		name, file, target string
	}{
		{"input copy -> FIFO", inputCopy, fifo},
		{"metrics_master.json -> /dev/zero", "metrics_master.json", "/dev/zero"},
		{"manifest.json -> /dev/zero", "manifest.json", "/dev/zero"},
		{"config.yaml -> FIFO", "config.yaml", fifo},
		{"per_query_metrics.csv -> /dev/zero", "per_query_metrics.csv", "/dev/zero"},
	}
	for _, c := range cases {
		dir := copyBundle(t, good)
		link(dir, c.file, c.target)
		out, errOut, code := runBounded(t, 1<<30, "verify", dir)
		if code != 3 {
			t.Errorf("verify, %s: exit %d, want 3\n%s%s", c.name, code, out, errOut)
		}
		if c.file != "manifest.json" && !strings.Contains(out, "NOT A FILE "+c.file) {
			t.Errorf("verify, %s: no NOT A FILE line:\n%s", c.name, out)
		}
		if c.file == "manifest.json" && !strings.Contains(errOut, "not a regular file") {
			t.Errorf("verify, %s: %s", c.name, errOut)
		}
		if c.file == inputCopy {
			continue // diff reads no input copy
		}
		_, errOut, code = runBounded(t, 1<<30, "diff", good, dir)
		if code != 3 || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("diff, %s: exit %d, %s; want 3, not a regular file", c.name, code, errOut)
		}
	}

	// A gzip bomb: 256 MB of zeros in 250 KB, and a manifest whose input
	// record says 3 GiB (and whose files entry matches the bomb).
	dir := copyBundle(t, good)
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 256 {
		zw.Write(zero)
	}
	zw.Close()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(inputCopy)), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fixManifest(t, dir, inputCopy)
	mp := filepath.Join(dir, "manifest.json")
	raw, _ := os.ReadFile(mp)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, in := range m["inputs"].([]any) {
		if e := in.(map[string]any); e["copy"] == inputCopy {
			e["bytes"] = 3 << 30
		}
	}
	raw, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(mp, raw, 0o644)
	out, errOut, code := runBounded(t, 64<<20, "verify", dir)
	if code != 3 || !strings.Contains(out, "CHANGED  "+inputCopy) {
		t.Errorf("verify of a gzip bomb: exit %d, want 3 and CHANGED %s\n%s%s", code, inputCopy, out, errOut)
	}
}
