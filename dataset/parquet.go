package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// This file reads a per-query table in Apache Parquet, as pandas
// (pyarrow) and polars write it: one column per field, scalar columns
// optional or required, list columns as Parquet LIST groups (three levels:
// an optional group, a repeated group "list", an "element"; the older
// two-level form, a repeated leaf, too).
//
// The file's typed values go straight into the table parser (readRows,
// readLong), as the cells of a CSV file do: a string is text, a number
// stays a number, a list is its items. The layouts, their checks and
// their messages are those of every format; a message names the Parquet
// row (and row group) and column it is about.

// parquetColumn is the shape of a known top-level column of a Parquet
// file.
type parquetColumn struct {
	list   bool // a list column
	maxDef int  // definition level of a present value
	repDef int  // list: definition level of a present (possibly empty) list
}

// parquetSource gives the rows of a Parquet file to the table parser
// (rowSource), and names where a value is (placer).
type parquetSource struct {
	f       *parquet.File
	names   []string        // the file's top-level fields
	cols    []parquetColumn // the known ones
	byField []int           // field -> its index in cols, or -1
	byLeaf  []int           // leaf column -> its index in cols, or -1

	report func(at position, format string, args ...any) // a bad value (bad UTF-8, too long)
	in     *interner                                     // the parser's: ids repeat from row to row
	failed string                                        // why the rows cannot be read ("" while they can)

	group     int     // the row group being read (0-based)
	groupRows []int64 // rows before each row group read so far
	rows      parquet.Rows
	buf       []parquet.Row
	n, k      int   // rows in buf, and the next one
	row       int64 // the current row (1-based over the file)
	span      [][2]int32
	cur       parquet.Row
	items     []value
}

// parseTableParquet reads a per-query table in Parquet.
func parseTableParquet(file string, rd io.Reader, c *collector) (*table, error) {
	if l, ok := rd.(*limitReader); ok {
		l.binary = true // no lines in a binary file
	}
	data, _, err := readIfLarge(rd, 0)
	if err != nil {
		return nil, err
	}
	src, msg := openParquet(data)
	if msg != "" {
		c.add(file, 0, 0, "%s", msg)
		return nil, nil
	}
	p := newTableParser(file, c)
	p.place = src
	src.in = &p.in
	src.report = func(at position, format string, args ...any) {
		p.add(at, format, args...)
		p.pending++
	}
	h := src.head()
	if isLongHeader(h.names) {
		lc, ok := p.longHeader(h)
		if !ok {
			return nil, nil
		}
		p.t.hasFolds = lc.q[colFold] >= 0
		p.readLong(src, &lc)
	} else {
		idx, ok := p.columns(h)
		if !ok {
			return nil, nil
		}
		p.wide(&idx)
		p.readRows(src, &idx)
	}
	if src.failed != "" {
		c.add(file, 0, 0, "%s", src.failed)
		return nil, nil
	}
	if src.row == 0 && !c.full() {
		c.add(file, 0, 0, "the file has no rows, expected one row per query")
	}
	return p.t, nil
}

// notParquet is what every message about a file the library cannot read
// expects.
const notParquet = "expected a Parquet file as pandas or polars write it (is it complete?)"

// openParquet opens the Parquet file data and finds its known columns; msg
// says why it cannot ("" when it can).
func openParquet(data []byte) (src *parquetSource, msg string) {
	defer func() {
		// The library checks what it reads, but a damaged file must end
		// in a message, whatever it does.
		if p := recover(); p != nil {
			src, msg = nil, fmt.Sprintf("cannot read the Parquet file (%v), %s", p, notParquet)
		}
	}()
	// The frame of a Parquet file: PAR1, the data, the footer, its
	// length, PAR1. The library allocates the footer's length as it is
	// written, so that length is checked against the file first.
	if len(data) < 12 || string(data[:4]) != "PAR1" || string(data[len(data)-4:]) != "PAR1" {
		return nil, "not a Parquet file (it does not start and end with PAR1), " + notParquet
	}
	n := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if n > int64(len(data)-12) {
		return nil, fmt.Sprintf("cannot read the Parquet file (its footer claims %d bytes, more than the file has), %s", n, notParquet)
	}
	if err := checkThrift(data[int64(len(data))-8-n : len(data)-8]); err != nil {
		return nil, fmt.Sprintf("cannot read the Parquet file (%v), %s", err, notParquet)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Sprintf("cannot read the Parquet file (%v), %s", err, notParquet)
	}
	src = &parquetSource{f: f, buf: make([]parquet.Row, 64)}
	if msg := src.schema(f.Schema()); msg != "" {
		return nil, msg
	}
	return src, ""
}

// schema finds the known top-level columns of a schema: where their
// values are, and whether they are lists. Unknown columns are ignored,
// whatever they hold.
func (s *parquetSource) schema(sc *parquet.Schema) string {
	leafOf := map[string]int{}
	for i, path := range sc.Columns() {
		leafOf[strings.Join(path, "\x00")] = i
	}
	s.byLeaf = make([]int, len(sc.Columns()))
	for i := range s.byLeaf {
		s.byLeaf[i] = -1
	}
	for fi, fd := range sc.Fields() {
		name := strings.TrimSpace(fd.Name())
		s.names = append(s.names, name)
		s.byField = append(s.byField, -1)
		if !parquetKnown(name) {
			continue
		}
		pc, path, msg := parquetColumnOf(fd)
		if msg != "" {
			return "column " + clip(name) + msg
		}
		leaf, ok := leafOf[strings.Join(path, "\x00")]
		if !ok {
			return fmt.Sprintf("column %s: cannot find its values in the file's schema", clip(name))
		}
		if t := parquetLeafType(sc, path); t != "" {
			return fmt.Sprintf("column %s holds %s values, expected strings, integers, floats or booleans (cast it, e.g. df[col].astype(float))", clip(name), t)
		}
		s.byField[fi] = len(s.cols)
		s.byLeaf[leaf] = len(s.cols)
		s.cols = append(s.cols, pc)
	}
	if len(s.cols) == 0 {
		names := make([]string, len(s.names))
		for i, n := range s.names {
			names[i] = clip(n)
		}
		return fmt.Sprintf("none of the columns (%s) is a column of a per-query table, expected %s", strings.Join(names, ", "), requiredColumns)
	}
	s.span = make([][2]int32, len(s.cols))
	return ""
}

// parquetColumnOf reads the shape of a known top-level field: a value, a
// list (a LIST group, or a repeated leaf), and the definition levels of a
// present value and list; path is the path of its leaf. msg says why it is
// not a value or a list of values ("" when it is one), after the column's
// name.
func parquetColumnOf(fd parquet.Field) (pc parquetColumn, path []string, msg string) {
	path = []string{fd.Name()}
	def := 0
	if !fd.Required() {
		def++
	}
	switch {
	case fd.Leaf() && fd.Repeated():
		// Two-level list: a repeated leaf.
		pc.list, pc.repDef, pc.maxDef = true, def, def
	case fd.Leaf():
		pc.maxDef = def
	default:
		// A LIST group: one repeated child, whose child (or itself) is
		// the element.
		kids := fd.Fields()
		if len(kids) != 1 || !kids[0].Repeated() {
			return pc, nil, " is a nested group (a struct or a map), expected a value or a list of values"
		}
		rep := kids[0]
		path = append(path, rep.Name())
		def++
		pc.list, pc.repDef = true, def
		if !rep.Leaf() {
			els := rep.Fields()
			if len(els) != 1 || !els[0].Leaf() {
				return pc, nil, " is a list of groups, expected a list of values"
			}
			path = append(path, els[0].Name())
			if !els[0].Required() {
				def++
			}
		}
		pc.maxDef = def
	}
	return pc, path, ""
}

// parquetLeafType names the type of the leaf at path when the table
// cannot read its values as they are: INT96 (a legacy timestamp), or a
// DECIMAL, whose integers are the number times a power of ten; "" when
// it can.
func parquetLeafType(sc *parquet.Schema, path []string) string {
	leaf, ok := sc.Lookup(path...)
	if !ok {
		return ""
	}
	t := leaf.Node.Type()
	if lt := t.LogicalType(); lt != nil {
		if _, dec := lt.Value.(*format.DecimalType); dec {
			return "DECIMAL"
		}
	}
	switch k := t.Kind(); k {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double, parquet.ByteArray, parquet.FixedLenByteArray:
		return ""
	default:
		return k.String()
	}
}

// parquetKnown reports whether a column name is one the table reads (a
// column of the wide, long or classifier-only layout).
func parquetKnown(name string) bool {
	if _, ok := columnByName(name); ok {
		return true
	}
	_, ok := longColByName(name)
	return ok
}

// head is the file's top-level fields as the table's header; position
// -1 is the schema as a whole.
func (s *parquetSource) head() header {
	return header{names: s.names, at: func(i int) position { return position{0, i + 1} }}
}

// where names the row and column of a position: row R (row group G, row
// r in it), column C; a position with no row is in the schema.
func (s *parquetSource) where(at position) string {
	col := ""
	if at.col > 0 && at.col <= len(s.names) {
		col = "column " + clip(s.names[at.col-1])
	}
	if at.line <= 0 {
		return col
	}
	row := int64(at.line)
	g := sort.Search(len(s.groupRows), func(i int) bool { return s.groupRows[i] >= row }) - 1
	w := fmt.Sprintf("row %d", row)
	if g >= 0 {
		w += fmt.Sprintf(" (row group %d, row %d in it)", g+1, row-s.groupRows[g])
	}
	if col != "" {
		w += ", " + col
	}
	return w
}

// next advances to the next row of the file.
func (s *parquetSource) next() bool {
	for s.k >= s.n {
		if s.failed != "" || !s.fill() {
			return false
		}
	}
	s.cur = s.buf[s.k]
	s.k++
	s.row++
	// The values of a row come in the order of their leaf columns: find
	// the run of each known column.
	for i := range s.span {
		s.span[i] = [2]int32{}
	}
	for j := 0; j < len(s.cur); {
		leaf := s.cur[j].Column()
		e := j + 1
		for e < len(s.cur) && s.cur[e].Column() == leaf {
			e++
		}
		if leaf >= 0 && leaf < len(s.byLeaf) && s.byLeaf[leaf] >= 0 {
			s.span[s.byLeaf[leaf]] = [2]int32{int32(j), int32(e)}
		}
		j = e
	}
	return true
}

// fill reads the next rows into buf; false at the end of the file or when
// they cannot be read (failed says why).
func (s *parquetSource) fill() (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.failed = fmt.Sprintf("row group %d: cannot read it (%v), %s", s.group+1, p, notParquet)
			ok = false
		}
	}()
	groups := s.f.RowGroups()
	for {
		if s.rows == nil {
			if s.group >= len(groups) {
				return false
			}
			s.groupRows = append(s.groupRows, s.row)
			s.rows = groups[s.group].Rows()
		}
		n, err := s.rows.ReadRows(s.buf)
		s.n, s.k = n, 0
		if err != nil && err != io.EOF {
			s.rows.Close()
			s.failed = fmt.Sprintf("row group %d: cannot read it (%v), %s", s.group+1, err, notParquet)
			return false
		}
		if err == io.EOF || n == 0 {
			s.rows.Close()
			s.rows = nil
			s.group++
		}
		if n > 0 {
			return true
		}
	}
}

func (s *parquetSource) start() int { return int(s.row) }

// values returns the values of field i in the current row, and its column.
func (s *parquetSource) values(i int) ([]parquet.Value, *parquetColumn) {
	k := s.byField[i]
	sp := s.span[k]
	return s.cur[sp[0]:sp[1]], &s.cols[k]
}

// value is field i of the current row: null for an absent value, a
// valueList for a list column (read by list).
func (s *parquetSource) value(i int) (value, position) {
	vs, pc := s.values(i)
	at := position{int(s.row), i + 1}
	if pc.list {
		return value{kind: valueList}, at
	}
	if len(vs) == 0 || vs[0].IsNull() || vs[0].DefinitionLevel() < pc.maxDef {
		return value{}, at
	}
	return s.convert(vs[0], at).trimmed(), at
}

// list is the items of list field i of the current row (a null list is
// empty; a null item is a null value).
func (s *parquetSource) list(i int) []value {
	vs, pc := s.values(i)
	s.items = s.items[:0]
	if !pc.list || len(vs) == 0 || vs[0].DefinitionLevel() < pc.repDef {
		return s.items // a null or empty list
	}
	at := position{int(s.row), i + 1}
	for _, v := range vs {
		if v.IsNull() || v.DefinitionLevel() < pc.maxDef {
			s.items = append(s.items, value{})
			continue
		}
		s.items = append(s.items, s.convert(v, at))
	}
	return s.items
}

// convert turns one Parquet value into a cell's value. A string that is
// not UTF-8 or longer than a field may be is reported, and read as null.
func (s *parquetSource) convert(v parquet.Value, at position) value {
	switch v.Kind() {
	case parquet.Boolean:
		return boolValue(v.Boolean())
	case parquet.Int32:
		return intValue(int64(v.Int32()))
	case parquet.Int64:
		return intValue(v.Int64())
	case parquet.Float:
		return float32Value(v.Float())
	case parquet.Double:
		return floatValue(v.Double())
	}
	b := v.ByteArray()
	if len(b) > MaxFieldBytes {
		s.report(at, "a value is longer than %s, the maximum of a field, expected an id or a number", sizeText(MaxFieldBytes))
		return value{}
	}
	if !utf8.Valid(b) {
		s.report(at, "%s", utf8Msg(b, invalidUTF8(b)))
		return value{}
	}
	return text(s.in.getBytes(b))
}
