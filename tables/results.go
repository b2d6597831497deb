package tables

import (
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// TableResults is the workbook's Results sheet: the results matrix as a
// table.
const TableResults metrics.TableID = "Results"

// ResultsTable is the results matrix as a long table for the workbook:
// one row per system (baselines last), and for each headline metric its
// value, CI low and high as numbers (a cell the metric does not apply to
// is empty) and its markers as text ("better than b, c; worse than a"),
// the same numbers as report.html's matrix.
func ResultsTable(r *report.Report) Table {
	mx := BuildMatrix(r)
	t := Table{ID: TableResults, Title: "Results: systems by headline metric",
		Population: "each metric's own (see Metric definitions)", N: r.Dataset.EvalQueries,
		Columns: []Column{{Key: "system", Title: "System", Kind: Text}, {Key: "letter", Title: "Letter", Kind: Text}}}
	for _, c := range mx.Columns {
		title := c.Title
		if c.Plain != "" {
			title = c.Plain + " (" + c.Title + ")"
		}
		t.Columns = append(t.Columns,
			Column{Key: string(c.ID), Title: title, Kind: Number, Digits: c.Digits, CI: true},
			Column{Key: string(c.ID) + "_markers", Title: c.Title + " markers", Kind: Text})
	}
	for _, row := range mx.Rows {
		cells := []Cell{TextCell(row.Label), TextCell(row.Letter)}
		for _, c := range row.Cells {
			if !c.Present {
				cells = append(cells, AbsentCell(), TextCell(""))
				continue
			}
			v := NumCell(c.Value)
			v.Lo, v.Hi, v.Note, v.Best = c.Lo, c.Hi, c.Note, c.Best
			cells = append(cells, v, TextCell(markers(c)))
		}
		t.Rows = append(t.Rows, Row{Cells: cells, System: row.System})
	}
	t.Notes = mx.Notes()
	return t
}

// markers writes a cell's markers in words: significance, and a missed
// target with the target, as the results matrix marks it.
func markers(c MatrixCell) string {
	var parts []string
	if len(c.Better) > 0 {
		parts = append(parts, "better than "+strings.Join(c.Better, ", "))
	}
	if len(c.Worse) > 0 {
		parts = append(parts, "worse than "+strings.Join(c.Worse, ", "))
	}
	if c.Missed && c.Target != nil {
		parts = append(parts, "target not met ("+TargetText(c.Target)+")")
	}
	return strings.Join(parts, "; ")
}
