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

// svgText is the text a figure file draws: its <text> elements, one per
// line, entities decoded.
func svgText(svg string) string {
	var b strings.Builder
	for _, m := range regexp.MustCompile(`<text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		b.WriteString(html.UnescapeString(m[1]) + "\n")
	}
	return b.String()
}

// populationCode matches a population code, which a caption shows only
// as code after the population's words.
var populationCode = regexp.MustCompile(`\b(all_queries|positives_only|judged_queries|predicted_positive)\b`)

// markdownText is Markdown without its code spans.
func markdownText(md string) string {
	return regexp.MustCompile("`[^`]*`").ReplaceAllString(md, " ")
}

// TestWordsFollowTheInput builds a TREC bundle from trec_eval's own test
// files (two runs: the comment test run, and the same run with its scores
// negated) and a classifier-only bundle (a label and a probability per
// case, two cases per post_id, 5 folds), then a second version of each
// with one input changed, and scans what a reader of each kind sees for
// the words of the other kinds of input: the visible text of report.html,
// SUMMARY.md, METHODS.md, CHANGES.md, paper/example.tex and the paper's
// tables, the text of every figure file (figures/*.svg), and `paperbundle
// diff` in text, Markdown and HTML. A TREC report never says post,
// evidence, gold, sentence, criterion, NE gate, system, tune rows,
// positive(s) or "negatives per positive"; a classifier report never says
// NE gate, criterion, post, system or a review workload, and its
// bootstrap draws the groups of cases that share a post_id, never single
// cases. A table's caption names its population in the kind's words (the
// code, if any, only as code after them), and a table whose rows carry
// their own n states no single n.
func TestWordsFollowTheInput(t *testing.T) {
	trec := perSystemRunsProject(t, mustAbs(t, filepath.Join("..", "..", "testdata", "trec_eval")))
	clf := t.TempDir()
	writeClf := func(shift float64) {
		var b strings.Builder
		b.WriteString("query_id,post_id,label,ne_prob,fold\n")
		for i := range 200 {
			y := i%3 == 0
			p := 0.5 + 0.4*math.Sin(float64(i))
			if y {
				p = math.Min(1, p+shift)
			}
			fmt.Fprintf(&b, "c%03d,p%03d,%d,%.6f,%d\n", i, i/2, map[bool]int{false: 0, true: 1}[y], p, (i/2)%5)
		}
		if err := os.WriteFile(filepath.Join(clf, "clf.csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeClf(0.2)
	if err := os.WriteFile(filepath.Join(clf, "paper.yaml"), []byte("title: classifier\nsystems:\n  - {name: clf, input: clf.csv}\n  - {name: other, input: clf.csv}\nbootstrap: {resamples: 200}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		banned    *regexp.Regexp
		change    func() // changes an input for v2
		// must: phrases the report.html of this kind says.
		must []string
	}{
		// A TREC run has no thresholds and no tune rows, and its systems
		// are runs.
		{"trec", trec, regexp.MustCompile(`(?i)\b(posts?|evidence|gold|sentences?|criterion|criteria|NE gate|thresholds are|cross-fitted|systems?|tune|positives?|negatives per|AUROC|DeLong)\b`),
			func() { copyFile(t, filepath.Join(trec, "run.a"), filepath.Join(trec, "run.b")) },
			[]string{"Show run", "All runs", "resamples of queries", "Population: judged queries (", "All judged queries (n = "}},
		{"classifier", clf, regexp.MustCompile(`(?i)\b(posts?|criterion|criteria|NE gate|systems?|sentences?|workload|baselines?)\b|resamples of cases|on tune rows`),
			func() { writeClf(0.35) },
			[]string{"Show classifier", "All classifiers", "resamples of case groups", "Population: every eval case (", "Cases per bin", "Classifiers (95% bootstrap CI)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(tc.dir, "out")
			for i := range 2 {
				if i == 1 {
					tc.change()
				}
				if _, stderr, code := runCmd("build", "-config", filepath.Join(tc.dir, "paper.yaml"), "-out", out, "-q"); code != 0 {
					t.Fatalf("build: exit %d: %s", code, stderr)
				}
			}
			v2 := filepath.Join(out, "v2")
			page := readFile(t, filepath.Join(v2, "report.html"))
			texts := map[string]string{
				"report.html": visibleText(page),
				"SUMMARY.md":  markdownText(readFile(t, filepath.Join(v2, "SUMMARY.md"))),
				"METHODS.md":  markdownText(readFile(t, filepath.Join(v2, "METHODS.md"))),
				"CHANGES.md":  markdownText(readFile(t, filepath.Join(v2, "CHANGES.md"))),
				"example.tex": latexText(readFile(t, filepath.Join(v2, "paper", "example.tex"))),
			}
			for _, f := range []string{"text", "md", "html"} {
				stdout, stderr, code := runCmd("diff", "-all", "-format", f, filepath.Join(out, "v1"), v2)
				if code != 0 {
					t.Fatalf("diff -format %s: exit %d: %s", f, code, stderr)
				}
				texts["diff -format "+f] = map[string]func(string) string{"text": strings.Clone, "md": markdownText, "html": visibleText}[f](stdout)
			}
			tex, _ := filepath.Glob(filepath.Join(v2, "paper", "tables", "*.tex"))
			for _, f := range tex {
				texts[filepath.Base(f)] = latexText(readFile(t, f))
			}
			svg, _ := filepath.Glob(filepath.Join(v2, "figures", "*.svg"))
			for _, f := range svg {
				texts["figures/"+filepath.Base(f)] = svgText(readFile(t, f))
			}
			if len(svg) == 0 {
				t.Error("no figure file to read")
			}
			// The systems chart keeps its kind in every vocabulary: the
			// page shows it and paper/ draws it.
			if !strings.Contains(page, `id="fig-systems"`) {
				t.Error("report.html has no systems chart")
			}
			if _, err := os.Stat(filepath.Join(v2, "paper", "figures", "systems.pdf")); err != nil {
				t.Errorf("paper/ has no systems chart: %v", err)
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
			for _, w := range tc.must {
				if !strings.Contains(texts["report.html"]+texts["figures/reliability_clf.svg"], w) {
					t.Errorf("report.html does not say %q", w)
				}
			}
			// Captions: the population in words, a code only as code
			// (left out of the visible text), one n only for one population.
			for _, line := range strings.Split(texts["report.html"], "\n") {
				if !strings.HasPrefix(line, "Population:") {
					continue
				}
				if c := populationCode.FindString(line); c != "" {
					t.Errorf("report.html: a caption shows the code %q as words: %s", c, line)
				}
				if strings.HasPrefix(line, "Population: mixed") && strings.Contains(line, "n =") {
					t.Errorf("report.html: a table of several populations states one n: %s", line)
				}
			}
			// The print note is written by the page's script from the
			// selector's own label and word, never "system" for a run.
			if tc.name == "trec" && (strings.Contains(page, "Show system") || strings.Contains(page, "per-system")) {
				t.Error(`report.html's script still says "Show system" or "per-system"`)
			}
		})
	}
}

// latexText is LaTeX source without its macros' arguments (numbers.tex
// keys such as \pbdata{posts}, file names of \input) and siunitx's
// option table-space-text-post, which are not words.
func latexText(tex string) string {
	tex = strings.ReplaceAll(tex, "table-space-text-post", "")
	return regexp.MustCompile(`\\(pb[a-z]+|input|label|ref)(\{[^}]*\})+`).ReplaceAllString(tex, " ")
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.WriteFile(to, []byte(readFile(t, from)), 0o644); err != nil {
		t.Fatal(err)
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
