package xlsx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"paperbundle/tables"
)

// rowStrings are texts for the row writer: the hostile strings and what
// excelize's escaping of strings treats specially (white space at either
// end, control characters, invalid UTF-8, "_xHHHH_" escapes, overlapping,
// of surrogates, after "_x005F_", a text above the 32,767 units of a
// cell, cut inside a surrogate pair).
func rowStrings(t testing.TB) []string {
	return append(hostile(t),
		"", "plain", " lead", "trail ", "\ttab", "nl\n", "cr\r", "a\nb\r\nc\td", "\x01ctl\x7f", "bad\xffutf8",
		"quote\"s 'and' <tags> & amps", "é ± € 😀 \u202e \uFEFF",
		"_x0041_", "_x0041_x0042_", "_x005F_", "_x005F_x0041_", "_x005F_xD800_", "_xD800_ and _xdfff_", "_x12G4_",
		"_x005f_", "x_x0041", "__x0041__", "_x004", "_X0041_", "_x0041_x005F_x0042_",
		strings.Repeat("w", 32767)+"x", strings.Repeat("é", 40000), strings.Repeat("a", 32766)+"😀",
	)
}

// TestRowsAsStreamWriter writes the same rows with appendRow and with
// excelize's StreamWriter.SetRow (as the package did before it wrote the
// rows itself) and compares the bytes of the two sheets.
func TestRowsAsStreamWriter(t *testing.T) {
	cols := []tables.Column{
		{Key: "label", Kind: tables.Text},
		{Key: "n", Kind: tables.Count},
		{Key: "v", Kind: tables.Number, Digits: 4, CI: true, Spread: true},
		{Key: "p", Kind: tables.PValue},
		{Key: "w", Kind: tables.Number},
	}
	numbers := []float64{0, 1, -1, 0.5, 1.0 / 3, 1e-20, 1e21, math.Copysign(0, -1), 123456789.125, math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, math.MaxFloat64}
	var rows [][]tables.Cell
	for i, s := range rowStrings(t) {
		x := numbers[i%len(numbers)]
		v := tables.Cell{V: x, Lo: numbers[(i+1)%len(numbers)], Hi: numbers[(i+2)%len(numbers)], Std: numbers[(i+3)%len(numbers)],
			Digits: []int{0, 2, -1, 6, 20}[i%5], Best: i%3 == 0}
		rows = append(rows, []tables.Cell{tables.TextCell(s), tables.NumCell(float64(i)), v, tables.NumCell(x), {V: x, Digits: i % 3, Best: true}})
	}
	flat := tables.Table{Columns: cols}.Flat()

	sheet := func(stream bool) []byte {
		f := excelize.NewFile()
		defer f.Close()
		z := &sortedZip{}
		f.SetZipWriter(z.writer)
		b := &builder{f: f, styles: map[style]int{}, zip: z}
		rw := newRowWriter(flat)
		sw, err := f.NewStreamWriter("Sheet1")
		if err != nil {
			t.Fatal(err)
		}
		if err := sw.SetRow("A1", []any{"header"}); err != nil {
			t.Fatal(err)
		}
		for y, cells := range rows {
			if err := rw.makeStyles(b, cells); err != nil {
				t.Fatal(err)
			}
			if !stream {
				continue
			}
			row := make([]any, len(flat))
			for j, fc := range flat {
				c := cells[fc.Col]
				if row[j], err = b.streamCell(value(fc, c), cellStyle(fc, c)); err != nil {
					t.Fatal(err)
				}
			}
			ref, _ := excelize.CoordinatesToCellName(1, y+2)
			if err := sw.SetRow(ref, row); err != nil {
				t.Fatal(err)
			}
		}
		if !stream {
			err := z.splice("xl/worksheets/sheet1.xml", func(w io.Writer) error {
				var buf []byte
				for y, cells := range rows {
					if buf, err = rw.appendRow(buf, y+2, cells); err != nil {
						return err
					}
				}
				_, err := w.Write(buf)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := sw.Flush(); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := f.Write(&out); err != nil {
			t.Fatal(err)
		}
		return entry(t, out.Bytes(), "xl/worksheets/sheet1.xml")
	}
	want, got := sheet(true), sheet(false)
	if !bytes.Equal(want, got) {
		t.Fatalf("rows differ from the stream writer's: %s", firstDiff(want, got))
	}
	if !bytes.Contains(want, []byte(`<row r="3">`)) || !bytes.Contains(want, []byte(`xml:space="preserve"`)) {
		t.Fatal("the sheet lacks its rows")
	}
}

// entry returns the uncompressed zip entry name of an XLSX file.
func entry(t testing.TB, xlsx []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff describes where two byte slices first differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			lo := max(0, i-60)
			return fmt.Sprintf("at byte %d: want %q, got %q", i, a[lo:min(len(a), i+60)], b[lo:min(len(b), i+60)])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// TestRowChangedBetweenReads: a PerQuery.Row that gives a cell another
// style the second time it is read is an error, not a cell with a style
// missing from the workbook.
func TestRowChangedBetweenReads(t *testing.T) {
	calls := 0
	wb := workbook(t, 3, 0)
	wb.PerQuery = PerQuery{
		Columns: []tables.Column{{Key: "v", Kind: tables.Number, Digits: 2}},
		Rows:    3,
		Row: func(i int, dst []tables.Cell) {
			calls++
			dst[0] = tables.Cell{V: 1, Digits: calls} // other decimals each time
		},
	}
	err := Write(io.Discard, wb)
	if err == nil || !strings.Contains(err.Error(), "Row must give the same cells") {
		t.Errorf("error %v, want the row changed between reads", err)
	}
}

// TestSpliceWithoutEntry: rows for a zip entry that excelize never wrote
// are an error.
func TestSpliceWithoutEntry(t *testing.T) {
	z := &sortedZip{}
	var buf bytes.Buffer
	z.writer(&buf)
	if err := z.splice("xl/worksheets/sheet9.xml", func(io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := z.splice("xl/worksheets/sheet9.xml", func(io.Writer) error { return nil }); err == nil {
		t.Error("no error for a second splice of one entry")
	}
	w, err := z.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("<worksheet><sheetData></sheetData></worksheet>")); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err == nil || !strings.Contains(err.Error(), "sheet9.xml") {
		t.Errorf("Close: %v, want an error naming the entry without rows", err)
	}
}
