package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentBuildsClaimVersions starts three builds without a
// version at once: each claims its own version (v1, v2, v3), none fails
// or suggests -force, and no claim is left behind.
func TestConcurrentBuildsClaimVersions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a binary and runs three builds")
	}
	bin := buildBinary(t)
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	var wg sync.WaitGroup
	outs := make([]string, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() {
			b, err := exec.Command(bin, "build", "-config", cfg, "-out", root, "-q").CombinedOutput()
			outs[i], errs[i] = string(b), err
		})
	}
	wg.Wait()
	for i := range 3 {
		if errs[i] != nil || strings.Contains(outs[i], "-force") {
			t.Errorf("build %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	entries, _ := os.ReadDir(root)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "latest v1 v2 v3" {
		t.Errorf("root holds %v, want latest, v1, v2, v3 and nothing else", names)
	}
	if to, err := os.Readlink(filepath.Join(root, "latest")); err != nil || to != "v3" {
		t.Errorf("latest -> %q (%v), want v3 (the newest, whichever build ended last)", to, err)
	}
}

// TestBuildTargetChecks: problems with where the bundle goes are found
// before computing, with exit 2 and the key of paper.yaml (or the flag).
func TestBuildTargetChecks(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	file := filepath.Join(dir, "afile")
	os.WriteFile(file, []byte("x"), 0o644)
	long := "v1" + strings.Repeat(".1", 150) // 302 characters, each number small
	n := 0
	withKey := func(key string) string {
		y, _ := os.ReadFile(cfg)
		n++
		p := filepath.Join(dir, "keyed"+string(rune('0'+n))+".yaml")
		os.WriteFile(p, append(y, []byte(key+"\n")...), 0o644)
		return p
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"v01 beside v1", []string{"-config", cfg, "-out", root, "-version", "v01"}, "-version: v01 is ambiguous beside the existing"},
		{"v1.0 beside v1 in paper.yaml", []string{"-config", withKey("version: v1.0"), "-out", root}, "keyed1.yaml:5:10: version: v1.0 is ambiguous"},
		{"-out a file", []string{"-config", cfg, "-out", file}, "-out: " + file + " is a file, expected a folder"},
		{"out: a file in paper.yaml", []string{"-config", withKey("out: afile")}, "keyed2.yaml:5:6: out: " + file + " is a file"},
		{"a folder under a file", []string{"-config", cfg, "-out", filepath.Join(file, "sub")}, "is a file, so the folder"},
		{"a 302-character version", []string{"-config", cfg, "-out", root, "-version", long}, "-version: version of 302 characters"},
		{"a long version in paper.yaml", []string{"-config", withKey("version: " + long), "-out", root}, "keyed3.yaml:5:10: version: version of 302 characters"},
	} {
		_, stderr, code := runCmd(append([]string{"build", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 2 {
		t.Errorf("root holds %d entries after the refused builds, want v1 and latest alone", len(entries))
	}
}

// TestReportSizeWarning: a report.html over its budget builds, with a
// warning that names what it grows with.
func TestReportSizeWarning(t *testing.T) {
	defer func(b int) { reportBudget = b }(reportBudget)
	reportBudget = 1000
	dir, cfg := writeProject(t, goodCSV)
	_, stderr, code := runCmd("build", "-config", cfg, "-out", filepath.Join(dir, "out"), "-q")
	if code != 0 || !strings.Contains(stderr, "paperbundle: warning: report.html is") || !strings.Contains(stderr, "1 system with their sections and figures") {
		t.Errorf("exit %d, stderr %q; want exit 0 and the size warning", code, stderr)
	}
}
