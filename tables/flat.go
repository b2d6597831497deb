package tables

// Part says which number of a cell a flat column holds.
type Part int

const (
	PartValue Part = iota
	PartLow        // CI low
	PartHigh       // CI high
	PartStd        // spread
)

// FlatColumn is one column of the flat form of a table that CSV and XLSX
// write: a Number column with a CI becomes three flat columns (value, low,
// high), one with a spread a further std column, so every number is its
// own numeric cell.
type FlatColumn struct {
	Key    string // header for tools: the column's Key, then "_ci_low", "_ci_high", "_std"
	Title  string // header in words: the value's (Column.FlatTitle or Title), then "95% CI low", "95% CI high", "std"
	Kind   Kind
	Digits int
	Col    int // index of the logical column
	Part   Part
}

// Flat returns the flat columns of t in order, without the columns that
// are empty on every row (a CI no row of the table has). A CI or spread
// column's words name only the part ("95% CI low"): it stands right of
// its value, and its Key names the value too.
func (t Table) Flat() []FlatColumn {
	ci := "CI"
	if t.CILevel != "" {
		ci = t.CILevel + " CI"
	}
	var out []FlatColumn
	for i, c := range t.Columns {
		title := c.Title
		if c.FlatTitle != "" {
			title = c.FlatTitle
		}
		out = append(out, FlatColumn{Key: c.Key, Title: title, Kind: c.Kind, Digits: c.Digits, Col: i, Part: PartValue})
		if c.Kind != Number {
			continue
		}
		if c.CI {
			out = append(out, FlatColumn{Key: c.Key + "_ci_low", Title: ci + " low", Kind: Number, Digits: c.Digits, Col: i, Part: PartLow},
				FlatColumn{Key: c.Key + "_ci_high", Title: ci + " high", Kind: Number, Digits: c.Digits, Col: i, Part: PartHigh})
		}
		if c.Spread {
			out = append(out, FlatColumn{Key: c.Key + "_std", Title: "std", Kind: Number, Digits: c.Digits, Col: i, Part: PartStd})
		}
	}
	if len(t.Rows) == 0 {
		return out
	}
	kept := out[:0]
	for _, f := range out {
		if !t.emptyColumn(f) {
			kept = append(kept, f)
		}
	}
	return kept
}

// emptyColumn reports whether flat column f has nothing on any row of t.
func (t Table) emptyColumn(f FlatColumn) bool {
	for _, r := range t.Rows {
		if f.Col >= len(r.Cells) {
			return false // a malformed row: leave the column to the writer's check
		}
		c := r.Cells[f.Col]
		if f.Kind == Text {
			if c.Text != "" {
				return false
			}
		} else if Defined(f.Number(c)) || (f.Part == PartValue && c.Note != "") {
			return false
		}
	}
	return true
}

// Number returns the number of cell c that f holds (NaN when undefined).
func (f FlatColumn) Number(c Cell) float64 {
	switch f.Part {
	case PartLow:
		return c.Lo
	case PartHigh:
		return c.Hi
	case PartStd:
		return c.Std
	}
	return c.V
}
