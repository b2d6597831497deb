package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file holds the readers of whole files: the CSV record source shared
// by every CSV input, the line reader shared by JSON Lines and TREC, and the
// two per-query table readers.

const bom = "\ufeff"

// csvSource reads an RFC 4180 CSV file with a header row, reporting
// malformed records as input errors and carrying on with the next one.
type csvSource struct {
	file   string
	c      *collector
	r      *csv.Reader
	header []string
	rec    []string // the current record
	line   int      // the line the current record starts on
	rows   int      // data records seen, well-formed or not

	headerLast int // the line the header's last field starts on
	ioErr      error

	// quoteErr is a quoting error held back until the next read tells
	// whether the file ended inside the quoted field.
	quoteErr *csv.ParseError
}

// openCSV reads the header row. It returns nil when the file has no header
// (the error is reported) or cannot be read (err).
func openCSV(file string, rd io.Reader, c *collector) (*csvSource, error) {
	r := csv.NewReader(rd)
	r.ReuseRecord = true
	s := &csvSource{file: file, c: c, r: r}
	rec, err := r.Read()
	if err == io.EOF {
		c.add(file, 1, 1, "file is empty, expected a header row naming the columns")
		return nil, nil
	}
	if err != nil {
		var pe *csv.ParseError
		if !errors.As(err, &pe) {
			return nil, err
		}
		if pe.Err == csv.ErrQuote && pe.Line > pe.StartLine {
			if _, err := r.Read(); err == io.EOF {
				s.unclosed(pe)
				return nil, nil
			}
		}
		s.parseError(pe, rec)
		return nil, nil
	}
	s.header = slices.Clone(rec)
	s.headerLast, _ = r.FieldPos(len(rec) - 1)
	s.header[0] = strings.TrimPrefix(s.header[0], bom)
	if i, k := invalidField(s.header); i >= 0 {
		at := s.headerPos(i)
		c.add(file, at.line, at.col, "header field %d: %s", i+1, utf8Msg([]byte(s.header[i]), k))
		return nil, nil
	}
	for i, h := range s.header {
		s.header[i] = strings.TrimSpace(h)
	}
	return s, nil
}

// afterHeader is the line after the header row, where data rows start.
func (s *csvSource) afterHeader() int {
	return s.headerLast + 1
}

// headerPos is the position of header field i.
func (s *csvSource) headerPos(i int) position {
	// FieldPos refers to the most recent record; before the first data
	// record that is the header.
	l, c := s.r.FieldPos(i)
	return position{l, c}
}

// next advances to the next well-formed record.
func (s *csvSource) next() bool {
	for !s.c.full() {
		rec, err := s.r.Read()
		if q := s.quoteErr; q != nil {
			// A quoting error in a record that spans lines: when the file
			// ends right after it, the quoted field was never closed.
			s.quoteErr = nil
			if err == io.EOF {
				s.unclosed(q)
			} else {
				s.parseError(q, nil)
			}
		}
		if err == io.EOF {
			return false
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				s.ioErr = err
				return false
			}
			s.rows++
			if pe.Err == csv.ErrQuote && pe.Line > pe.StartLine {
				s.quoteErr = pe
				continue
			}
			s.parseError(pe, rec)
			continue
		}
		s.rows++
		if i, k := invalidField(rec); i >= 0 {
			l, col := s.r.FieldPos(i)
			name := ""
			if i < len(s.header) {
				name = " (" + clip(s.header[i]) + ")"
			}
			s.c.add(s.file, l, col, "field %d%s: %s", i+1, name, utf8Msg([]byte(rec[i]), k))
			continue
		}
		s.rec = rec
		s.line, _ = s.r.FieldPos(0)
		return true
	}
	return false
}

// invalidField returns the index of the first field that is not valid
// UTF-8 and the offset of its first bad byte, or -1, -1.
func invalidField(rec []string) (int, int) {
	for i, f := range rec {
		if !utf8.ValidString(f) {
			return i, invalidUTF8([]byte(f))
		}
	}
	return -1, -1
}

// cell returns field i of the current record, trimmed, and its position.
func (s *csvSource) cell(i int) (string, position) {
	l, c := s.r.FieldPos(i)
	return strings.TrimSpace(s.rec[i]), position{l, c}
}

// unclosed reports a quoted field that runs to the end of the file, at
// the line of the record it starts.
func (s *csvSource) unclosed(pe *csv.ParseError) {
	s.c.add(s.file, pe.StartLine, 1, `malformed CSV: a quoted field of this row is not closed, the file ends inside it (line %d), expected a closing " (and "" for a literal quote inside a quoted field)`, pe.Line)
}

func (s *csvSource) parseError(pe *csv.ParseError, rec []string) {
	switch pe.Err {
	case csv.ErrFieldCount:
		hint := ""
		if len(rec) > len(s.header) {
			hint = " (a value with a comma in it, such as the decimal comma of 0,5, must be quoted; list items are separated by ';' and decimals written with '.')"
		} else {
			hint = " (an empty value still needs its comma, e.g. ,, for an empty gold list)"
		}
		s.c.add(s.file, pe.StartLine, 1, "row has %d fields but the header has %d, expected one value per column%s", len(rec), len(s.header), hint)
	case csv.ErrBareQuote:
		s.c.add(s.file, pe.Line, pe.Column, `malformed CSV: bare " in an unquoted field, expected the field quoted ("...", with "" for a literal quote)`)
	case csv.ErrQuote:
		s.c.add(s.file, pe.Line, pe.Column, `malformed CSV: extraneous or missing " in a quoted field, expected "" for a literal quote and a closing quote`)
	default:
		s.c.add(s.file, pe.Line, pe.Column, "malformed CSV: %v", pe.Err)
	}
}

// lineReader reads lines of any length, without their line ending.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
	n   int // number of the line last returned
	err error

	// bomShift is 3 when line 1 started with a byte order mark, which
	// next removed: columns of line 1 are shifted by it.
	bomShift int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line; it is valid until the following call.
func (l *lineReader) next() ([]byte, bool) {
	line, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.buf = append(l.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = l.br.ReadSlice('\n')
			l.buf = append(l.buf, line...)
		}
		line = l.buf
	}
	if err != nil && err != io.EOF {
		l.err = err
		return nil, false
	}
	if len(line) == 0 {
		return nil, false
	}
	l.n++
	line = bytes.TrimSuffix(line, []byte{'\n'})
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if l.n == 1 && bytes.HasPrefix(line, []byte(bom)) {
		line = line[len(bom):]
		l.bomShift = len(bom)
	}
	return line, true
}

func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 0
}

// parseTableCSV reads a per-query table in CSV. Lists are ';'-separated or
// JSON arrays; an empty cell is an empty list or an absent value.
func parseTableCSV(file string, rd io.Reader, c *collector) (*table, error) {
	src, err := openCSV(file, rd, c)
	if src == nil {
		return nil, err
	}
	var idx [numColumns]int
	for i := range idx {
		idx[i] = -1
	}
	dup := false
	for i, name := range src.header {
		col, ok := columnByName(name)
		if !ok {
			continue // unknown columns are kept in the file and ignored
		}
		if j := idx[col]; j >= 0 {
			at := src.headerPos(i)
			c.add(file, at.line, at.col, "column %s appears twice (fields %d and %d), expected it once", col, j+1, i+1)
			dup = true
			continue
		}
		idx[col] = i
	}
	var missing []string
	if idx[colPost] < 0 && idx[colQuery] < 0 {
		missing = append(missing, "post_id (or query_id)")
	}
	for _, col := range []column{colGold, colCandidates, colScores} {
		if idx[col] < 0 {
			missing = append(missing, col.String())
		}
	}
	if len(missing) > 0 {
		c.add(file, 1, 1, "missing column %s, expected a header with %s", strings.Join(missing, ", "), requiredColumns)
	}
	if dup || len(missing) > 0 {
		return nil, nil
	}

	p := newTableParser(file, c)
	p.t.hasFolds = idx[colFold] >= 0
	for src.next() {
		p.raw.reset(src.line)
		p.pending = 0
		if i := idx[colSplit]; i >= 0 {
			s, at := src.cell(i)
			p.raw.at[colSplit] = at
			p.textScalar(colSplit, s)
			if p.raw.train {
				p.t.trainRows++
				continue // a train row is dropped unread
			}
		}
		for col := range numColumns {
			i := idx[col]
			if i < 0 || col == colSplit {
				continue
			}
			s, at := src.cell(i)
			p.raw.at[col] = at
			if isListColumn(col) {
				p.textList(col, s)
			} else {
				p.textScalar(col, s)
			}
		}
		if p.pending == 0 {
			p.finish()
		}
	}
	if src.ioErr != nil {
		return nil, src.ioErr
	}
	if src.rows == 0 {
		c.add(file, src.afterHeader(), 1, "no data rows after the header, expected one row per query")
	}
	return p.t, nil
}

// parseTableJSONL reads a per-query table in JSON Lines: one object per
// line, with the column names as keys. Blank lines are skipped.
func parseTableJSONL(file string, rd io.Reader, c *collector) (*table, error) {
	p := newTableParser(file, c)
	lr := newLineReader(rd)
	lines := 0
	for !c.full() {
		b, ok := lr.next()
		if !ok {
			break
		}
		if isBlank(b) {
			continue
		}
		lines++
		base := 0
		if lr.n == 1 {
			base = lr.bomShift
		}
		if i := invalidUTF8(b); i >= 0 {
			c.add(file, lr.n, base+i+1, "%s", utf8Msg(b, i))
			continue
		}
		n0 := len(c.list)
		p.raw.reset(lr.n)
		p.pending = 0
		p.jsonLine(string(b), base)
		if p.raw.train && !p.js.failed() {
			// A train row is dropped: only its JSON syntax matters.
			c.list = c.list[:n0]
			p.t.trainRows++
			continue
		}
		if p.pending == 0 {
			p.finish()
		}
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if lines == 0 {
		c.add(file, 1, 1, "file is empty, expected one JSON object per line")
	}
	return p.t, nil
}
