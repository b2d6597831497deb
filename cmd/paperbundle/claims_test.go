package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claimsCSV is a system's table of 40 queries with one gold sentence
// each among ten candidates, ranked at position rank (1-based) in the
// even queries and one lower in the odd ones.
func claimsCSV(rank int) string {
	var b strings.Builder
	b.WriteString("post_id,fold,gold_uids,candidate_uids,candidate_scores\n")
	for q := range 40 {
		var ids, scores []string
		for i := range 10 {
			id := fmt.Sprintf("c%d", i)
			if i == rank-1+q%2 {
				id = "g"
			}
			ids = append(ids, id)
			scores = append(scores, fmt.Sprint(10-i))
		}
		fmt.Fprintf(&b, "P%d,%d,g,%s,%s\n", q, q%2, strings.Join(ids, ";"), strings.Join(scores, ";"))
	}
	return b.String()
}

// TestClaimsBetweenVersions builds v1, where the new system ranks the gold
// first or second (nDCG@10 (1 + 1/log2 3)/2 = 0.8155, target >= 0.8 met)
// and the old one third or fourth, and v2, where the new system ranks it
// fifth or sixth (nDCG@10 (1/log2 6 + 1/log2 7)/2 = 0.3715, missed). Between them a target flips, the comparison of the two systems
// on nDCG@10 flips from significantly better to significantly worse, and
// the old system becomes best: CHANGES.md, SUMMARY.md, the report's
// changes section and every format of diff list these claims before the
// metric rows, and diff -format json carries them as "claims".
func TestClaimsBetweenVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two bundles")
	}
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("paper.yaml", "title: claims\nsystems:\n  - {name: new, label: New retriever, input: new.csv}\n  - {name: old, label: Old retriever, input: old.csv}\n"+
		"bootstrap: {resamples: 50}\ntargets: {rank.ndcg@10: {min: 0.8}}\n")
	write("old.csv", claimsCSV(3))
	root := filepath.Join(dir, "out")
	for _, step := range []struct {
		v    string
		rank int
	}{{"v1", 1}, {"v2", 5}} {
		write("new.csv", claimsCSV(step.rank))
		if _, stderr, code := runCmd("build", "-q", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-version", step.v); code != 0 {
			t.Fatalf("build %s: exit %d: %s", step.v, code, stderr)
		}
	}
	target := "New retriever: nDCG@10 target ≥ 0.8 met in v1 (0.8155), not met in v2 (0.3715)"
	sig := "New retriever vs Old retriever on nDCG@10: significantly better in v1"
	best := "nDCG@10: best system Old retriever in v2"
	first := func(what, text, before string) {
		t.Helper()
		for _, c := range []string{target, sig, best} {
			i, j := strings.Index(text, c), strings.Index(text, before)
			if i < 0 {
				t.Errorf("%s lacks the claim %q:\n%s", what, c, text)
			} else if j >= 0 && j < i {
				t.Errorf("%s lists %q before the claim %q", what, before, c)
			}
		}
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(root, "v2", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	first("CHANGES.md", read("CHANGES.md"), "## Headline metrics")
	summary := strings.ReplaceAll(read("SUMMARY.md"), `\@`, "@")
	first("SUMMARY.md", summary, "(`rank.ndcg@10`)")
	first("report.html", read("report.html"), "<h3>Headline metrics</h3>")
	for _, f := range []string{"text", "md", "html", "csv"} {
		out, stderr, code := runCmd("diff", "-format", f, filepath.Join(root, "v1"), filepath.Join(root, "v2"))
		if code != 0 {
			t.Fatalf("diff -format %s: exit %d: %s", f, code, stderr)
		}
		if f == "csv" {
			first("diff -format csv", out, "\nboth,")
			continue
		}
		first("diff -format "+f, out, "Headline metrics")
	}
	out, _, code := runCmd("diff", "-format", "json", filepath.Join(root, "v1"), filepath.Join(root, "v2"))
	if code != 0 {
		t.Fatal("diff -format json failed")
	}
	var js struct {
		Claims []struct{ Kind, System, Reference, Metric, Before, After string } `json:"claims"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, c := range js.Claims {
		if c.Metric == "rank.ndcg@10" {
			kinds[c.Kind] = true
		}
		if c.Kind == "significance" && c.Metric == "rank.ndcg@10" && (c.System != "new" || c.Reference != "old" || c.Before != "significantly better" || c.After != "significantly worse") {
			t.Errorf("significance claim %+v", c)
		}
	}
	if !kinds["target"] || !kinds["significance"] || !kinds["best"] {
		t.Errorf("JSON claims on rank.ndcg@10: %v, want target, significance and best", js.Claims)
	}
}
