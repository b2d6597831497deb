package main

import (
	"archive/zip"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/report"
	"paperbundle/tables"
)

// TestBootstrapWording: every output that states the bootstrap settings
// states them in the same words (report.BootstrapSettings.Text), each
// escaped for its format: report.html (the matrix note, the cards' intro,
// the methods and the provenance), SUMMARY.md, METHODS.md, the captions of
// paper/tables (LaTeX), tables.xlsx's README sheet and the console
// summary. And no caption of paper/figures.tex speaks of hovering, which
// only the interactive charts of report.html do.
func TestBootstrapWording(t *testing.T) {
	dir, _ := writeProject(t, goodCSV)
	cfg := filepath.Join(dir, "paper.yaml")
	yaml := "title: test\nseed: 7\nsystems:\n  - {name: sys, input: sys.csv}\nbootstrap: {resamples: 1000, unit: query, method: percentile, confidence: 0.9}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd("build", "-config", cfg, "-out", filepath.Join(dir, "out"), "-version", "v1")
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	// The settings of paper.yaml in words, written out by hand.
	const want = "percentile bootstrap, 1,000 resamples of queries, 90% confidence level, seed 7"
	if got := (report.BootstrapSettings{Resamples: 1000, Unit: "query", Method: "percentile", Confidence: 0.9}).Text(7); got != want {
		t.Fatalf("Text = %q, want %q", got, want)
	}
	v1 := filepath.Join(dir, "out", "v1")
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(v1, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := html.UnescapeString(read("report.html"))
	if n := strings.Count(page, want); n != 4 {
		t.Errorf("report.html states the settings %d times, want 4 (matrix note, cards' intro, methods, provenance)", n)
	}
	for _, c := range []struct{ where, text, want string }{
		{"SUMMARY.md", read("SUMMARY.md"), "with its confidence interval (" + want + ")"},
		{"METHODS.md", read("METHODS.md"), "* Confidence intervals: " + want + ".\n"},
		{"paper/numbers.tex", read("paper/numbers.tex"), `\def\pbmethods{Confidence intervals: ` + tables.LatexText(want) + "."},
		{"paper/tables/results.tex", read("paper/tables/results.tex"), `Under each value: its 90\% confidence interval.`},
		{"tables.xlsx", xlsxStrings(t, filepath.Join(v1, "tables.xlsx")), "<t>" + want + "</t>"},
		{"the console summary", stdout, "  intervals " + want + "\n"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("%s lacks %q", c.where, c.want)
		}
	}
	if !strings.Contains(tables.LatexText(want), `90\%`) {
		t.Errorf("LaTeX text %q: the percent sign is not escaped", tables.LatexText(want))
	}
	figs := read("paper/figures.tex")
	if !strings.Contains(figs, "roc_sys") || !strings.Contains(figs, "criteria_ranking_sys") {
		t.Fatalf("paper/figures.tex lacks the ROC or criteria ranking figure, whose charts have hints:\n%s", figs)
	}
	if strings.Contains(strings.ToLower(figs), "hover") {
		t.Errorf("a caption of paper/figures.tex speaks of hovering:\n%s", figs)
	}
}

// xlsxStrings is the shared-strings part of a workbook.
func xlsxStrings(t *testing.T, path string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	f, err := z.Open("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
