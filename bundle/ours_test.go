package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitForceOnlyOurs checks that Commit with Force refuses to replace
// a folder that is not a bundle of this tool, and leaves it as it was.
func TestCommitForceOnlyOurs(t *testing.T) {
	for _, manifest := range []string{"", `{"tool": "other", "version": "v1"}`, `{"tool": "paperbundle x", "version": "v2"}`} {
		root := t.TempDir()
		keep := filepath.Join(root, "v1", "ch1.tex")
		os.MkdirAll(filepath.Dir(keep), 0o755)
		os.WriteFile(keep, []byte("c"), 0o644)
		if manifest != "" {
			os.WriteFile(filepath.Join(root, "v1", ManifestName), []byte(manifest), 0o644)
		}
		_, err := sample().Commit(CommitOptions{Root: root, Version: "v1", Force: true, Tool: "paperbundle test"})
		if err == nil || !strings.Contains(err.Error(), "not a bundle of paperbundle") {
			t.Errorf("manifest %q: %v, want not a bundle", manifest, err)
		}
		if b, err := os.ReadFile(keep); err != nil || string(b) != "c" {
			t.Errorf("manifest %q: ch1.tex %q, %v", manifest, b, err)
		}
	}
}

// TestEnclosing checks that a folder inside a bundle, and the bundle
// itself, are found to be in it; its root is not.
func TestEnclosing(t *testing.T) {
	root := t.TempDir()
	dir, err := sample().Commit(CommitOptions{Root: root, Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "figures"), filepath.Join(dir, "a", "b")} {
		if got := Enclosing(p); got != dir {
			t.Errorf("Enclosing(%s) = %q, want %s", p, got, dir)
		}
	}
	if got := Enclosing(root); got != "" {
		t.Errorf("Enclosing(root) = %q, want none", got)
	}
}
