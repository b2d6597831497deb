package xlsx

import (
	"archive/zip"
	"bytes"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"paperbundle/internal/cputime"
	"paperbundle/tables"
)

// TestSheets: README, one sheet per table, Checks and Metric definitions;
// no per-query sheet (per_query_metrics.csv is the per-query record).
func TestSheets(t *testing.T) {
	f := open(t, render(t, workbook(t)))
	want := []string{"README", "ranking", "a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx", "ranking 2", "Checks", "Metric definitions"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets = %q, want %q", got, want)
	}
	if got := f.GetActiveSheetIndex(); got != 0 {
		t.Errorf("active sheet = %d, want 0 (README)", got)
	}
}

func TestSheetName(t *testing.T) {
	tests := []struct {
		id   string
		used []string
		want string
	}{
		{"ranking", nil, "ranking"},
		{"a/b:c*d?e[f]g\\h", nil, "a_b_c_d_e_f_g_h"},
		{strings.Repeat("x", 40), nil, strings.Repeat("x", 31)},
		{"'quoted'", nil, "quoted"},
		{"", nil, "Table"},
		{"\u202Eevil", nil, "_evil"},
		{"README", []string{"readme"}, "README 2"},
		{"checks", []string{"checks", "checks 2"}, "checks 3"},
		{strings.Repeat("y", 31), []string{strings.Repeat("y", 31)}, strings.Repeat("y", 29) + " 2"},
		{strings.Repeat("γ", 40), nil, strings.Repeat("γ", 31)},
		{strings.Repeat("😀", 20), nil, strings.Repeat("😀", 15)}, // two UTF-16 units each
	}
	for _, tt := range tests {
		used := map[string]bool{}
		for _, u := range tt.used {
			used[u] = true
		}
		got := sheetName(tt.id, used)
		if got != tt.want {
			t.Errorf("sheetName(%q) = %q, want %q", tt.id, got, tt.want)
		}
		if !used[strings.ToLower(got)] {
			t.Errorf("sheetName(%q) did not record %q", tt.id, got)
		}
	}
}

func TestEscapeXString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"_x0041_", "_x005F_x0041_"},
		{"a_x00e9_b", "a_x005F_x00e9_b"},
		{"_x0041_x0042_", "_x005F_x0041_x005F_x0042_"}, // overlapping: both escaped
		{"_x005F_", "_x005F_x005F_"},
		{"_x12G4_ _x123_ x0041_", "_x12G4_ _x123_ x0041_"},
	}
	for _, tt := range tests {
		if got := escapeXString(tt.in); got != tt.want {
			t.Errorf("escapeXString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTableSheet checks the layout, values and formats of a table sheet:
// title (row 1), population and n (2), the header in words (3) and in ids
// (4), the rows from row 5, the notes after a blank row.
func TestTableSheet(t *testing.T) {
	f := open(t, render(t, workbook(t)))
	const s = rankingSheet
	words := []string{"System", "Metric", "n", "Value", "95% CI low", "95% CI high", "std", "p"}
	ids := []string{"system", "metric", "n", "value", "value_ci_low", "value_ci_high", "value_std", "p"}
	rows, err := f.GetRows(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0][0]; got != "Ranking quality" {
		t.Errorf("title = %q", got)
	}
	if got, want := rows[1][0], "population: positives_only · n = 1,379 · how high the evidence ranks"; got != want {
		t.Errorf("info = %q, want %q", got, want)
	}
	if !slices.Equal(rows[2], words) {
		t.Errorf("header in words = %q, want %q", rows[2], words)
	}
	if !slices.Equal(rows[3], ids) {
		t.Errorf("header in ids = %q, want %q", rows[3], ids)
	}
	tests := []struct {
		ref    string
		want   string // raw value; "" for an empty cell
		format string // "@", "#,##0", or a custom format
		bold   bool
	}{
		{"A5", "full", "@", false},
		{"B5", "rank.ndcg@10", "@", false},
		{"C5", "1379", "#,##0", false},
		{"D5", formatG(ndcgFull), "0.0000", true},
		{"E5", formatG(ndcgFullLo), "0.0000", false},
		{"F5", formatG(ndcgFullHi), "0.0000", false},
		{"G5", formatG(ndcgFullStd), "0.0000", false},
		{"H5", formatG(pFull), `[<0.0001]"< 0.0001";0.0000`, false},
		{"D6", "0.81", "0.0000", false},
		{"G6", "", "0.0000", false},                     // no spread
		{"H6", "", `[<0.0001]"< 0.0001";0.0000`, false}, // no p-value
		{"D7", "", "0.0000", false},                     // undefined, with a note
		{"A3", "System", "@", true},
		{"A4", "system", "@", false},
		{"A9", "=1+1 a note that looks like a formula", "@", false},
	}
	for _, tt := range tests {
		if got := cell(t, f, s, tt.ref); got != tt.want {
			t.Errorf("%s = %q, want %q", tt.ref, got, tt.want)
		}
		format, bold := cellFormat(t, f, s, tt.ref)
		if format != tt.format || bold != tt.bold {
			t.Errorf("%s: format %q bold %v, want %q %v", tt.ref, format, bold, tt.format, tt.bold)
		}
	}
	typ, err := f.GetCellType(s, "D5")
	if err != nil || typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Errorf("D5 type = %v (%v), want a number", typ, err)
	}
	if got := cell(t, f, "Checks", "C6"); got != "_x0041_x0042_" {
		t.Errorf("Checks!C6 = %q, want %q", got, "_x0041_x0042_")
	}
	comments, err := f.GetComments(s)
	if err != nil || len(comments) != 1 || comments[0].Cell != "D7" || !strings.Contains(comments[0].Text, "no positive query") {
		t.Errorf("comments = %+v (%v), want the note on D7", comments, err)
	}
}

// cellFormat returns the number format of a cell ("@", "0", or the custom
// format) and whether its font is bold.
func cellFormat(t testing.TB, f *excelize.File, sheet, ref string) (string, bool) {
	t.Helper()
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	bold := st.Font != nil && st.Font.Bold
	switch {
	case st.CustomNumFmt != nil:
		return *st.CustomNumFmt, bold
	case st.NumFmt == 49:
		return "@", bold
	case st.NumFmt == 1:
		return "0", bold
	case st.NumFmt == 3:
		return "#,##0", bold
	}
	return "numFmt " + strconv.Itoa(st.NumFmt), bold
}

// TestDataSheets checks every data sheet: frozen panes below both header
// rows, an Excel table (with its autofilter) over the ids and the rows,
// widths.
func TestDataSheets(t *testing.T) {
	f := open(t, render(t, workbook(t)))
	tests := []struct {
		sheet     string
		xSplit    int
		ySplit    int
		tableRef  string
		widthCols string
	}{
		{rankingSheet, 2, 4, "A4:H7", "AH"},
		{"a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx", 1, 4, "A4:B" + strconv.Itoa(4+len(hostile(t))), "AB"},
		{"Checks", 2, 4, "A4:C6", "AC"},
		{"Metric definitions", 2, 4, "A4:C5", "AC"},
	}
	for _, tt := range tests {
		t.Run(tt.sheet, func(t *testing.T) {
			p, err := f.GetPanes(tt.sheet)
			if err != nil || !p.Freeze || p.XSplit != tt.xSplit || p.YSplit != tt.ySplit {
				t.Errorf("panes = %+v (%v), want frozen at %d columns, %d rows", p, err, tt.xSplit, tt.ySplit)
			}
			tbls, err := f.GetTables(tt.sheet)
			if err != nil || len(tbls) != 1 || tbls[0].Range != tt.tableRef {
				t.Errorf("tables = %+v (%v), want one on %s", tbls, err, tt.tableRef)
			}
			for _, col := range tt.widthCols {
				w, err := f.GetColWidth(tt.sheet, string(col))
				if err != nil || w < minWidth+widthPad || w > maxWidth+widthPad {
					t.Errorf("width of %c = %v (%v), want within [%d, %d]", col, w, err, minWidth+widthPad, maxWidth+widthPad)
				}
			}
		})
	}
}

// TestHostile checks that every hostile string comes back as literal text
// and that no cell of any sheet holds a formula.
func TestHostile(t *testing.T) {
	hs := hostile(t)
	b := render(t, workbook(t))
	f := open(t, b)
	rows, err := f.GetRows("a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx")
	if err != nil {
		t.Fatal(err)
	}
	if rows[0][0] != hs[0] || rows[1][0] != "population: "+hs[1]+" · n = 7 · "+hs[2] {
		t.Errorf("title rows = %q", rows[:2])
	}
	for i, h := range hs {
		ref := "A" + strconv.Itoa(headerRow+1+i)
		if got := cell(t, f, "a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx", ref); got != h {
			t.Errorf("%s = %q, want %q", ref, got, h)
		}
		if format, _ := cellFormat(t, f, "a_b_c_d_e_f_g_hxxxxxxxxxxxxxxxx", ref); format != "@" {
			t.Errorf("%s: format %q, want text", ref, format)
		}
	}
	readme, err := f.GetRows("README")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(readme, func(r []string) bool { return len(r) == 2 && r[0] == "hostile" && r[1] == hs[2] }) {
		t.Errorf("README lacks the line hostile = %q", hs[2])
	}
	noFormulas(t, f, b)
}

// noFormulas fails when any cell of any sheet has a formula.
func noFormulas(t *testing.T, f *excelize.File, b []byte) {
	t.Helper()
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			for j := range r {
				ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
				if fm, err := f.GetCellFormula(sheet, ref); err != nil || fm != "" {
					t.Errorf("%s!%s: formula %q (%v)", sheet, ref, fm, err)
				}
			}
		}
	}
	// And in the XML itself: no <f> element in any worksheet.
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		x, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(x, []byte("<f>")) || bytes.Contains(x, []byte("<f ")) {
			t.Errorf("%s has a formula element", zf.Name)
		}
	}
}

func TestDocProps(t *testing.T) {
	tests := []struct {
		name    string
		created time.Time
		want    string
	}{
		{"from the bundle", time.Date(2024, 5, 6, 9, 8, 9, 0, time.FixedZone("CEST", 2*3600)), "2024-05-06T07:08:09Z"},
		{"zero: no date", time.Time{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wb := workbook(t)
			wb.Created = tt.created
			raw := render(t, wb)
			if tt.want == "" {
				// No invented date: neither excelize's template date nor
				// another one anywhere in the document properties.
				zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
				if err != nil {
					t.Fatal(err)
				}
				for _, zf := range zr.File {
					if zf.Name != "docProps/core.xml" && zf.Name != "docProps/app.xml" {
						continue
					}
					rc, _ := zf.Open()
					data, _ := io.ReadAll(rc)
					rc.Close()
					if bytes.Contains(data, []byte("dcterms:created")) || bytes.Contains(data, []byte("dcterms:modified")) {
						t.Errorf("%s carries a date without SOURCE_DATE_EPOCH: %s", zf.Name, data)
					}
				}
			}
			p, err := open(t, raw).GetDocProps()
			if err != nil {
				t.Fatal(err)
			}
			want := excelize.DocProperties{
				Title: "Paper bundle tables", Subject: "paper bundle v1.2", Keywords: "v1.2", Version: "v1.2",
				Creator: "paperbundle v0.3.0", LastModifiedBy: "paperbundle v0.3.0", Language: "en",
				Created: tt.want, Modified: tt.want,
			}
			if *p != want {
				t.Errorf("doc props = %+v, want %+v", *p, want)
			}
		})
	}
}

// TestDeterministic writes the same workbook, with several stream sheets,
// again and again on one and on several threads: the bytes never change.
func TestDeterministic(t *testing.T) {
	first := render(t, workbook(t))
	for _, procs := range []int{1, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		for range 5 {
			if b := render(t, workbook(t)); !bytes.Equal(b, first) {
				t.Errorf("GOMAXPROCS=%d: the workbook differs from the first one", procs)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
	zr, err := zip.NewReader(bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, zf := range zr.File {
		names = append(names, zf.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("zip entries not in name order: %q", names)
	}
}

func TestErrors(t *testing.T) {
	bad := rankingTable()
	bad.Rows[0].Cells = bad.Rows[0].Cells[:2]
	tests := []struct {
		name string
		wb   Workbook
		want string
	}{
		{"short row", Workbook{Tables: []tables.Table{bad}}, `sheet "ranking": row 1: 2 cells for 5 columns`},
		{"repeated key", Workbook{Checks: tables.Table{Columns: []tables.Column{{Key: "a"}, {Key: "a"}}}}, `sheet "Checks": column key "a" empty or repeated`},
	}
	for _, tt := range tests {
		err := Write(io.Discard, tt.wb)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// BenchmarkWrite writes the fixture workbook (tables, checks, definitions).
// cpu-s/op is the CPU time of the process per workbook, which the load of
// other processes on a shared machine disturbs less than the wall time;
// bytes is the size of the workbook.
func BenchmarkWrite(b *testing.B) {
	wb := workbook(b)
	var buf bytes.Buffer
	c0, n := cputime.Now(), 0
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, wb); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cputime.Now()-c0).Seconds()/float64(n), "cpu-s/op")
	b.ReportMetric(float64(buf.Len()), "bytes")
}
