package paper

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// resultsTable is results.tex: the results matrix of tables.BuildMatrix
// (the model report.html and SUMMARY.md show) over the columns and systems
// paper.results chooses (default: the headline metrics, every system, no
// baselines), one row per system with its letter, then the baselines under
// a rule when asked for; each value with the letters of the systems it is
// significantly better than as a superscript (and ↓ when significantly
// worse than one), its uncertainty under it per Options.Uncertainty, the
// best system value of each column in bold. The note names the test of
// each column, the correction and alpha.
func (b builder) resultsTable() (*table, bool) {
	mx := b.matrix(b.opt.Results, nil)
	if len(mx.Columns) == 0 || len(mx.Rows) == 0 {
		return nil, false
	}
	t := b.matrixTable("results", mx, b.opt.Results)
	t.caption = "Results of " + b.systemsText(mx) + ": " + b.matrixPopulations(mx)
	return t, true
}

// matrix is the matrix of a composition, over defaults when it names no
// metric.
func (b builder) matrix(c Composition, defaults []metrics.ID) tables.Matrix {
	ids := c.Metrics
	if ids == nil {
		ids = defaults
	}
	return tables.BuildMatrixWith(b.r, tables.MatrixOptions{Metrics: ids, Systems: c.Systems, NoBaselines: !c.Baselines})
}

// systemsText says which systems a matrix shows, for its caption.
func (b builder) systemsText(mx tables.Matrix) string {
	n := mx.Systems()
	all := 0
	for _, s := range b.r.Systems {
		if s.Kind == report.Pipeline {
			all++
		}
	}
	switch {
	case n == 1:
		return b.label(mx.Rows[0].System)
	case n == all:
		return "every system"
	}
	return count(n) + " systems"
}

// matrixTable writes a matrix as a paper table: headers from the
// composition, markers, bold, uncertainty and the note.
func (b builder) matrixTable(name string, mx tables.Matrix, c Composition) *table {
	t := &table{name: name, cols: []col{{head: "System"}}}
	for _, mc := range mx.Columns {
		h := header(mc.Title)
		if x, ok := c.Headers[mc.ID]; ok {
			h = header(x)
		}
		t.cols = append(t.cols, col{head: h, num: true})
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
	t.note = b.matrixNote(mx)
	t.uncText = b.uncertaintyNote()
	return t
}

// decimals of a matrix column: a count none, else the paper's.
func (b builder) decimals(c tables.MatrixColumn) int {
	d, _ := metrics.Lookup(c.ID)
	return decimalsOf(d, b.opt)
}

// matrixUncertainty is the small text under a matrix value.
func (b builder) matrixUncertainty(x tables.MatrixCell, dec int) string {
	switch b.opt.Uncertainty {
	case CI, CIRow:
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
		worse := worseText(mx, b.label)
		s = append(s, "Superscript letters: significantly better than the system with that letter; $\\downarrow$: "+worse+" ("+corr+").")
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
	s = append(s, "Bold: the best system value per column.")
	return strings.Join(s, " ")
}

// worseText says against whom the ↓ of a matrix is: the one system every
// ↓ is against when there is one, else per row.
func worseText(mx tables.Matrix, label func(string) string) string {
	letter := map[string]string{}
	for _, r := range mx.Rows {
		letter[r.Letter] = r.System
	}
	var per []string
	sets := map[string]bool{}
	for _, r := range mx.Rows {
		seen := map[string]bool{}
		var ls []string
		for _, c := range r.Cells {
			for _, l := range c.Worse {
				if !seen[l] {
					seen[l] = true
					ls = append(ls, l)
				}
			}
		}
		if len(ls) == 0 {
			continue
		}
		sort.Strings(ls)
		sets[strings.Join(ls, ",")] = true
		per = append(per, "on "+r.Letter+", than "+strings.Join(ls, ", "))
	}
	if len(sets) == 1 {
		for k := range sets {
			if !strings.Contains(k, ",") {
				return "significantly worse than " + label(letter[k]) + " (" + k + ")"
			}
		}
	}
	if len(per) == 0 {
		return "significantly worse than a system it was compared with"
	}
	return "significantly worse than the systems with these letters (" + strings.Join(per, "; ") + ")"
}
