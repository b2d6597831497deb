package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/bundle"
)

// TestUnchangedNeedsSameBuild builds two binaries from this tree with
// -buildvcs=false, so that both say "paperbundle devel" and carry no VCS
// stamp; the second differs in one string constant (the usage text of
// run.go, replaced through -overlay). After the first built v1, the same
// binary answers "unchanged", the second never does: it writes v2. The
// manifest records the sha256 of the executable that made the bundle.
func TestUnchangedNeedsSameBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	tmp := t.TempDir()
	src, err := os.ReadFile("run.go")
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "const usage = `paperbundle:", "const usage = `paperbundle (changed):", 1)
	if changed == string(src) {
		t.Fatal("run.go has no usage constant to change")
	}
	abs, err := filepath.Abs("run.go")
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(tmp, "overlay.json")
	repl := filepath.Join(tmp, "run.go")
	js, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: repl}})
	if err := os.WriteFile(repl, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		t.Fatal(err)
	}
	build := func(name string, extra ...string) string {
		bin := filepath.Join(tmp, name)
		args := append([]string{"build", "-buildvcs=false", "-o", bin}, extra...)
		if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
		return bin
	}
	first, second := build("first"), build("second", "-overlay", overlay)

	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	run := func(bin string) string {
		t.Helper()
		out, err := exec.Command(bin, "build", "-config", cfg, "-out", root, "-q").CombinedOutput()
		if err != nil {
			t.Fatalf("%s build: %v\n%s", filepath.Base(bin), err, out)
		}
		return string(out)
	}
	run(first)
	if out := run(first); !strings.Contains(out, "unchanged: v1 is current") {
		t.Errorf("the same binary again: %q, want 'unchanged: v1 is current'", out)
	}
	if out := run(second); strings.Contains(out, "unchanged") {
		t.Errorf("a binary differing in one constant answered %q; it must build a new version", out)
	}
	if _, err := os.Stat(filepath.Join(root, "v2", "manifest.json")); err != nil {
		t.Fatalf("the second binary wrote no v2: %v", err)
	}
	for v, bin := range map[string]string{"v1": first, "v2": second} {
		op, err := bundle.Open(filepath.Join(root, v))
		if err != nil {
			t.Fatal(err)
		}
		exe, _ := os.ReadFile(bin)
		sum := sha256.Sum256(exe)
		id := op.Manifest.ToolBuild
		if id == nil || id.SHA256 != hex.EncodeToString(sum[:]) || id.Version == "" {
			t.Errorf("%s manifest tool_build = %+v, want the sha256 of %s (%x)", v, id, filepath.Base(bin), sum)
		}
		if id != nil && (id.Revision != "" || id.Modified != nil) {
			t.Errorf("%s: a -buildvcs=false build records no VCS stamp, got %+v", v, id)
		}
	}
	// The second binary, run again, finds its own v2 current.
	if out := run(second); !strings.Contains(out, "unchanged: v2 is current") {
		t.Errorf("the second binary again: %q, want 'unchanged: v2 is current'", out)
	}
}
