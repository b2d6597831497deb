package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{"v1": true, "v2.0": true, "v10.3.1": true, "1": false, "v": false, "v1.": false, "v1/../x": false, "V1": false} {
		if got := ValidVersion(v); got != want {
			t.Errorf("ValidVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestCommitAtomicAndRefuses(t *testing.T) {
	root := t.TempDir()
	if v, _ := NextVersion(root); v != "v1" {
		t.Fatalf("NextVersion of empty root = %s", v)
	}
	b := New()
	b.Add("metrics_master.json", []byte("{}\n"))
	b.Add("figures/a.svg", []byte("<svg/>"))
	dir, err := b.Commit(CommitOptions{Root: root, Version: "v1", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"metrics_master.json", "figures/a.svg", ManifestName} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// No temporary folder is left beside it.
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("root holds %d entries, want only v1", len(entries))
	}
	b2 := New()
	b2.Add("metrics_master.json", []byte("changed"))
	if _, err := b2.Commit(CommitOptions{Root: root, Version: "v1"}); !errors.Is(err, ErrExists) {
		t.Errorf("second commit of v1: %v, want ErrExists", err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "metrics_master.json"))
	if string(got) != "{}\n" {
		t.Errorf("existing version modified: %q", got)
	}
	if _, err := b2.Commit(CommitOptions{Root: root, Version: "v1", Force: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(dir, "metrics_master.json"))
	if string(got) != "changed" {
		t.Errorf("-force did not replace: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "figures")); !os.IsNotExist(err) {
		t.Errorf("-force kept a file of the old version")
	}
	if v, _ := NextVersion(root); v != "v2" {
		t.Errorf("NextVersion = %s, want v2", v)
	}
}
