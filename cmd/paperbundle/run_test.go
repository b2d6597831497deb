package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodCSV = `post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob
P1,A.1,0,eval,s1,s1;s2;s3,0.9;0.5;0.1,0.8;0.1;0.1,0.9
P1,A.2,0,eval,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.2
P2,A.1,0,eval,s2,s1;s2;s3,0.4;0.6;0.1,0.1;0.7;0.2,0.7
P2,A.2,0,eval,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.4
P3,A.1,1,eval,s3,s1;s2;s3,0.1;0.2;0.9,0.1;0.1;0.8,0.6
P3,A.2,1,eval,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.1
P4,A.1,1,eval,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.3
P4,A.2,1,eval,s1,s1;s2;s3,0.8;0.2;0.1,0.6;0.1;0.1,0.8
P3,A.1,0,tune,s3,s1;s2;s3,0.1;0.2;0.9,0.1;0.1;0.8,0.7
P3,A.2,0,tune,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.2
P1,A.1,1,tune,s1,s1;s2;s3,0.9;0.5;0.1,0.8;0.1;0.1,0.8
P1,A.2,1,tune,,s1;s2;s3,0.3;0.2;0.1,0.2;0.1;0.1,0.3
`

func writeProject(t *testing.T, csv string) (dir, cfg string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sys.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg = filepath.Join(dir, "paper.yaml")
	yaml := "title: test\nsystems:\n  - {name: sys, input: sys.csv}\nbootstrap: {resamples: 50}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

func runCmd(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, args)
	code := 0
	if err != nil {
		code = exitCode(err)
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), code
}

func TestBuildAndRefuseExisting(t *testing.T) {
	t.Parallel()
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"metrics_master.json", "manifest.json", "config.yaml", "per_query_metrics.csv", "METHODS.md"} {
		if _, err := os.Stat(filepath.Join(root, "v1", f)); err != nil {
			t.Errorf("bundle lacks %s: %v", f, err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	// The same version again is refused and left untouched.
	_, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q")
	if code != 2 || !strings.Contains(stderr, "already exists") {
		t.Errorf("rebuild of v1: exit %d, %q; want exit 2 'already exists'", code, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if !bytes.Equal(before, after) {
		t.Error("existing version was modified")
	}
	// Without -version, on the same configuration, inputs and tool, the
	// build writes nothing and says so (exit 0).
	stdout, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q")
	if code != 0 || !strings.Contains(stdout, "unchanged: v1 is current") {
		t.Fatalf("second build: exit %d, stdout %q, stderr %q; want 'unchanged: v1 is current'", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "v2")); err == nil {
		t.Error("an unchanged build wrote v2")
	}
	// -force without a version writes the next free version; -force with
	// a version replaces it.
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-force", "-q"); code != 0 {
		t.Fatalf("second build with -force: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "v2", "metrics_master.json")); err != nil {
		t.Errorf("second build with -force did not write v2: %v", err)
	}
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-force", "-q"); code != 0 {
		t.Fatalf("-force: %s", stderr)
	}
	again, _ := os.ReadFile(filepath.Join(root, "v2", "metrics_master.json"))
	v1, _ := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if bytes.Equal(again, v1) {
		t.Error("v1 and v2 should differ only in their version field, but are identical")
	}
	if !bytes.Equal(bytes.Replace(again, []byte(`"version": "v2"`), []byte(`"version": "v1"`), 1), v1) {
		t.Error("same inputs gave different metrics_master.json (beyond the version)")
	}
}

func TestBadInputWritesNothing(t *testing.T) {
	bad := strings.Replace(goodCSV, "0.9;0.5;0.1,0.8;0.1;0.1,0.9", "0.9;0.5,0.8;0.1;0.1,0.9", 1)
	dir, cfg := writeProject(t, bad)
	root := filepath.Join(dir, "out")
	_, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q")
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr %s", code, stderr)
	}
	if !strings.Contains(stderr, "sys.csv:2:") {
		t.Errorf("error does not name sys.csv line 2: %s", stderr)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("bundle root was created on bad input")
	}
}

func TestBadConfig(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	os.WriteFile(cfg, []byte("title: x\ncutof: [1]\nsystems:\n  - {name: sys, input: sys.csv}\n"), 0o644)
	_, stderr, code := runCmd("check", "-config", cfg)
	if code != 2 || !strings.Contains(stderr, "paper.yaml:2:1:") {
		t.Errorf("exit %d, %q; want exit 2 naming paper.yaml:2:1", code, stderr)
	}
	_ = dir
}

func TestCheckAndUsage(t *testing.T) {
	_, cfg := writeProject(t, goodCSV)
	if out, stderr, code := runCmd("check", "-config", cfg); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check: exit %d %q %q", code, out, stderr)
	}
	// Wrong arguments say what to give, exit 2.
	for _, args := range [][]string{{"verify", "a", "b"}, {"diff", "a"}, {"diff", "-format", "pdf", "a", "b"}} {
		if _, stderr, code := runCmd(args...); code != 2 || !strings.Contains(stderr, "give") && !strings.Contains(stderr, "want text") {
			t.Errorf("%v: exit %d %q", args, code, stderr)
		}
	}
	// Folders that are not bundles, and folders that do not exist: both
	// usage errors.
	empty := t.TempDir()
	if _, stderr, code := runCmd("diff", empty, empty); code != 2 || !strings.Contains(stderr, "not a bundle") {
		t.Errorf("diff of non-bundles: exit %d %q", code, stderr)
	}
	if _, stderr, code := runCmd("diff", "a", "b"); code != 2 || !strings.Contains(stderr, "no bundle folder at a") {
		t.Errorf("diff of missing folders: exit %d %q", code, stderr)
	}
	if _, _, code := runCmd("frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: exit %d, want 2", code)
	}
}

func TestFoldsNotPostDisjointExit3(t *testing.T) {
	// P2 is evaluated in fold 0 and again in fold 1: a hard consistency
	// failure (a post evaluated in two folds), exit 3, nothing written.
	dir, cfg := writeProject(t, strings.Replace(goodCSV, "P4,A.1,1,eval", "P2,A.1,1,eval", 1))
	root := filepath.Join(dir, "out")
	_, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q")
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("bundle root was created")
	}
}

// TestUnchangedRebuild: a build without a version writes a new version
// when an input, the configuration (besides version and out) changes, and
// nothing when only paper.yaml's comments or out: change.
func TestUnchangedRebuild(t *testing.T) {
	t.Parallel()
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	build := func() string {
		t.Helper()
		stdout, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q")
		if code != 0 {
			t.Fatalf("build: exit %d: %s", code, stderr)
		}
		return stdout
	}
	build()
	y, _ := os.ReadFile(cfg)
	// A comment and another out: leave the resolved configuration as it was.
	os.WriteFile(cfg, append([]byte("# a comment\nout: elsewhere\n"), y...), 0o644)
	if out := build(); !strings.Contains(out, "unchanged: v1 is current") {
		t.Errorf("comment and out: changed: %q", out)
	}
	// Another seed is another configuration.
	os.WriteFile(cfg, append([]byte("seed: 7\n"), y...), 0o644)
	if out := build(); strings.Contains(out, "unchanged") {
		t.Errorf("new seed: %q", out)
	}
	if _, err := os.Stat(filepath.Join(root, "v2", "manifest.json")); err != nil {
		t.Fatalf("new seed did not write v2: %v", err)
	}
	// A changed input is a new version.
	os.WriteFile(filepath.Join(dir, "sys.csv"), []byte(strings.Replace(goodCSV, "0.9;0.5;0.1,0.8;0.1;0.1,0.9", "0.9;0.5;0.1,0.8;0.1;0.1,0.85", 1)), 0o644)
	if out := build(); strings.Contains(out, "unchanged") {
		t.Errorf("changed input: %q", out)
	}
	if out := build(); !strings.Contains(out, "unchanged: v3 is current") {
		t.Errorf("rebuild of v3: %q", out)
	}
	for _, f := range []string{"SUMMARY.md", "CHANGES.md"} {
		if _, err := os.Stat(filepath.Join(root, "v3", f)); err != nil {
			t.Errorf("v3 lacks %s: %v", f, err)
		}
	}
	stdout, stderr, code := runCmd("summary", filepath.Join(root, "v3"))
	if code != 0 || !strings.HasPrefix(stdout, "# test — v3\n") || !strings.Contains(stdout, "## Changes since v2") || !strings.Contains(stdout, "`v3/report.html`") {
		t.Errorf("summary: exit %d, %q, %q", code, stdout, stderr)
	}
	// verify recomputes SUMMARY.md with the bundle's own change lines.
	if out, stderr, code := runCmd("verify", filepath.Join(root, "v3")); code != 0 {
		t.Errorf("verify v3: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, _, code := runCmd("summary", filepath.Join(root, "v9")); code != 2 {
		t.Errorf("summary of a missing folder: exit %d, want 2", code)
	}
}
