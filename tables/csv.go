package tables

import (
	"bytes"
	"encoding/csv"
	"strconv"

	"paperbundle/internal/csvtext"
	"paperbundle/report"
)

// CSVSafe neutralises free text that a spreadsheet would run as a formula
// (CSV injection): csvtext.Safe, the rule of every CSV of the bundle.
// Numbers are never passed through it.
func CSVSafe(s string) string { return csvtext.Safe(s) }

// csvNum writes a number at full precision, empty when undefined.
func csvNum(x float64) string {
	if !Defined(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// CSV returns the table in its flat form (see Table.Flat) with
// full-precision numbers; undefined numbers are empty cells.
func (t Table) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	flat := t.Flat()
	rec := make([]string, len(flat))
	for i, f := range flat {
		rec[i] = CSVSafe(f.Key)
	}
	w.Write(rec)
	for _, row := range t.Rows {
		for i, f := range flat {
			c := row.Cells[f.Col]
			if f.Kind == Text {
				rec[i] = CSVSafe(c.Text)
			} else {
				rec[i] = csvNum(f.Number(c))
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}

// PerQueryCSV returns per_query_metrics.csv (report.Report.WritePerQueryCSV,
// which report.Report.ReadPerQueryCSV reads back).
func PerQueryCSV(r *report.Report) []byte {
	var buf bytes.Buffer
	r.WritePerQueryCSV(&buf) // a bytes.Buffer does not fail
	return buf.Bytes()
}
