package templates

import (
	"html/template"
	"strings"
)

// Page is everything report.html shows, filled completely by newPage
// before the template runs once. Strings are plain text (the template
// escapes them); template.HTML fields are markup this package built or
// checked (inline SVG, MathML from the generated table, goldmark output
// with raw HTML off); template.JS fields are the page's own scripts and
// HTML-safe JSON.
type Page struct {
	Title     string
	Version   string
	Tool      string
	Generated string // "" when the bundle has no generation time
	Primary   string // label of the primary system
	// SystemWord is what one compared input is called in the words of
	// the kind of input (system, run), for the meta line and the results
	// matrix's first column head.
	SystemWord string
	// SystemsWord is its plural (systems, runs, classifiers) and
	// SystemWordTitle it capitalised, for the system selector.
	SystemsWord, SystemWordTitle string
	CSP                          string // the Content-Security-Policy of the page

	Style   template.CSS
	Script  template.JS // the page's own script (progressive enhancement)
	ECharts template.JS // echarts.min.js; "" when not embedded
	Charts  []ChartData // options of the interactive charts
	// ChartsNote says why the figures are static only ("" when the
	// interactive charts are embedded).
	ChartsNote string

	Systems  []SystemTab // the system selector
	TOC      []TOCEntry
	DataLine string // the one-line data summary under the title
	// Results is the first section, above the fold: the results matrix
	// and the warnings.
	Results  Section
	Sections []Section
}

// Matrix is the results matrix as the page shows it (tables.Matrix).
type Matrix struct {
	ID      string
	Caption string
	Head    []MatrixHead
	Rows    []MatrixRow
	Notes   []string
	HasDiff bool // some cell has a difference to the primary
	// SystemHead heads the first column: what one compared input is
	// called in the words of the kind of input (System, Run).
	SystemHead string
}

// MatrixHead is one metric column of the matrix.
type MatrixHead struct {
	Plain   string // plain-language header
	Title   string // technical name
	ID      string // metric id
	Arrow   string // "↑" higher is better, "↓" lower is better
	Better  string // "higher is better"
	Meaning string
}

// MatrixRow is one system of the matrix.
type MatrixRow struct {
	Label    string
	Letter   string
	Primary  bool
	Baseline bool
	Cells    []MatrixCell
}

// MatrixCell is one shown value of the matrix; Empty when the metric does
// not apply to the system.
type MatrixCell struct {
	ID     string // deep-link anchor
	Empty  bool
	Value  string
	NA     string // why the value is undefined
	CI     string
	Folds  string
	Better string // letters of the systems it is significantly better than: "bc"
	Worse  string // letters of those it is significantly worse than: "a"
	Best   bool
	Miss   string // "target ≥ 0.995 not met" when the value misses its target
	// Diff is the difference to the primary system from the comparisons,
	// "Δ +0.0280*" (* significant), shown when the reader asks for it;
	// DiffNote says which test decided it.
	Diff, DiffNote string
}

// Alert is one line under the results matrix. Kind is "miss" (a missed
// target), "hard" (a failed hard check), "soft" (a soft check not passed:
// it only informs, never red) or "warn" (a warning).
type Alert struct {
	Kind string
	Text string
}

// ChartData is the option of one interactive chart, as JSON data.
type ChartData struct {
	ID   string      // "pb_<figure id>"
	JSON template.JS // HTML-safe JSON (no '<', '>', '&')
}

// SystemTab is one choice of the system selector.
type SystemTab struct {
	Name     string
	Label    string
	Selected bool
}

// TOCEntry is one line of the table of contents.
type TOCEntry struct {
	ID    string
	Title string
	Sub   []TOCEntry
}

// Card is one headline metric of the primary system.
type Card struct {
	Anchor  string
	Title   string
	ID      string // metric id
	Value   string // "0.8512 [0.8401, 0.8619]" or "n/a"
	NA      string // why the value is undefined
	Target  string // "≥ 0.85"; "" without a target
	Badge   string // "met", "not met", ""
	BadgeOK bool
	Meaning string // one-line interpretation
	N       string // "n = 14,770"
	Link    string // "#anchor" of the value in the results matrix
}

// Section is one <section> of the page: shared content, then one block
// per system (the selector switches them), then more shared content.
type Section struct {
	ID       string
	Title    string
	Intro    string
	Cards    []Card // the scorecard: headline metrics of the primary system
	Items    []Item
	Blocks   []Block
	After    []Item
	Missing  []string // "Figure X is not shown: reason"
	Matrix   *Matrix  // the results matrix (the first section only)
	Alerts   []Alert  // missed targets, checks not passed and warnings, shown under the matrix
	AlertsID string   // element id of the warnings
	Class    string   // extra class of the <section>

	absent string // why the section does not apply ("": it does)
}

// Block is the part of a section about one system.
type Block struct {
	System   string // system name ("" for the baselines block)
	Label    string
	Open     bool // open without scripts: the primary system and baselines
	Baseline bool // not switched by the selector
	Items    []Item
}

// Item is one piece of content; exactly one field is set.
type Item struct {
	Table  *Table
	Figure *Figure
	Facts  []Fact        // a definition list
	Pre    string        // preformatted text (config.yaml)
	List   []string      // a bulleted list of plain text
	HTML   template.HTML // Methods (goldmark output)
	// Changes is the changes section's fragment (compare.Changes.HTML),
	// which carries its own wrapper.
	Changes template.HTML
	Para    string // a paragraph of plain text
	// More is detail collapsed in a <details> element, closed by default
	// (nothing is left out of the document; a click opens it).
	More *More
}

// More is collapsed detail: a summary line and its items.
type More struct {
	Summary string
	Items   []Item
}

// Fact is one term of a definition list.
type Fact struct {
	Term  string
	Value string
}

// Table is one table as the page shows it.
type Table struct {
	ID      string
	Title   string
	Caption string // population and n
	Meaning string
	Head    []Head
	Rows    []Row
	Notes   []string
}

// Head is one header cell.
type Head struct {
	Title   string
	Numeric bool
}

// Parts is the title cut before each "@", so a narrow column (in print, on
// a phone) may break "Precision@10" there rather than overflow.
func (h Head) Parts() []string {
	var out []string
	s := h.Title
	for {
		i := strings.Index(s[min(1, len(s)):], "@")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
}

// Row is one table row; ID is its deep-link anchor ("" for none).
type Row struct {
	ID    string
	Cells []Cell
}

// Cell is one shown value.
type Cell struct {
	Text    string
	NA      string // reason for "n/a"
	Header  bool   // the row's header cell (its first)
	Link    string // the row's anchor, on its first cell
	Numeric bool
	Best    bool
	Badge   string // "met" or "not met": a target badge
	BadgeOK bool   // the target is met
	Code    bool   // an id, shown in monospace
	ID      string // the cell's own deep-link anchor ("" for none)
}

// Figure is one figure: the static SVG, and the interactive chart that
// replaces it when scripts run.
type Figure struct {
	ID      string // element id "fig-<figure id>"
	LabelID string // id of the caption title, which labels the SVG
	Title   string
	Caption string // the spec's subtitle: true of the static and the interactive figure
	Hint    string // the spec's hint, shown with the interactive chart only
	Alt     string // text alternative
	Notes   []string
	SVG     template.HTML
	Chart   string // "pb_<figure id>" when interactive, else ""
	Height  int    // chart height in pixels
}
