package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"paperbundle/dataset/demo"
)

// demoProject writes the reduced demo dataset (demo.Reduced: every section
// of the full demo, a fifth of the posts) and returns its paper.yaml
// rewritten with the given cutoffs line and a small number of resamples
// (the tests check which files exist, the bytes' stability and what a
// diff flags, not the intervals).
func demoProject(t *testing.T, cutoffs string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the demo bundle")
	}
	p, err := writeDemoProject(t.TempDir(), cutoffs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// writeDemoProject is demoProject into dir.
func writeDemoProject(dir, cutoffs string) (string, error) {
	if err := demo.Write(dir, demo.Reduced()); err != nil {
		return "", err
	}
	p := filepath.Join(dir, "paper.yaml")
	y, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	s := regexp.MustCompile(`(?m)^cutoffs:.*$`).ReplaceAllString(string(y), "cutoffs: "+cutoffs)
	s = regexp.MustCompile(`resamples: *[0-9]+`).ReplaceAllString(s, "resamples: 50")
	if !strings.Contains(s, "cutoffs: "+cutoffs) || !strings.Contains(s, "resamples: 50") {
		return "", fmt.Errorf("demo paper.yaml has no cutoffs or resamples line to rewrite:\n%s", y)
	}
	return p, os.WriteFile(p, []byte(s), 0o644)
}

func buildTo(t *testing.T, cfg, root string) string {
	t.Helper()
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
		t.Fatalf("build %s: exit %d: %s", cfg, code, stderr)
	}
	return filepath.Join(root, "v1")
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestDemoCutoffsWithoutTen: the demo bundle with cutoffs [1, 3, 5, 20]
// has every table and figure of the default bundle, at the headline
// cutoff 5: the same files, per_criterion.csv with recall and nDCG at 5
// and no @10 column anywhere.
func TestDemoCutoffsWithoutTen(t *testing.T) {
	t.Parallel()
	def := sharedDemo(t).v1
	five := buildTo(t, demoProject(t, "[1, 3, 5, 20]"), filepath.Join(t.TempDir(), "b"))
	a, b := listFiles(t, def), listFiles(t, five)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("files differ:\ndefault: %v\n[1,3,5,20]: %v", a, b)
	}
	for _, want := range []string{"tables.xlsx", "tables/per_criterion.csv", "tables/scorecard.csv", "paper/preamble.tex", "paper/numbers.tex", "paper/tables/results.tex", "paper/tables/per_criterion.tex", "paper/example.tex", "figures/criteria_ranking_full.svg"} {
		if i := sort.SearchStrings(b, want); i == len(b) || b[i] != want {
			t.Errorf("bundle with cutoffs [1,3,5,20] lacks %s", want)
		}
	}
	data, err := os.ReadFile(filepath.Join(five, "tables", "per_criterion.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(recs[0], ",")
	for _, want := range []string{"rank.recall@5", "rank.recall@5_ci_low", "rank.ndcg@5"} {
		if !strings.Contains(head, want) {
			t.Errorf("per_criterion.csv header lacks %s: %s", want, head)
		}
	}
	for _, f := range b {
		if strings.HasSuffix(f, ".csv") && f != "per_query_metrics.csv" {
			d, _ := os.ReadFile(filepath.Join(five, f))
			if bytes.Contains(d, []byte("@10")) {
				t.Errorf("%s mentions @10 with cutoffs [1,3,5,20]", f)
			}
		}
	}
	// Every per-criterion recall@5 of a criterion row is a number.
	col := -1
	for j, h := range recs[0] {
		if h == "rank.recall@5" {
			col = j
		}
	}
	for _, r := range recs[1:] {
		if col < 0 || r[col] == "" {
			t.Errorf("per_criterion.csv: empty recall@5 in %v", r[:2])
		}
	}
}

// TestDemoBundleReproducible: the demo bundle built twice, on 1 and on 2
// cores, is byte-identical, tables.xlsx included. The 2-core build is the
// shared demo bundle, which this test (sequential, before the parallel
// ones) builds first.
func TestDemoBundleReproducible(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(2)
	d := sharedDemo(t)
	runtime.GOMAXPROCS(1)
	a := buildTo(t, d.cfg, filepath.Join(t.TempDir(), "one"))
	b := d.v1
	fa, fb := listFiles(t, a), listFiles(t, b)
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("file lists differ")
	}
	for _, f := range fa {
		if f == "manifest.json" {
			continue // holds the input paths, which differ between the two temp folders only if given absolutely
		}
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds (GOMAXPROCS 1 and 2)", f)
		}
	}
}
