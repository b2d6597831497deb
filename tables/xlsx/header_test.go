package xlsx

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"paperbundle/config"
	"paperbundle/tables"
	"paperbundle/tables/internal/tabletest"
)

// idLike matches text that reads as an id rather than words: a
// family-qualified metric id ("rank.recall@1", "data.n_pos") or a flat
// column's suffix ("value_ci_low", "value_std").
var idLike = regexp.MustCompile(`[a-z]\.[a-z]|_ci_(low|high)\b|_std\b|_markers\b`)

// reportWorkbook is the workbook of a computed report, with every sheet a
// bundle writes: Results, the section tables, Checks, Metric definitions.
// Its strata are ranges ("2-3"), which a spreadsheet would read as dates.
func reportWorkbook(t *testing.T) Workbook {
	fx := tabletest.Plain()
	fx.Strata = []config.Band{{Lo: 1, Hi: 1}, {Lo: 2, Hi: 3}, {Lo: 4, Hi: -1}}
	r := fx.Report(t)
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
		if len(tb.Rows) > 0 {
			checkColumnsFilled(t, sheet, ids, rows[headerRow:headerRow+len(tb.Rows)])
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

// checkColumnsFilled fails for a column empty on every data row, and for
// a stratum label a spreadsheet would read as a date ("3-5").
func checkColumnsFilled(t *testing.T, sheet string, ids []string, data [][]string) {
	t.Helper()
	strata := map[string]bool{}
	for j, id := range ids {
		filled := false
		for _, r := range data {
			if j < len(r) && r[j] != "" {
				filled = true
			}
			if id == "stratum" && j < len(r) {
				strata[r[j]] = true
				if dateLike.MatchString(r[j]) {
					t.Errorf("%s: stratum %q reads as a date", sheet, r[j])
				}
			}
		}
		if !filled {
			t.Errorf("%s: column %s empty on every row", sheet, id)
		}
	}
	if sheet == "strata" && !strata["2\u20133"] {
		t.Errorf("strata: labels %v, want the range 2–3 with an en dash", strata)
	}
}

// dateLike matches what Excel or LibreOffice read as a date: "3-5", "3/5".
var dateLike = regexp.MustCompile(`^\d+[-/]\d+$`)

// TestNoteLines: a note wraps at spaces within the width, and its lines
// joined with a space give it back.
func TestNoteLines(t *testing.T) {
	note := "Each cell: the value with its confidence interval (percentile bootstrap, 10,000 resamples of posts, 95% confidence level, seed 42)."
	spaced := "  two leading spaces, then  two inside and a long tail " + strings.Repeat("x", 70) + " "
	lines := noteLines([]string{note, "=1+1 short", spaced}, 60)
	if len(lines) != 6 || lines[3] != "=1+1 short" {
		t.Fatalf("lines = %q, want the note in 3 lines, the short one, then 2", lines)
	}
	if got := strings.Join(lines[:3], " "); got != note {
		t.Errorf("joined = %q, want %q", got, note)
	}
	if got := strings.Join(lines[4:], " "); got != spaced {
		t.Errorf("joined = %q, want %q: every space kept", got, spaced)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 60 && !strings.Contains(l, strings.Repeat("x", 70)) {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
}

// TestWrappedLines: lines of text wrapped at spaces, counted by hand.
func TestWrappedLines(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  int
	}{
		{"", 10, 1},
		{"Value", 10, 1},
		{"Queries with evidence", 16, 2}, // "Queries with" | "evidence"
		{"Tells positives from negatives (AUROC)", 16, 3}, // "Tells positives" | "from negatives" | "(AUROC)"
		{"aaaa bbbb cccc", 9, 2},                          // "aaaa bbbb" (9) | "cccc"
		{strings.Repeat("L", 300), 50, 6},                 // one word broken into 6 lines
		{strings.Repeat("L", 120) + " end", 50, 3},        // 50 | 50 | 20 + " end"
	}
	for _, tt := range tests {
		if got := wrappedLines(tt.s, tt.width); got != tt.want {
			t.Errorf("wrappedLines(%q, %d) = %d, want %d", tt.s, tt.width, got, tt.want)
		}
	}
}

// TestLongTextRows: a text cell wider than the widest column wraps, and
// its row is as tall as its lines (the hostile table's 300-character
// word: 6 lines of 50).
func TestLongTextRows(t *testing.T) {
	f := open(t, render(t, workbook(t)))
	const sheet = "a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx"
	hs := hostile(t)
	for i, h := range hs {
		if h != strings.Repeat("L", 300) {
			continue
		}
		y := headerRow + 1 + i
		h, err := f.GetRowHeight(sheet, y)
		if err != nil || h != 6*lineHeight {
			t.Errorf("row %d: height %v (%v), want %v", y, h, err, 6*lineHeight)
		}
		st, _ := f.GetCellStyle(sheet, "A"+strconv.Itoa(y))
		s, err := f.GetStyle(st)
		if err != nil || s.Alignment == nil || !s.Alignment.WrapText {
			t.Errorf("row %d: style %+v (%v), want wrapped text", y, s, err)
		}
		return
	}
	t.Fatal("no 300-character string in the hostile list")
}

// TestAlignment: text is indented one step from the left; numbers (bold
// or not, any format) and the headers over them align right with no
// indent, so a column's numbers end at the same place in LibreOffice,
// which indents some right-aligned cells and not others.
func TestAlignment(t *testing.T) {
	f := open(t, render(t, workbook(t)))
	tests := []struct {
		ref, horizontal string
		indent          int
	}{
		{"A5", "left", 1},  // text
		{"A3", "left", 1},  // header in words over text
		{"C3", "right", 0}, // header in words over counts
		{"C4", "right", 0}, // id over counts
		{"C5", "right", 0}, // count, #,##0
		{"D5", "right", 0}, // bold best value
		{"D6", "right", 0}, // plain value
		{"H5", "right", 0}, // p-value
	}
	for _, tt := range tests {
		id, err := f.GetCellStyle(rankingSheet, tt.ref)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil || st.Alignment == nil {
			t.Fatalf("%s: style %+v (%v)", tt.ref, st, err)
		}
		if st.Alignment.Horizontal != tt.horizontal || st.Alignment.Indent != tt.indent {
			t.Errorf("%s: aligned %q, indent %d; want %q, %d", tt.ref, st.Alignment.Horizontal, st.Alignment.Indent, tt.horizontal, tt.indent)
		}
	}
}
