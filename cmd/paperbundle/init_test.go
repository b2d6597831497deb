package main

import (
	"bytes"
	"compress/gzip"
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
		{cfg, "missing columns post_id (or query_id), gold_uids, candidate_uids and candidate_scores"},
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

// TestInitTREC: flags may follow the files (`init a.run b.run -qrels q`),
// a run may start with '#' comment lines and carry fields after the tag,
// and the paper.yaml written has trec_eval's defaults (its cutoffs,
// linear gain, the trec: conventions); check accepts it.
func TestInitTREC(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	q := write("qrels.txt", "# judged by NIST\nq1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n")
	a := write("bm25.run", "# ir_metadata: run bm25\nq1 Q0 d1 1 0.9 bm25 extra\nq2 Q0 d3 1 0.5 bm25\n")
	b := write("dense.run", "q1 Q0 d2 1 0.9 dense\nq2 Q0 d3 1 0.5 dense\n")
	cfg := filepath.Join(dir, "paper.yaml")
	out, stderr, code := runCmd("init", a, b, "-qrels", q, "-out", cfg)
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	y, _ := os.ReadFile(cfg)
	for _, want := range []string{
		"cutoffs: [5, 10, 15, 20, 30, 100, 200, 500, 1000]",
		"ndcg_gain: linear",
		"trec: {relevance_level: 1, no_relevant: zero, missing_run: skip}",
		`qrels: "qrels.txt"`, "format: trec",
	} {
		if !strings.Contains(string(y), want) {
			t.Errorf("paper.yaml lacks %q:\n%s", want, y)
		}
	}
	if out, stderr, code := runCmd("check", "-config", cfg); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}

// TestInitKeys: the paper.yaml of init says what the primary system is and
// what comparisons does, and writes only the keys that apply to the
// files: TREC runs get no NE gate, calibration or Dynamic-K keys; a CSV
// with ne_prob and node_probs gets them all. Both pass check.
func TestInitKeys(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "full.csv")
	os.WriteFile(csv, []byte(goodCSV), 0o644)
	run := filepath.Join(dir, "bm25.run")
	os.WriteFile(run, []byte("q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\n"), 0o644)
	qrels := filepath.Join(dir, "qrels.txt")
	os.WriteFile(qrels, []byte("q1 0 d1 1\n"), 0o644)
	for _, tc := range []struct {
		name  string
		args  []string
		has   []string
		hasnt []string
	}{
		{"csv", []string{csv}, []string{"fpr_targets:", "operating_points: [0.5]", "calibration:", "gate:", "dynamic_k:", "cutoffs:", "strata:"}, nil},
		{"trec", []string{"-qrels", qrels, run}, []string{"cutoffs:", "strata:"}, []string{"fpr_targets", "operating_points", "calibration", "gate:", "dynamic_k"}},
	} {
		cfg := filepath.Join(dir, tc.name+".yaml")
		if _, stderr, code := runCmd(append([]string{"init", "-out", cfg}, tc.args...)...); code != 0 {
			t.Fatalf("%s: init exit %d %s", tc.name, code, stderr)
		}
		b, _ := os.ReadFile(cfg)
		y := string(b)
		for _, want := range append(tc.has, "# primary: <name>", "the first one listed", "comparisons: primary",
			"the primary against every other system", "a positive difference", "reference: every system against reference_system",
			"ladder:", "all_pairs:", "significance: {alpha: 0.05, correction: holm}", "targets: none") {
			if !strings.Contains(y, want) {
				t.Errorf("%s: paper.yaml lacks %q:\n%s", tc.name, want, y)
			}
		}
		for _, not := range tc.hasnt {
			if strings.Contains(y, not) {
				t.Errorf("%s: paper.yaml has %q, which does not apply:\n%s", tc.name, not, y)
			}
		}
		if out, stderr, code := runCmd("check", "-config", cfg); code != 0 {
			t.Errorf("%s: check of the written paper.yaml: exit %d\n%s%s", tc.name, code, out, stderr)
		}
	}
}

// TestInitFormats: init accepts every layout and format a build reads
// (the long layout, a classifier-only table, TSV, gzip, Parquet by its
// magic number), writes format: when the name does not tell it, and
// tells a header what it lacks for its closest layout.
func TestInitFormats(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("query_id,label,ne_score\nq1,1,2.5\nq2,0,-1\n"))
	zw.Close()
	files := map[string]string{
		"long.csv":        "post_id,candidate_uid,score,is_gold\np1,s1,0.5,1\n",
		"clf.csv.gz":      z.String(),
		"wide.tsv":        "post_id\tgold_uids\tcandidate_uids\tcandidate_scores\np1\ts1\ts1\t0.5\n",
		"table.txt":       "post_id\tgold_uids\tcandidate_uids\tcandidate_scores\np1\ts1\ts1\t0.5\n",
		"noscore.csv":     "post_id,gold_uids,candidate_uids\np1,s1,s1\n",
		"longnoscore.csv": "post_id,candidate_uid,is_gold\np1,s1,1\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "paper.yaml")
	var args []string
	for _, n := range []string{"long.csv", "clf.csv.gz", "wide.tsv", "table.txt"} {
		args = append(args, filepath.Join(dir, n))
	}
	if _, stderr, code := runCmd(append([]string{"init", "-out", cfg}, args...)...); code != 0 {
		t.Fatalf("init: exit %d %s", code, stderr)
	}
	y, _ := os.ReadFile(cfg)
	for _, want := range []string{`name: clf, label: "clf", input: "clf.csv.gz"}`, `input: "table.txt", format: tsv}`, `input: "wide.tsv"}`} {
		if !strings.Contains(string(y), want) {
			t.Errorf("paper.yaml lacks %q:\n%s", want, y)
		}
	}
	for name, want := range map[string]string{
		"noscore.csv":     "missing column candidate_scores, expected a header with post_id (or query_id), gold_uids, candidate_uids and candidate_scores",
		"longnoscore.csv": "missing column score: a header with candidate_uid is the long layout",
	} {
		if _, stderr, code := runCmd("init", "-out", filepath.Join(dir, "x.yaml"), filepath.Join(dir, name)); code != exitInput || !strings.Contains(stderr, want) {
			t.Errorf("init %s: exit %d %q, want %q", name, code, stderr, want)
		}
	}
}
