package main

import (
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// visibleText is the text a reader sees in report.html: the page without
// its scripts, styles, preformatted config.yaml and code spans (ids, keys,
// config values), tags removed, entities decoded.
func visibleText(page string) string {
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?s)<script.*?</script>`), regexp.MustCompile(`(?s)<style.*?</style>`),
		regexp.MustCompile(`(?s)<pre.*?</pre>`), regexp.MustCompile(`(?s)<code.*?</code>`),
	} {
		page = re.ReplaceAllString(page, " ")
	}
	page = regexp.MustCompile(`<[^>]+>`).ReplaceAllString(page, "\n")
	return html.UnescapeString(page)
}

// markdownText is Markdown without its code spans.
func markdownText(md string) string {
	return regexp.MustCompile("`[^`]*`").ReplaceAllString(md, " ")
}

// TestWordsFollowTheInput builds a TREC bundle from trec_eval's own test
// files (two runs: the comment test run, and the same run with its scores
// negated) and a classifier-only bundle (a label and a probability per
// case, 5 folds), and scans the visible text of report.html, SUMMARY.md,
// METHODS.md and the paper's tables for the words of the other kinds of
// input: a TREC report never says
// post, evidence, gold, sentence, criterion or NE gate; a classifier
// report never says NE gate, criterion or post.
func TestWordsFollowTheInput(t *testing.T) {
	trec := perSystemRunsProject(t, mustAbs(t, filepath.Join("..", "..", "testdata", "trec_eval")))
	clf := t.TempDir()
	var b strings.Builder
	b.WriteString("query_id,label,ne_prob,fold\n")
	for i := range 200 {
		y := i%3 == 0
		p := 0.5 + 0.4*math.Sin(float64(i))
		if y {
			p = math.Min(1, p+0.2)
		}
		fmt.Fprintf(&b, "c%03d,%d,%.6f,%d\n", i, map[bool]int{false: 0, true: 1}[y], p, i%5)
	}
	if err := os.WriteFile(filepath.Join(clf, "clf.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clf, "paper.yaml"), []byte("title: classifier\nsystems:\n  - {name: clf, input: clf.csv}\nbootstrap: {resamples: 200}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		banned    *regexp.Regexp
	}{
		// A TREC run has no thresholds, and its systems are runs.
		{"trec", trec, regexp.MustCompile(`(?i)\b(posts?|evidence|gold|sentences?|criterion|criteria|NE gate|thresholds are|cross-fitted|primary system)\b`)},
		{"classifier", clf, regexp.MustCompile(`(?i)\b(posts?|criterion|criteria|NE gate)\b`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(tc.dir, "out")
			if _, stderr, code := runCmd("build", "-config", filepath.Join(tc.dir, "paper.yaml"), "-out", out, "-q"); code != 0 {
				t.Fatalf("build: exit %d: %s", code, stderr)
			}
			texts := map[string]string{
				"report.html": visibleText(readFile(t, filepath.Join(out, "v1", "report.html"))),
				"SUMMARY.md":  markdownText(readFile(t, filepath.Join(out, "v1", "SUMMARY.md"))),
				"METHODS.md":  markdownText(readFile(t, filepath.Join(out, "v1", "METHODS.md"))),
			}
			tex, _ := filepath.Glob(filepath.Join(out, "v1", "paper", "tables", "*.tex"))
			for _, f := range tex {
				// siunitx's option table-space-text-post is LaTeX, not words.
				texts[filepath.Base(f)] = strings.ReplaceAll(readFile(t, f), "table-space-text-post", "")
			}
			for name, text := range texts {
				n := 0
				for _, line := range strings.Split(text, "\n") {
					if w := tc.banned.FindString(line); w != "" && n < 10 {
						n++
						t.Errorf("%s says %q: %s", name, w, strings.TrimSpace(line))
					}
				}
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHeadlineKey: headline: in paper.yaml replaces the kind's headline
// set, in its order, for the results matrix of SUMMARY.md; an id the
// inputs do not support stops the build (exit 2) naming it.
func TestHeadlineKey(t *testing.T) {
	src := mustAbs(t, filepath.Join("..", "..", "testdata", "trec_eval"))
	dir := t.TempDir()
	base := fmt.Sprintf("title: headline\nqrels: %q\nsystems:\n  - {name: run, format: trec, input: %q}\n"+
		"cutoffs: [5, 10, 1000]\ncontract: {ndcg_gain: linear}\nbootstrap: {resamples: 0}\nbundle: {copy_inputs: false}\n",
		filepath.Join(src, "qrels.comment.test"), filepath.Join(src, "results.comment.test"))
	write := func(extra string) string {
		p := filepath.Join(dir, "paper.yaml")
		if err := os.WriteFile(p, []byte(base+extra), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The TREC default first: MAP, P@10, nDCG@10, Recall@1000, MRR.
	out := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", write(""), "-out", out, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if s := readFile(t, filepath.Join(out, "v1", "SUMMARY.md")); !strings.Contains(s, "| Run | MAP ↑ | Precision@10 ↑ | nDCG@10 ↑ | Recall@1000 ↑ | MRR ↑ |") {
		t.Errorf("SUMMARY.md lacks the TREC headline columns:\n%s", s)
	}
	if _, stderr, code := runCmd("build", "-config", write("headline: [rank.bpref, rank.map]\n"), "-out", out, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if s := readFile(t, filepath.Join(out, "v2", "SUMMARY.md")); !strings.Contains(s, "| Run | bpref ↑ | MAP ↑ |") {
		t.Errorf("SUMMARY.md lacks the headline: columns:\n%s", s)
	}
	_, stderr, code := runCmd("build", "-config", write("headline: [rank.map, ne.auroc]\n"), "-out", out, "-q")
	if code != 2 || !strings.Contains(stderr, "headline: ne.auroc not computed for these inputs") {
		t.Errorf("exit %d, stderr %q; want 2 naming ne.auroc", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "v3")); err == nil {
		t.Error("a refused build wrote v3")
	}
}
