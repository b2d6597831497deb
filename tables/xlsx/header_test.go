package xlsx

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"paperbundle/tables"
	"paperbundle/tables/internal/tabletest"
)

// idLike matches text that reads as an id rather than words: a
// family-qualified metric id ("rank.recall@1", "data.n_pos") or a flat
// column's suffix ("value_ci_low", "value_std").
var idLike = regexp.MustCompile(`[a-z]\.[a-z]|_ci_(low|high)\b|_std\b|_markers\b`)

// reportWorkbook is the workbook of a computed report, with every sheet a
// bundle writes: Results, the section tables, Checks, Metric definitions.
func reportWorkbook(t *testing.T) Workbook {
	r := tabletest.Plain().Report(t)
	return Workbook{Title: r.Title, Version: r.Version, Tool: r.Tool,
		Tables: append([]tables.Table{tables.ResultsTable(r)}, tables.Build(r).Tables...),
		Checks: tables.Checks(r), Definitions: tables.Definitions(r)}
}

// TestHeaderRows: on every data sheet of a bundle's workbook the first
// header row is words (no id: nothing like "rank.recall@1" or
// "value_ci_low") and the second the ids, exactly the header of
// tables/<id>.csv; both rows are frozen, and the Excel table (with its
// autofilter) starts at the ids.
func TestHeaderRows(t *testing.T) {
	wb := reportWorkbook(t)
	f := open(t, render(t, wb))
	all := append(slices.Clone(wb.Tables), wb.Checks, wb.Definitions)
	sheets := append(append([]string(nil), newPlan(wb).tables...), checksSheet, definitionsSheet)
	if len(wb.Tables) < 10 {
		t.Fatalf("%d tables: the fixture should build every section", len(wb.Tables))
	}
	for i, tb := range all {
		sheet := sheets[i]
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) < headerRow {
			t.Errorf("%s: %d rows", sheet, len(rows))
			continue
		}
		words, ids := rows[wordsRow-1], rows[headerRow-1]
		csvHeader := strings.Split(strings.SplitN(string(tb.CSV()), "\n", 2)[0], ",")
		if !slices.Equal(ids, csvHeader) {
			t.Errorf("%s: ids row %q, want the CSV header %q", sheet, ids, csvHeader)
		}
		if len(words) != len(ids) {
			t.Errorf("%s: %d words for %d ids", sheet, len(words), len(ids))
			continue
		}
		for j, w := range words {
			if w == "" || idLike.MatchString(w) || (w == ids[j] && strings.ContainsAny(w, "._")) && w != "d_z" && w != "trec_eval" {
				t.Errorf("%s column %d: header %q over id %q, want words", sheet, j+1, w, ids[j])
			}
		}
		p, err := f.GetPanes(sheet)
		if err != nil || !p.Freeze || p.YSplit != headerRow {
			t.Errorf("%s: panes %+v (%v), want both header rows frozen", sheet, p, err)
		}
		tbls, err := f.GetTables(sheet)
		if err != nil || len(tbls) != 1 || !strings.HasPrefix(tbls[0].Range, "A4:") {
			t.Errorf("%s: tables %+v (%v), want one from the ids row (A4)", sheet, tbls, err)
		}
	}
}
