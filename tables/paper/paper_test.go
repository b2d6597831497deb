package paper

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/plot"
	"paperbundle/internal/golden"
	"paperbundle/internal/hostile"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables/internal/tabletest"
)

// TestGoldens: results.tex and numbers.tex of the plain fixture, byte for
// byte.
func TestGoldens(t *testing.T) {
	r := tabletest.Plain().Report(t)
	opt := DefaultOptions()
	var res []byte
	for _, f := range Tables(r, opt) {
		if f.Name == Dir+"tables/results.tex" {
			res = f.Data
		}
	}
	if res == nil {
		t.Fatal("no results.tex")
	}
	golden.Check(t, filepath.Join("testdata", "results.tex.golden"), res)
	golden.Check(t, filepath.Join("testdata", "numbers.tex.golden"), Numbers(r, opt))

	// The author's composition and caption: two metrics in the author's
	// order with a header of their own, the systems reversed, the
	// baselines shown, a caption that replaces the default.
	opt.Results = Composition{Metrics: []metrics.ID{metrics.RankNDCG.At(10), metrics.NEAUROC.ID()},
		Systems: []string{"base", "full"}, Baselines: true, Headers: map[metrics.ID]string{metrics.NEAUROC.ID(): "AUC (gate)"}}
	opt.Captions = map[string]string{"results": "Main results: γ ≥ 0.5 & 100% of posts."}
	for _, f := range Tables(r, opt) {
		if f.Name == Dir+"tables/results.tex" {
			golden.Check(t, filepath.Join("testdata", "results_composed.tex.golden"), f.Data)
		}
	}
}

// TestNumbersSpec: the macros of one metric and one comparison, from the
// numbers of the documented example (docs/report.md, docs/tables.md:
// value 0.8512, CI [0.8401, 0.8619], folds
// 0.852 ± 0.0084, n 1379; diff -0.0123 with p_holm 0.0004, shown as
// < 0.001 at three decimals and bare as 0.00040; p_holm 0.0312 as = 0.031;
// a diff of 0.02 signed +0.020), written by hand here.
func TestNumbersSpec(t *testing.T) {
	ci := &report.CI{Low: 0.8401, High: 0.8619, Method: "percentile", Unit: "post", Resamples: 10000}
	r := &report.Report{
		Systems: []report.SystemInfo{{Name: "full", Primary: true}, {Name: "retriever"}},
		Metrics: []report.Metric{
			{System: "full", ID: metrics.RankNDCG.At(10), N: 1379, Value: 0.8512, CI: ci, FoldMean: 0.852, FoldStd: 0.0084},
			{System: "full", ID: "ne.auroc", Slice: "criterion=A%1{x}", N: 20, Value: report.NaN, FoldMean: report.NaN, FoldStd: report.NaN},
		},
		Comparisons: []report.Comparison{
			{System: "full", Reference: "retriever", ID: "ne.auroc", Diff: -0.0123, PHolm: 0.0004},
			{System: "full", Reference: "retriever", ID: "ne.brier", Diff: 0.02, PHolm: 0.0312},
		},
	}
	got := string(Numbers(r, DefaultOptions()))
	for _, want := range []string{
		`\pb@m{full}{rank.ndcg@10}{}{0.851}{0.851}{[0.840, 0.862]}{0.852\ensuremath{\pm}0.008}{1{,}379}{85.1\,\%}`,
		`\pb@m{full}{ne.auroc}{criterion=A\%1\{x\}}{\pb@no{value}}{undefined}{\pb@no{ci}}{\pb@no{pm}}{20}{\pb@no{notrate}}`,
		`\pb@c{full}{retriever}{ne.auroc}{\ensuremath{-}0.012}{\pb@no{diffci}}{\pb@lt 0.001}{0.00040}`,
		`\pb@c{full}{retriever}{ne.brier}{\ensuremath{+}0.020}{\pb@no{diffci}}{\pb@eq 0.031}{0.031}`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("numbers.tex lacks\n%s\ngot:\n%s", want, got)
		}
	}
}

// TestPrune: a column with no value in any row goes; a baseline never
// counts for the best value; values that print the same are both best.
func TestPrune(t *testing.T) {
	nan := math.NaN()
	tb := &table{name: "x", cols: []col{{head: "S"}, {head: "A", num: true, best: metrics.Higher}, {head: "B", num: true}},
		rows: []row{
			{cells: []cell{rawCell("a"), {v: 0.8001, dec: 3}, {v: nan}}},
			{cells: []cell{rawCell("b"), {v: 0.7999, dec: 3}, {v: nan}}},
			{cells: []cell{rawCell("o"), {v: 1, dec: 3}, {v: nan}}, baseline: true},
		}}
	out := string(tb.LaTeX())
	if strings.Contains(out, "{B}") || len(tb.cols) != 2 {
		t.Errorf("all-n/a column kept:\n%s", out)
	}
	if !tb.rows[0].cells[1].bold || !tb.rows[1].cells[1].bold || tb.rows[2].cells[1].bold {
		t.Errorf("best marks %v %v %v, want true true false (0.800 twice; the baseline never)",
			tb.rows[0].cells[1].bold, tb.rows[1].cells[1].bold, tb.rows[2].cells[1].bold)
	}
}

// TestASCII: every paper file of the hostile fixture is ASCII, and no
// hostile string reaches a file unescaped.
func TestASCII(t *testing.T) {
	r := tabletest.Hostile(t).Report(t)
	for _, f := range Files(r, DefaultOptions(), []Figure{{Name: "x", Caption: hostile.Strings(t)[0]}}) {
		for i, c := range f.Data {
			if c >= 0x80 {
				t.Fatalf("%s: non-ASCII byte at %d: %q", f.Name, i, f.Data[max(0, i-20):min(len(f.Data), i+20)])
			}
		}
		if bytes.Contains(f.Data, []byte(`\input{/etc/passwd}`)) {
			t.Errorf("%s: a hostile \\input reached the file", f.Name)
		}
	}
}

// latex compiles name in dir with pdflatex (never shell escape) and
// returns its log; it fails the test on an error unless wantErr.
func latex(t *testing.T, dir, name string, wantErr bool) string {
	t.Helper()
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed (apt-get install texlive-latex-recommended texlive-science texlive-publishers)")
	}
	cmd := exec.Command(pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", name)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	logb, _ := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(name, ".tex")+".log"))
	if (err != nil) != wantErr {
		t.Fatalf("pdflatex %s: error %v (want error: %v)\n%s", name, err, wantErr, tail(out, 3000))
	}
	return string(logb)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// write puts files into dir.
func write(t *testing.T, dir string, files []File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, strings.TrimPrefix(f.Name, Dir))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var widthRe = regexp.MustCompile(`paperbundle: table (\S+) natural width ([0-9.]+)pt\s*\(column ([0-9.]+)pt, text ([0-9.]+)pt\)`)

// widths checks the \pbtable lines of a log: every table at most the text
// width, and it returns them (label -> natural width, column, text).
func widths(t *testing.T, log string) map[string][3]float64 {
	t.Helper()
	flat := strings.ReplaceAll(log, "\n", "")
	out := map[string][3]float64{}
	for _, m := range widthRe.FindAllStringSubmatch(flat, -1) {
		w, _ := strconv.ParseFloat(m[2], 64)
		c, _ := strconv.ParseFloat(m[3], 64)
		x, _ := strconv.ParseFloat(m[4], 64)
		out[m[1]] = [3]float64{w, c, x}
		if w > x {
			t.Errorf("%s: natural width %.1fpt is wider than the text (%.1fpt)", m[1], w, x)
		}
	}
	if strings.Contains(log, "Overfull \\hbox") {
		i := strings.Index(log, "Overfull \\hbox")
		t.Errorf("overfull box: %s", log[i:min(len(log), i+200)])
	}
	return out
}

// TestCompileVenues: in acmart and IEEEtran, the example paper of the
// plain fixture, and every table of the hostile fixture, each alone (in a
// group of its own after the preamble), then its figures.tex with the
// paper figures (hostile labels in the PDFs and the captions), compile
// with pdflatex; no table
// is wider than the text, and a table wider than the column is a table*.
func TestCompileVenues(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	plain, host := tabletest.Plain().Report(t), tabletest.Hostile(t).Report(t)
	for _, venue := range []string{"acm", "ieee"} {
		t.Run(venue, func(t *testing.T) {
			opt := DefaultOptions()
			opt.Venue = Venues[venue]
			realFonts(t, opt.Venue)
			dir := t.TempDir()
			write(t, dir, Files(plain, opt, nil))
			log := latex(t, dir, "example.tex", false)
			if strings.Contains(log, "You do not have the") {
				t.Errorf("%s compiled with fallback fonts:\n%s", venue, log[strings.Index(log, "You do not have the"):][:200])
			}
			ws := widths(t, log)
			if len(ws) < 5 {
				t.Errorf("example.tex: %d tables measured, want every table: %v", len(ws), ws)
			}
			for label, w := range ws {
				t.Logf("%s: %s natural width %.2fpt (column %.2fpt, text %.2fpt)", venue, label, w[0], w[1], w[2])
			}

			hdir := t.TempDir()
			figs, pdfs := paperFigures(t, host, opt)
			files := Files(host, opt, figs)
			write(t, hdir, append(files, pdfs...))
			var doc strings.Builder
			doc.WriteString(documentClass(opt.Venue) + "\\newcommand\\pbdir{}\n\\input{preamble.tex}\n\\input{numbers.tex}\n" +
				"\\title{Tables alone}\n\\begin{document}\n\\maketitle\n")
			n := 0
			for _, f := range files {
				if strings.HasPrefix(f.Name, Dir+"tables/") {
					doc.WriteString("\\begingroup\\input{" + strings.TrimPrefix(f.Name, Dir) + "}\\clearpage\\endgroup\n")
					n++
				}
			}
			doc.WriteString("\\input{figures.tex}\n\\clearpage\n\\end{document}\n")
			write(t, hdir, []File{{Dir + "alone.tex", []byte(doc.String())}})
			hlog := latex(t, hdir, "alone.tex", false)
			if got := len(widths(t, hlog)); got != n {
				t.Errorf("hostile: %d of %d tables measured", got, n)
			}
		})
	}
}

// paperFigures draws the paper figures of a report as the command does
// (render.go), for figures.tex.
func paperFigures(t *testing.T, r *report.Report, opt Options) ([]Figure, []File) {
	t.Helper()
	set := plot.PaperSet(figures.Catalogue(r), "full")
	pdfs, err := plot.RenderPaper(set, plot.Paper{Column: opt.Venue.Column, Text: opt.Venue.Text, FontSize: opt.FontSize})
	if err != nil {
		t.Fatal(err)
	}
	var figs []Figure
	var files []File
	for i, s := range set {
		figs = append(figs, Figure{Name: s.ID.String(), Caption: s.Title + ". " + s.Subtitle, Wide: plot.Wide(&set[i])})
		files = append(files, File{Name: Dir + "figures/" + s.ID.String() + ".pdf", Data: pdfs[i].Data})
	}
	return figs, files
}

// TestMissingKey: a key numbers.tex does not define stops the compile
// with an error that names it; a defined key with any characters works.
func TestMissingKey(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	r := tabletest.Plain().Report(t)
	dir := t.TempDir()
	write(t, dir, []File{{Dir + "preamble.tex", []byte(Preamble)}, {Dir + "numbers.tex", Numbers(r, DefaultOptions())}})
	doc := func(body string) []File {
		return []File{{Dir + "doc.tex", []byte("\\documentclass{article}\n\\newcommand\\pbdir{}\n\\input{preamble.tex}\n\\input{numbers.tex}\n\\begin{document}\n" + body + "\n\\end{document}\n")}}
	}
	write(t, dir, doc(`AUROC \pbvalue{full}{ne.auroc} \pbci{full}{ne.auroc}, A.2: \pbvalue{full}{ne.auroc}[criterion=A.2], n \pbn{full}{rank.ndcg@10}; \pbdiff{full}{base}{ne.auroc} (\pbp{full}{base}{ne.auroc}).`))
	latex(t, dir, "doc.tex", false)
	write(t, dir, doc(`\pbvalue{full}{rank.ndgc@10}`))
	log := latex(t, dir, "doc.tex", true)
	if !strings.Contains(strings.ReplaceAll(log, "\n", ""), "numbers.tex has no key for \\pbvalue{full}{rank.ndgc@10}{}") {
		t.Errorf("the error does not name the key:\n%s", tail([]byte(log), 1500))
	}
}

// TestUncertaintyModes: paper.uncertainty std puts the fold std under a
// value, none nothing; ci the interval at \footnotesize (never smaller),
// ci-row at the body size.
func TestUncertaintyModes(t *testing.T) {
	r := tabletest.Plain().Report(t)
	for _, tc := range []struct {
		u          Uncertainty
		has, hasnt string
	}{
		{CI, `{\footnotesize [`, `{\footnotesize \ensuremath{\pm}`},
		{CIRow, `{ [`, `\footnotesize [`},
		{Std, `{\footnotesize \ensuremath{\pm}`, `{\footnotesize [`},
		{None, `\bfseries`, `\footnotesize`},
	} {
		opt := DefaultOptions()
		opt.Uncertainty = tc.u
		res := string(Tables(r, opt)[0].Data)
		if !strings.Contains(res, tc.has) || strings.Contains(res, tc.hasnt) {
			t.Errorf("uncertainty %s: results.tex should hold %q and not %q:\n%s", tc.u, tc.has, tc.hasnt, res)
		}
	}
}

// TestOneColumnVenues: the example paper compiles in llncs and in the
// NeurIPS geometry (article), and no table or figure there is a table* or
// figure*.
func TestOneColumnVenues(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	if testing.Short() {
		t.Skip("-short: two more compiles")
	}
	r := tabletest.Plain().Report(t)
	for _, venue := range []string{"lncs", "neurips"} {
		opt := DefaultOptions()
		opt.Venue = Venues[venue]
		dir := t.TempDir()
		files := Files(r, opt, []Figure{{Name: "wide", Caption: "A wide figure", Wide: true}})
		for _, f := range files {
			if f.Name == Dir+"figures.tex" && bytes.Contains(f.Data, []byte(`\begin{figure*}`)) {
				t.Errorf("%s: figure* in a one-column venue", venue)
			}
		}
		// figures.tex needs its PDF: the test has none, so leave it out.
		for i, f := range files {
			if f.Name == Dir+"figures.tex" {
				files[i].Data = nil
			}
		}
		write(t, dir, files)
		log := latex(t, dir, "example.tex", false)
		for label, w := range widths(t, log) {
			if w[1] != w[2] {
				t.Errorf("%s: %s measured against column %.2f and text %.2f: one column expected", venue, label, w[1], w[2])
			}
		}
	}
}

// realFonts skips a venue whose class or fonts TeX Live lacks: acmart is
// measured with its own fonts (Libertine, newtxmath, inconsolata; Debian's
// texlive-fonts-extra, which .ci/run installs), never with the Computer
// Modern it falls back to.
func realFonts(t *testing.T, v Venue) {
	t.Helper()
	need := []string{documentClassFile(v)}
	if v.Name == "acm" {
		need = append(need, "libertine.sty", "newtxmath.sty", "zi4.sty")
	}
	for _, f := range need {
		if out, _ := exec.Command("kpsewhich", f).Output(); len(bytes.TrimSpace(out)) == 0 {
			t.Skipf("%s not installed (acmart needs texlive-publishers and texlive-fonts-extra)", f)
		}
	}
}
