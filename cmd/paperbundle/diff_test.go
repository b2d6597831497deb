package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"paperbundle/internal/golden"
)

// TestDiffDemo builds the demo bundle (40 resamples) and three variants in
// one folder, and compares each with the first. The golden files hold the
// text output:
//
//   - another seed: every metric value is the same (~; only intervals
//     move), the seed is listed as a changed setting and config key;
//   - calibration.bins 10 -> 15: the calibration metrics change, the
//     ranking ones stay ~;
//   - one system's ne_prob raised on its positive queries: its NE metrics
//     are flagged by paired tests (DeLong for AUROC), its ranking metrics
//     and every other system stay ~.
//
// v4's CHANGES.md and report.html compare it with v3, the version before
// it in the folder.
func TestDiffDemo(t *testing.T) {
	t.Parallel()
	// v1 is the shared demo bundle, copied; the other versions' configs
	// and data are new files beside the shared paper.yaml.
	d := sharedDemo(t)
	cfg := d.cfg
	dir := filepath.Dir(cfg)
	root := filepath.Join(t.TempDir(), "out")
	copyTree(t, d.v1, filepath.Join(root, "v1"))
	y, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	build := func(cfg, version string) string {
		t.Helper()
		if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", version, "-q"); code != 0 {
			t.Fatalf("build %s: exit %d: %s", version, code, stderr)
		}
		return filepath.Join(root, version)
	}
	v1 := filepath.Join(root, "v1")

	seed := regexp.MustCompile(`(?m)^seed:.*$`)
	reseeded := string(y)
	if seed.MatchString(reseeded) {
		reseeded = seed.ReplaceAllString(reseeded, "seed: 7")
	} else {
		reseeded += "seed: 7\n"
	}
	v2 := build(write("seed.yaml", reseeded), "v2")

	if strings.Contains(string(y), "calibration:") {
		t.Fatalf("demo paper.yaml sets calibration: the test adds it:\n%s", y)
	}
	v3 := build(write("bins.yaml", string(y)+"calibration: {bins: 15}\n"), "v3")

	// reranker's ne_prob + 0.15 on its positive queries (capped at 1).
	data, err := os.ReadFile(filepath.Join(dir, "data", "reranker.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	head := strings.Split(lines[0], ",")
	ip, ie := index(head, "ne_prob"), index(head, "has_evidence")
	if ip < 0 || ie < 0 || ie != len(head)-1 || ip != len(head)-2 {
		t.Fatalf("reranker.csv: ne_prob and has_evidence are not the last columns: %v", head)
	}
	for i := 1; i < len(lines); i++ {
		if !strings.HasSuffix(lines[i], ",1") {
			continue
		}
		cells := strings.Split(lines[i], ",")
		p := cells[ip]
		x, err := strconv.ParseFloat(p, 64)
		if err != nil {
			t.Fatalf("line %d: ne_prob %q", i+1, p)
		}
		cells[ip] = strconv.FormatFloat(min(1, x+0.15), 'f', 4, 64)
		lines[i] = strings.Join(cells, ",")
	}
	os.MkdirAll(filepath.Join(dir, "data2"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "data2", "reranker.csv"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	v4 := build(write("input.yaml", strings.Replace(string(y), "data/reranker.csv", "data2/reranker.csv", 1)), "v4")

	for _, c := range []struct{ name, b string }{{"seed", v2}, {"bins", v3}, {"input", v4}} {
		out, stderr, code := runCmd("diff", v1, c.b)
		if code != 0 {
			t.Fatalf("diff %s: exit %d: %s", c.name, code, stderr)
		}
		golden.Check(t, filepath.Join("testdata", "diff_demo_"+c.name+".golden"), []byte(strings.ReplaceAll(out, root, "ROOT")))
		checkDiffRows(t, c.name, v1, c.b)
	}
	ch, err := os.ReadFile(filepath.Join(v4, "CHANGES.md"))
	if err != nil || !bytes.HasPrefix(ch, []byte("# Changes since v3\n")) {
		t.Errorf("v4/CHANGES.md does not compare with v3: %v\n%.200s", err, ch)
	}
	html, err := os.ReadFile(filepath.Join(v4, "report.html"))
	if err != nil || !bytes.Contains(html, []byte(`id="sec-changes"`)) || !bytes.Contains(html, []byte("Changes since v3")) {
		t.Errorf("v4/report.html has no section Changes since v3: %v", err)
	}
}

func index(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// checkDiffRows asserts what each variant must change, independently of
// the golden bytes: which systems and metrics have changed rows (read from
// diff -format json), and which test decides the reranker's AUROC change.
func checkDiffRows(t *testing.T, name, a, b string) {
	t.Helper()
	out, stderr, code := runCmd("diff", "-format", "json", a, b)
	if code != 0 {
		t.Fatalf("diff -format json %s: exit %d: %s", name, code, stderr)
	}
	var c struct {
		Mode     string `json:"mode"`
		Settings []struct {
			Key, A, B string
		} `json:"settings_changed"`
		Rows []struct {
			System, ID, Slice, Verdict, Test string
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.Mode != "paired" {
		t.Errorf("%s: mode %s, want paired (same eval queries)", name, c.Mode)
	}
	var rows []string
	for _, r := range c.Rows {
		if r.Verdict == "listed" {
			continue
		}
		rows = append(rows, r.System+" "+r.ID+" "+r.Slice+" "+r.Verdict+" "+r.Test)
	}
	switch name {
	case "seed": // point estimates do not depend on the bootstrap seed
		seed := 0
		for _, s := range c.Settings {
			if s.Key == "seed" && s.A == "20260118" && s.B == "7" {
				seed++
			}
		}
		if len(rows) != 0 || seed != 1 || len(c.Settings) != 1 {
			t.Errorf("seed: changed rows %q and settings %v, want none and the seed listed once", rows, c.Settings)
		}
	case "bins": // only the binned calibration errors depend on the bins
		for _, r := range c.Rows {
			if r.Verdict != "listed" && r.ID != "ne.ece" && r.ID != "ne.ece_equal_mass" {
				t.Errorf("bins: row %v changed", r)
			}
		}
	case "input": // only the reranker changed, and its AUROC gain is DeLong-significant
		auroc := false
		for _, r := range c.Rows {
			if r.System != "reranker" {
				t.Errorf("input: row of %s changed: %v", r.System, r)
			}
			if r.ID == "ne.auroc" && r.Slice == "" {
				auroc = r.Verdict == "yes" && r.Test == "delong"
			}
		}
		if !auroc {
			t.Errorf("input: the reranker's ne.auroc is not flagged by the DeLong test:\n%s", out)
		}
	}
	if name != "seed" && len(rows) == 0 {
		t.Errorf("%s: no changed row", name)
	}
}
