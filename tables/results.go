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
// value, CI low and high and n as numbers (a cell the metric does not
// apply to is empty) and its markers as text ("better than b, c; worse
// than a"), the same numbers as report.html's matrix. The n is the
// cell's own (its population, or the denominator of a ratio of counts:
// alert precision over the system's alerts), so the table has no one n.
func ResultsTable(r *report.Report) Table {
	mx := BuildMatrix(r)
	v := r.Vocabulary()
	t := Table{ID: TableResults, Title: "Results: systems by headline metric",
		Population: "each metric's own (see Metric definitions), its n beside its value", CILevel: ciLevel(r),
		Columns: []Column{{Key: "system", Title: v.Say("System"), Kind: Text}, {Key: "letter", Title: "Letter", Kind: Text}}}
	for _, c := range mx.Columns {
		title := c.Title
		switch {
		case c.Plain != "" && strings.Contains(c.Title, "("):
			title = c.Plain + ": " + c.Title // "Calibration error: ECE (equal width)"
		case c.Plain != "":
			title = c.Plain + " (" + c.Title + ")"
		}
		t.Columns = append(t.Columns,
			Column{Key: string(c.ID), Title: title, Kind: Number, Digits: c.Digits, CI: true},
			Column{Key: string(c.ID) + "_n", Title: "n", Kind: Count},
			Column{Key: string(c.ID) + "_markers", Title: "Markers", Kind: Text})
	}
	for _, row := range mx.Rows {
		cells := []Cell{TextCell(row.Label), TextCell(row.Letter)}
		for _, c := range row.Cells {
			if !c.Present {
				cells = append(cells, AbsentCell(), AbsentCell(), TextCell(""))
				continue
			}
			v := NumCell(c.Value)
			v.Lo, v.Hi, v.Note, v.Best = c.Lo, c.Hi, c.Note, c.Best
			cells = append(cells, v, NumCell(float64(c.N)), TextCell(markers(c)))
		}
		t.Rows = append(t.Rows, Row{Cells: cells, System: row.System})
	}
	t.Notes = resultsNotes(mx, v)
	return t
}

// resultsNotes are the notes under the Results sheet: the matrix's, for
// cells that are columns of numbers and markers in words.
func resultsNotes(mx Matrix, v report.Vocabulary) []string {
	cell := "For each metric: its value"
	if mx.CI != "" {
		cell += ", the confidence interval as two columns (" + mx.CI + ")"
	}
	cell += ", n (the count the value is computed over: its population, or for a ratio of counts its denominator) and the markers; the best value of each column in bold; an empty value is undefined (its comment says why) or does not apply."
	out := []string{cell}
	if mx.Systems() > 1 {
		out = append(out, v.Say("Markers: \"better than b\": significantly better than the system with letter b; \"worse than a\": significantly worse than system a ("+mx.rule()+")."+mx.compared()))
		if s := mx.testsNote(); s != "" {
			out = append(out, s)
		}
	}
	if mx.anyMissed() {
		out = append(out, "\"target not met\" in the markers: the value misses the target named beside it.")
	}
	if mx.Queries != "" {
		out = append(out, mx.Queries)
	}
	for _, r := range mx.Rows {
		if r.Baseline {
			out = append(out, "Random and oracle baselines: ranking columns only, not tested, never bold.")
			break
		}
	}
	return out
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
