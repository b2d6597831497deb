package dataset

import (
	"math"
	"strconv"
	"strings"
)

// This file holds the value of one cell of a per-query table as its format
// gives it, and the conversions every column's checks start from. A text
// format (CSV, TSV, JSON Lines) gives text, parsed here once; a binary
// format (Parquet) gives typed values, which are taken as they are: a
// number is never printed to text to be parsed again. Either way the value
// then meets the same checks (range, finiteness, lists) in table.go, so a
// rule holds, and is worded, the same in every format.

// valueKind is what a cell holds.
type valueKind uint8

const (
	valueNull  valueKind = iota // an absent value: a null, or an empty text cell
	valueText                   // text to parse: a CSV cell, a JSON value as written, a Parquet string
	valueInt                    // an integer of a binary format
	valueFloat                  // a floating-point number of a binary format
	valueBool                   // a boolean of a binary format (n is 0 or 1)
	valueList                   // a list of a binary format (its items are read apart: rowSource.list)
)

// value is one cell. It is comparable, so the long layout can group rows
// by their values.
type value struct {
	kind valueKind
	s    string // valueText
	bits uint64 // valueInt and valueBool: the int64; valueFloat: the float64's bits
}

// intValue is an integer of a binary format.
func intValue(n int64) value { return value{kind: valueInt, bits: uint64(n)} }

// floatValue is a float of a binary format.
func floatValue(x float64) value { return value{kind: valueFloat, bits: math.Float64bits(x)} }

// boolValue is a boolean of a binary format.
func boolValue(b bool) value {
	if b {
		return value{kind: valueBool, bits: 1}
	}
	return value{kind: valueBool}
}

// i64 is the integer of a valueInt or valueBool.
func (v value) i64() int64 { return int64(v.bits) }

// num is the number of a valueFloat.
func (v value) num() float64 { return math.Float64frombits(v.bits) }

// text is a value given as text; an empty text is an absent value.
func text(s string) value { return value{kind: valueText, s: s} }

// empty reports whether v is absent: a null or an empty text cell.
func (v value) empty() bool {
	return v.kind == valueNull || v.kind == valueText && v.s == ""
}

// show writes v for an error message: text quoted (and clipped), a number
// as it is.
func (v value) show() string {
	switch v.kind {
	case valueText:
		return strconv.Quote(clip(v.s))
	case valueInt:
		return strconv.FormatInt(v.i64(), 10)
	case valueFloat:
		return floatText(v.num())
	case valueBool:
		if v.i64() == 1 {
			return "true"
		}
		return "false"
	case valueList:
		return "a list"
	}
	return "null"
}

// hint says what a number cell given as text that is not a number
// probably is (numberHint); "" for a typed value, which has no spelling to
// get wrong.
func (v value) hint() string {
	if v.kind == valueText {
		return numberHint(v.s)
	}
	return ""
}

// nanHint, for a NaN of a float column, says that a missing optional value
// is a null ("" for any other value): NumPy and polars write NaN where a
// value is missing.
func (v value) nanHint() string {
	if v.kind == valueFloat && math.IsNaN(v.num()) {
		return " (NaN is not a missing value: write a null for a missing optional value, e.g. fill_nan(None) in polars)"
	}
	return ""
}

// same reports whether v and w are the same value, as written (a NaN is
// the same as itself).
func (v value) same(w value) bool { return v == w }

// id is v as an id (an id column, or a split or state name): text as it
// is, an integer in decimal, a float as its shortest decimal, a boolean
// as 0 or 1 (ids are strings; a column of integer ids is common).
func (v value) id() string {
	switch v.kind {
	case valueText:
		return v.s
	case valueInt, valueBool:
		return strconv.FormatInt(v.i64(), 10)
	case valueFloat:
		return floatText(v.num())
	}
	return ""
}

// integer is v as an integer within ±maxInt: text as parseInt reads it, an
// integral float (what pandas makes of an integer column with a missing
// value), a boolean as 0 or 1.
func (v value) integer() (int, bool) {
	switch v.kind {
	case valueText:
		return parseInt(v.s)
	case valueInt, valueBool:
		if v.i64() < -maxInt || v.i64() > maxInt {
			return 0, false
		}
		return int(v.i64()), true
	case valueFloat:
		if v.num() != math.Trunc(v.num()) || math.Abs(v.num()) > maxInt {
			return 0, false // NaN fails the first test, infinities the second
		}
		return int(v.num()), true
	}
	return 0, false
}

// float is v as a finite float64; msg says what was expected when it is
// not one ("" when it is), as parseFloat does for text.
func (v value) float() (float64, string) {
	switch v.kind {
	case valueText:
		return parseFloat(v.s)
	case valueInt, valueBool:
		return float64(v.i64()), ""
	case valueFloat:
		if math.IsNaN(v.num()) || math.IsInf(v.num(), 0) {
			return 0, "expected a finite number"
		}
		return v.num(), ""
	}
	return 0, "expected a number"
}

// prob is v as a probability in [0, 1], as parseProb reads text.
func (v value) prob() (float64, string) {
	if v.kind == valueText {
		return parseProb(v.s)
	}
	x, msg := v.float()
	if msg != "" || x < 0 || x > 1 {
		return 0, "expected a probability in [0, 1]"
	}
	return x, ""
}

// bool01 is v as a 0/1 value: text as parseBool reads it (0, 1, true,
// false), a boolean, or a number that is 0 or 1.
func (v value) bool01() (bool, bool) {
	switch v.kind {
	case valueText:
		return parseBool(v.s)
	case valueBool, valueInt:
		return v.i64() == 1, v.i64() == 0 || v.i64() == 1
	case valueFloat:
		return v.num() == 1, v.num() == 0 || v.num() == 1
	}
	return false, false
}

// float32Value is a FLOAT (32-bit) of a binary format as the float64 of
// its shortest decimal, the number pandas and polars print for it (0.1,
// not 0.10000000149011612): the value a CSV written from the same frame
// holds.
func float32Value(f float32) value {
	x := float64(f)
	if !math.IsNaN(x) && !math.IsInf(x, 0) {
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	}
	return floatValue(x)
}

// floatText writes a float as the shortest decimal that reads back to it
// (NaN and infinities as NaN, +Inf, -Inf).
func floatText(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// trimmed is v with the spaces around a text removed, as a CSV cell is
// read.
func (v value) trimmed() value {
	if v.kind == valueText {
		v.s = strings.TrimSpace(v.s)
	}
	return v
}
