package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSystemNamesCannotCollide: system names that read like the tail of a
// figure kind ("overlay" after roc_ and pr_, "state_x" after dynk_hist_
// beside "x" after dynk_hist_state_) build a full bundle in every format,
// and every system keeps its own figures beside the all-systems ones.
func TestSystemNamesCannotCollide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"overlay", "state_x", "x", "evidence"}
	yaml := "title: ids\nsystems:\n"
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n+".csv"), []byte(goodCSV), 0o644); err != nil {
			t.Fatal(err)
		}
		yaml += "  - {name: " + n + ", input: " + n + ".csv}\n"
	}
	yaml += "bootstrap: {resamples: 50}\n"
	cfg := filepath.Join(dir, "paper.yaml")
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	v1 := filepath.Join(root, "v1")
	for _, f := range []string{"report.html", "tables.xlsx", "figures/roc_overlay.svg", "figures/roc_overlay.pdf", "figures/roc_overlay.png",
		"figures/pr_overlay.svg", "figures/systems.svg"} {
		if _, err := os.Stat(filepath.Join(v1, f)); err != nil {
			t.Errorf("bundle lacks %s: %v", f, err)
		}
	}
	// One ROC figure and three Dynamic-K histograms per system.
	svgs, err := filepath.Glob(filepath.Join(v1, "figures", "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	count := func(prefix string) int {
		n := 0
		for _, p := range svgs {
			if strings.HasPrefix(filepath.Base(p), prefix) {
				n++
			}
		}
		return n
	}
	if got := count("roc_"); got != len(names)+1 {
		t.Errorf("%d ROC figures, want %d (one per system and the overlay): %v", got, len(names)+1, base(svgs))
	}
	if got := count("dynk_hist"); got != 3*len(names) {
		t.Errorf("%d Dynamic-K histograms, want %d: %v", got, 3*len(names), base(svgs))
	}
}

func base(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	slices.Sort(out)
	return out
}
