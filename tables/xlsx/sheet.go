package xlsx

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"paperbundle/internal/numtext"
	"paperbundle/tables"
)

// Rows of a table sheet: the title, then population, n and meaning, then
// the two header rows of the data: the words for reading, then the ids
// for tools (the header of the Excel table and of tables/<id>.csv).
const (
	titleRow  = 1
	infoRow   = 2
	wordsRow  = 3
	headerRow = 4 // the ids: the last header row
)

// tableStyle is the Excel table style of every data range.
const tableStyle = "TableStyleLight1"

// table writes t on sheet: title, population and n, the header in words
// and in ids, one row per row of t, an Excel table (with its autofilter)
// over the ids and the rows, panes frozen below the header and right of
// the leading text columns, then the notes below.
func (b *builder) table(sheet string, t tables.Table) error {
	title := t.Title
	if title == "" {
		title = sheet
	}
	if err := b.set(sheet, 1, titleRow, title, titleStyle); err != nil {
		return err
	}
	if s := info(t); s != "" {
		if err := b.set(sheet, 1, infoRow, s, infoStyle); err != nil {
			return err
		}
	}
	flat := t.Flat()
	if len(flat) == 0 {
		notes := noteLines(t.Notes, pageChars)
		if err := b.f.SetSheetDimension(sheet, rangeRef(1, 1, 1, headerRow+len(notes))); err != nil {
			return err
		}
		if err := b.pageSetup(sheet, 1, 0); err != nil {
			return err
		}
		return b.notes(sheet, headerRow+1, notes)
	}
	widths, err := b.data(sheet, t, flat)
	if err != nil {
		return err
	}
	last := headerRow + max(1, len(t.Rows))
	if err := b.f.AddTable(sheet, &excelize.Table{Range: rangeRef(1, headerRow, len(flat), last), StyleName: tableStyle}); err != nil {
		return err
	}
	notes := noteLines(t.Notes, pageWidth(widths))
	if err := b.f.SetSheetDimension(sheet, rangeRef(1, 1, len(flat), last+1+len(notes))); err != nil {
		return err
	}
	if err := b.setWidths(sheet, widths); err != nil {
		return err
	}
	if err := b.wordsHeight(sheet, flat, widths); err != nil {
		return err
	}
	lead := leadingText(flat)
	if err := b.f.SetPanes(sheet, freeze(lead, headerRow)); err != nil {
		return err
	}
	if err := b.pageSetup(sheet, pagesWide(widths), lead); err != nil {
		return err
	}
	return b.notes(sheet, last+2, notes)
}

// data writes the two header rows and the rows of t and returns the
// widths of their columns, in characters: the widest id (in its smaller
// type) or cell, the
// header in words up to wordsWidth and its longest word; a longer header
// wraps within the column.
func (b *builder) data(sheet string, t tables.Table, flat []tables.FlatColumn) ([]int, error) {
	if err := checkKeys(flat); err != nil {
		return nil, err
	}
	widths := make([]int, len(flat))
	for j, fc := range flat {
		w := words(fc)
		widths[j] = max(idWidth(fc.Key), longestWord(w), min(utf8.RuneCountInString(w), wordsWidth))
		if err := b.set(sheet, j+1, wordsRow, w, header(fc)); err != nil {
			return nil, err
		}
		if err := b.set(sheet, j+1, headerRow, fc.Key, idHeader(fc)); err != nil {
			return nil, err
		}
	}
	for i, r := range t.Rows {
		if len(r.Cells) != len(t.Columns) {
			return nil, fmt.Errorf("row %d: %d cells for %d columns", i+1, len(r.Cells), len(t.Columns))
		}
		if err := b.row(sheet, headerRow+1+i, flat, r.Cells, widths); err != nil {
			return nil, err
		}
	}
	return widths, nil
}

// idWidth is the width, in characters of the default font, of an id in
// the smaller type of the ids row.
func idWidth(id string) int {
	n := utf8.RuneCountInString(id)
	return (n*int(idStyle.size) + defaultSize - 1) / defaultSize
}

// wordsWidth is the width, in characters, a header in words may widen its
// column to before it wraps.
const wordsWidth = 16

// words is the header in words of flat column fc: its Title, or its Key
// when the table gives no words.
func words(fc tables.FlatColumn) string {
	if fc.Title != "" {
		return fc.Title
	}
	return fc.Key
}

// wordsHeight makes the header row in words as tall as its most wrapped
// header needs (a row's height is not fitted to wrapped text by every
// spreadsheet on opening).
func (b *builder) wordsHeight(sheet string, flat []tables.FlatColumn, widths []int) error {
	lines := 1
	for j, fc := range flat {
		lines = max(lines, wrappedLines(words(fc), min(max(widths[j], minWidth), maxWidth)))
	}
	if lines == 1 {
		return nil
	}
	return b.f.SetRowHeight(sheet, wordsRow, lineHeight*float64(lines))
}

// lineHeight is the height of a line of the default font, in points.
const lineHeight = 15

// row writes the cells of one table row, widening widths to fit them. A
// text wider than the widest column wraps, in a row as tall as it needs
// (not every spreadsheet fits a row to wrapped text on opening). A cell's
// note becomes a comment on its value.
func (b *builder) row(sheet string, y int, flat []tables.FlatColumn, cells []tables.Cell, widths []int) error {
	lines := 1
	for _, fc := range flat {
		if c := cells[fc.Col]; fc.Kind == tables.Text && utf8.RuneCountInString(c.Text) > maxWidth {
			lines = max(lines, wrappedLines(c.Text, maxWidth))
		}
	}
	for j, fc := range flat {
		c := cells[fc.Col]
		widths[j] = max(widths[j], shownWidth(fc, c))
		st := cellStyle(fc, c)
		// In a taller row every cell stands at the top, beside the first
		// line of the wrapped text.
		st.top = lines > 1
		st.wrap = fc.Kind == tables.Text && utf8.RuneCountInString(c.Text) > maxWidth
		if err := b.set(sheet, j+1, y, value(fc, c), st); err != nil {
			return err
		}
		if err := b.comment(sheet, j+1, y, fc, c); err != nil {
			return err
		}
	}
	if lines > 1 {
		return b.f.SetRowHeight(sheet, y, lineHeight*float64(lines))
	}
	return nil
}

// comment writes the note of cell c, on the value of its flat column fc
// at column x, row y, as a comment.
func (b *builder) comment(sheet string, x, y int, fc tables.FlatColumn, c tables.Cell) error {
	if c.Note == "" || fc.Part != tables.PartValue {
		return nil
	}
	ref, _ := excelize.CoordinatesToCellName(x, y)
	author := b.wb.Tool
	if author == "" {
		author = "paperbundle"
	}
	return b.f.AddComment(sheet, excelize.Comment{Cell: ref, Author: author, Text: c.Note})
}

// noteLines wraps notes at spaces into lines of at most width characters,
// so that a note stays within the printed width of its table rather than
// running past the page's edge.
func noteLines(notes []string, width int) []string {
	width = max(width, minNoteWidth)
	var out []string
	for _, n := range notes {
		words := strings.Split(n, " ")
		line := words[0]
		for _, w := range words[1:] {
			// A break takes the place of exactly one space.
			if line != "" && w != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
				out = append(out, line)
				line = w
				continue
			}
			line += " " + w
		}
		out = append(out, line)
	}
	return out
}

// minNoteWidth is the shortest line, in characters, a note is wrapped to.
const minNoteWidth = 60

// notes writes one line a row from row y down.
func (b *builder) notes(sheet string, y int, notes []string) error {
	for i, n := range notes {
		if err := b.set(sheet, 1, y+i, n, textStyle); err != nil {
			return err
		}
	}
	return nil
}

// info returns the line under a table's title: population, n (with
// thousands separators, only when the table has one n), meaning.
func info(t tables.Table) string {
	var parts []string
	if t.Population != "" {
		parts = append(parts, "population: "+t.Population)
	}
	if t.N > 0 {
		parts = append(parts, "n = "+numtext.Thousands(int64(t.N)))
	}
	if t.Meaning != "" {
		parts = append(parts, t.Meaning)
	}
	return strings.Join(parts, " · ")
}

// set writes v (a string, a float64, an int, or nil for an empty cell)
// into the cell at column x, row y, with style s; an empty string leaves
// the cell empty. Strings go through SetCellStr, so they are never read
// as a formula.
func (b *builder) set(sheet string, x, y int, v any, s style) error {
	ref, err := excelize.CoordinatesToCellName(x, y)
	if err != nil {
		return err
	}
	id, err := b.id(s)
	if err != nil {
		return err
	}
	switch v := v.(type) {
	case string:
		if v != "" {
			err = b.f.SetCellStr(sheet, ref, escapeXString(v))
		}
	case float64:
		err = b.f.SetCellFloat(sheet, ref, v, -1, 64)
	case int:
		err = b.f.SetCellInt(sheet, ref, int64(v))
	case nil:
	default:
		panic(fmt.Sprintf("xlsx: cell value of type %T", v))
	}
	if err != nil {
		return err
	}
	return b.f.SetCellStyle(sheet, ref, ref, id)
}

// setWidths sets the width of column j+1 from widths[j] characters.
func (b *builder) setWidths(sheet string, widths []int) error {
	for j, n := range widths {
		col, err := excelize.ColumnNumberToName(j + 1)
		if err != nil {
			return err
		}
		if err := b.f.SetColWidth(sheet, col, col, width(n)); err != nil {
			return err
		}
	}
	return nil
}

// checkKeys returns an error when a header would be empty or repeated:
// the columns of an Excel table need distinct names.
func checkKeys(flat []tables.FlatColumn) error {
	seen := map[string]bool{}
	for _, fc := range flat {
		if fc.Key == "" || seen[fc.Key] {
			return fmt.Errorf("column key %q empty or repeated", fc.Key)
		}
		seen[fc.Key] = true
	}
	return nil
}

// leadingText returns how many of the first flat columns (at most two)
// hold text: the row labels kept in view when scrolling right.
func leadingText(flat []tables.FlatColumn) int {
	n := 0
	for n < len(flat) && n < 2 && flat[n].Kind == tables.Text {
		n++
	}
	return n
}

// freeze returns panes frozen right of column cols and below row rows.
func freeze(cols, rows int) *excelize.Panes {
	topLeft, _ := excelize.CoordinatesToCellName(cols+1, rows+1)
	pane := "bottomLeft"
	if cols > 0 {
		pane = "bottomRight"
	}
	return &excelize.Panes{
		Freeze:      true,
		XSplit:      cols,
		YSplit:      rows,
		TopLeftCell: topLeft,
		ActivePane:  pane,
		Selection:   []excelize.Selection{{SQRef: topLeft, ActiveCell: topLeft, Pane: pane}},
	}
}

// rangeRef returns the reference of the range from (x1, y1) to (x2, y2).
func rangeRef(x1, y1, x2, y2 int) string {
	a, _ := excelize.CoordinatesToCellName(x1, y1)
	z, _ := excelize.CoordinatesToCellName(x2, y2)
	return a + ":" + z
}
