package tables

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paperbundle/internal/golden"
	"paperbundle/internal/hostile"
	"paperbundle/internal/mdtext"
	"paperbundle/report"
)

// summaryReport is matrixReport with the facts SUMMARY.md shows besides
// the matrix: title, version, data summary, a soft check that did not
// pass and a warning.
func summaryReport() *report.Report {
	r := matrixReport()
	r.Title = "Demo | *pipeline* <b>"
	r.Version = "v2"
	r.Dataset = report.DatasetSummary{EvalQueries: 14770, Posts: 1477, Criteria: []string{"A.1", "A.2"},
		Folds: make([]report.FoldSummary, 2), PositiveQueries: 1379, PositiveRate: 1379.0 / 14770}
	r.Checks = []report.Check{
		{ID: "folds_post_disjoint", Hard: true, Passed: true, Detail: "every post is evaluated in exactly one fold"},
		{ID: "folds_equal_size", Passed: false, Detail: "Posts per fold: 700; 739. The largest fold has 5.6% more posts than the smallest (more than 5% and more than one)."},
	}
	r.Warnings = []string{"[link](http://example.invalid) `code` $x^2$"}
	return r
}

// summaryChanges are significant changes since v1: two headline metrics,
// one metric of the compared set, one outside it (never listed).
var summaryChanges = []SummaryChange{
	{System: "rerank", ID: "rank.mrr", From: 0.70, To: 0.90, Test: "permutation test, p = 0.0001"}, // largest, but not headline
	{System: "full", ID: "rank.recall@10", From: 0.78, To: 0.80, Test: "permutation test, p = 0.004"},
	{System: "full", ID: "ne.ece", From: 0.06, To: 0.03, Test: "paired bootstrap, p = 0.01"},
	{System: "full", ID: "rank.spearman_difficulty_p@10", From: 0.5, To: 0.01, Test: "CIs do not overlap"},
}

// TestSummaryGolden compares SUMMARY.md of a hand-made report with
// testdata/summary.golden (go test ./tables -run SummaryGolden -update
// rewrites it; read the diff before committing it).
func TestSummaryGolden(t *testing.T) {
	got := Summary(summaryReport(), SummaryInput{Since: "v1", Changes: summaryChanges, Report: "v2/report.html"})
	golden.Check(t, filepath.Join("testdata", "summary.golden"), got)
	if n := strings.Count(string(got), "\n"); n > SummaryLines {
		t.Errorf("%d lines, more than %d", n, SummaryLines)
	}
	s := string(got)
	// The order of the changes: headline metrics by |diff| (ECE 0.03, then
	// Recall@10 0.02), then the rest of the compared set (MRR 0.2); the
	// Spearman p-value is not in the compared set.
	iECE, iRec, iMRR := strings.Index(s, "`ne.ece`"), strings.Index(s, "`rank.recall@10`"), strings.Index(s, "`rank.mrr`")
	if !(iECE > 0 && iECE < iRec && iRec < iMRR) || strings.Contains(s, "spearman") {
		t.Errorf("changes in the wrong order or the wrong set:\n%s", s)
	}
	if strings.Count(s, "<b>") != strings.Count(s, `\<b>`) {
		t.Errorf("user text <b> is live HTML in SUMMARY.md")
	}
	for _, bad := range []string{"[link]", "http://", "`code`", "$x^2$", "| *pipeline*"} {
		if strings.Contains(s, bad) {
			t.Errorf("user text %q is live Markdown in SUMMARY.md", bad)
		}
	}
}

// TestSummaryLimits: at most 12 system rows, then "and N more"; many
// warnings are cut so that the whole stays within 60 lines.
func TestSummaryLimits(t *testing.T) {
	r := summaryReport()
	for i := 0; i < 15; i++ {
		name := "s" + strconv.Itoa(i)
		r.Systems = append(r.Systems, report.SystemInfo{Name: name, Label: name, Kind: report.Pipeline})
		r.Metrics = append(r.Metrics, report.Metric{System: name, ID: "ne.auroc", Value: 0.5, FoldMean: report.NaN, FoldStd: report.NaN})
	}
	for i := 0; i < 80; i++ {
		r.Warnings = append(r.Warnings, "warning "+strconv.Itoa(i))
	}
	r.Reindex()
	s := string(Summary(r, SummaryInput{}))
	if n := strings.Count(s, "\n"); n > SummaryLines {
		t.Errorf("%d lines, more than %d:\n%s", n, SummaryLines, s)
	}
	// 3 + 15 systems: 12 shown, 6 more.
	if !strings.Contains(s, "and 6 more in report.html") || strings.Contains(s, "| m s9") {
		t.Errorf("no 'and 6 more' line:\n%s", s)
	}
	if !strings.Contains(s, "First version in this folder.") || !strings.Contains(s, "more in report.html\n") {
		t.Errorf("warnings not cut or no first-version line:\n%s", s)
	}
}

// TestSummaryHostile: every hostile string, as the title, a system label
// and a warning, is inert text in SUMMARY.md: no unescaped '<' (raw HTML,
// autolinks) or other Markdown punctuation, no @mention, no line break, no
// bidirectional control.
func TestSummaryHostile(t *testing.T) {
	for _, h := range hostile.Strings(t) {
		r := summaryReport()
		r.Title = h
		r.Systems[1].Label = h
		r.Warnings = []string{h}
		out := string(Summary(r, SummaryInput{Since: "v1", Changes: summaryChanges}))
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, mdtext.Inert(h)) {
				continue
			}
			esc := mdtext.Inert(h)
			if strings.ContainsAny(esc, "\n\r\u202e\u2066") {
				t.Errorf("%q: raw character in %q", h, esc)
			}
			for i := 0; i < len(esc); i++ {
				escaped := i > 0 && esc[i-1] == '\\'
				mention := esc[i] == '@' && (i == 0 || !strings.ContainsAny(esc[i-1:i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
				if (strings.IndexByte("`*_[]|~$^<&", esc[i]) >= 0 || mention) && !escaped {
					t.Errorf("%q: unescaped %q in %q", h, esc[i], esc)
				}
				if esc[i] == '\\' {
					i++ // the escaped character
				}
			}
		}
		if n := strings.Count(out, "\n"); n > SummaryLines {
			t.Errorf("%q: %d lines", h, n)
		}
	}
}
