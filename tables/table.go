// Package tables is the one table model of the bundle. It sits after
// report.Compute in the pipeline:
//
//	inputs -> dataset -> report.Compute -> *report.Report -> tables.Build -> []Table -> CSV, LaTeX, XLSX, HTML
//
// Build turns a finished Report into every table of the bundle; the rows
// and columns come from the metric registry (package metrics: title,
// population, which tables show a metric, headline flag), so a new metric
// is one registry entry plus its kernel. The writers of this package (CSV,
// LaTeX, per-query CSV, METHODS.md) and of tables/xlsx and templates render
// the same []Table, so a table has the same rows and columns in every
// format. Nothing here computes a statistic or reads the configuration:
// everything comes from the Report.
package tables

import (
	"math"
	"strconv"

	"paperbundle/internal/numtext"
	"paperbundle/metrics"
)

// The tables that are not metric tables of the registry. Every table id
// is a fixed name: no table's file name or HTML id is built from a system
// name.
const (
	TableComparisons metrics.TableID = "comparisons" // each system against its reference
	TableChecks      metrics.TableID = "checks"      // the consistency checks
	TableDefinitions metrics.TableID = "definitions" // the metric registry (tables.xlsx only)
)

// Kind says how a column's values are typed and shown.
type Kind int

const (
	Text   Kind = iota // free text (labels, ids): always a string cell
	Number             // a real number with Digits decimals; may carry a CI or a spread
	Count              // an integer
	PValue             // a p-value: 4 decimals, "< 0.0001" below
)

// Column is one logical column of a table. A Number column with CI set is
// written as three columns in CSV and XLSX (Key, Key_ci_low, Key_ci_high)
// and as "value [low, high]" in LaTeX and HTML; with Spread set, Key_std
// follows (CSV, XLSX) or "mean ± std" (LaTeX, HTML).
type Column struct {
	Key   string // machine name: CSV header, XLSX ids row, HTML anchor part
	Title string // display header (LaTeX, HTML, XLSX words row)
	// FlatTitle is the header in words of the value alone, in the flat
	// form of CSV and XLSX, where Title names the combined cell ("Value"
	// where Title is "Value [CI]"); "" means Title.
	FlatTitle string
	Kind      Kind
	Digits    int  // decimals of Number cells
	CI        bool // cells carry Lo and Hi
	Spread    bool // cells carry Std
	// Best, when Higher or Lower, marks the best value among the rows of
	// one group (rows with equal Group) in bold in LaTeX and HTML.
	Best metrics.Direction
}

// Cell is one value of a row. Undefined numbers are NaN and shown as
// "n/a"; Note then says why when it is known.
type Cell struct {
	Text   string  // Text columns
	V      float64 // Number, Count and PValue columns (NaN: undefined)
	Lo, Hi float64 // CI bounds (NaN: none)
	Std    float64 // spread (NaN: none)
	Digits int     // decimals: 0 = the column's, > 0 = this many, < 0 = none (an integer)
	Note   string  // why the value is undefined, or a remark
	Best   bool    // the best value of its column within its group
	// Absent marks a value that does not apply to the row (not an
	// undefined one): written empty everywhere, the table's Notes say why.
	Absent bool
}

// Row is one row of a table.
type Row struct {
	Cells  []Cell
	Group  string // rows compared for Best (e.g. the metric id)
	Anchor string // stable id built from system, metric id and slice
	System string // system name of the row ("" when not per system)
}

// Table is one table of the bundle.
type Table struct {
	ID         metrics.TableID // file stem (tables/<ID>.csv) and sheet name: a fixed name, never a system's
	Title      string
	Population string // population(s) the values are computed over
	// N is the size of the population (eval queries, positive queries,
	// posts); 0 when it is not one number for the table: the rows (or
	// cells) then carry their own n.
	N int
	// CILevel is the confidence level of the table's intervals ("95%"),
	// for the words of the headers of their CI columns; "" leaves it out.
	CILevel string
	Meaning string // one-line plain-language interpretation, shown with the table
	Columns []Column
	Rows    []Row
	Notes   []string // caveats shown under the table (e.g. a section that could not be shown)
}

// Missing is a table that could not be built, with the reason.
type Missing struct {
	ID     metrics.TableID
	Title  string
	Reason string
}

// Set is every table of a report, in report order, and the tables that
// could not be built with their reasons.
type Set struct {
	Tables  []Table
	Missing []Missing
}

// Undefined is the value of a cell without a number.
var Undefined = math.NaN()

// TextCell returns a cell of free text.
func TextCell(s string) Cell {
	return Cell{Text: s, V: Undefined, Lo: Undefined, Hi: Undefined, Std: Undefined}
}

// NumCell returns a number cell without CI or spread.
func NumCell(v float64) Cell { return Cell{V: v, Lo: Undefined, Hi: Undefined, Std: Undefined} }

// AbsentCell returns a cell whose value does not apply to its row.
func AbsentCell() Cell {
	c := NumCell(Undefined)
	c.Absent = true
	return c
}

// Defined reports whether x is a finite number.
func Defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Format writes the number of a cell of column c for reading: fixed
// decimals, "n/a" when undefined.
func (c Column) Format(x Cell) string {
	switch c.Kind {
	case Text:
		return x.Text
	case Count:
		if !Defined(x.V) {
			return "n/a"
		}
		return strconv.FormatFloat(x.V, 'f', 0, 64)
	case PValue:
		if !Defined(x.V) {
			return "n/a"
		}
		return numtext.P(x.V)
	}
	return FormatNum(x.V, c.digits(x))
}

// FormatNum writes x with d decimals, "n/a" when undefined.
func FormatNum(x float64, d int) string {
	if !Defined(x) {
		return "n/a"
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if s == "-0" || (len(s) > 1 && s[0] == '-' && allZero(s[1:])) {
		s = s[1:]
	}
	return s
}

func allZero(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '0' && s[i] != '.' {
			return false
		}
	}
	return true
}

func (c Column) digits(x Cell) int {
	switch {
	case x.Digits > 0:
		return x.Digits
	case x.Digits < 0:
		return 0
	}
	return c.Digits
}

// DigitsOf returns the decimals a cell of column c is written with.
func (c Column) DigitsOf(x Cell) int { return c.digits(x) }
