package tables

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"paperbundle/internal/mdtext"
	"paperbundle/metrics"
	"paperbundle/report"
)

// Matrix is the results matrix: one row per system of the inputs (each
// with a letter, a, b, c, ... in list order), then the random and oracle
// baselines; one column per applicable headline metric. It is the first
// thing in report.html, the main table of the paper and the table of
// SUMMARY.md, all built by BuildMatrix from the same Report, so the three
// show the same numbers and the same markers.
type Matrix struct {
	Columns []MatrixColumn
	Rows    []MatrixRow
	// CI is the bootstrap settings in words (report.BootstrapSettings.Text),
	// "" when the report has no intervals.
	CI string
	// Alpha and Correction decide the markers: a pair is significant when
	// its corrected p-value is below Alpha.
	Alpha      float64
	Correction string // "holm" or "none"
	// Mode is the comparison mode in force (primary, reference, ladder,
	// all_pairs), "" when the report does not say.
	Mode string
	// Folds is the number of folds behind the fold mean ± std (0: none).
	Folds int
	// Reference and Subject are the row indexes of the system on the
	// reference side, and on the other side, of every comparison, when one
	// system is (-1 otherwise): the reference of `comparisons: reference`,
	// the primary of `comparisons: primary`.
	Reference, Subject int
	// Queries says, when the systems are evaluated on different queries
	// (TREC runs under missing_run: skip), how many each is and how many
	// each compared pair shares; "" when they share every query.
	Queries string
}

// MatrixColumn is one headline metric.
type MatrixColumn struct {
	ID         metrics.ID
	Title      string // technical name: "Recall@10"
	Plain      string // plain-language header: "Evidence found in the top 10"
	Meaning    string // one-line interpretation
	Direction  metrics.Direction
	Population string
	Digits     int
	// Tests names the tests that decided this column's markers, in the
	// words of the comparisons ("permutation", "delong", "bootstrap");
	// empty when no pair was tested on this metric.
	Tests []string
	// Baselines reports whether baseline rows have values in this column
	// (the ranking columns).
	Baselines bool
}

// MatrixRow is one system.
type MatrixRow struct {
	System   string
	Label    string
	Letter   string // "a", "b", ...; "" for a baseline
	Primary  bool
	Baseline bool
	Cells    []MatrixCell // aligned with Matrix.Columns
}

// MatrixCell is one (system, headline metric).
type MatrixCell struct {
	Present  bool    // the metric applies to this system (else the cell is empty)
	Value    float64 // NaN: undefined (Note says why)
	Lo, Hi   float64 // the CI; NaN: none
	FoldMean float64 // NaN: no fold spread (fewer than two folds, or undefined)
	FoldStd  float64
	N        int
	Note     string
	Anchor   string
	// Better lists the letters of the systems this cell is significantly
	// better than, among those it was compared with, in letter order.
	Better []string
	// Worse lists the letters of the systems it is significantly worse
	// than; the matrix shows a downward mark when it is not empty.
	Worse []string
	// Best: the best value of the column among the systems of the inputs
	// (ties all best); baselines are never best.
	Best bool
	// Target is the metric's target (nil: none); Missed is true when the
	// value is defined and misses it.
	Target *report.Target
	Missed bool
}

// Letter is the marker letter of the i-th system (0-based): a ... z,
// then aa, ab, ...
func Letter(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

// comparisonP is the p-value that decides a comparison's verdict: the
// Holm-adjusted p (which equals p when the correction is none).
func comparisonP(c report.Comparison) report.Num { return c.PHolm }

// comparisonTest names the test of a comparison ("permutation", "delong",
// "bootstrap"), "" when the pair was not tested.
func comparisonTest(c report.Comparison) string {
	if !c.PHolm.Valid() {
		return ""
	}
	return c.Test
}

// significance is the level and correction in force, as the report
// recorded them; a report of schema 1 did not, and had alpha 0.05 with
// Holm's correction.
func significance(r *report.Report) (alpha float64, correction string) {
	sig := r.Settings.Significance
	if sig.Alpha == 0 {
		return 0.05, "holm"
	}
	return sig.Alpha, string(sig.Correction)
}

// comparisonMode is the comparison mode the report records ("" unknown).
func comparisonMode(r *report.Report) string { return r.ComparisonMode }

// BuildMatrix returns the results matrix of a report.
func BuildMatrix(r *report.Report) Matrix { return BuildMatrixWith(r, MatrixOptions{}) }

// MatrixOptions choose what a matrix shows (the paper's paper.results):
// the metric columns in order (nil: the headline set), the systems of the
// inputs in order (nil: every one; the letters follow this order), and
// whether the random and oracle baselines get rows.
type MatrixOptions struct {
	Metrics     []metrics.ID
	Systems     []string
	NoBaselines bool
}

// BuildMatrixWith is BuildMatrix over the columns and rows o chooses; the
// markers compare only the systems shown.
func BuildMatrixWith(r *report.Report, o MatrixOptions) Matrix {
	var mx Matrix
	if r.Settings.Bootstrap.Resamples > 0 {
		mx.CI = r.BootstrapText()
	}
	mx.Alpha, mx.Correction = significance(r)
	mx.Mode = comparisonMode(r)

	var pipes, bases []report.SystemInfo
	for _, s := range r.Systems {
		if s.Kind == report.Pipeline {
			pipes = append(pipes, s)
		} else if !o.NoBaselines {
			bases = append(bases, s)
		}
	}
	if o.Systems != nil {
		pipes = chosenSystems(pipes, o.Systems)
	}
	mx.Columns = matrixColumns(r, pipes)
	if o.Metrics != nil {
		mx.Columns = chosenColumns(r, pipes, o.Metrics)
	}
	mx.addRows(r, pipes, bases)
	nPipes := len(pipes)
	mx.markComparisons(r, nPipes)
	mx.markBest(nPipes)
	mx.Queries = queriesNote(r, mx.Rows)
	r.Vocabulary().SayAll(&mx, "System", "Label", "Letter", "Anchor", "ID", "Better", "Worse", "Population")
	return mx
}

// chosenSystems are the systems of names, in that order.
func chosenSystems(pipes []report.SystemInfo, names []string) []report.SystemInfo {
	var out []report.SystemInfo
	for _, n := range names {
		for _, s := range pipes {
			if s.Name == n {
				out = append(out, s)
			}
		}
	}
	return out
}

// chosenColumns are the columns of ids, in that order, each that some
// system shown has on the whole population.
func chosenColumns(r *report.Report, pipes []report.SystemInfo, ids []metrics.ID) []MatrixColumn {
	var out []MatrixColumn
	for _, id := range ids {
		d, ok := metrics.Lookup(id)
		if !ok {
			continue
		}
		for _, s := range pipes {
			if _, has := r.Metric(s.Name, id, report.Whole); has {
				out = append(out, matrixColumn(id, d))
				break
			}
		}
	}
	return out
}

// queriesNote says, when the systems are evaluated on different queries,
// how many each is evaluated on and how many each compared pair shares
// (the n of its ranking comparisons); "" when they share every query.
func queriesNote(r *report.Report, rows []MatrixRow) string {
	if len(r.Dataset.SystemQueries) == 0 {
		return ""
	}
	name := map[string]string{}
	var own []string
	for _, row := range rows {
		if row.Baseline {
			continue
		}
		name[row.System] = row.Label + " (" + row.Letter + ")"
		own = append(own, name[row.System]+" on "+strconv.Itoa(r.Dataset.SystemQueries[row.System]))
	}
	type pair struct{ a, b string }
	seen := map[pair]bool{}
	var shared []string
	for _, c := range r.Comparisons {
		d, ok := metrics.Lookup(c.ID)
		p := pair{c.System, c.Reference}
		if !ok || d.Family() != "rank" || seen[p] || name[c.System] == "" || name[c.Reference] == "" {
			continue
		}
		seen[p] = true
		shared = append(shared, name[c.System]+" with "+name[c.Reference]+": "+strconv.Itoa(c.N))
	}
	out := "The systems are evaluated on different queries (TREC runs without a line for some qrels queries, missing_run: skip): " + strings.Join(own, ", ") + " queries"
	if len(shared) > 0 {
		out += "; each comparison is on the queries both systems have (" + strings.Join(shared, "; ") + ")"
	}
	return out + "."
}

// matrixColumns are the headline metrics some system of the inputs has,
// in the order of the headline set (report.HeadlineIDs: paper.yaml's
// headline: or the kind of input's).
func matrixColumns(r *report.Report, pipes []report.SystemInfo) []MatrixColumn {
	pipe := map[string]bool{}
	for _, s := range pipes {
		pipe[s.Name] = true
	}
	var out []MatrixColumn
	for _, id := range r.HeadlineIDs() {
		some := false
		for _, m := range r.Metrics {
			if m.ID == id && m.Slice == report.Whole && pipe[m.System] {
				some = true
				break
			}
		}
		d, ok := metrics.Lookup(id)
		if !some || !ok {
			continue
		}
		out = append(out, matrixColumn(id, d))
	}
	return out
}

// matrixColumn is the column of metric id.
func matrixColumn(id metrics.ID, d metrics.Def) MatrixColumn {
	return MatrixColumn{
		ID: id, Title: Title(id), Plain: metrics.PlainTitle(id), Meaning: d.Meaning,
		Direction: d.Direction, Population: string(d.Population), Digits: digits(d),
		Baselines: d.Family() == "rank",
	}
}

// emptyCell is a cell with no value, interval or fold spread.
func emptyCell() MatrixCell {
	return MatrixCell{Value: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), FoldMean: math.NaN(), FoldStd: math.NaN()}
}

// cell is the (system, column) cell of r; it raises mx.Folds to the number
// of folds behind its fold spread.
func (mx *Matrix) cell(r *report.Report, system string, c MatrixColumn) MatrixCell {
	x := emptyCell()
	x.Anchor = Anchor(system, c.ID, report.Whole)
	m, ok := r.Metric(system, c.ID, report.Whole)
	if !ok {
		return x
	}
	x.Present, x.N = true, m.ShownN()
	x.Value = float64(m.Value)
	if !m.Value.Valid() {
		x.Value = math.NaN()
		x.Note = undefinedReason(metrics.MustDef(c.ID))
	}
	if m.CI != nil && m.CI.Low.Valid() && m.CI.High.Valid() {
		x.Lo, x.Hi = float64(m.CI.Low), float64(m.CI.High)
	}
	x.Target = m.Target
	x.Missed = m.TargetMet != nil && !*m.TargetMet
	if len(m.Folds) >= 2 && m.FoldMean.Valid() {
		x.FoldMean = float64(m.FoldMean)
		if m.FoldStd.Valid() {
			x.FoldStd = float64(m.FoldStd)
		}
		if len(m.Folds) > mx.Folds {
			mx.Folds = len(m.Folds)
		}
	}
	return x
}

// addRows adds a lettered row per system of the inputs, then a row per
// baseline that has a value in some baseline column.
func (mx *Matrix) addRows(r *report.Report, pipes, bases []report.SystemInfo) {
	for i, s := range pipes {
		row := MatrixRow{System: s.Name, Label: r.Label(s.Name), Letter: Letter(i), Primary: s.Primary}
		for _, c := range mx.Columns {
			row.Cells = append(row.Cells, mx.cell(r, s.Name, c))
		}
		mx.Rows = append(mx.Rows, row)
	}
	for _, s := range bases {
		row := MatrixRow{System: s.Name, Label: r.Label(s.Name), Baseline: true}
		any := false
		for _, c := range mx.Columns {
			x := emptyCell()
			if c.Baselines {
				x = mx.cell(r, s.Name, c)
				any = any || x.Present
			}
			row.Cells = append(row.Cells, x)
		}
		if any {
			mx.Rows = append(mx.Rows, row)
		}
	}
}

// markComparisons sets the markers: every significant comparison between
// two systems of the inputs (the first nPipes rows) gives the better one
// the other's letter and the worse one a downward mark. It also names each
// column's tests and the reference and subject rows.
func (mx *Matrix) markComparisons(r *report.Report, nPipes int) {
	colOf := map[metrics.ID]int{}
	for j, c := range mx.Columns {
		colOf[c.ID] = j
	}
	rowOf := map[string]int{}
	for i := 0; i < nPipes; i++ {
		rowOf[mx.Rows[i].System] = i
	}
	tests := make([]map[string]bool, len(mx.Columns))
	mx.Reference, mx.Subject = -1, -1
	refs, subs := map[int]bool{}, map[int]bool{}
	for _, c := range r.Comparisons {
		i, okR := rowOf[c.Reference]
		k, okS := rowOf[c.System]
		if okR && okS {
			refs[i], subs[k] = true, true
		}
	}
	for i := range refs {
		if len(refs) == 1 {
			mx.Reference = i
		}
	}
	for k := range subs {
		if len(subs) == 1 {
			mx.Subject = k
		}
	}
	for _, c := range r.Comparisons {
		j, ok := colOf[c.ID]
		if !ok {
			continue
		}
		ia, okA := rowOf[c.System]
		ib, okB := rowOf[c.Reference]
		if !okA || !okB {
			continue
		}
		t := comparisonTest(c)
		if t == "" {
			continue
		}
		if tests[j] == nil {
			tests[j] = map[string]bool{}
		}
		tests[j][t] = true
		p := comparisonP(c)
		if !p.Valid() || float64(p) >= mx.Alpha || !c.Diff.Valid() || c.Diff == 0 {
			continue
		}
		better := c.Diff > 0
		switch mx.Columns[j].Direction {
		case metrics.Higher:
		case metrics.Lower:
			better = !better
		default:
			continue
		}
		win, lose := ia, ib
		if !better {
			win, lose = ib, ia
		}
		wc, lc := &mx.Rows[win].Cells[j], &mx.Rows[lose].Cells[j]
		wc.Better = addLetter(wc.Better, mx.Rows[lose].Letter)
		lc.Worse = addLetter(lc.Worse, mx.Rows[win].Letter)
	}
	for j := range mx.Columns {
		for t := range tests[j] {
			mx.Columns[j].Tests = append(mx.Columns[j].Tests, t)
		}
		sort.Strings(mx.Columns[j].Tests)
	}
}

// markBest marks the best value per column among the systems of the inputs
// (the first nPipes rows), when at least two have a value.
func (mx *Matrix) markBest(nPipes int) {
	for j, c := range mx.Columns {
		if c.Direction != metrics.Higher && c.Direction != metrics.Lower {
			continue
		}
		best, n := math.NaN(), 0
		for i := 0; i < nPipes; i++ {
			v := mx.Rows[i].Cells[j].Value
			if !Defined(v) {
				continue
			}
			n++
			if math.IsNaN(best) || (c.Direction == metrics.Higher && v > best) || (c.Direction == metrics.Lower && v < best) {
				best = v
			}
		}
		if n < 2 {
			continue
		}
		for i := 0; i < nPipes; i++ {
			if mx.Rows[i].Cells[j].Value == best {
				mx.Rows[i].Cells[j].Best = true
			}
		}
	}
}

// addLetter inserts l into the sorted set s (shorter letters first, as
// in list order: a ... z, aa ...).
func addLetter(s []string, l string) []string {
	for _, x := range s {
		if x == l {
			return s
		}
	}
	s = append(s, l)
	sort.Slice(s, func(i, j int) bool {
		if len(s[i]) != len(s[j]) {
			return len(s[i]) < len(s[j])
		}
		return s[i] < s[j]
	})
	return s
}

// Systems returns the number of rows of systems of the inputs (the
// lettered rows; baselines follow them).
func (mx Matrix) Systems() int {
	n := 0
	for _, r := range mx.Rows {
		if !r.Baseline {
			n++
		}
	}
	return n
}

// FormatValue writes a cell's value with the column's decimals: "n/a"
// when undefined, "" when the metric does not apply.
func (mx Matrix) FormatValue(j int, x MatrixCell) string {
	if !x.Present {
		return ""
	}
	return FormatNum(x.Value, mx.Columns[j].Digits)
}

// FormatCI writes a cell's interval, "[0.840, 0.862]", or "" without one.
func (mx Matrix) FormatCI(j int, x MatrixCell) string {
	if !x.Present || !Defined(x.Lo) || !Defined(x.Hi) {
		return ""
	}
	d := mx.Columns[j].Digits
	return "[" + FormatNum(x.Lo, d) + ", " + FormatNum(x.Hi, d) + "]"
}

// FormatFolds writes a cell's fold mean ± std, or "" without one.
func (mx Matrix) FormatFolds(j int, x MatrixCell) string {
	if !x.Present || !Defined(x.FoldMean) {
		return ""
	}
	d := mx.Columns[j].Digits
	s := FormatNum(x.FoldMean, d)
	if Defined(x.FoldStd) {
		s += " ± " + FormatNum(x.FoldStd, d)
	}
	return s
}

// compared says which pairs were compared, from the comparison mode.
func (mx Matrix) compared() string {
	letter := func(i int) string {
		if i < 0 {
			return ""
		}
		return " (" + mx.Rows[i].Letter + ")"
	}
	switch mx.Mode {
	case "primary":
		return " Compared: the primary system" + letter(mx.Subject) + " with each other system."
	case "reference":
		return " Compared: each system with the reference" + letter(mx.Reference) + "."
	case "ladder":
		return " Compared: each system with the one listed before it."
	case "all_pairs":
		return " Compared: every pair of systems."
	}
	return ""
}

// rule says when a comparison is significant: "Holm-corrected p < 0.05
// within each metric", or "p < 0.05, no correction".
func (mx Matrix) rule() string {
	a := strconv.FormatFloat(mx.Alpha, 'g', -1, 64)
	if mx.Correction == "none" {
		return "p < " + a + ", no correction"
	}
	return "Holm-corrected p < " + a + " within each metric"
}

// testsNote names the tests behind each column's markers, "" when there
// is no column.
func (mx Matrix) testsNote() string {
	var parts []string
	for _, g := range mx.TestGroups() {
		parts = append(parts, strings.Join(g.Titles, ", ")+": "+g.Test)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Tests: " + strings.Join(parts, "; ") + "."
}

// TestGroup is a set of columns whose markers the same tests decided.
type TestGroup struct {
	Test   string   // the tests' names ("DeLong's test"), "not tested" for none
	Titles []string // the columns' titles, in column order
}

// TestGroups groups the columns by the tests that decided their markers,
// in the order each group's first column stands.
func (mx Matrix) TestGroups() []TestGroup {
	var out []TestGroup
	at := map[string]int{}
	for _, c := range mx.Columns {
		t := "not tested"
		if len(c.Tests) > 0 {
			var names []string
			for _, x := range c.Tests {
				names = append(names, TestName(x))
			}
			t = strings.Join(names, " and ")
		}
		i, ok := at[t]
		if !ok {
			i = len(out)
			at[t] = i
			out = append(out, TestGroup{Test: t})
		}
		out[i].Titles = append(out[i].Titles, c.Title)
	}
	return out
}

// TestName is the reader's name of a comparison test.
func TestName(t string) string {
	switch t {
	case "permutation":
		return "paired permutation test"
	case "delong":
		return "DeLong's test"
	case "bootstrap":
		return "paired bootstrap"
	}
	return t
}

// Notes are the sentences under the matrix: what a cell holds, what the
// markers mean, the test of each column, the correction and alpha.
func (mx Matrix) Notes() []string { return mx.notes(true) }

// MissMark marks a results-matrix value that misses its target.
const MissMark = "✗"

// anyMissed reports whether a cell of a system of the inputs misses its
// target.
func (mx Matrix) anyMissed() bool {
	for _, r := range mx.Rows {
		for _, c := range r.Cells {
			if c.Missed && c.Present && !r.Baseline {
				return true
			}
		}
	}
	return false
}

// notes are the matrix's notes; withFolds says whether the cells show the
// fold mean ± std (SUMMARY.md's cells do not, and its notes are Markdown;
// the others are plain text, escaped where they are written).
func (mx Matrix) notes(withFolds bool) []string {
	var out []string
	cell := "Each cell: the value"
	if mx.CI != "" {
		cell += " with its confidence interval (" + mx.CI + ")"
	}
	if withFolds && mx.Folds >= 2 {
		cell += ", and the mean ± std over " + strconv.Itoa(mx.Folds) + " folds"
	}
	cell += "; the best value of each column in bold."
	out = append(out, cell)
	if mx.anyMissed() {
		miss := MissMark + ": the value misses its target (the target is in the cell's title)."
		if !withFolds {
			miss = MissMark + ": the value misses its target; the primary system's missed targets are listed below the table."
		}
		out = append(out, miss)
	}
	if mx.Systems() > 1 {
		out = append(out, "Superscript letters: significantly better than the system with that letter; ↓: significantly worse than a system it was compared with ("+mx.rule()+")."+mx.compared())
		if s := mx.testsNote(); s != "" {
			out = append(out, s)
		}
	}
	if mx.Queries != "" {
		q := mx.Queries
		if !withFolds {
			// SUMMARY.md's notes are Markdown: the note holds labels.
			q = mdtext.Inert(q)
		}
		out = append(out, q)
	}
	for _, r := range mx.Rows {
		if r.Baseline {
			out = append(out, "Random and oracle baselines: ranking columns only, not tested, never bold.")
			break
		}
	}
	return out
}
