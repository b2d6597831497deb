package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInit: init writes a paper.yaml that check accepts and build uses,
// never overwrites it, and says what is wrong with a file it cannot use.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	sys := filepath.Join(dir, "runs", "My Reranker.csv")
	os.MkdirAll(filepath.Dir(sys), 0o755)
	if err := os.WriteFile(sys, []byte(goodCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "paper.yaml")
	out, stderr, code := runCmd("init", "-out", cfg, sys)
	if code != 0 || !strings.Contains(out, "paperbundle build -config") {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	y, _ := os.ReadFile(cfg)
	for _, want := range []string{`name: my_reranker`, `label: "My Reranker"`, `input: "runs/My Reranker.csv"`, "bootstrap: {resamples: 10000", "# "} {
		if !strings.Contains(string(y), want) {
			t.Errorf("paper.yaml lacks %q:\n%s", want, y)
		}
	}
	if out, stderr, code := runCmd("check", "-config", cfg); code != 0 {
		t.Errorf("check of the written paper.yaml: exit %d\n%s%s", code, out, stderr)
	}
	if _, stderr, code := runCmd("init", "-out", cfg, sys); code != exitInput || !strings.Contains(stderr, "never overwritten") {
		t.Errorf("second init: exit %d %q", code, stderr)
	}
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, nil, 0o644)
	other := filepath.Join(dir, "other.yaml")
	for _, c := range []struct{ file, want string }{
		{empty, "is empty"},
		{filepath.Join(dir, "runs"), "is a directory"},
		{filepath.Join(dir, "missing.csv"), "no such file"},
		{cfg, "lacks post_id"},
	} {
		if _, stderr, code := runCmd("init", "-out", other, c.file); code != exitInput || !strings.Contains(stderr, c.want) {
			t.Errorf("init %s: exit %d %q, want %q", c.file, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a failed init wrote its paper.yaml")
	}
	if _, stderr, code := runCmd("init"); code != exitInput || !strings.Contains(stderr, "name the files") {
		t.Errorf("init without files: exit %d %q", code, stderr)
	}
}
