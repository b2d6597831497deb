package paper

import (
	"math"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/tables"
)

// resultsTable is results.tex: the results matrix of tables.BuildMatrix
// (the model report.html and SUMMARY.md show), one row per system with
// its letter, then the baselines under a rule; each value with the letters
// of the systems it is significantly better than as a superscript (and ↓
// when significantly worse than one), its uncertainty under it per
// Options.Uncertainty, the best system value of each column in bold. The
// note names the test of each column, the correction and alpha.
func (b builder) resultsTable() (*table, bool) {
	mx := tables.BuildMatrix(b.r)
	if len(mx.Columns) == 0 || len(mx.Rows) == 0 {
		return nil, false
	}
	t := &table{name: "results", cols: []col{{head: "System"}}}
	for _, c := range mx.Columns {
		t.cols = append(t.cols, col{head: header(c.Title), num: true})
	}
	for _, r := range mx.Rows {
		name := r.Label
		if r.Letter != "" {
			name = clip(name, maxText) + " (" + r.Letter + ")"
		}
		rw := row{cells: []cell{labelCell(name)}, baseline: r.Baseline}
		rw.rule = r.Baseline && (len(t.rows) == 0 || !t.rows[len(t.rows)-1].baseline)
		for j, x := range r.Cells {
			c := cell{v: math.NaN(), dec: b.decimals(mx.Columns[j]), bold: x.Best}
			switch {
			case !x.Present:
				c.none = true
			case tables.Defined(x.Value):
				c.v = x.Value
				c.unc = b.matrixUncertainty(x, c.dec)
				c.sup = strings.Join(x.Better, "")
				if len(x.Worse) > 0 {
					c.sup += `\ensuremath{\downarrow}`
				}
			}
			rw.cells = append(rw.cells, c)
		}
		t.rows = append(t.rows, rw)
	}
	t.caption = "Results of every system on the headline metrics. " + b.matrixPopulations(mx) + " Best system value per column in bold."
	t.uncText = b.uncertaintyText()
	t.note = b.matrixNote(mx)
	return t, true
}

// decimals of a matrix column: a count none, else the paper's.
func (b builder) decimals(c tables.MatrixColumn) int {
	d, _ := metrics.Lookup(c.ID)
	return decimalsOf(d, b.opt)
}

// matrixUncertainty is the small text under a matrix value.
func (b builder) matrixUncertainty(x tables.MatrixCell, dec int) string {
	switch b.opt.Uncertainty {
	case CI:
		if tables.Defined(x.Lo) && tables.Defined(x.Hi) {
			return "[" + num(x.Lo, dec) + ", " + num(x.Hi, dec) + "]"
		}
	case Std:
		if tables.Defined(x.FoldStd) {
			return `\ensuremath{\pm}` + num(x.FoldStd, dec)
		}
	}
	return ""
}

// matrixPopulations says which population each column is computed over.
func (b builder) matrixPopulations(mx tables.Matrix) string {
	byPop := map[string][]string{}
	var order []string
	for _, c := range mx.Columns {
		if _, ok := byPop[c.Population]; !ok {
			order = append(order, c.Population)
		}
		byPop[c.Population] = append(byPop[c.Population], tables.LatexText(c.Title))
	}
	var parts []string
	for _, p := range order {
		parts = append(parts, strings.Join(byPop[p], ", ")+" over "+b.population(metrics.Population(p)))
	}
	return strings.Join(parts, "; ") + "."
}

// matrixNote is the note under the matrix: the markers, the test of each
// column, the correction and alpha; the baselines.
func (b builder) matrixNote(mx tables.Matrix) string {
	var s []string
	if mx.Systems() > 1 {
		a := strconv.FormatFloat(mx.Alpha, 'g', -1, 64)
		corr := "two-sided, Holm-corrected within each metric over the compared pairs, $\\alpha = " + a + "$"
		if mx.Correction == "none" {
			corr = "two-sided, no correction, $\\alpha = " + a + "$"
		}
		s = append(s, "Superscript letters: significantly better than the system with that letter; $\\downarrow$: significantly worse than a system it was compared with ("+corr+").")
		var parts []string
		for _, g := range mx.TestGroups() {
			var titles []string
			for _, x := range g.Titles {
				titles = append(titles, tables.LatexText(x))
			}
			parts = append(parts, strings.Join(titles, ", ")+": "+tables.LatexText(g.Test))
		}
		s = append(s, "Tests: "+strings.Join(parts, "; ")+".")
	}
	if mx.Queries != "" {
		s = append(s, tables.LatexText(mx.Queries))
	}
	for _, r := range mx.Rows {
		if r.Baseline {
			s = append(s, "Random and oracle baselines: ranking columns only, not tested, never bold.")
			break
		}
	}
	return strings.Join(s, " ")
}
