package xlsx

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"paperbundle/tables"
)

// csvAllSheets is LibreOffice's CSV export filter (>= 7.2) with every
// sheet to its own file: comma, double quote, UTF-8, raw values (not as
// shown), no formulas, sheet -1 (all).
const csvAllSheets = `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1`

// TestLibreOffice reads workbooks with an independent client: every
// sheet converted to CSV by LibreOffice holds both header rows, the
// numbers as numbers and the hostile strings as the literal text. Two
// workbooks, converted in one run: the fixture's (hostile strings) and a
// computed report's (every sheet a bundle writes).
func TestLibreOffice(t *testing.T) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("soffice not on PATH (Debian: libreoffice-calc-nogui)")
	}
	if testing.Short() {
		t.Skip("LibreOffice conversion in -short mode")
	}
	books := map[string]Workbook{"fixture": workbook(t), "report": reportWorkbook(t)}
	dir := t.TempDir()
	args := []string{"-env:UserInstallation=file://" + filepath.ToSlash(filepath.Join(dir, "profile")),
		"--headless", "--convert-to", csvAllSheets, "--outdir", filepath.Join(dir, "csv")}
	for _, name := range []string{"fixture", "report"} {
		in := filepath.Join(dir, name+".xlsx")
		if err := os.WriteFile(in, render(t, books[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	for _, name := range []string{"fixture", "report"} {
		wb := books[name]
		read := func(sheet string) [][]string {
			t.Helper()
			f, err := os.Open(filepath.Join(dir, "csv", name+"-"+sheet+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := csv.NewReader(f)
			r.FieldsPerRecord = -1
			recs, err := r.ReadAll()
			if err != nil {
				t.Fatalf("%s: %v", sheet, err)
			}
			return recs
		}
		for i, tb := range wb.Tables {
			checkCSVTable(t, newPlan(wb).tables[i], read(newPlan(wb).tables[i]), tb)
		}
		checkCSVTable(t, "Checks", read("Checks"), wb.Checks)
		checkCSVTable(t, "Metric definitions", read("Metric definitions"), wb.Definitions)
	}
}

// want is the expected content of one cell: text, or a number (NaN: an
// empty cell).
type want struct {
	text  string
	num   float64
	isNum bool
}

// headerCells are the two header rows: the words, then the ids.
func headerCells(flat []tables.FlatColumn) (words, ids []want) {
	for _, fc := range flat {
		words = append(words, want{text: fc.Title})
		if fc.Title == "" {
			words[len(words)-1].text = fc.Key
		}
		ids = append(ids, want{text: fc.Key})
	}
	return words, ids
}

func expected(flat []tables.FlatColumn, cells []tables.Cell) []want {
	var out []want
	for _, fc := range flat {
		c := cells[fc.Col]
		if fc.Kind == tables.Text {
			out = append(out, want{text: c.Text})
		} else {
			out = append(out, want{num: fc.Number(c), isNum: true})
		}
	}
	return out
}

// checkCSVTable compares the CSV of a table sheet with tb: title, the
// header in words and in ids, rows.
func checkCSVTable(t *testing.T, sheet string, recs [][]string, tb tables.Table) {
	t.Helper()
	flat := tb.Flat()
	if len(flat) == 0 {
		if len(recs) != 1 || recs[0][0] != tb.Title {
			t.Errorf("%s: %q, want the title %q alone", sheet, recs, tb.Title)
		}
		return
	}
	if len(recs) < headerRow+len(tb.Rows) {
		t.Errorf("%s: %d CSV rows, want at least %d", sheet, len(recs), headerRow+len(tb.Rows))
		return
	}
	if recs[0][0] != tb.Title {
		t.Errorf("%s: title %q, want %q", sheet, recs[0][0], tb.Title)
	}
	words, ids := headerCells(flat)
	checkCSVRow(t, sheet, wordsRow, recs[wordsRow-1], words)
	checkCSVRow(t, sheet, headerRow, recs[headerRow-1], ids)
	for i, r := range tb.Rows {
		checkCSVRow(t, sheet, headerRow+1+i, recs[headerRow+i], expected(flat, r.Cells))
	}
}

func checkCSVRow(t *testing.T, sheet string, y int, rec []string, ws []want) {
	t.Helper()
	if len(rec) < len(ws) {
		t.Errorf("%s row %d: %d fields, want %d", sheet, y, len(rec), len(ws))
		return
	}
	for j, w := range ws {
		got := rec[j]
		switch {
		case !w.isNum:
			if got != w.text {
				t.Errorf("%s row %d col %d = %q, want the text %q", sheet, y, j+1, got, w.text)
			}
		case !tables.Defined(w.num):
			if got != "" {
				t.Errorf("%s row %d col %d = %q, want empty", sheet, y, j+1, got)
			}
		default:
			// LibreOffice writes 15 significant digits.
			x, err := strconv.ParseFloat(got, 64)
			if err != nil || math.Abs(x-w.num) > 1e-12*max(1, math.Abs(w.num)) {
				t.Errorf("%s row %d col %d = %q, want %v", sheet, y, j+1, got, w.num)
			}
		}
	}
}
