// Package paper writes the paper/ folder of a bundle: what goes into a
// LaTeX paper as it is. It sits beside the long tables, after
// report.Compute:
//
//	*report.Report -> paper.Files -> paper/preamble.tex, numbers.tex, tables/*.tex, figures.tex, example.tex
//
// (the figure PDFs themselves are drawn by figures/plot at the venue's
// width; this package writes the figure environments that include them).
//
// Everything is sized for one venue (Venue: column width, text width,
// body size, measured in the classes of TeX Live's publishers collection,
// docs/paper.md). Tables are booktabs tables with siunitx S columns, set
// at the body size and never scaled: each table measures its natural width
// when the paper is compiled and becomes a table* when it is wider than
// the column (\pbtable in preamble.tex). numbers.tex defines every number
// of the report as a macro keyed by system, metric id and slice
// (\pbvalue{full}{rank.ndcg@10}), so the text of a paper never drifts from
// its tables.
//
// Nothing here computes a statistic or reads the configuration: the
// numbers come from the Report, the geometry and number style from
// Options. Every user string goes through tables.LatexText once.
package paper

import (
	"strconv"

	"paperbundle/metrics"
)

// Venue is the geometry of a LaTeX class: the widths a figure and a table
// must fit, in TeX points (1/72.27 in), and the body size of its text.
type Venue struct {
	Name      string  // acm, ieee, neurips, lncs or custom
	Class     string  // \documentclass line of example.tex
	Column    float64 // \columnwidth, pt
	Text      float64 // \textwidth, pt
	Body      float64 // body font size, pt
	TwoColumn bool    // the class sets two columns (table* and figure* exist)
}

// Venues are the named venues, measured with \showthe\columnwidth and
// \showthe\textwidth (after \maketitle: acmart switches to two columns
// there) in Debian's texlive-publishers 2022; neurips has no class in TeX
// Live, its numbers are those of neurips_2024.sty (\textwidth 5.5in =
// 397.48499pt, 10 pt).
var Venues = map[string]Venue{
	"acm":     {Name: "acm", Class: `\documentclass[sigconf]{acmart}`, Column: 241.14749, Text: 506.295, Body: 9, TwoColumn: true},
	"ieee":    {Name: "ieee", Class: `\documentclass[conference]{IEEEtran}`, Column: 252, Text: 516, Body: 10, TwoColumn: true},
	"neurips": {Name: "neurips", Class: `\documentclass[10pt]{article}`, Column: 397.48499, Text: 397.48499, Body: 10},
	"lncs":    {Name: "lncs", Class: `\documentclass{llncs}`, Column: 347.12354, Text: 347.12354, Body: 10},
}

// CustomVenue is venue custom: article with the given geometry.
func CustomVenue(column, text, body float64) Venue {
	return Venue{Name: "custom", Class: `\documentclass{article}`, Column: column, Text: text, Body: body, TwoColumn: column < text}
}

// Uncertainty is what follows a number in the paper tables.
type Uncertainty string

const (
	CI Uncertainty = "ci" // [low, high], smaller, under the value
	// CIRow puts [low, high] on the row under the values at the body size.
	CIRow Uncertainty = "ci-row"
	Std   Uncertainty = "std"  // ± the fold std, smaller, under the value
	None  Uncertainty = "none" // the value alone
)

// Options are the paper: settings of the configuration.
type Options struct {
	Venue       Venue
	FontSize    float64 // pt of every text in the paper figures
	Uncertainty Uncertainty
	Decimals    int
	// Results and RankingSystems compose results.tex and
	// ranking_systems.tex (zero: the default sets).
	Results, RankingSystems Composition
	// Captions replace the caption of a table (results, ranking, ...) or
	// a figure (its file name without .pdf): plain text, escaped here.
	Captions map[string]string
}

// Composition is what a paper table shows: the metric columns in order
// (nil: the table's default set), the systems in order (nil: every
// system), whether the random and oracle baselines get rows, and headers
// (plain text) that replace a metric's name.
type Composition struct {
	Metrics   []metrics.ID
	Systems   []string
	Baselines bool
	Headers   map[metrics.ID]string
}

// DefaultOptions are the defaults of the paper: key.
func DefaultOptions() Options {
	return Options{Venue: Venues["acm"], FontSize: 8, Uncertainty: CI, Decimals: 3}
}

// File is one file of paper/: its path in the bundle and its bytes.
type File struct {
	Name string
	Data []byte
}

// Figure is one figure of paper/figures/: the PDF's name under
// paper/figures/ (without .pdf), its caption (plain text; escaped here),
// and whether it spans the text width.
type Figure struct {
	Name    string
	Caption string
	Alt     string // the figure's text alternative: acmart's \Description
	Wide    bool
}

// pt formats a length in points.
func pt(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + "pt" }
