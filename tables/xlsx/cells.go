package xlsx

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"paperbundle/tables"
)

// textFormat is the text number format ("@", built-in 49): what is typed
// into such a cell stays text.
const textFormat = "@"

// style is a cell style: a number format, a font and an alignment.
type style struct {
	format string // "@" (text), "#,##0", "0.0000", ...
	bold   bool
	italic bool
	size   float64 // font size; 0: the default
	right  bool    // aligned right (the header of a number column)
	wrap   bool    // text wraps at word boundaries within the column
	top    bool    // aligned to the top of a row taller than one line
	grey   bool    // grey type (the ids under the header in words)
}

// defaultSize is the size of the default font (Calibri), in points.
const defaultSize = 11

// countFormat writes an integer with thousands separators ("14,770"), as
// the other renderers do.
const countFormat = "#,##0"

var (
	titleStyle  = style{format: textFormat, bold: true, size: 13}
	infoStyle   = style{format: textFormat, italic: true}
	headerStyle = style{format: textFormat, bold: true, wrap: true}
	idStyle     = style{format: textFormat, size: 9, grey: true}
	textStyle   = style{format: textFormat}
	countStyle  = style{format: countFormat}
)

// id returns the excelize style of s, made on first use.
func (b *builder) id(s style) (int, error) {
	if id, ok := b.styles[s]; ok {
		return id, nil
	}
	x := &excelize.Style{}
	switch s.format {
	case textFormat:
		x.NumFmt = 49
	case "0":
		x.NumFmt = 1
	case countFormat:
		x.NumFmt = 3
	default:
		x.CustomNumFmt = &s.format
	}
	if s.bold || s.italic || s.size > 0 || s.grey {
		size := s.size
		if size == 0 {
			size = defaultSize
		}
		x.Font = &excelize.Font{Family: "Calibri", Size: size, Bold: s.bold, Italic: s.italic}
		if s.grey {
			x.Font.Color = "595959" // 7:1 against white
		}
	}
	if s != titleStyle && s != infoStyle {
		// Text stands one indent step inside the left border, so that a
		// number aligned right in the cell before never touches it
		// (LibreOffice draws no cell padding of its own). Numbers, and the
		// headers over them, align right without an indent: LibreOffice
		// applies a right indent to some cells (bold ones, #,##0 ones, and
		// the rest of their row) and not others, which set the best value
		// of a column a step left of the numbers under it.
		x.Alignment = &excelize.Alignment{Horizontal: "left", Indent: 1, WrapText: s.wrap}
		if s.right || s.format != textFormat {
			x.Alignment.Horizontal, x.Alignment.Indent = "right", 0
		}
		if s.top {
			x.Alignment.Vertical = "top"
		}
	}
	id, err := b.f.NewStyle(x)
	if err != nil {
		return 0, err
	}
	b.styles[s] = id
	return id, nil
}

// header returns the style of the header in words of flat column fc:
// numbers' headers are aligned right, over their values.
func header(fc tables.FlatColumn) style {
	s := headerStyle
	s.right = fc.Kind != tables.Text
	return s
}

// idHeader returns the style of the id of flat column fc under its words.
func idHeader(fc tables.FlatColumn) style {
	s := idStyle
	s.right = fc.Kind != tables.Text
	return s
}

// numberFormat returns the number format of a flat column's cells.
func numberFormat(k tables.Kind, digits int) string {
	switch k {
	case tables.Text:
		return textFormat
	case tables.Count:
		return countFormat
	case tables.PValue:
		return `[<0.0001]"< 0.0001";0.0000` // as the other renderers write p-values
	}
	if digits <= 0 {
		return countFormat
	}
	return "0." + strings.Repeat("0", digits)
}

// digits returns the decimals cell c of flat column fc is shown with.
func digits(fc tables.FlatColumn, c tables.Cell) int {
	switch {
	case c.Digits > 0:
		return c.Digits
	case c.Digits < 0:
		return 0 // an integer (tables.Cell.Digits)
	}
	return fc.Digits
}

// cellStyle returns the style of cell c in flat column fc: its number
// format, bold when it is the best value of its group.
func cellStyle(fc tables.FlatColumn, c tables.Cell) style {
	return style{
		format: numberFormat(fc.Kind, digits(fc, c)),
		bold:   c.Best && fc.Part == tables.PartValue,
	}
}

// value returns what a cell holds: a string for a Text column, a float64
// for a defined number, nil for an undefined one.
func value(fc tables.FlatColumn, c tables.Cell) any {
	if fc.Kind == tables.Text {
		return c.Text
	}
	if x := fc.Number(c); tables.Defined(x) {
		return x
	}
	return nil
}

// shownWidth returns how many characters a cell shows, for column widths.
func shownWidth(fc tables.FlatColumn, c tables.Cell) int {
	switch v := value(fc, c).(type) {
	case string:
		return utf8.RuneCountInString(v)
	case float64:
		d := digits(fc, c)
		switch fc.Kind {
		case tables.Count:
			d = 0
		case tables.PValue:
			d = 4
		}
		n := len(tables.FormatNum(v, d))
		if d == 0 {
			n += (len(tables.FormatNum(math.Abs(v), 0)) - 1) / 3 // thousands separators
		}
		return n
	}
	return 0
}

// longestWord returns the length, in characters, of the longest word of s.
func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}

// wrappedLines returns how many lines s takes wrapped at spaces within
// width characters; a word longer than width is broken across lines of
// its own, as spreadsheets break it.
func wrappedLines(s string, width int) int {
	width = max(width, 1)
	lines, used := 0, 0
	for _, w := range strings.Fields(s) {
		n := utf8.RuneCountInString(w)
		switch {
		case n > width:
			lines += (n + width - 1) / width
			used = n % width
			if used == 0 {
				used = width
			}
		case lines == 0 || used+1+n > width:
			lines, used = lines+1, n
		default:
			used += 1 + n
		}
	}
	return max(lines, 1)
}

// Column widths, in characters of the default font.
const (
	minWidth = 6
	maxWidth = 50
	// widthPad leaves room for the autofilter button of a header and the
	// bold header font, so neighbouring columns do not run together.
	widthPad = 4
)

// width returns the width of a column whose widest cell shows n characters.
func width(n int) float64 {
	return float64(min(max(n, minWidth), maxWidth) + widthPad)
}

// escapeXString escapes, as "_x005F_", each "_" that starts what OOXML
// reads as an escaped character ("_x0041_" is "A"). excelize v2.11.0
// does this for stream cells but not for shared strings (SetCellStr),
// where "_x0041_" would come back as "A".
func escapeXString(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isXEscape(s[i:]) {
			b.WriteString("_x005F")
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isXEscape reports whether s starts with "_xHHHH_", H a hex digit.
func isXEscape(s string) bool {
	if len(s) < 7 || s[0] != '_' || s[1] != 'x' || s[6] != '_' {
		return false
	}
	for _, c := range []byte(s[2:6]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
