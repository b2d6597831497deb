package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLatestAndCopyTo: after two builds, root/latest is a relative link
// to v2 and a manuscript inputs latest/paper/numbers.tex unchanged;
// paper.copy_to holds v2's paper/ (a file v1 had and v2 lacks is gone);
// a copy_to folder holding a file of the author's is refused before
// anything is computed, exit 2, and the file is untouched.
func TestLatestAndCopyTo(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	y, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(y, []byte("paper: {copy_to: manuscript/pb}\n")...), 0o644)
	root := filepath.Join(dir, "out")
	for i := 0; i < 2; i++ {
		if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q", "-force"); code != 0 {
			t.Fatalf("build %d: exit %d: %s", i+1, code, stderr)
		}
	}
	if to, err := os.Readlink(filepath.Join(root, "latest")); err != nil || to != "v2" {
		t.Fatalf("latest -> %q (%v), want v2", to, err)
	}
	latest, _ := os.ReadFile(filepath.Join(root, "latest", "paper", "numbers.tex"))
	v2, _ := os.ReadFile(filepath.Join(root, "v2", "paper", "numbers.tex"))
	copied, _ := os.ReadFile(filepath.Join(dir, "manuscript", "pb", "numbers.tex"))
	if len(v2) == 0 || string(latest) != string(v2) || string(copied) != string(v2) {
		t.Errorf("latest/paper/numbers.tex (%d bytes) and the copy (%d) differ from v2's (%d)", len(latest), len(copied), len(v2))
	}
	if _, err := os.Stat(filepath.Join(dir, "manuscript", "pb", ".paperbundle-copy")); err != nil {
		t.Errorf("the copy has no marker: %v", err)
	}
	// An unchanged rebuild writes no version but restores a copy that
	// was removed.
	os.RemoveAll(filepath.Join(dir, "manuscript"))
	if stdout, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q"); code != 0 || !strings.Contains(stdout, "unchanged") {
		t.Fatalf("rebuild: exit %d, %q, %q; want unchanged", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "manuscript", "pb", "numbers.tex")); string(b) != string(v2) {
		t.Error("an unchanged rebuild did not restore the copy")
	}
	mine := filepath.Join(dir, "manuscript", "pb", "intro.tex")
	os.WriteFile(mine, []byte("my text"), 0o644)
	_, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q", "-force")
	if code != 2 || !strings.Contains(stderr, "intro.tex, which paperbundle did not write") {
		t.Errorf("copy_to with the author's file: exit %d, %q; want exit 2 naming intro.tex", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "v3")); err == nil {
		t.Error("a refused copy_to still wrote v3")
	}
	if b, _ := os.ReadFile(mine); string(b) != "my text" {
		t.Error("the author's file was touched")
	}
}
