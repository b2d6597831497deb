package paper

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestFitLadder: in acmart and IEEEtran, a table just over the column is
// set with the tighter \tabcolsep; one 7% over, which the tighter padding
// alone does not bring in, also one size smaller; one 30% over becomes a
// table*. The tables are four columns of blank space sized in units of
// the current font size, so a smaller size makes them narrower as text
// would: natural width = 4 (x·size + 2·4pt).
func TestFitLadder(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed")
	}
	for _, venue := range []string{"acm", "ieee"} {
		t.Run(venue, func(t *testing.T) {
			v := Venues[venue]
			realFonts(t, v)
			table := func(label string, natural float64) string {
				x := (natural/4 - 8) / v.Body
				cell := `\w{` + strconv.FormatFloat(x, 'f', 4, 64) + `}`
				return `\pbtable{` + label + `}{` + label + `}{}{llll}{` + strings.Repeat(cell+" & ", 3) + cell + `\\}` + "\n\\clearpage\n"
			}
			body := table("tab:just-over", v.Column+4) + table("tab:seven", v.Column*1.07) + table("tab:far", v.Column*1.3)
			doc := documentClass(v) + "\\newcommand\\pbdir{}\n\\input{preamble.tex}\n" +
				"\\makeatletter\\newcommand\\w[1]{\\hspace*{#1\\dimexpr\\f@size pt\\relax}}\\makeatother\n" +
				"\\title{Fit}\n\\begin{document}\n\\maketitle\n" + body + "\\end{document}\n"
			dir := t.TempDir()
			write(t, dir, []File{{Dir + "preamble.tex", []byte(Preamble)}, {Dir + "fit.tex", []byte(doc)}})
			log := strings.ReplaceAll(latex(t, dir, "fit.tex", false), "\n", "")
			for _, want := range []string{"table tab:just-over set tight,", "table tab:seven set tight smaller,", "table tab:far set wide,"} {
				if !strings.Contains(log, want) {
					t.Errorf("%s: the log lacks %q", venue, want)
				}
			}
			if t.Failed() {
				i := strings.Index(log, "paperbundle: table")
				t.Log(log[max(0, i):min(len(log), i+900)])
			}
		})
	}
}

// documentClassFile is the class file of a named venue.
func documentClassFile(v Venue) string {
	switch v.Name {
	case "acm":
		return "acmart.cls"
	case "ieee":
		return "IEEEtran.cls"
	}
	return "article.cls"
}
