package xlsx

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"paperbundle/tables"
)

// widthSample is how many per-query rows the column widths are taken from:
// a stream sheet needs its widths before its first row.
const widthSample = 200

// perQuery streams the per-query rows into their sheets, plan.perSheet
// rows a sheet, the header repeated on each.
//
// The header row, the widths, the panes and the Excel table go through
// excelize's stream writer; the data rows do not: a row is written by
// appendRow, byte for byte as StreamWriter.SetRow would write it (the
// tests compare the two), straight into the compressor of the sheet's zip
// entry when the workbook is saved (see sortedZip.splice). SetRow spent
// most of its time per cell on interfaces, cell names and a temporary
// file above 16 MB; the demo's 88,620 rows x 40 columns are 112 MB of XML.
func (b *builder) perQuery() error {
	pq := b.wb.PerQuery
	if len(b.plan.perQuery) == 0 {
		return nil
	}
	flat := tables.Table{Columns: pq.Columns}.Flat()
	if err := checkKeys(flat); err != nil {
		return fmt.Errorf("per-query: %w", err)
	}
	cells := make([]tables.Cell, len(pq.Columns))
	widths := b.sampleWidths(flat, cells)
	rw := newRowWriter(flat)
	for k, sheet := range b.plan.perQuery {
		lo := k * b.plan.perSheet
		hi := min(lo+b.plan.perSheet, pq.Rows)
		if err := b.perQuerySheet(sheet, flat, widths, lo, hi, cells, rw); err != nil {
			return fmt.Errorf("sheet %q: %w", sheet, err)
		}
	}
	return nil
}

// fill sets cells to the per-query row i.
func (b *builder) fill(i int, cells []tables.Cell) {
	for j := range cells {
		cells[j] = undefined()
	}
	b.wb.PerQuery.Row(i, cells)
}

// sampleWidths returns the widths of the per-query columns from the
// header and the first rows.
func (b *builder) sampleWidths(flat []tables.FlatColumn, cells []tables.Cell) []int {
	widths := make([]int, len(flat))
	for j, fc := range flat {
		widths[j] = utf8.RuneCountInString(fc.Key)
	}
	for i := range min(b.wb.PerQuery.Rows, widthSample) {
		b.fill(i, cells)
		for j, fc := range flat {
			widths[j] = max(widths[j], shownWidth(fc, cells[fc.Col]))
		}
	}
	return widths
}

// perQuerySheet writes rows lo to hi-1 on sheet, under a header row. The
// dimension, widths and panes go before the first row, the Excel table
// after the last. The styles of the rows are made here, in the order the
// cells first use them; the rows themselves are written when the
// workbook is saved.
func (b *builder) perQuerySheet(sheet string, flat []tables.FlatColumn, widths []int, lo, hi int, cells []tables.Cell, rw *rowWriter) error {
	ref := rangeRef(1, 1, len(flat), 1+hi-lo)
	if err := b.f.SetSheetDimension(sheet, ref); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	// Last column first: the stream writer puts each new column before
	// the others, and Excel wants them in order.
	for j := len(widths) - 1; j >= 0; j-- {
		if err := sw.SetColWidth(j+1, j+1, width(widths[j])); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(freeze(min(1, leadingText(flat)), 1)); err != nil {
		return err
	}
	row := make([]any, len(flat))
	for j, fc := range flat {
		row[j], err = b.streamCell(fc.Key, header(fc))
		if err != nil {
			return err
		}
	}
	if err := sw.SetRow("A1", row); err != nil {
		return err
	}
	for i := lo; i < hi; i++ {
		b.fill(i, cells)
		if err := rw.makeStyles(b, cells); err != nil {
			return err
		}
	}
	path, err := b.sheetPath(sheet)
	if err != nil {
		return err
	}
	if err := b.zip.splice(path, func(w io.Writer) error { return b.writeRows(w, rw, lo, hi, cells) }); err != nil {
		return err
	}
	if err := sw.AddTable(&excelize.Table{Range: ref, StyleName: tableStyle}); err != nil {
		return err
	}
	return sw.Flush()
}

// sheetPath returns the zip entry of a sheet: excelize names the part of
// a new sheet after its sheet id. sortedZip.Close fails when no entry of
// that name holds a sheetData, so a change of this rule cannot go unseen.
func (b *builder) sheetPath(sheet string) (string, error) {
	for id, name := range b.f.GetSheetMap() {
		if name == sheet {
			return "xl/worksheets/sheet" + strconv.Itoa(id) + ".xml", nil
		}
	}
	return "", fmt.Errorf("no sheet id")
}

// rowChunk is how many bytes of rows are handed to the compressor at once.
const rowChunk = 256 << 10

// writeRows writes per-query rows lo to hi-1 as the sheet rows 2 on to w.
func (b *builder) writeRows(w io.Writer, rw *rowWriter, lo, hi int, cells []tables.Cell) error {
	buf := make([]byte, 0, rowChunk+64<<10)
	var err error
	for i := lo; i < hi; i++ {
		b.fill(i, cells)
		if buf, err = rw.appendRow(buf, i-lo+2, cells); err != nil {
			return fmt.Errorf("per-query row %d: %w", i+1, err)
		}
		if len(buf) >= rowChunk {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err = w.Write(buf)
	return err
}

// streamCell returns a stream writer cell holding v with style s. A
// string is passed as a value (never a formula), so it stays text.
func (b *builder) streamCell(v any, s style) (excelize.Cell, error) {
	id, err := b.id(s)
	return excelize.Cell{StyleID: id, Value: v}, err
}

// rowWriter writes per-query rows as sheet XML.
type rowWriter struct {
	cols  []rowColumn
	attrs []string // ` s="id"` of each style made, "" for style 0
}

// rowColumn is one flat column of the per-query table: its letters and
// the styles its cells have used, by decimals and boldness.
type rowColumn struct {
	fc    tables.FlatColumn
	name  string // "A", ..., "AN"
	text  bool
	value bool // the value part of its column: bold when best
	// styles[bold][digits] is 1 + the index in rowWriter.attrs of the
	// style of a cell shown with digits decimals; 0: not made yet.
	styles [2][maxCachedDigits]int32
	more   map[cellStyleKey]int32 // decimals beyond the array
}

// maxCachedDigits bounds the decimals whose styles a column keeps in an
// array; more go to a map.
const maxCachedDigits = 16

// cellStyleKey is what the style of a per-query cell depends on besides
// its column (see cellStyle).
type cellStyleKey struct {
	digits int
	bold   bool
}

func newRowWriter(flat []tables.FlatColumn) *rowWriter {
	rw := &rowWriter{cols: make([]rowColumn, len(flat))}
	for j, fc := range flat {
		name, _ := excelize.ColumnNumberToName(j + 1)
		rw.cols[j] = rowColumn{fc: fc, name: name, text: fc.Kind == tables.Text, value: fc.Part == tables.PartValue}
	}
	return rw
}

// styleKey returns the key of the style of cell c in column col: the
// decimals of digits(col.fc, c) and the boldness of cellStyle.
func (col *rowColumn) styleKey(c *tables.Cell) cellStyleKey {
	d := c.Digits
	switch {
	case d == 0:
		d = col.fc.Digits
	case d < 0:
		d = 0
	}
	return cellStyleKey{digits: d, bold: c.Best && col.value}
}

// lookup returns 1 + the index in rowWriter.attrs of the style of key,
// 0 when it is not made yet.
func (col *rowColumn) lookup(k cellStyleKey) int32 {
	if k.digits >= 0 && k.digits < maxCachedDigits {
		return col.styles[boolIndex(k.bold)][k.digits]
	}
	return col.more[k]
}

func (col *rowColumn) store(k cellStyleKey, attr int32) {
	if k.digits >= 0 && k.digits < maxCachedDigits {
		col.styles[boolIndex(k.bold)][k.digits] = attr
		return
	}
	if col.more == nil {
		col.more = map[cellStyleKey]int32{}
	}
	col.more[k] = attr
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// makeStyles makes the styles of one row's cells that are not made yet,
// in column order: the order, and so the ids, of SetRow with b.id.
func (rw *rowWriter) makeStyles(b *builder, cells []tables.Cell) error {
	for j := range rw.cols {
		col := &rw.cols[j]
		c := &cells[col.fc.Col]
		k := col.styleKey(c)
		if col.lookup(k) != 0 {
			continue
		}
		id, err := b.id(cellStyle(col.fc, *c))
		if err != nil {
			return err
		}
		attr := ""
		if id != 0 { // as SetRow: no s attribute for style 0
			attr = ` s="` + strconv.Itoa(id) + `"`
		}
		rw.attrs = append(rw.attrs, attr)
		col.store(k, int32(len(rw.attrs)))
	}
	return nil
}

// appendRow appends the cells as row y, as excelize's StreamWriter.SetRow
// writes a row of excelize.Cell values: a text cell is an inline string
// (never a formula), a defined number its shortest 'f' form, an undefined
// one an empty cell with its style. Every style must have been made by
// makeStyles: the styles part is written before the rows.
func (rw *rowWriter) appendRow(dst []byte, y int, cells []tables.Cell) ([]byte, error) {
	var num [20]byte
	r := strconv.AppendInt(num[:0], int64(y), 10)
	dst = append(dst, `<row r="`...)
	dst = append(dst, r...)
	dst = append(dst, `">`...)
	for j := range rw.cols {
		col := &rw.cols[j]
		c := &cells[col.fc.Col]
		k := col.lookup(col.styleKey(c))
		if k == 0 {
			return dst, fmt.Errorf("column %q: a style not seen when the row was first read (Row must give the same cells each time)", col.fc.Key)
		}
		dst = append(dst, `<c r="`...)
		dst = append(dst, col.name...)
		dst = append(dst, r...)
		dst = append(dst, '"')
		dst = append(dst, rw.attrs[k-1]...)
		if col.text {
			dst = appendInlineStr(dst, c.Text)
			continue
		}
		if x := col.fc.Number(*c); tables.Defined(x) {
			dst = append(dst, `><v>`...)
			dst = strconv.AppendFloat(dst, x, 'f', -1, 64)
			dst = append(dst, `</v></c>`...)
			continue
		}
		dst = append(dst, `></c>`...)
	}
	return append(dst, `</row>`...), nil
}
