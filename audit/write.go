package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"paperbundle/report"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "md"}

// Write prints the result in format text, json or md. Unknown findings
// are printed only with all (they are always counted).
func (r *Result) Write(w io.Writer, format string, all bool) error {
	bw := bufio.NewWriter(w)
	switch format {
	case "json":
		r.writeJSON(bw, all)
	case "md":
		r.writeMD(bw, all)
	default:
		r.writeText(bw, all)
	}
	return bw.Flush()
}

func (r *Result) shown(all bool) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Class != Unknown || all {
			out = append(out, f)
		}
	}
	return out
}

// writeText writes one line per finding, file:line:col: class: text —
// explanation, a blank line between files, then the counts.
func (r *Result) writeText(w *bufio.Writer, all bool) {
	last := ""
	for _, f := range r.shown(all) {
		if f.File != last && last != "" {
			w.WriteString("\n")
		}
		last = f.File
		fmt.Fprintf(w, "%s:%d:%d: %s: %s — %s", inert(f.File), f.Line, f.Col, f.Class, inert(f.Text), inert(f.Why))
		if f.Para != "" {
			fmt.Fprintf(w, " (paragraph %d: %q)", f.Line, inert(f.Para))
		}
		w.WriteString("\n")
	}
	if last != "" {
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "%s against %s\n", r.countsText(all), r.Current)
}

// countsText is "1 stale, 1 mismatch, 1 claim, 2 ok, 1 macro, 3 unknown
// (not shown; -all shows them)".
func (r *Result) countsText(all bool) string {
	var parts []string
	for _, c := range []Class{Stale, Mismatch, Claim, OK, Macro, Unknown} {
		s := fmt.Sprintf("%d %s", r.Counts[c], c)
		if c == Unknown && !all && r.Counts[c] > 0 {
			s += " (not shown; -all shows them)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// jsonFinding is a finding in -format json.
type jsonFinding struct {
	File    string     `json:"file"`
	Line    int        `json:"line"`
	Col     int        `json:"col"`
	Text    string     `json:"text"`
	Class   string     `json:"class"`
	System  string     `json:"system"`
	Metric  string     `json:"metric"`
	Slice   string     `json:"slice"`
	Field   string     `json:"field"`
	Value   report.Num `json:"value"`
	Current report.Num `json:"current"`
	Version string     `json:"version"`
	Why     string     `json:"explanation"`
	Para    string     `json:"paragraph,omitempty"`
}

func (r *Result) writeJSON(w *bufio.Writer, all bool) {
	out := struct {
		Findings []jsonFinding  `json:"findings"`
		Counts   map[string]int `json:"counts"`
		Current  string         `json:"current"`
	}{Findings: []jsonFinding{}, Counts: map[string]int{}, Current: r.Current}
	for _, f := range r.shown(all) {
		out.Findings = append(out.Findings, jsonFinding{f.File, f.Line, f.Col, f.Text, f.Class.String(),
			f.System, f.Metric, f.Slice, f.Field, f.Value, f.Current, f.Version, f.Why, f.Para})
	}
	for c := Macro; c <= Unknown; c++ {
		out.Counts[c.String()] = r.Counts[c]
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.Encode(out) // a bufio.Writer's error is returned by Flush
}

// writeMD writes a table for a ticket: the findings that need an edit
// first (stale, mismatch, claim), then the others shown.
func (r *Result) writeMD(w *bufio.Writer, all bool) {
	fmt.Fprintf(w, "**Manuscript audit against %s**: %s\n\n", mdCell(r.Current), r.countsText(all))
	fs := r.shown(all)
	if len(fs) == 0 {
		return
	}
	w.WriteString("| Where | Class | Text | Explanation |\n|---|---|---|---|\n")
	for _, pass := range []bool{true, false} {
		for _, f := range fs {
			if f.Class.Failing() != pass {
				continue
			}
			fmt.Fprintf(w, "| %s:%d:%d | %s | %s | %s |\n", mdCell(f.File), f.Line, f.Col, f.Class, mdCell(f.Text), mdCell(f.Why))
		}
	}
}

// inert drops control and bidirectional-override characters, so that a
// manuscript's text cannot move the terminal's cursor or reorder a line.
func inert(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c == '\n' || c == '\r' || c == '\t':
			return ' '
		case c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0,
			c >= 0x202a && c <= 0x202e, c >= 0x2066 && c <= 0x2069, c == 0x200e, c == 0x200f, c == 0x061c:
			return -1
		}
		return c
	}, s)
}

// mdCell makes a manuscript's text inert in a Markdown table cell: HTML
// special characters as entities, the punctuation of emphasis, links,
// code and tables backslash-escaped.
func mdCell(s string) string {
	var b strings.Builder
	for _, c := range inert(s) {
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case strings.ContainsRune("\\`*_[]|~$@^", c):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
