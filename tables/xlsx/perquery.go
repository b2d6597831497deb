package xlsx

import (
	"fmt"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"paperbundle/tables"
)

// widthSample is how many per-query rows the column widths are taken from:
// a stream sheet needs its widths before its first row.
const widthSample = 200

// perQuery streams the per-query rows into their sheets, plan.perSheet
// rows a sheet, the header repeated on each.
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
	for k, sheet := range b.plan.perQuery {
		lo := k * b.plan.perSheet
		hi := min(lo+b.plan.perSheet, pq.Rows)
		if err := b.perQuerySheet(sheet, flat, widths, lo, hi, cells); err != nil {
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

// perQuerySheet streams rows lo to hi-1 into sheet, under a header row.
// The dimension, widths and panes go before the first row, the Excel
// table after the last.
func (b *builder) perQuerySheet(sheet string, flat []tables.FlatColumn, widths []int, lo, hi int, cells []tables.Cell) error {
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
		if err := b.streamRow(sw, i-lo+2, i, flat, cells, row); err != nil {
			return err
		}
	}
	if err := sw.AddTable(&excelize.Table{Range: ref, StyleName: tableStyle}); err != nil {
		return err
	}
	return sw.Flush()
}

// streamRow writes per-query row i as row y of the sheet.
func (b *builder) streamRow(sw *excelize.StreamWriter, y, i int, flat []tables.FlatColumn, cells []tables.Cell, row []any) error {
	b.fill(i, cells)
	for j, fc := range flat {
		c := cells[fc.Col]
		var err error
		if row[j], err = b.streamCell(value(fc, c), cellStyle(fc, c)); err != nil {
			return err
		}
	}
	ref, err := excelize.CoordinatesToCellName(1, y)
	if err != nil {
		return err
	}
	return sw.SetRow(ref, row)
}

// streamCell returns a stream writer cell holding v with style s. A
// string is passed as a value (never a formula), so it stays text.
func (b *builder) streamCell(v any, s style) (excelize.Cell, error) {
	id, err := b.id(s)
	return excelize.Cell{StyleID: id, Value: v}, err
}
