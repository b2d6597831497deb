package tables

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"paperbundle/internal/mdtext"
	"paperbundle/internal/numtext"
	"paperbundle/metrics"
	"paperbundle/report"
)

// SummaryLines is the most lines SUMMARY.md has: it is pasted into a
// review ticket, so it stays short.
const SummaryLines = 60

// summaryRows is the most system rows of the matrix in SUMMARY.md; the
// rest are named by count ("and N more in report.html").
const summaryRows = 12

// SummaryChange is one significant change since the previous version, as
// SUMMARY.md lists it. It is filled from the bundle-to-bundle comparison
// (the same one CHANGES.md is written from).
type SummaryChange struct {
	System   string // system name
	ID       metrics.ID
	From, To float64
	Test     string // what decided it, in the tool's words ("permutation test, p = 0.003")
}

// SummaryInput is what SUMMARY.md needs besides the report.
type SummaryInput struct {
	// Since is the version compared with ("" for the first version in its
	// folder).
	Since string
	// Changes are the significant changes since then; Summary picks the
	// five to list. ChangeLines, when set, are listed instead, as they
	// are (a pointer to CHANGES.md for a bundle made before SUMMARY.md).
	Changes     []SummaryChange
	ChangeLines []string
	// Claims are the claims that changed since then (compare.Claim's
	// sentences, plain text), listed before the changes.
	Claims []string
	// Report is the path of report.html relative to the out folder
	// ("v2/report.html").
	Report string
}

// summaryClaims is the number of claims that changed SUMMARY.md lists;
// CHANGES.md and the report list them all.
const summaryClaims = 6

// changesHeading opens the changes part of SUMMARY.md.
const changesHeading = "## Changes since "

// Summary writes SUMMARY.md: the title and version, one data line, the
// results matrix, the checks that did not pass and the warnings, the five
// largest significant changes since the previous version, and where
// report.html is; at most SummaryLines lines of GitHub-flavoured Markdown.
// Every user string is escaped, so it shows as text.
func Summary(r *report.Report, in SummaryInput) []byte {
	var head, matrix, alerts, changes, tail []string
	title := r.Title
	if title == "" {
		title = "Paper bundle"
	}
	head = append(head, "# "+mdtext.Inert(title)+" — "+mdtext.Inert(r.Version), "", DataLine(r))
	v := r.Vocabulary()
	if p, ok := primaryOf(r); ok {
		head[len(head)-1] += " Primary " + v.System + ": " + mdtext.Inert(r.Label(p)) + "."
	}
	head = append(head, "")

	mx := BuildMatrix(r)
	matrix = summaryMatrix(mx, v.System)
	for i, line := range matrix {
		// The notes in the words of the kind of input; the table's rows
		// (system labels) as they are.
		if !strings.HasPrefix(line, "|") {
			matrix[i] = v.SayMarkdown(line)
		}
	}

	var items []string
	for _, c := range r.Checks {
		switch c.Result() {
		case report.CheckFailed:
			items = append(items, "- Hard check "+c.Result()+": `"+codeText(c.ID)+"`: "+mdtext.Inert(c.Detail))
		case report.CheckNotPassed:
			items = append(items, "- Soft check "+c.Result()+": `"+codeText(c.ID)+"`: "+mdtext.Inert(c.Detail))
		}
	}
	for _, w := range r.Warnings {
		items = append(items, "- Warning: "+mdtext.Inert(w))
	}
	if line := PrimaryTargets(r).line(mdtext.Inert); line != "" {
		matrix = append(matrix, "Targets: "+line+".", "")
	}
	alerts = append(alerts, "## Checks and warnings", "")
	if len(items) == 0 {
		alerts = append(alerts, "Every applicable consistency check passed; no warnings.")
	} else {
		alerts = append(alerts, items...)
	}
	alerts = append(alerts, "")

	if in.Since == "" {
		changes = append(changes, "## Changes", "", "First version in this folder.", "")
	} else {
		changes = append(changes, changesHeading+mdtext.Inert(in.Since), "")
		lines := in.ChangeLines
		if lines == nil {
			for i, c := range in.Claims {
				if i == summaryClaims {
					more := "claims"
					if len(in.Claims)-i == 1 {
						more = "claim"
					}
					lines = append(lines, "- and "+strconv.Itoa(len(in.Claims)-i)+" more "+more+" that changed in CHANGES.md")
					break
				}
				lines = append(lines, "- Claim changed: "+mdtext.Inert(c))
			}
			lines = append(lines, ChangeLines(r, in.Changes)...)
		}
		if len(lines) == 0 {
			lines = []string{"No significant change among the compared metrics."}
		}
		changes = append(changes, lines...)
		changes = append(changes, "")
	}
	rep := in.Report
	if rep == "" {
		rep = "report.html"
	}
	tail = append(tail, "Full report: `"+codeText(rep)+"` (open it in a browser).")

	// Keep within SummaryLines: shorten the list of checks and warnings
	// first (the report has them all).
	fixed := len(head) + len(matrix) + len(changes) + len(tail)
	if fixed+len(alerts) > SummaryLines {
		keep := max(SummaryLines-fixed-4, 1) // heading, blank, "and N more", blank
		n := len(items)
		alerts = append(append([]string{"## Checks and warnings", ""}, items[:min(keep, n)]...),
			"- and "+strconv.Itoa(n-min(keep, n))+" more in report.html", "")
	}
	out := append(append(append(append(head, matrix...), alerts...), changes...), tail...)
	if len(out) > SummaryLines {
		out = out[:SummaryLines]
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// ChangeLines lists the five significant changes with the largest |diff|
// among the headline metrics, then among the rest of the compared set,
// one Markdown list item each.
func ChangeLines(r *report.Report, cs []SummaryChange) []string {
	head := map[metrics.ID]bool{}
	mx := BuildMatrix(r)
	for _, c := range mx.Columns {
		head[c.ID] = true
	}
	compared := comparedIDs(r)
	var keep []SummaryChange
	for _, c := range cs {
		if head[c.ID] || compared[c.ID] {
			keep = append(keep, c)
		}
	}
	sort.SliceStable(keep, func(i, j int) bool {
		a, b := keep[i], keep[j]
		if head[a.ID] != head[b.ID] {
			return head[a.ID]
		}
		da, db := math.Abs(a.To-a.From), math.Abs(b.To-b.From)
		if da != db {
			return da > db
		}
		if a.System != b.System {
			return a.System < b.System
		}
		return a.ID < b.ID
	})
	var out []string
	for i, c := range keep {
		if i == 5 {
			out = append(out, "- and "+strconv.Itoa(len(keep)-5)+" more significant changes of the compared metrics in report.html")
			break
		}
		d := 4
		if def, ok := metrics.Lookup(c.ID); ok {
			d = digits(def)
		}
		delta := c.To - c.From
		sign := "+"
		if delta < 0 {
			sign = "−"
		}
		line := "- " + mdtext.Inert(r.Label(c.System)) + ": " + ownCell(Title(c.ID)) + " (`" + codeText(string(c.ID)) + "`) " +
			FormatNum(c.From, d) + " → " + FormatNum(c.To, d) + " (" + sign + FormatNum(math.Abs(delta), d)
		if c.Test != "" {
			line += "; " + ownCell(c.Test)
		}
		out = append(out, line+")")
	}
	return out
}

// comparedIDs is the compared set besides the headline metrics: the
// metrics the registry flags Compared, whose changes SUMMARY.md lists
// after the headline ones.
func comparedIDs(r *report.Report) map[metrics.ID]bool {
	out := map[metrics.ID]bool{}
	for _, id := range metrics.ComparedIDs(r.Settings.HeadlineCutoff) {
		if !r.IsHeadline(id, report.Whole) {
			out[id] = true
		}
	}
	return out
}

// summaryMatrix is the results matrix as a Markdown table, with its note.
// system is what one compared input is called (system, run).
func summaryMatrix(mx Matrix, system string) []string {
	if len(mx.Columns) == 0 {
		return []string{"No headline metric applies to these inputs.", ""}
	}
	r, n := utf8.DecodeRuneInString(system)
	hdr := "| " + string(unicode.ToUpper(r)) + system[n:] + " |"
	sep := "|---|"
	for _, c := range mx.Columns {
		arrow := ""
		switch c.Direction {
		case metrics.Higher:
			arrow = " ↑"
		case metrics.Lower:
			arrow = " ↓"
		}
		hdr += " " + ownCell(c.Title) + arrow + " |"
		sep += "---:|"
	}
	out := []string{hdr, sep}
	shown, more := 0, 0
	for _, row := range mx.Rows {
		if !row.Baseline {
			if shown == summaryRows {
				more++
				continue
			}
			shown++
		}
		name := mdCell(row.Label)
		switch {
		case row.Baseline:
			name += " (baseline)"
		case row.Primary:
			name = row.Letter + " " + name + " (primary)"
		default:
			name = row.Letter + " " + name
		}
		line := "| " + name + " |"
		for j, c := range row.Cells {
			line += " " + summaryCell(mx, j, c) + " |"
		}
		out = append(out, line)
	}
	if more > 0 {
		out = append(out, "", "and "+strconv.Itoa(more)+" more in report.html")
	}
	out = append(out, "")
	out = append(out, strings.Join(mx.notes(false), " "), "")
	return out
}

// summaryCell is one cell: value with markers, then the CI.
func summaryCell(mx Matrix, j int, c MatrixCell) string {
	if !c.Present {
		return ""
	}
	if !Defined(c.Value) {
		return "n/a"
	}
	v := mx.FormatValue(j, c)
	if c.Best {
		v = "**" + v + "**"
	}
	if len(c.Better) > 0 {
		v += "<sup>" + strings.Join(c.Better, "") + "</sup>"
	}
	if len(c.Worse) > 0 {
		v += " ↓"
	}
	if c.Missed {
		v += " " + MissMark
	}
	if ci := mx.FormatCI(j, c); ci != "" {
		v += " " + ci
	}
	return v
}

// DataLine is the one line that says what was evaluated.
func DataLine(r *report.Report) string {
	ds := r.Dataset
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return commas(n) + " " + many
	}
	var parts []string
	if ds.Posts > 0 && ds.Posts != ds.EvalQueries {
		if r.Kind() == report.KindClassifier {
			// A classifier's cases grouped by post_id: "posts" in its words
			// would be "cases" again, beside the cases themselves.
			parts = append(parts, count(ds.Posts, "group by post_id", "groups by post_id"))
		} else {
			parts = append(parts, count(ds.Posts, "post", "posts"))
		}
	}
	if len(ds.Criteria) >= 2 {
		parts = append(parts, count(len(ds.Criteria), "criterion", "criteria"))
	}
	// One fold of TREC runs or of a classifier's cases is no protocol to
	// speak of; an evidence pipeline's one fold is worth saying.
	if len(ds.Folds) > 1 || len(ds.Folds) == 1 && r.Kind() == report.KindEvidence {
		parts = append(parts, count(len(ds.Folds), "fold", "folds"))
	}
	s := count(len(r.SystemsOf(report.Pipeline)), "system", "systems") + " on " + commas(ds.EvalQueries) + " eval queries"
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	rate := "n/a"
	if ds.PositiveRate.Valid() {
		rate = strconv.FormatFloat(100*float64(ds.PositiveRate), 'f', 1, 64) + "%"
	}
	return r.Vocabulary().Say(s + "; " + commas(ds.PositiveQueries) + " with evidence (" + rate + ").")
}

func primaryOf(r *report.Report) (string, bool) {
	for _, s := range r.Systems {
		if s.Primary {
			return s.Name, true
		}
	}
	return "", false
}

// commas writes n with comma separators.
func commas(n int) string { return numtext.Thousands(int64(n)) }

// mdCell is mdtext.Inert for a table cell (a '|' is already escaped).
func mdCell(s string) string { return mdtext.Inert(s) }

// ownCell is the tool's own text (metric titles from the registry) in
// Markdown: only '|' needs escaping, inside a table.
func ownCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// codeText is text inside a code span: backticks and line breaks cannot
// end it early.
func codeText(s string) string {
	s = strings.Map(func(c rune) rune {
		switch {
		case c == '`':
			return '\''
		case c == '|':
			return '¦'
		case c < 0x20 || c == 0x7f || mdtext.IsBidi(c):
			return -1
		}
		return c
	}, s)
	return s
}
