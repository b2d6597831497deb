package paper

import (
	"math"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/tables"
)

// This file is the compact table model of paper/tables/ and its LaTeX
// writer: text columns left, number columns as siunitx S columns, the
// uncertainty of a row's numbers in a smaller row under it, the best value
// of a column in bold (\bfseries, which siunitx's detect-weight keeps
// aligned), significance letters as superscripts after the number.

// col is one column of a paper table.
type col struct {
	head string            // LaTeX header
	num  bool              // a number column (S); else text (l)
	best metrics.Direction // Higher or Lower: the best value among non-baseline rows is bold
}

// cell is one cell: LaTeX text in a text column; in a number column a
// value with its decimals, the uncertainty written under it and the
// superscript after it.
type cell struct {
	text string
	more string // LaTeX text of a text cell's second line, set in the row under it
	v    float64
	dec  int
	unc  string // LaTeX, shown in the row under the value
	sup  string // LaTeX, superscript after the value
	bold bool
	none bool // nothing to show here (not applicable, unlike an undefined n/a)
}

// stack is a header of several lines, bottom-aligned.
func stack(lines ...string) string {
	return `\begin{tabular}[b]{@{}c@{}}` + strings.Join(lines, `\\`) + `\end{tabular}`
}

// row is one row; a baseline row never counts for the best value.
type row struct {
	cells    []cell
	baseline bool
	rule     bool // a \midrule before this row
}

// table is one paper table.
type table struct {
	name    string // file stem under paper/tables/
	caption string // LaTeX
	uncText string // LaTeX, put first in the note when a row shows an uncertainty
	uncSize string // the size of the text under a value (\footnotesize; "" for the body size)
	note    string // LaTeX, under the table ("" = none)
	cols    []col
	rows    []row
}

// textCell is a cell of user text, escaped once and cut to maxText runes.
func textCell(s string) cell { return cell{text: tables.LatexText(clip(s, maxText)), v: math.NaN()} }

// labelCell is a cell of a user label: escaped once, cut to maxText
// runes, and a label longer than splitAt runes broken at the space
// nearest its middle into two lines, the second set in the row of the
// numbers' uncertainty (so a long system name does not widen the table).
func labelCell(s string) cell {
	s = clip(s, maxText)
	a, b := splitLabel(s)
	return cell{text: tables.LatexText(a), more: tables.LatexText(b), v: math.NaN()}
}

// splitAt is the length from which a label takes two lines.
const splitAt = 16

// splitLabel breaks s at the space nearest its middle when it is longer
// than splitAt runes.
func splitLabel(s string) (string, string) {
	r := []rune(s)
	if len(r) <= splitAt {
		return s, ""
	}
	best := -1
	for i, c := range r {
		if c == ' ' && (best < 0 || abs(i-len(r)/2) < abs(best-len(r)/2)) {
			best = i
		}
	}
	if best <= len(r)/4 || best >= len(r)-len(r)/4-1 {
		// No space near the middle: cut there.
		return string(r[:len(r)/2]), string(r[len(r)/2:])
	}
	return string(r[:best]), string(r[best+1:])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// header stacks a header of several words into lines of at most 12
// characters (a word longer stays whole), bottom-aligned.
func header(s string) string {
	words := strings.Fields(s)
	var lines []string
	cur := ""
	for _, w := range words {
		if cur != "" && len(cur)+1+len(w) > 12 {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) <= 1 {
		return tables.LatexText(s)
	}
	for i := range lines {
		lines[i] = tables.LatexText(lines[i])
	}
	return stack(lines...)
}

// breakable escapes running text (a caption) and lets LaTeX break a word
// longer than 16 characters every 12 (\allowbreak), so a long label with
// no space never runs past the column.
func breakable(s string) string {
	var b strings.Builder
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		r := []rune(w)
		if len(r) <= 16 {
			b.WriteString(tables.LatexText(w))
			continue
		}
		for k := 0; k < len(r); k += 12 {
			if k > 0 {
				b.WriteString(`\allowbreak{}`)
			}
			b.WriteString(tables.LatexText(string(r[k:min(len(r), k+12)])))
		}
	}
	return b.String()
}

// rawCell is a cell of our own LaTeX.
func rawCell(s string) cell { return cell{text: s, v: math.NaN()} }

// maxText is the longest user text a paper table shows, in runes: the
// CSV, workbook and report keep it whole.
const maxText = 32

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// defined reports whether a number column has a value in any row.
func (t *table) defined(j int) bool {
	for _, r := range t.rows {
		if tables.Defined(r.cells[j].v) {
			return true
		}
	}
	return false
}

// prune drops the number columns that have no value in any row and the
// text columns that are empty in every row.
func (t *table) prune() {
	keep := make([]int, 0, len(t.cols))
	for j, c := range t.cols {
		empty := true
		if c.num {
			empty = !t.defined(j)
		} else {
			for _, r := range t.rows {
				if r.cells[j].text != "" {
					empty = false
					break
				}
			}
		}
		if !empty {
			keep = append(keep, j)
		}
	}
	if len(keep) == len(t.cols) {
		return
	}
	cols := make([]col, len(keep))
	for i, j := range keep {
		cols[i] = t.cols[j]
	}
	for ri := range t.rows {
		cells := make([]cell, len(keep))
		for i, j := range keep {
			cells[i] = t.rows[ri].cells[j]
		}
		t.rows[ri].cells = cells
	}
	t.cols = cols
}

// markBest sets bold on the best value of each number column with a
// direction, among the non-baseline rows, when two or more have a value.
func (t *table) markBest() {
	for j, c := range t.cols {
		if !c.num || (c.best != metrics.Higher && c.best != metrics.Lower) {
			continue
		}
		best, n := math.NaN(), 0
		for _, r := range t.rows {
			v := r.cells[j].v
			if r.baseline || !tables.Defined(v) {
				continue
			}
			v = round(v, r.cells[j].dec)
			n++
			if math.IsNaN(best) || (c.best == metrics.Higher && v > best) || (c.best == metrics.Lower && v < best) {
				best = v
			}
		}
		if n < 2 {
			continue
		}
		for ri := range t.rows {
			x := t.rows[ri].cells[j]
			if !t.rows[ri].baseline && tables.Defined(x.v) && round(x.v, x.dec) == best {
				t.rows[ri].cells[j].bold = true
			}
		}
	}
}

// round rounds x to d decimals, as it is printed: two values that print
// the same are both best.
func round(x float64, d int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	return v
}

// format is the siunitx table-format of number column j: the integer and
// decimal digits of its widest value, with a sign when one is negative.
func (t *table) format(j int) string {
	intDigits, dec, neg := 1, 0, false
	for _, r := range t.rows {
		x := r.cells[j]
		if !tables.Defined(x.v) {
			continue
		}
		s := strconv.FormatFloat(math.Abs(x.v), 'f', x.dec, 64)
		ip, _, _ := strings.Cut(s, ".")
		intDigits = max(intDigits, len(ip))
		dec = max(dec, x.dec)
		neg = neg || tables.FormatNum(x.v, x.dec)[0] == '-'
	}
	f := strconv.Itoa(intDigits) + "." + strconv.Itoa(dec)
	if neg {
		f = "-" + f
	}
	return f
}

// supSpace is the room siunitx reserves after the numbers of column j for
// their superscripts: as many m's (the widest letter) as the longest run
// of letters, and the arrow when a cell has one.
func (t *table) supSpace(j int) string {
	letters, arrow := 0, false
	for _, r := range t.rows {
		sup := r.cells[j].sup
		if strings.Contains(sup, `\downarrow`) {
			arrow = true
			sup = strings.ReplaceAll(sup, `\ensuremath{\downarrow}`, "")
		}
		letters = max(letters, len(sup))
	}
	w := strings.Repeat("m", letters)
	if arrow {
		w += `\ensuremath{\downarrow}`
	}
	return w
}

// LaTeX writes the table as a \pbtable (preamble.tex): the tabular is
// measured when the paper compiles and set as a table or a table*. A
// table of four number columns or more also carries the same rows in two
// and in three panels (the text columns repeated, the number columns
// shared out, panels stacked): \pbtablesplit takes the first of the three
// that fits \textwidth, so a one-column venue never gets a table wider
// than its text and nothing is scaled.
func (t *table) LaTeX() []byte {
	t.prune()
	t.markBest()
	caption, note := t.caption, t.note
	if t.shows() && t.uncText != "" {
		note = strings.TrimSpace(t.uncText + " " + note)
	}
	var keys, nums []int
	for j, c := range t.cols {
		if c.num {
			nums = append(nums, j)
		} else if len(nums) == 0 {
			keys = append(keys, j)
		}
	}
	all := make([]int, len(t.cols))
	for j := range all {
		all[j] = j
	}
	spec, rows := t.tabular(all)
	var b strings.Builder
	b.WriteString("% paper/tables/" + t.name + ".tex -- generated by paperbundle; needs paper/preamble.tex\n")
	split := len(nums) >= 4 && len(keys)+len(nums) == len(t.cols)
	if split {
		b.WriteString(`\pbtablesplit`)
	} else {
		b.WriteString(`\pbtable`)
	}
	b.WriteString(`{tab:pb-` + t.name + "}%\n{" + caption + "}%\n{" + note + "}%\n{" + spec + "}%\n{" + rows + "}")
	if split {
		for _, k := range []int{2, 3} {
			b.WriteString("%\n{" + t.panels(keys, nums, k) + "}")
		}
	}
	b.WriteString("\n")
	return []byte(b.String())
}

// shows reports whether a row shows an uncertainty under its values.
func (t *table) shows() bool {
	for _, r := range t.rows {
		for _, c := range r.cells {
			if c.unc != "" {
				return true
			}
		}
	}
	return false
}

// panels writes the rows as k tabulars stacked in one column, each with
// the key columns and its share of the number columns.
func (t *table) panels(keys, nums []int, k int) string {
	var b strings.Builder
	b.WriteString("\\begin{tabular}{@{}c@{}}\n")
	per := (len(nums) + k - 1) / k
	for p := 0; p*per < len(nums); p++ {
		if p > 0 {
			b.WriteString("\\\\ \\noalign{\\vskip\\medskipamount}\n")
		}
		cols := append(append([]int{}, keys...), nums[p*per:min(len(nums), (p+1)*per)]...)
		spec, rows := t.tabular(cols)
		b.WriteString("\\begin{tabular}{" + spec + "}" + rows + "\\end{tabular}")
	}
	b.WriteString("\n\\end{tabular}")
	return b.String()
}

// tabular writes the column spec and the rows (rules included) of the
// columns cols.
func (t *table) tabular(cols []int) (spec, rows string) {
	var s strings.Builder
	for _, j := range cols {
		c := t.cols[j]
		if !c.num {
			s.WriteString("l")
			continue
		}
		s.WriteString("S[table-format=" + t.format(j) + ", detect-weight, mode=text, group-minimum-digits=4, group-separator={,}")
		if sp := t.supSpace(j); sp != "" {
			s.WriteString(", table-space-text-post={\\textsuperscript{" + sp + "}}")
		}
		s.WriteString("]")
	}
	var b strings.Builder
	b.WriteString("\\toprule\n")
	for i, j := range cols {
		c := t.cols[j]
		if i > 0 {
			b.WriteString(" & ")
		}
		if c.num {
			b.WriteString("{" + c.head + "}")
		} else {
			b.WriteString(c.head)
		}
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for _, r := range t.rows {
		if r.rule {
			b.WriteString("\\midrule\n")
		}
		unc := false
		for i, j := range cols {
			c, x := t.cols[j], r.cells[j]
			if i > 0 {
				b.WriteString(" & ")
			}
			if !c.num {
				b.WriteString(rowStart(x.text))
				unc = unc || x.more != ""
				continue
			}
			unc = unc || x.unc != ""
			b.WriteString(numCell(x))
		}
		b.WriteString(" \\\\\n")
		if !unc {
			continue
		}
		for i, j := range cols {
			c, x := t.cols[j], r.cells[j]
			if i > 0 {
				b.WriteString(" & ")
			}
			switch {
			case c.num && x.unc != "":
				b.WriteString("{" + t.uncSize + " " + x.unc + "}")
			case !c.num:
				b.WriteString(rowStart(x.more))
			}
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule")
	return s.String(), b.String()
}

// rowStart guards a cell's text against the row end before it: after \\
// a leading [ or * would be read as its option.
func rowStart(s string) string {
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "*") {
		return "{}" + s
	}
	return s
}

// numCell writes the number of a cell in an S column.
func numCell(x cell) string {
	if x.none {
		return "{}"
	}
	if !tables.Defined(x.v) {
		return "{n/a}"
	}
	s := tables.FormatNum(x.v, x.dec)
	if x.bold {
		s = `\bfseries ` + s
	}
	if x.sup != "" {
		s += `{\textsuperscript{` + x.sup + `}}`
	}
	return s
}
