package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForceReplacesOnlyBundles checks that -force replaces only a folder
// whose manifest.json is this tool's: a folder of anything else is left
// as it was (exit 2, a message that does not offer -force), with or
// without -force, also when its manifest.json is another tool's; and
// that a bundle is replaced.
func TestForceReplacesOnlyBundles(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	ch1 := filepath.Join(root, "v1", "thesis", "ch1.tex")
	if err := os.MkdirAll(filepath.Dir(ch1), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, ch1, []byte("c\n"))
	for _, manifest := range []string{"", `{"tool": "othertool 1.0", "version": "v1"}`, `{"tool": "paperbundle devel", "version": "v7"}`, "not json"} {
		if manifest != "" {
			writeFile(t, filepath.Join(root, "v1", "manifest.json"), []byte(manifest))
		}
		for _, args := range [][]string{{"-version", "v1", "-force"}, {"-version", "v1"}} {
			code, msg := runGuarded(t, append([]string{"build", "-q", "-config", cfg, "-out", root}, args...)...)
			if code != 2 || !strings.Contains(msg, "is not a bundle of paperbundle") || strings.Contains(msg, "-force") {
				t.Errorf("manifest %q, %v: exit %d, %q; want exit 2, not a bundle, no -force advice", manifest, args, code, msg)
			}
			if data, err := os.ReadFile(ch1); err != nil || string(data) != "c\n" {
				t.Fatalf("manifest %q, %v: ch1.tex: %q, %v", manifest, args, data, err)
			}
		}
	}
	// A bundle of this tool is replaced with -force.
	os.RemoveAll(filepath.Join(root, "v1"))
	for range 2 {
		if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root, "-version", "v1", "-force"); code != 0 {
			t.Fatalf("build -force over a bundle: exit %d: %s", code, msg)
		}
	}
}

// TestOutInsideBundle checks that a bundle root inside a bundle (or a
// bundle itself) is refused before anything is computed, and leaves the
// bundle valid; and that -out on a file system of the kernel is refused
// with a sentence.
func TestOutInsideBundle(t *testing.T) {
	v1 := builtBundle(t)
	root := filepath.Dir(v1)
	cfg := filepath.Join(filepath.Dir(root), "paper.yaml")
	for _, out := range []string{v1, filepath.Join(v1, "figures", "x")} {
		code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", out)
		if code != 2 || !strings.Contains(msg, "is inside the bundle "+v1) {
			t.Errorf("-out %s: exit %d, %q; want exit 2, inside the bundle", out, code, msg)
		}
	}
	if code, msg := runGuarded(t, "verify", v1); code != 0 {
		t.Errorf("verify after the refused builds: exit %d: %s", code, msg)
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", "/proc")
		if code != 2 || !strings.Contains(msg, "/proc is on proc, a file system the kernel makes up") {
			t.Errorf("-out /proc: exit %d, %q", code, msg)
		}
	}
}
