package compare

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"paperbundle/internal/mdtext"
	"paperbundle/internal/numtext"
	"paperbundle/metrics"
	"paperbundle/report"
)

// Formats of Changes.Write.
const (
	FormatText = "text"
	FormatMD   = "md"
	FormatCSV  = "csv"
	FormatJSON = "json"
	FormatHTML = "html"
)

// WriteOptions choose what a writer shows.
type WriteOptions struct {
	// All shows every row, unchanged ones (~) included. Without it the
	// text, CSV and JSON forms leave out unchanged rows, and the Markdown
	// and HTML forms (CHANGES.md, the report's section) show only the
	// changed headline rows and the significant ones.
	All bool
	// Title replaces the first line of the text, Markdown and HTML forms
	// (CHANGES.md: "Changes since v1").
	Title string
	// Primary, when set, keeps only that system's headline rows open in
	// the HTML form (the report's section); every other row is folded
	// under "Other systems and metrics".
	Primary string
}

// Write renders the changes in format text, md, csv, json or html. User
// strings (system names, metric ids, slices, config keys and values,
// folders) are inert in every format: control and bidirectional
// characters are shown escaped (text, md, html), md escapes its markup,
// html is escaped by html/template, and CSV prefixes text that a
// spreadsheet would run as a formula with '.
func (c *Changes) Write(w io.Writer, format string, opt WriteOptions) error {
	var err error
	switch format {
	case FormatText:
		err = c.writeText(w, opt)
	case FormatMD:
		err = c.writeMD(w, opt)
	case FormatCSV:
		err = c.writeCSV(w, opt)
	case FormatJSON:
		err = c.writeJSON(w, opt)
	case FormatHTML:
		err = c.writeHTML(w, opt)
	default:
		return fmt.Errorf("compare: unknown format %q (want text, md, csv, json or html)", format)
	}
	if err != nil {
		return fmt.Errorf("compare: %s: %w", format, err)
	}
	return nil
}

// shown returns the rows to show and the numbers hidden (changed and
// unchanged). short keeps only the changed headline rows and the
// significant ones.
func (c *Changes) shown(all, short bool) (rows []Row, hiddenChanged, hiddenSame int) {
	rows = []Row{}
	for _, r := range c.Rows {
		switch {
		case all:
		case r.Verdict == Unchanged:
			hiddenSame++
			continue
		case short && !r.Headline && r.Verdict != Significant:
			hiddenChanged++
			continue
		}
		rows = append(rows, r)
	}
	return rows, hiddenChanged, hiddenSame
}

// BasisLine says how the rows were decided, for the reader.
func (c *Changes) BasisLine() string {
	if c.Mode == ModeCIOverlap {
		return c.words.Say("significance: CI overlap, because " + c.Why + " (the paired tests need the same eval queries in both bundles): " +
			"significant when the two confidence intervals are disjoint; p-values and test statistics are listed, not subtracted")
	}
	// DeLong is named only where there is an AUROC (a TREC diff has none).
	delong := ""
	if c.auroc {
		delong = "DeLong for AUROC, "
	}
	return c.words.Say(fmt.Sprintf("significance: paired tests on the two bundles' per-query rows (the same eval queries): "+
		"permutation test (%d permutations) for means of per-query values, "+delong+"paired bootstrap (%d resamples) for the rest; "+
		"two-sided, significant when p < %s, each row on its own (no Holm or other multiple-comparison adjustment); "+
		"p-values and test statistics are listed, not subtracted",
		c.Permutations, c.Resamples, strconv.FormatFloat(c.Alpha, 'g', -1, 64)))
}

// table is a table of display cells; cells of user text are already
// passed through visible.
type table struct {
	Title  string
	Header []string
	Right  []bool // right-aligned (numeric) columns
	User   []bool // columns holding user text (escaped by md)
	Rows   [][]string
}

// list is a titled list of changes.
type list struct {
	Title string
	Items []string
}

// view is what the text, md and html writers show.
type view struct {
	Title  string
	Sides  []string // "A: folder (version)", "B: ..."
	Claims []string // the claims that changed, as sentences, listed first
	Basis  string
	Tables []table // headline rows, then the rest
	Note   string  // what is hidden, or ""
	Only   []table
	Lists  []list
}

// sideHeads are the column heads of the two bundles' values: their
// versions ("v1", "v2"), or "v1 (A)" and "v1 (B)" when the versions are
// the same.
func (c *Changes) sideHeads() (string, string) {
	a, b := visible(c.A.Version), visible(c.B.Version)
	if a == b || a == "" || b == "" {
		return strings.TrimSpace(a + " (A)"), strings.TrimSpace(b + " (B)")
	}
	return a, b
}

func (c *Changes) mainTable(title string) table {
	a, b := c.sideHeads()
	return table{Title: title, Header: []string{"metric", "id", c.words.System, "slice", a, b, "delta", "sig", "test"},
		Right: []bool{false, false, false, false, true, true, true, false, false},
		User:  []bool{false, true, true, true, false, false, false, false, true}}
}

func (c *Changes) view(opt WriteOptions, short bool) view {
	rows, hidChanged, hidSame := c.shown(opt.All, short)
	v := view{
		Title: opt.Title,
		Sides: []string{"A: " + visible(c.A.Name()), "B: " + visible(c.B.Name())},
		Basis: c.BasisLine(),
	}
	for _, cl := range c.Claims {
		v.Claims = append(v.Claims, visible(cl.Text))
	}
	if v.Title == "" {
		v.Title = "paperbundle diff " + visible(c.A.Version) + " -> " + visible(c.B.Version)
	}
	head, rest := c.mainTable("Headline metrics"), c.mainTable("Other metrics")
	for _, r := range rows {
		cells := []string{visible(r.Label), visible(string(r.ID)), c.label(r.System), sliceText(r.Slice),
			valueText(r.ID, r.A, r.CIA), valueText(r.ID, r.B, r.CIB), deltaText(r.ID, r.Delta), r.Verdict.Symbol(), testText(r)}
		if r.Headline {
			head.Rows = append(head.Rows, cells)
		} else {
			rest.Rows = append(rest.Rows, cells)
		}
	}
	for _, t := range []table{head, rest} {
		if len(t.Rows) > 0 {
			v.Tables = append(v.Tables, t)
		}
	}
	v.Note = note(len(rows), hidChanged, hidSame, c.Empty())
	for _, o := range []struct {
		title string
		rows  []Only
	}{{"Only in A", c.OnlyA}, {"Only in B", c.OnlyB}} {
		if len(o.rows) == 0 {
			continue
		}
		t := table{Title: o.title, Header: []string{"metric", "id", c.words.System, "slice", "value"},
			Right: []bool{false, false, false, false, true}, User: []bool{false, true, true, true, false}}
		for _, r := range o.rows {
			t.Rows = append(t.Rows, []string{visible(r.Label), visible(string(r.ID)), c.label(r.System), sliceText(r.Slice), valueText(r.ID, r.Value, r.CI)})
		}
		v.Only = append(v.Only, t)
	}
	settings := make([]string, len(c.Settings))
	for i, s := range c.Settings {
		settings[i] = s.Text()
	}
	for _, l := range []list{{"Dataset changed", c.Dataset}, {"Configuration changed", settings}, {"Inputs changed", c.Inputs}} {
		if len(l.Items) == 0 {
			continue
		}
		items := make([]string, len(l.Items))
		for i, s := range l.Items {
			items[i] = visible(s)
		}
		v.Lists = append(v.Lists, list{l.Title, items})
	}
	return v
}

// claimsTitle heads the claims that changed in every format.
const claimsTitle = "Claims that changed"

// note says what the tables leave out, or "" when nothing.
func note(shown, hidChanged, hidSame int, empty bool) string {
	switch {
	case empty && hidSame == 0:
		return "nothing changed"
	case shown == 0 && hidChanged == 0 && hidSame == 0:
		return "no metric in both bundles"
	}
	var parts []string
	if hidChanged > 0 {
		parts = append(parts, wordCount(hidChanged, "other changed")+" (not significant, untested or listed)")
	}
	if hidSame > 0 {
		parts = append(parts, wordCount(hidSame, "unchanged (~)"))
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, " and ") + " hidden; paperbundle diff -all shows them"
	if shown == 0 && hidChanged == 0 {
		s = "no metric changed (" + wordCount(hidSame, "unchanged") + "; paperbundle diff -all shows them)"
	}
	return s
}

func sliceText(s report.Slice) string {
	if s == report.Whole {
		return "all"
	}
	return visible(string(s))
}

// valueText writes "0.8512 [0.8401, 0.8619]", "0.8512" without an
// interval, or "n/a"; a count is written as an integer ("141").
func valueText(id metrics.ID, x report.Num, ci *report.CI) string {
	if !x.Valid() {
		return "n/a"
	}
	if isCount(id) {
		return strconv.FormatFloat(float64(x), 'f', -1, 64)
	}
	s := fixed4(float64(x))
	if ciDefined(ci) {
		s += " [" + fixed4(float64(ci.Low)) + ", " + fixed4(float64(ci.High)) + "]"
	}
	return s
}

// isCount reports whether the registry says id is an integer count.
func isCount(id metrics.ID) bool {
	d, ok := metrics.Lookup(id)
	return ok && d.Kind == metrics.KindCount
}

// fixed4 writes x with four decimals, without the sign of a value that
// rounds to zero ("-0.0000" reads as a negative number); a value too
// small for four decimals, such as a p-value of 3e-45, keeps two
// significant digits.
func fixed4(x float64) string {
	if x != 0 && math.Abs(x) < 0.00005 {
		return strconv.FormatFloat(x, 'e', 1, 64)
	}
	s := strconv.FormatFloat(x, 'f', 4, 64)
	if s == "-0.0000" {
		return s[1:]
	}
	return s
}

// deltaText writes a signed delta; one too small for four decimals keeps
// two significant digits, so that a changed row never reads +0.0000. A
// delta of counts is an integer; a row without a delta (undefined, or a
// listed statistic) shows "".
func deltaText(id metrics.ID, x report.Num) string {
	if !x.Valid() {
		return ""
	}
	s := fixed4(float64(x))
	if isCount(id) {
		s = strconv.FormatFloat(float64(x), 'f', -1, 64)
	}
	if x >= 0 {
		s = "+" + s
	}
	return s
}

// pText writes a p-value compactly for a table cell: numtext.P's number,
// "p=0.0123" or "p<0.0001".
func pText(p report.Num) string {
	s := numtext.P(float64(p))
	if s[0] == '<' {
		return "p<" + s[2:]
	}
	return "p=" + s
}

// testText names what decided a row.
func testText(r Row) string {
	switch r.Test {
	case TestPermutation:
		return "permutation " + pText(r.P)
	case TestDeLong:
		return "DeLong " + pText(r.P)
	case TestBootstrap:
		return "bootstrap " + pText(r.P)
	case TestCIOverlap:
		if r.Verdict == Significant {
			return "CIs disjoint"
		}
		return "CIs overlap"
	}
	switch r.Verdict {
	case Listed:
		if r.Reason != "" {
			return r.Reason + ": listed, not tested"
		}
		return "a test statistic: listed, not subtracted"
	case Untested:
		return "untested: " + r.Reason
	}
	return ""
}

// visible returns s with every rune that is not graphic (tab, newline,
// other control characters, bidirectional overrides, zero-width
// characters, invalid UTF-8) replaced by its Go escape (\t, \n, \u202e),
// so that a label can neither break a line or a column nor reorder the
// text around it.
func visible(s string) string {
	ok := func(r rune, size int) bool { return unicode.IsGraphic(r) && (r != utf8.RuneError || size > 1) }
	clean := true
	for i := 0; i < len(s) && clean; {
		r, size := utf8.DecodeRuneInString(s[i:])
		clean = ok(r, size)
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case ok(r, size):
			b.WriteString(s[i : i+size])
		case size == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		default:
			q := strconv.QuoteRuneToASCII(r) // '\t', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// writeText writes aligned columns.
func (c *Changes) writeText(w io.Writer, opt WriteOptions) error {
	v := c.view(opt, false)
	var b strings.Builder
	b.WriteString(v.Title + "\n" + strings.Join(v.Sides, "\n") + "\n")
	if len(v.Claims) > 0 {
		b.WriteString("\n" + claimsTitle + "\n")
		for _, s := range v.Claims {
			b.WriteString("  - " + s + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(v.Basis + "\n")
	for _, t := range v.Tables {
		b.WriteString("\n" + t.Title + "\n")
		textTable(&b, "  ", t)
	}
	if v.Note != "" {
		b.WriteString("\n" + v.Note + "\n")
	}
	for _, t := range v.Only {
		b.WriteString("\n" + t.Title + "\n")
		textTable(&b, "  ", t)
	}
	for _, l := range v.Lists {
		b.WriteString("\n" + l.Title + "\n")
		for _, s := range l.Items {
			b.WriteString("  " + s + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// textTable writes t with columns two spaces apart, numbers right-aligned.
func textTable(b *strings.Builder, indent string, t table) {
	width := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for j, c := range row {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		var line strings.Builder
		line.WriteString(indent)
		for j, c := range row {
			if j > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if t.Right[j] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// writeMD writes GitHub Markdown, short unless opt.All: a heading, the
// bundles, the basis, the headline rows that changed and the significant
// rows, then what is only in one bundle and the other changes.
func (c *Changes) writeMD(w io.Writer, opt WriteOptions) error {
	v := c.view(opt, true)
	var b strings.Builder
	b.WriteString("# " + mdtext.Inert(v.Title) + "\n\n")
	for _, s := range v.Sides {
		b.WriteString("- " + mdtext.Line(s) + "\n")
	}
	if len(v.Claims) > 0 {
		b.WriteString("\n## " + claimsTitle + "\n\n")
		for _, s := range v.Claims {
			b.WriteString("- " + mdtext.Line(s) + "\n")
		}
	}
	b.WriteString("\n" + mdtext.Line(v.Basis) + "\n\n")
	for _, t := range v.Tables {
		b.WriteString("## " + t.Title + "\n\n")
		mdTable(&b, t)
		b.WriteString("\n")
	}
	if v.Note != "" {
		b.WriteString(mdtext.Line(v.Note) + "\n\n")
	}
	for _, t := range v.Only {
		b.WriteString("## " + t.Title + "\n\n")
		mdTable(&b, t)
		b.WriteString("\n")
	}
	for _, l := range v.Lists {
		b.WriteString("## " + l.Title + "\n\n")
		for _, s := range l.Items {
			b.WriteString("- " + mdtext.Line(s) + "\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

func mdTable(b *strings.Builder, t table) {
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + h + " |")
	}
	b.WriteString("\n|")
	for j := range t.Header {
		if t.Right[j] {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for j, c := range row {
			if t.User[j] || j == 0 {
				c = mdtext.Inert(c)
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
}
