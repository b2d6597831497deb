package xlsx

import (
	"bytes"
	hostile_ "paperbundle/internal/hostile"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"paperbundle/metrics"
	"paperbundle/tables"
)

// hostileList is the brief's list of hostile strings; hostile adds the
// shared corpus of testdata/hostile.txt.
var hostileList = []string{
	`</script><script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`=HYPERLINK("http://evil","x")`,
	`+cmd|' /C calc'!A0`,
	`@SUM(1+1)`,
	`-2+3`,
	`=1+1`,
	`{{.}}`,
	`\input{/etc/passwd}`,
	`%`,
	`_`,
	`&`,
	"\u202Eevil",
	"_x0041_ is not A",
	"_x005F_ and _x12G4_ stay",
	" leading and trailing space ",
	strings.Repeat("L", 300),
}

// hostile returns hostileList and the lines of testdata/hostile.txt.
func hostile(t testing.TB) []string {
	return append(append([]string(nil), hostileList...), hostile_.Strings(t)...)
}

// Numbers of the fixture, with more digits than any format shows, so a
// read-back compares the stored value, not the shown one.
const (
	ndcgFull     = 0.851234567890123
	ndcgFullLo   = 0.840111111111111
	ndcgFullHi   = 0.861999999999999
	ndcgFullStd  = 0.00843
	ndcgRetr     = 0.81
	pFull        = 0.00012345
	nPositives   = 1379
	rankingSheet = "ranking"
)

func num(v, lo, hi, std float64) tables.Cell { return tables.Cell{V: v, Lo: lo, Hi: hi, Std: std} }

// rankingTable is a section table: text labels, n, a value with CI and
// spread, a p-value, an undefined value with its reason.
func rankingTable() tables.Table {
	nan := tables.Undefined
	best := num(ndcgFull, ndcgFullLo, ndcgFullHi, ndcgFullStd)
	best.Best = true
	undef := num(nan, nan, nan, nan)
	undef.Note = "no positive query in this slice"
	return tables.Table{
		ID: rankingSheet, Title: "Ranking quality", Population: "positives_only", N: nPositives, CILevel: "95%",
		Meaning: "how high the evidence ranks",
		Columns: []tables.Column{
			{Key: "system", Title: "System", Kind: tables.Text},
			{Key: "metric", Title: "Metric", Kind: tables.Text},
			{Key: "n", Title: "n", Kind: tables.Count},
			{Key: "value", Title: "Value", Kind: tables.Number, Digits: 4, CI: true, Spread: true, Best: metrics.Higher},
			{Key: "p", Title: "p", Kind: tables.PValue},
		},
		Rows: []tables.Row{
			{Cells: []tables.Cell{tables.TextCell("full"), tables.TextCell("rank.ndcg@10"), tables.NumCell(nPositives), best, tables.NumCell(pFull)}},
			{Cells: []tables.Cell{tables.TextCell("retriever"), tables.TextCell("rank.ndcg@10"), tables.NumCell(nPositives), num(ndcgRetr, 0.8, 0.82, nan), tables.NumCell(nan)}},
			{Cells: []tables.Cell{tables.TextCell("full"), tables.TextCell("rank.ndcg@10 criterion=A.1"), tables.NumCell(0), undef, tables.NumCell(nan)}},
		},
		Notes: []string{"=1+1 a note that looks like a formula"},
	}
}

// hostileTable has a hostile id, title and meaning and one row per
// hostile string.
func hostileTable(hs []string) tables.Table {
	t := tables.Table{
		ID: metrics.TableID(`a/b:c*d?e[f]g\h` + strings.Repeat("x", 40)), Title: hs[0], Population: hs[1], N: 7, Meaning: hs[2],
		Columns: []tables.Column{
			{Key: "label", Kind: tables.Text},
			{Key: "value", Kind: tables.Number, Digits: 2},
		},
	}
	for i, h := range hs {
		t.Rows = append(t.Rows, tables.Row{Cells: []tables.Cell{tables.TextCell(h), tables.NumCell(float64(i) + 0.25)}})
	}
	return t
}

func checksTable() tables.Table {
	return tables.Table{
		ID: "checks", Title: "Consistency checks",
		Columns: []tables.Column{{Key: "check", Kind: tables.Text}, {Key: "status", Kind: tables.Text}, {Key: "detail", Kind: tables.Text}},
		Rows: []tables.Row{
			{Cells: []tables.Cell{tables.TextCell("folds partition the queries"), tables.TextCell("pass"), tables.TextCell("")}},
			{Cells: []tables.Cell{tables.TextCell("no tune row in eval"), tables.TextCell("pass"), tables.TextCell("_x0041_x0042_")}},
		},
	}
}

func definitionsTable() tables.Table {
	return tables.Table{
		ID: "definitions", Title: "Metric definitions",
		Columns: []tables.Column{{Key: "id", Kind: tables.Text}, {Key: "population", Kind: tables.Text}, {Key: "definition", Kind: tables.Text}},
		Rows: []tables.Row{
			{Cells: []tables.Cell{tables.TextCell("rank.ndcg@10"), tables.TextCell("positives_only"), tables.TextCell("DCG@10 / IDCG@10, gains 1 for evidence")}},
		},
	}
}

// workbook is the fixture workbook.
func workbook(t testing.TB) Workbook {
	hs := hostile(t)
	return Workbook{
		Title:   "Paper bundle tables",
		Version: "v1.2",
		Tool:    "paperbundle v0.3.0",
		Created: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		Readme: []ReadmeLine{
			{"seed", "42"},
			{"bootstrap", "percentile, 10000 resamples, unit post"},
			{"hostile", hs[2]},
		},
		Tables:      []tables.Table{rankingTable(), hostileTable(hs), {ID: rankingSheet, Title: "a second table with the same id"}},
		Checks:      checksTable(),
		Definitions: definitionsTable(),
	}
}

// render writes wb and returns its bytes.
func render(t testing.TB, wb Workbook) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, wb); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// open reads a workbook back with excelize.
func open(t testing.TB, b []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// cell returns the raw value of a cell.
func cell(t testing.TB, f *excelize.File, sheet, ref string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func formatG(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
