package figures

import (
	"math"
	"strconv"
	"strings"
)

// Tip is the tooltip of one drawn item (a point of a line, a bar, a heat
// map cell): labelled values in reading order. The series name is not
// part of it (a backend shows the name beside the tip). Backends read the
// fields, never a text: the interactive charts show them as a table of
// typed values, and Text writes them for a reader.
type Tip []Field

// Field is one labelled value of a tooltip.
type Field struct {
	Label string
	Value Value
	// Is names the coordinate of the item that the value is (the FPR of a
	// ROC point is its X, a heat map cell's value is its Value): a backend
	// may show the coordinate it already holds instead of a copy.
	Is Coord
}

// Coord is a coordinate of a drawn item.
type Coord int

const (
	// NoCoord: the value is none of the item's coordinates.
	NoCoord Coord = iota
	// CoordX is the x position (a heat map's column).
	CoordX
	// CoordY is the y position (a heat map's row).
	CoordY
	// CoordValue is a heat map cell's value (its colour).
	CoordValue
)

// Value is a tooltip value: a number written with Dec decimals, or a
// text when Text is set (an undefined value, "+inf", an interval's
// name).
type Value struct {
	Num float64
	// Dec is the number of decimals the value is meaningful to; Shortest
	// writes it with up to six significant digits, as short as it reads.
	Dec  int
	Text string
}

// Shortest is the Dec of a value written in its shortest form.
const Shortest = -1

// Num is the value x with dec decimals (Shortest: as short as it reads),
// or the text "n/a" when x is undefined (NaN or infinite).
func Num(x float64, dec int) Value {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Value{Text: "n/a"}
	}
	return Value{Num: x, Dec: dec}
}

// Int is the whole number n.
func Int(n int) Value { return Value{Num: float64(n)} }

// TextValue is a value that is no number.
func TextValue(s string) Value { return Value{Text: s} }

// IsText reports whether the value is a text, not a number.
func (v Value) IsText() bool { return v.Text != "" }

// String writes the value: its text, or the number with its decimals
// (whole numbers with thousands separators).
func (v Value) String() string {
	switch {
	case v.IsText():
		return v.Text
	case v.Dec < 0:
		return strconv.FormatFloat(v.Num, 'g', 6, 64)
	case v.Dec == 0 && math.Abs(v.Num) < 1e15:
		return groupInt(int(math.Round(v.Num)))
	}
	return strconv.FormatFloat(v.Num, 'f', v.Dec, 64)
}

// Rounded is the number at its decimals (Shortest: six significant
// digits), the form a backend stores; for a text value, NaN.
func (v Value) Rounded() float64 {
	switch {
	case v.IsText():
		return math.NaN()
	case v.Dec < 0:
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v.Num, 'g', 6, 64), 64)
		return r
	}
	p := math.Pow(10, float64(v.Dec))
	return math.Round(v.Num*p) / p
}

// Text writes the tooltip for a reader: "label value, label value".
func (t Tip) Text() string {
	var b strings.Builder
	for i, f := range t {
		if i > 0 {
			b.WriteString(", ")
		}
		if f.Label != "" {
			b.WriteString(f.Label)
			b.WriteByte(' ')
		}
		b.WriteString(f.Value.String())
	}
	return b.String()
}

// SameLabels reports whether two tips have the same labels in the same
// order.
func (t Tip) SameLabels(u Tip) bool {
	if len(t) != len(u) {
		return false
	}
	for i := range t {
		if t[i].Label != u[i].Label {
			return false
		}
	}
	return true
}

// field is a field that is no coordinate; atX, atY and atValue are fields
// that are the item's x, y and (heat map) value.
func field(label string, v Value) Field   { return Field{Label: label, Value: v} }
func atX(label string, v Value) Field     { return Field{Label: label, Value: v, Is: CoordX} }
func atY(label string, v Value) Field     { return Field{Label: label, Value: v, Is: CoordY} }
func atValue(label string, v Value) Field { return Field{Label: label, Value: v, Is: CoordValue} }

// ciFields are a value and its interval, when defined.
func ciFields(label string, v, lo, hi float64, is Coord) []Field {
	out := []Field{{Label: label, Value: Num(v, 3), Is: is}}
	if defined(lo) && defined(hi) {
		out = append(out, field("CI low", Num(lo, 3)), field("CI high", Num(hi, 3)))
	}
	return out
}
