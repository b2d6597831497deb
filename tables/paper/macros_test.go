package paper

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
)

// signReport is a report of one metric and one comparison whose
// difference is diff: the macro test runs it before and after a rerun that
// flips the sign.
func signReport(diff, p float64) *report.Report {
	ci := &report.CI{Low: 0.8401, High: 0.8619, Method: "percentile", Unit: "post", Resamples: 1000}
	return &report.Report{
		Systems: []report.SystemInfo{{Name: "full", Primary: true}, {Name: "retriever"}},
		Dataset: report.DatasetSummary{Posts: 14770, EvalQueries: 1379, PositiveQueries: 366, PositiveRate: 0.2654,
			Folds: []report.FoldSummary{{Fold: 0}, {Fold: 1}}, Systems: 2},
		Metrics: []report.Metric{
			{System: "full", ID: metrics.NEAUROC.ID(), N: 1379, Value: 0.8512, CI: ci, FoldMean: 0.852, FoldStd: 0.0084},
			{System: "full", ID: metrics.RankNDCG.At(10), N: 366, Value: 0.7, FoldMean: report.NaN, FoldStd: report.NaN},
			{System: "full", ID: metrics.NESpiegelhalterP.ID(), N: 1379, Value: 0.0004, FoldMean: report.NaN, FoldStd: report.NaN},
			{System: "full", ID: metrics.NEAUROC.ID(), Slice: "criterion=A.1", N: 20, Value: report.NaN, FoldMean: report.NaN, FoldStd: report.NaN},
		},
		Comparisons: []report.Comparison{{System: "full", Reference: "retriever", ID: metrics.NEAUROC.ID(), Diff: report.Num(diff),
			CI: &report.CI{Low: report.Num(diff - 0.01), High: report.Num(diff + 0.01)}, PHolm: report.Num(p)}},
	}
}

// TestMacroForms: the fields numbers.tex writes for the forms that must
// read right before and after a rerun (written by hand: 0.021 signed,
// p 0.0123 with "=", 0.0004 with "<" and bare 0.00040, counts
// separated, a rate as a percentage, what the bundle lacks as \pb@no).
func TestMacroForms(t *testing.T) {
	for _, tc := range []struct {
		diff, p float64
		want    []string
	}{
		{0.021, 0.0123, []string{`\pb@c{full}{retriever}{ne.auroc}{\ensuremath{+}0.021}{[0.011, 0.031]}{\pb@eq 0.012}{0.012}`}},
		{-0.021, 0.0004, []string{`\pb@c{full}{retriever}{ne.auroc}{\ensuremath{-}0.021}{[\ensuremath{-}0.031, \ensuremath{-}0.011]}{\pb@lt 0.001}{0.00040}`}},
		{0.0004, 0.5, []string{`{0.000}{[\ensuremath{-}0.010, 0.010]}{\pb@eq 0.500}{0.500}`}},
		{0.1, 4.26e-31, []string{`{\pb@lt 0.001}{\ensuremath{4.3\times 10^{-31}}}`}},
	} {
		got := string(Numbers(signReport(tc.diff, tc.p), DefaultOptions()))
		want := append(tc.want,
			`\pb@m{full}{ne.auroc}{}{0.851}{0.851}{[0.840, 0.862]}{0.852\ensuremath{\pm}0.008}{1{,}379}{85.1\,\%}`,
			`\pb@m{full}{rank.ndcg@10}{}{0.700}{0.700}{\pb@no{ci}}{\pb@no{pm}}{366}{70.0\,\%}`,
			`\pb@m{full}{ne.spiegelhalter_p}{}{\pb@lt 0.001}{0.00040}{\pb@no{ci}}{\pb@no{pm}}{1{,}379}{\pb@no{notrate}}`,
			`\pb@m{full}{ne.auroc}{criterion=A.1}{\pb@no{value}}{undefined}{\pb@no{ci}}{\pb@no{pm}}{20}{\pb@no{notrate}}`,
			`\pb@d{posts}{14{,}770}{14770}{\pb@no{notrate}}`,
			`\pb@d{positive_rate}{0.265}{0.265}{26.5\,\%}`,
			`\pb@d{folds}{2}{2}{\pb@no{notrate}}`)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("diff %g p %g: numbers.tex lacks\n%s\ngot:\n%s", tc.diff, tc.p, w, got)
			}
		}
		if strings.Contains(got, "n/a") {
			t.Errorf("numbers.tex prints n/a:\n%s", got)
		}
	}
}

// texDoc compiles body with the preamble and numbers.tex of r in class
// (a \documentclass line) and returns the log; wantErr: the compile must
// stop.
func texDoc(t *testing.T, r *report.Report, class, body string, wantErr bool) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, []File{{Dir + "preamble.tex", []byte(Preamble)}, {Dir + "numbers.tex", Numbers(r, DefaultOptions())},
		{Dir + "doc.tex", []byte(class + "\n\\newcommand\\pbdir{}\n\\input{preamble.tex}\n\\input{numbers.tex}\n\\begin{document}\n" + body + "\n\\end{document}\n")}})
	log := latex(t, dir, "doc.tex", wantErr)
	if !wantErr {
		pdftotext(t, dir)
	}
	return log
}

// pdftotext leaves doc.txt beside doc.pdf when poppler is installed.
func pdftotext(t *testing.T, dir string) {
	if p, err := exec.LookPath("pdftotext"); err == nil {
		_ = exec.Command(p, "-layout", filepath.Join(dir, "doc.pdf"), filepath.Join(dir, "doc.txt")).Run()
	}
}

// TestMacrosCompile: the macros read right in text and math before and
// after a sign flip (pdftotext of the page), and what the bundle lacks
// stops the compile with the reason.
func TestMacrosCompile(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	body := `A: \pbdiff{full}{retriever}{ne.auroc} (p \pbp{full}{retriever}{ne.auroc}; $p \pbp{full}{retriever}{ne.auroc}$; bare \pbpvalue{full}{retriever}{ne.auroc}).
B: \pbdata{posts} posts, \pbdatapct{positive_rate}, \pbpct{full}{ne.auroc}, S $p \pbvalue{full}{ne.spiegelhalter_p}$.
\pbassert{full}{ne.auroc}{0.851}\pbassert{full}{ne.spiegelhalter_p}{0.00040}`
	for _, tc := range []struct {
		diff, p float64
		want    []string
	}{
		{0.021, 0.0123, []string{"A: +0.021 (p = 0.012; p = 0.012; bare 0.012)"}},
		{-0.021, 0.0004, []string{"A: −0.021 (p < 0.001; p < 0.001; bare 0.00040)"}},
	} {
		dir := t.TempDir()
		r := signReport(tc.diff, tc.p)
		write(t, dir, []File{{Dir + "preamble.tex", []byte(Preamble)}, {Dir + "numbers.tex", Numbers(r, DefaultOptions())},
			{Dir + "doc.tex", []byte("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\newcommand\\pbdir{}\n\\input{preamble.tex}\n\\input{numbers.tex}\n\\begin{document}\n" + body + "\n\\end{document}\n")}})
		latex(t, dir, "doc.tex", false)
		if _, err := exec.LookPath("pdftotext"); err != nil {
			continue
		}
		pdftotext(t, dir)
		txt, _ := os.ReadFile(filepath.Join(dir, "doc.txt"))
		flat := strings.Join(strings.Fields(string(txt)), " ")
		for _, w := range append(tc.want, "B: 14,770 posts, 26.5 %, 85.1 %, S p < 0.001.") {
			if !strings.Contains(flat, w) {
				t.Errorf("diff %g: the page lacks %q:\n%s", tc.diff, w, flat)
			}
		}
	}
	r := signReport(0.021, 0.0123)
	for _, tc := range []struct{ body, want string }{
		{`\pbci{full}{rank.ndcg@10}`, `\pbci{full}{rank.ndcg@10}{}: the bundle has no confidence interval`},
		{`\pbvalue{full}{ne.auroc}[criterion=A.1]`, `\pbvalue{full}{ne.auroc}{criterion=A.1}: the bundle has no value`},
		{`\pbpct{full}{ne.spiegelhalter_p}`, `it is not a rate`},
		{`\pbdata{postz}`, `numbers.tex has no key for \pbdata{postz}`},
		{`\pbassert{full}{ne.auroc}{0.852}`, `\pbassert{full}{ne.auroc}{}: the text says 0.852, the bundle 0.851`},
	} {
		log := texDoc(t, r, `\documentclass{article}`, tc.body, true)
		if !strings.Contains(strings.ReplaceAll(log, "\n", ""), tc.want) {
			t.Errorf("%s: the error does not say %q:\n%s", tc.body, tc.want, tail([]byte(log), 1200))
		}
	}
}

// TestMacrosUpperCase: in acmart, whose section titles are upper-cased,
// a macro in a \section title finds its number, and the PDF bookmark
// (hyperref) holds the number.
func TestMacrosUpperCase(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	r := signReport(0.021, 0.0123)
	class := "\\documentclass[sigconf]{acmart}\\settopmatter{printacmref=false}\\setcopyright{none}\\renewcommand\\footnotetextcopyrightpermission[1]{}"
	realFonts(t, Venues["acm"])
	body := "\\title{T}\\maketitle\n\\section{AUROC of \\pbvalue{full}{ne.auroc} on \\pbdata{posts} posts, \\pbdiff{full}{retriever}{ne.auroc}}\nText."
	texDoc(t, r, class, body, false)
}

// TestFigureCaptionSymbols: n_pos in a figure's caption is set as the
// tables set it, and an author's caption replaces the figure's own.
func TestFigureCaptionSymbols(t *testing.T) {
	opt := DefaultOptions()
	opt.Captions = map[string]string{"b": "Mine: γ ≥ 0.5."}
	var tex string
	for _, f := range Files(signReport(0.01, 0.2), opt, []Figure{{Name: "a", Caption: "Recall@K by n_pos stratum."}, {Name: "b", Caption: "theirs"}}) {
		if f.Name == Dir+"figures.tex" {
			tex = string(f.Data)
		}
	}
	for _, want := range []string{`\caption{Recall@K by $n_{\mathrm{pos}}$ stratum.}`, `\caption{Mine: $\gamma$ $\geq$ 0.5.}`} {
		if !strings.Contains(tex, want) {
			t.Errorf("figures.tex lacks %s:\n%s", want, tex)
		}
	}
}
