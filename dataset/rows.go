package dataset

import "strings"

// This file reads the rows of a per-query table in the wide (or
// classifier-only) layout from a rowSource: the records of a CSV or TSV
// file, whose cells are text, or the rows of a Parquet file, whose values
// are typed. Both go through the same checks (table.go); JSON Lines has a
// reader of its own (table_json.go), and the long layout too (long.go).

// rowSource gives the rows of a table field by field: the records of a
// CSV or TSV file (text), or the rows of a Parquet file (typed values).
type rowSource interface {
	// next advances to the next row; false at the end.
	next() bool
	// start is where the current row starts: its line, or its row in a
	// binary table.
	start() int
	// value is field i of the current row, and where it is; a list of
	// a binary format is a value of kind valueList, whose items list
	// gives.
	value(i int) (value, position)
	// list is the items of field i of the current row, a valueList.
	list(i int) []value
}

func (s *csvSource) start() int { return s.line }

func (s *csvSource) value(i int) (value, position) {
	c, at := s.cell(i)
	return text(c), at
}

func (s *csvSource) list(int) []value { return nil } // text has no typed lists

// readRows reads the rows of src into the table; idx gives the field of
// each known column.
func (p *tableParser) readRows(src rowSource, idx *[numColumns]int) {
	for !p.c.full() && src.next() {
		p.raw.reset(src.start())
		p.raw.cands = idx[colCandidates] >= 0
		p.pending = 0
		if i := idx[colSplit]; i >= 0 {
			p.field(src, colSplit, i)
			if p.raw.train {
				p.t.trainRows++
				continue // a train row is dropped unread
			}
		}
		for col := range numColumns {
			if i := idx[col]; i >= 0 && col != colSplit {
				p.field(src, col, i)
			}
		}
		for _, e := range p.mustBeEmpty {
			if at, ok := filled(src, e.field); ok {
				p.add(at, "%s has a value but the table has no gold_uids column: a table with a label and a score whose candidate columns are empty on every row is classifier-only; give gold_uids for ranked queries, or leave %s empty", e.col, e.col)
				p.pending++
			}
		}
		if p.pending == 0 {
			p.finish()
		}
	}
}

// filled reports whether field i of the current row of src holds
// something, and where: a list with items, or a cell that is neither empty
// nor an empty JSON array.
func filled(src rowSource, i int) (position, bool) {
	v, at := src.value(i)
	if v.kind == valueList {
		return at, len(src.list(i)) > 0
	}
	return at, !v.empty() && strings.TrimSpace(v.s) != "[]"
}

// field reads field i of the current row of src, the value of column col.
func (p *tableParser) field(src rowSource, col column, i int) {
	v, at := src.value(i)
	p.raw.at[col] = at
	switch {
	case v.kind == valueList && isListColumn(col):
		p.items(col, src.list(i))
	case v.kind == valueList:
		p.errAt(col, "%s is a list, expected one value", col)
	case isListColumn(col) && v.kind != valueText && v.kind != valueNull:
		p.items(col, []value{v}) // a number where a list was expected: a list of one
	case isListColumn(col):
		p.textList(col, v.s)
	default:
		p.scalar(col, v)
	}
}

// head is the header of a CSV or TSV file; position -1 is the header row
// as a whole.
func (s *csvSource) head() header {
	at := func(i int) position {
		if i < 0 {
			return position{1, 1}
		}
		return s.headerPos(i)
	}
	return header{names: s.header, at: at, comma: s.r.Comma}
}

// wide prepares p to read a table of the wide (or classifier-only)
// layout whose known columns are at idx. A classifier's table with empty
// candidate columns is read as classifier-only: those columns leave idx,
// and readRows checks that they are empty.
func (p *tableParser) wide(idx *[numColumns]int) {
	p.t.hasFolds = idx[colFold] >= 0
	if emptyCandidates(*idx) {
		for _, col := range []column{colCandidates, colScores, colNodeProbs, colSelected} {
			if idx[col] >= 0 {
				p.mustBeEmpty = append(p.mustBeEmpty, emptyColumn{col, idx[col]})
				idx[col] = -1
			}
		}
	}
	p.t.classifier = idx[colCandidates] < 0
}
