package dataset

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// This file reads a per-query table in Apache Parquet, as pandas
// (pyarrow) and polars write it: one column per field, scalar columns
// optional or required, list columns as Parquet LIST groups (three levels:
// an optional group, a repeated group "list", an "element"; the older
// two-level form, a repeated leaf, too).
//
// The table is transcoded, column by column of the layouts' known
// columns, into the CSV text the CSV reader reads (a list cell as s1;s2,
// or as a JSON array when an item holds a ';'), and read by that reader:
// the wide, long and classifier-only layouts, their checks and their
// messages are the CSV ones. The messages are then placed at the Parquet
// row (and row group) and column instead of the CSV line and byte.

// parquetColumn is a top-level column of a Parquet file the table reads.
type parquetColumn struct {
	name   string
	index  int    // its position among the file's columns (0-based)
	leaf   int    // index of its leaf column
	list   bool   // a list column
	maxDef int    // definition level of a present value
	repDef int    // list: definition level of a present (possibly empty) list
	buf    []byte // scratch for a list cell
}

// parquetTable is the transcoded CSV text of a Parquet table and what
// places its lines back in the file.
type parquetTable struct {
	text      []byte
	names     []string // the columns of the CSV text, in order
	index     []int    // their positions among the file's columns (0-based)
	groupRows []int64  // rows before each row group
	// multi lists the rows whose CSV record spans several lines (a value
	// with a line break), with the lines they add: (row, extra lines).
	multi [][2]int
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
	pt, at, msg := transcodeParquet(data)
	if msg != "" {
		c.add(file, at.line, at.col, "%s", msg)
		return nil, nil
	}
	var tc collector
	t, err := parseTableDelimited(file, bytes.NewReader(pt.text), ',', &tc)
	if err != nil {
		return nil, err
	}
	for _, e := range tc.list {
		c.push(pt.place(e))
	}
	if t != nil {
		for i := range t.recs.len() {
			r := t.recs.at(i)
			r.line = pt.row(r.line)
			r.idLine = r.line
			r.goldAt = position{}
		}
	}
	return t, nil
}

// row returns the 1-based row of the file whose record starts on CSV
// line line (line 1 is the header).
func (pt *parquetTable) row(line int) int {
	acc := 0 // extra lines of the records before line
	for _, m := range pt.multi {
		if m[0]+1+acc >= line {
			break
		}
		acc += m[1]
	}
	return line - 1 - acc
}

// place rewrites an error of the CSV reader at the Parquet row and
// column it comes from.
func (pt *parquetTable) place(e *InputError) *InputError {
	if e.Line <= 0 {
		return e
	}
	col, ci := pt.columnAt(e.Line, e.Column)
	where := ""
	if e.Line == 1 {
		// The header: the file's schema.
		if col != "" && e.Column > 1 {
			where = "column " + col + ": "
		}
		msg := strings.ReplaceAll(e.Msg, "expected a header with", "expected columns")
		return &InputError{File: e.File, Msg: where + msg, Consistency: e.Consistency}
	}
	row := pt.row(e.Line)
	g := sort.Search(len(pt.groupRows), func(i int) bool { return pt.groupRows[i] >= int64(row) }) - 1
	where = fmt.Sprintf("row %d (row group %d, row %d in it)", row, g+1, int64(row)-pt.groupRows[max(g, 0)])
	pos := 1
	if col != "" && e.Column > 1 {
		where += ", column " + col
		pos = ci + 1
	}
	// file:row:column, the column's position among the file's columns.
	return &InputError{File: e.File, Line: row, Column: pos, Msg: where + ": " + e.Msg, Consistency: e.Consistency}
}

// columnAt names the column of the CSV text at line, byte col, and
// gives its position among the file's columns.
func (pt *parquetTable) columnAt(line, col int) (string, int) {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(pt.text[off:], '\n')
		if i < 0 {
			return "", 0
		}
		off += i + 1
	}
	r := csv.NewReader(bytes.NewReader(pt.text[off:]))
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	if err != nil {
		return "", 0
	}
	name, index := "", 0
	for i := range rec {
		l, c := r.FieldPos(i)
		if l == 1 && c <= col && i < len(pt.names) {
			name, index = pt.names[i], pt.index[i]
		}
	}
	return name, index
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

// transcodeParquet turns the known columns of a Parquet file into CSV
// text; msg says why it cannot ("" when it can), at the row and column
// at (zero for the file as a whole).
func transcodeParquet(data []byte) (pt *parquetTable, at position, msg string) {
	defer func() {
		// The library checks what it reads, but a damaged file must end
		// in a message, whatever it does.
		if p := recover(); p != nil {
			pt, at, msg = nil, position{}, fmt.Sprintf("cannot read the Parquet file (%v), expected a Parquet file as pandas or polars write it", p)
		}
	}()
	// The frame of a Parquet file: PAR1, the data, the footer, its
	// length, PAR1. The library allocates the footer's length as it is
	// written, so that length is checked against the file first.
	if len(data) < 12 || string(data[:4]) != "PAR1" || string(data[len(data)-4:]) != "PAR1" {
		return nil, at, "not a Parquet file (it does not start and end with PAR1), expected a Parquet file as pandas or polars write it (is it complete?)"
	}
	n := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if n > int64(len(data)-12) {
		return nil, at, fmt.Sprintf("cannot read the Parquet file (its footer claims %d bytes, more than the file has), expected a Parquet file as pandas or polars write it (is it complete?)", n)
	}
	if err := checkThrift(data[int64(len(data))-8-n : len(data)-8]); err != nil {
		return nil, at, fmt.Sprintf("cannot read the Parquet file (%v), expected a Parquet file as pandas or polars write it (is it complete?)", err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, at, fmt.Sprintf("cannot read the Parquet file (%v), expected a Parquet file as pandas or polars write it (is it complete?)", err)
	}
	cols, msg := parquetColumns(f.Schema())
	if msg != "" {
		return nil, at, msg
	}
	pt = &parquetTable{}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	header := make([]string, len(cols))
	for i, pc := range cols {
		header[i] = pc.name
	}
	pt.names = header
	for _, pc := range cols {
		pt.index = append(pt.index, pc.index)
	}
	w.Write(header)
	w.Flush() // a record's lines are counted from here on
	rec := make([]string, len(cols))
	byLeaf := map[int]int{}
	for i, pc := range cols {
		byLeaf[pc.leaf] = i
	}
	vals := make([][]parquet.Value, len(cols))
	var total int64
	buf := make([]parquet.Row, 64)
	for gi, rg := range f.RowGroups() {
		pt.groupRows = append(pt.groupRows, total)
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				total++
				for i := range vals {
					vals[i] = vals[i][:0]
				}
				for _, v := range row {
					if i, ok := byLeaf[v.Column()]; ok {
						vals[i] = append(vals[i], v)
					}
				}
				for i, pc := range cols {
					cell, bad := pc.cell(vals[i])
					if bad != "" {
						rows.Close()
						return nil, position{int(total), pc.index + 1}, fmt.Sprintf("row %d (row group %d, row %d in it), column %s: %s", total, gi+1, total-pt.groupRows[gi], pc.name, bad)
					}
					rec[i] = cell
				}
				before := b.Len()
				w.Write(rec)
				w.Flush()
				if k := bytes.Count(b.Bytes()[before:], []byte{'\n'}); k > 1 {
					pt.multi = append(pt.multi, [2]int{int(total), k - 1})
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				rows.Close()
				return nil, at, fmt.Sprintf("row group %d: cannot read it (%v), expected a Parquet file as pandas or polars write it (is it complete?)", gi+1, err)
			}
			if n == 0 {
				break
			}
		}
		rows.Close()
	}
	w.Flush()
	pt.text = b.Bytes()
	return pt, position{}, ""
}

// parquetColumns finds the known top-level columns of a schema.
func parquetColumns(s *parquet.Schema) ([]parquetColumn, string) {
	leafOf := map[string]int{}
	for i, path := range s.Columns() {
		leafOf[strings.Join(path, "\x00")] = i
	}
	var cols []parquetColumn
	for fi, fd := range s.Fields() {
		name := fd.Name()
		if !parquetKnown(name) {
			continue // unknown columns are ignored, as in CSV
		}
		pc := parquetColumn{name: name, index: fi}
		path := []string{name}
		def := 0
		if !fd.Required() {
			def++
		}
		var node parquet.Node = fd
		switch {
		case fd.Leaf() && fd.Repeated():
			// Two-level list: a repeated leaf.
			pc.list, pc.repDef = true, def
			pc.maxDef = def
		case fd.Leaf():
			pc.maxDef = def
		default:
			// A LIST group: one repeated child, whose child (or itself)
			// is the element.
			kids := node.Fields()
			if len(kids) != 1 || !kids[0].Repeated() {
				return nil, fmt.Sprintf("column %s is a nested group (a struct or a map), expected a value or a list of values", name)
			}
			rep := kids[0]
			path = append(path, rep.Name())
			def++
			pc.list, pc.repDef = true, def
			if !rep.Leaf() {
				els := rep.Fields()
				if len(els) != 1 || !els[0].Leaf() {
					return nil, fmt.Sprintf("column %s is a list of groups, expected a list of values", name)
				}
				path = append(path, els[0].Name())
				if !els[0].Required() {
					def++
				}
			}
			pc.maxDef = def
		}
		leaf, ok := leafOf[strings.Join(path, "\x00")]
		if !ok {
			return nil, fmt.Sprintf("column %s: cannot find its values in the file's schema", name)
		}
		pc.leaf = leaf
		cols = append(cols, pc)
	}
	if len(cols) == 0 {
		var names []string
		for _, fd := range s.Fields() {
			names = append(names, clip(fd.Name()))
		}
		return nil, fmt.Sprintf("none of the columns (%s) is a column of a per-query table, expected %s", strings.Join(names, ", "), requiredColumns)
	}
	return cols, ""
}

// cell writes the values of one row of the column as a CSV cell; bad says
// why they cannot be.
func (pc *parquetColumn) cell(vs []parquet.Value) (cell, bad string) {
	if !pc.list {
		if len(vs) == 0 || vs[0].IsNull() || vs[0].DefinitionLevel() < pc.maxDef {
			return "", ""
		}
		return parquetText(vs[0])
	}
	if len(vs) == 0 || vs[0].DefinitionLevel() < pc.repDef {
		return "", "" // a null or empty list
	}
	// Items separated by ';', unless an id needs a JSON array to stay
	// whole (a ';', an empty id, spaces around it, a leading '[').
	b := pc.buf[:0]
	plain := true
	for k, v := range vs {
		if v.IsNull() || v.DefinitionLevel() < pc.maxDef {
			return "", fmt.Sprintf("item %d of the list is null, expected a value (write an empty list, not a null item)", k+1)
		}
		if k > 0 {
			b = append(b, ';')
		}
		start := len(b)
		var bad string
		b, bad = appendParquetText(b, v)
		if bad != "" {
			return "", fmt.Sprintf("item %d: %s", k+1, bad)
		}
		if item := b[start:]; plain && (v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray) {
			plain = len(item) > 0 && bytes.IndexByte(item, ';') < 0 && !(k == 0 && item[0] == '[') &&
				!isSpace(item[0]) && !isSpace(item[len(item)-1]) && item[0] != '\n' && item[len(item)-1] != '\n'
		}
	}
	pc.buf = b
	if plain {
		return string(b), ""
	}
	var jb strings.Builder
	jb.WriteByte('[')
	for k, v := range vs {
		if k > 0 {
			jb.WriteByte(',')
		}
		if v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray {
			q, _ := json.Marshal(string(v.ByteArray()))
			jb.Write(q)
		} else {
			t, _ := parquetText(v)
			jb.WriteString(t)
		}
	}
	jb.WriteByte(']')
	return jb.String(), ""
}

// appendParquetText appends one value as the text a CSV cell would hold.
func appendParquetText(b []byte, v parquet.Value) ([]byte, string) {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return append(b, '1'), ""
		}
		return append(b, '0'), ""
	case parquet.Int32:
		return strconv.AppendInt(b, int64(v.Int32()), 10), ""
	case parquet.Int64:
		return strconv.AppendInt(b, v.Int64(), 10), ""
	case parquet.Float:
		if x := float64(v.Float()); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return strconv.AppendFloat(b, x, 'g', -1, 32), ""
		}
		return append(b, floatText(float64(v.Float()))...), ""
	case parquet.Double:
		if x := v.Double(); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return strconv.AppendFloat(b, x, 'g', -1, 64), ""
		}
		return append(b, floatText(v.Double())...), ""
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return append(b, v.ByteArray()...), ""
	}
	return b, fmt.Sprintf("a value of type %s, expected a string, a number or a boolean", v.Kind())
}

// parquetText writes one value as the text a CSV cell would hold.
func parquetText(v parquet.Value) (string, string) {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return "1", ""
		}
		return "0", ""
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), ""
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), ""
	case parquet.Float:
		if x := float64(v.Float()); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 32), ""
		}
		return floatText(float64(v.Float())), ""
	case parquet.Double:
		return floatText(v.Double()), ""
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray()), ""
	}
	return "", fmt.Sprintf("a value of type %s, expected a string, a number or a boolean", v.Kind())
}

// floatText writes a float as the shortest decimal that reads back to it
// (NaN and infinities as NaN, +Inf, -Inf, which the checks refuse).
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
