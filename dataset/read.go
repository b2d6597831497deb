package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
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

	// base is the number of lines of the file before the reader's first:
	// a chunk of a large table is read by a reader of its own.
	base int

	// quoteErr is a quoting error held back until the next read tells
	// whether the file ended inside the quoted field.
	quoteErr *csv.ParseError
}

// openCSV reads the header row. It returns nil when the file has no header
// (the error is reported) or cannot be read (err).
func openCSV(file string, rd io.Reader, c *collector) (*csvSource, error) {
	return openDelimited(file, rd, ',', c)
}

// openDelimited is openCSV for fields separated by comma (',' for CSV,
// '\t' for TSV).
func openDelimited(file string, rd io.Reader, comma rune, c *collector) (*csvSource, error) {
	r := csv.NewReader(rd)
	r.Comma = comma
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

// csvChunk returns a source of the records in data, whole records of a
// CSV file with the given header, the first of them starting on line
// line. It reads them as the source of the whole file would, from a
// record's start: every record must have as many fields as the header.
func csvChunk(file string, data []byte, line int, header []string, comma rune, c *collector) *csvSource {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = comma
	r.ReuseRecord = true
	r.FieldsPerRecord = len(header)
	return &csvSource{file: file, c: c, r: r, header: header, base: line - 1}
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
			pe = s.shift(pe)
			s.rows++
			if pe.Err == csv.ErrQuote && pe.Line > pe.StartLine {
				s.quoteErr = pe
				continue
			}
			s.parseError(pe, rec)
			continue
		}
		s.rows++
		if i := longField(rec); i >= 0 {
			l, col := s.r.FieldPos(i)
			s.c.add(s.file, l+s.base, col, "field %d is longer than %s, the maximum of a field, expected a value or a list (is a quote left open?)", i+1, sizeText(MaxFieldBytes))
			continue
		}
		if i, k := invalidField(rec); i >= 0 {
			l, col := s.r.FieldPos(i)
			l += s.base
			name := ""
			if i < len(s.header) {
				name = " (" + clip(s.header[i]) + ")"
			}
			s.c.add(s.file, l, col, "field %d%s: %s", i+1, name, utf8Msg([]byte(rec[i]), k))
			continue
		}
		s.rec = rec
		s.line, _ = s.r.FieldPos(0)
		s.line += s.base
		return true
	}
	return false
}

// longField returns the index of the first field longer than
// MaxFieldBytes, or -1.
func longField(rec []string) int {
	for i, f := range rec {
		if len(f) > MaxFieldBytes {
			return i
		}
	}
	return -1
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
	return strings.TrimSpace(s.rec[i]), position{s.base + l, c}
}

// shift returns pe with its lines counted from the start of the file.
func (s *csvSource) shift(pe *csv.ParseError) *csv.ParseError {
	if s.base == 0 {
		return pe
	}
	shifted := *pe
	shifted.StartLine += s.base
	shifted.Line += s.base
	return &shifted
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
		switch {
		case len(rec) > len(s.header) && s.r.Comma == ',':
			hint = " (a value with a comma in it, such as the decimal comma of 0,5, must be quoted; list items are separated by ';' and decimals written with '.')"
		case len(rec) > len(s.header):
			hint = " (a value with a tab in it must be quoted)"
		case s.r.Comma == ',':
			hint = " (an empty value still needs its comma, e.g. ,, for an empty gold list)"
		default:
			hint = " (an empty value still needs its tab)"
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

	// data, without br: the content still to read, in memory
	// (newBytesLineReader); next slices it without copying.
	data []byte

	// bomShift is 3 when line 1 started with a byte order mark, which
	// next removed: columns of line 1 are shifted by it.
	bomShift int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// newBytesLineReader returns a lineReader of content already in memory.
func newBytesLineReader(data []byte) *lineReader {
	return &lineReader{data: data}
}

// next returns the next line; it is valid until the following call.
func (l *lineReader) next() ([]byte, bool) {
	if l.br == nil {
		if len(l.data) == 0 {
			return nil, false
		}
		line := l.data
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		l.data = l.data[len(line):]
		return l.trim(line), true
	}
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
	return l.trim(line), true
}

// trim counts line, the next one read, and removes its line ending, and a
// byte order mark at the start of line 1.
func (l *lineReader) trim(line []byte) []byte {
	l.n++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if l.n == 1 && bytes.HasPrefix(line, []byte(bom)) {
		line = line[len(bom):]
		l.bomShift = len(bom)
	}
	return line
}

func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(b)) == 0
}

// wholeReader is a source that reads its whole content itself (an input
// whose bytes are also hashed and copied, bundle.InputReader): ReadWhole
// appends the rest of it to dst (size is the expected number of bytes, a
// hint); the bytes returned are not to be modified.
type wholeReader interface {
	ReadWhole(dst []byte, size int64) ([]byte, error)
}

// sniffedReader is a text input after sniffText: its first bytes sit in
// the buffer that looked at them, and a streaming parser reads on through
// that buffer. readIfLarge reads it whole as those bytes followed by the
// rest of the file, so that a large file still takes the whole-file path.
type sniffedReader struct {
	*bufio.Reader
	lr *limitReader // what the buffer reads from
}

// readIfLarge reads rd whole unless it is a file of fewer than min bytes,
// which it leaves unread for a streaming pass. (A reader of unknown size,
// as in the tests, is read whole.)
func readIfLarge(rd io.Reader, min int) ([]byte, bool, error) {
	var head []byte
	if s, ok := rd.(*sniffedReader); ok {
		// Bytes the buffer holds were read from s.lr (and counted there)
		// already; Peek leaves them for a streaming pass.
		head, _ = s.Peek(s.Buffered())
		rd = s.lr
	}
	if l, ok := rd.(*limitReader); ok {
		// The file itself is read whole (in parallel, or by its own
		// ReadWhole), and the limits checked on what was read; a file
		// left for streaming is read through l.
		st, err := l.Stat()
		if err != nil {
			data, err := readAllAfter(head, l)
			return data, err == nil, err
		}
		if st.Mode().IsRegular() {
			if err := l.sizeOK(st.Size()); err != nil {
				return nil, false, err
			}
		}
		data, whole, err := readFileIfLarge(l.r, head, min)
		if err == nil && whole {
			err = l.checkWhole(data[len(head):])
		}
		return data, whole && err == nil, err
	}
	return readFileIfLarge(rd, head, min)
}

// readFileIfLarge is readIfLarge of a source whose first bytes, head,
// were read already: it returns head and the rest of the source, or
// nothing when the source is a file of fewer than min bytes.
func readFileIfLarge(rd io.Reader, head []byte, min int) ([]byte, bool, error) {
	f, ok := rd.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		data, err := readAllAfter(head, rd)
		return data, err == nil, err
	}
	st, err := f.Stat()
	if err != nil {
		data, err := readAllAfter(head, rd)
		return data, err == nil, err
	}
	if st.Size() < int64(min) {
		return nil, false, nil
	}
	rest := st.Size() - int64(len(head))
	if w, ok := rd.(wholeReader); ok {
		buf, err := w.ReadWhole(head, rest)
		return buf, err == nil, err
	}
	if ra, ok := rd.(io.ReaderAt); ok {
		if buf, ok := readAtOnce(ra, head, st.Size()); ok {
			return buf, true, nil
		}
	}
	// One buffer of the file's size (and a byte to see its end), not
	// ReadAll's doublings of 184 MB.
	buf := make([]byte, st.Size()+1)
	copy(buf[:len(head)], head) // not fused with make: see readAtOnce
	n, err := io.ReadFull(rd, buf[len(head):])
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return buf[:len(head)+n], true, nil
	case err != nil:
		return nil, false, err
	}
	// The file grew since Stat: read the rest.
	more, err := io.ReadAll(rd)
	return append(buf, more...), err == nil, err
}

// readAllAfter returns head followed by everything rd has left.
func readAllAfter(head []byte, rd io.Reader) ([]byte, error) {
	var b bytes.Buffer
	b.Write(head)
	_, err := b.ReadFrom(rd)
	return b.Bytes(), err
}

// readAtOnce reads the bytes of a file of size bytes that follow head, its
// first bytes read already, with one ReadAt per core, concurrently: copying
// a large file from the page cache is the work of more than one core. It
// reports false when the file is not size bytes long (it changed since
// Stat) or a read fails: the caller then reads it in one pass from where
// head ends, since ReadAt does not move the file's offset.
func readAtOnce(ra io.ReaderAt, head []byte, size int64) ([]byte, bool) {
	off := len(head)
	if int64(off) > size {
		return nil, false
	}
	buf := make([]byte, size+1)
	// Copied into a slice of buf, not buf itself: the compiler would fuse
	// make and copy into one call that clears the rest of a large buffer
	// in a single stretch the collector cannot interrupt.
	copy(buf[:off], head)
	n := int(size) - off
	failed := make([]bool, ranges(n, n))
	inRanges(n, n, func(part, lo, hi int) {
		lo, hi = lo+off, hi+off
		k, err := ra.ReadAt(buf[lo:hi], int64(lo))
		failed[part] = k < hi-lo || (err != nil && err != io.EOF)
	})
	if k, _ := ra.ReadAt(buf[size:], size); k > 0 || slices.Contains(failed, true) {
		return nil, false
	}
	return buf[:size], true
}

// textChunk is a run of whole lines of a file, starting at line line.
type textChunk struct {
	data []byte
	line int
}

// splitAtLines cuts data into at most n chunks of about equal size, each
// ending after a newline (the last at the end of data).
//
// With quoted (CSV), a chunk ends only after a newline with an even number
// of '"' in data before it. In well-formed CSV that newline ends a record:
// a quoted field holds its quotes in pairs ("" for a literal quote)
// between its opening and its closing one. In CSV that is not, the cut may
// fall inside a quoted field, and the chunk before it then ends with an
// unclosed quote (see readChunks).
func splitAtLines(data []byte, n int, quoted bool) []textChunk {
	var out []textChunk
	line, start := 1, 0
	for k := 1; k <= n && start < len(data); k++ {
		end := len(data)
		if k < n {
			end = max(start, len(data)*k/n)
			odd := quoted && bytes.Count(data[start:end], []byte{'"'})%2 == 1
			for {
				i := bytes.IndexByte(data[end:], '\n')
				if i < 0 {
					end = len(data)
					break
				}
				if quoted && bytes.Count(data[end:end+i], []byte{'"'})%2 == 1 {
					odd = !odd
				}
				end += i + 1
				if !odd {
					break
				}
			}
		}
		out = append(out, textChunk{data: data[start:end], line: line})
		line += bytes.Count(data[start:end], []byte{'\n'})
		start = end
	}
	return out
}

// tableChunkMin is the size from which a per-query table is parsed in
// parallel chunks (a variable for the tests, which set it low).
var tableChunkMin = 4 << 20

// tableChunks is the number of chunks of a large table; 0 means one per
// core.
var tableChunks = 0

// chunkCount is how many chunks a large input of size bytes is parsed in:
// n, or one per core when n is 0; one when the input is smaller than min.
func chunkCount(n, size, min int) int {
	if size < min {
		return 1
	}
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return n
}

// parseTableCSV reads a per-query table in CSV. Lists are ';'-separated or
// JSON arrays; an empty cell is an empty list or an absent value.
//
// A large table (tableChunkMin bytes or more) is read whole and its
// records parsed in one chunk per core, joined in file order
// (readChunks): the rows and the errors are those of one pass.
func parseTableCSV(file string, rd io.Reader, c *collector) (*table, error) {
	return parseTableDelimited(file, rd, ',', c)
}

// parseTableDelimited is parseTableCSV for fields separated by comma:
// ',' for CSV, '\t' for TSV (the same quoting rules).
func parseTableDelimited(file string, rd io.Reader, comma rune, c *collector) (*table, error) {
	data, whole, err := readIfLarge(rd, tableChunkMin)
	if err != nil {
		return nil, err
	}
	if whole {
		rd = bytes.NewReader(data)
	}
	src, err := openDelimited(file, rd, comma, c)
	if src == nil {
		return nil, err
	}
	if isLongHeader(src.header) {
		return parseLong(src, c)
	}
	p := newTableParser(file, c)
	idx, ok := p.columns(src.head())
	if !ok {
		return nil, nil
	}
	p.wide(&idx)
	rows := 0
	if n := chunkCount(tableChunks, len(data), tableChunkMin); whole && n > 1 {
		// The records after the header, cut where a record ends.
		start := int(src.r.InputOffset())
		line := 1 + bytes.Count(data[:start], []byte{'\n'})
		chunks := splitAtLines(data[start:], n, true)
		rows, err = p.readChunks(data[start:], line, chunks, func(p *tableParser, data []byte, line int) (int, error) {
			s := csvChunk(file, data, line, src.header, comma, p.c)
			p.readRows(s, &idx)
			return s.rows, s.ioErr
		})
	} else {
		p.readRows(src, &idx)
		rows, err = src.rows, src.ioErr
	}
	if err != nil {
		return nil, err
	}
	if rows == 0 {
		c.add(file, src.afterHeader(), 1, "no data rows after the header, expected one row per query")
	}
	return p.t, nil
}

// parseLong reads the rows of a table in the long layout (one row per
// candidate), whose header src has read.
func parseLong(src *csvSource, c *collector) (*table, error) {
	p := newTableParser(src.file, c)
	lc, ok := p.longHeader(src.head())
	if !ok {
		return nil, nil
	}
	p.t.hasFolds = lc.q[colFold] >= 0
	p.readLong(src, &lc)
	if src.ioErr != nil {
		return nil, src.ioErr
	}
	if src.rows == 0 {
		c.add(src.file, src.afterHeader(), 1, "no data rows after the header, expected one row per candidate")
	}
	return p.t, nil
}

// parseTableJSONL reads a per-query table in JSON Lines: one object per
// line, with the column names as keys. Blank lines are skipped.
//
// A large table is read in parallel chunks, as parseTableCSV reads one.
func parseTableJSONL(file string, rd io.Reader, c *collector) (*table, error) {
	data, whole, err := readIfLarge(rd, tableChunkMin)
	if err != nil {
		return nil, err
	}
	p := newTableParser(file, c)
	read := func(p *tableParser, data []byte, line int) (int, error) {
		lr := newLineReader(bytes.NewReader(data))
		lr.n = line - 1
		return p.readJSONL(lr), lr.err
	}
	lines := 0
	if n := chunkCount(tableChunks, len(data), tableChunkMin); whole && n > 1 {
		lines, err = p.readChunks(data, 1, splitAtLines(data, n, false), read)
	} else if whole {
		lines, err = read(p, data, 1)
	} else {
		lr := newLineReader(rd)
		lines, err = p.readJSONL(lr), lr.err
	}
	if err != nil {
		return nil, err
	}
	if lines == 0 {
		c.add(file, 1, 1, "file is empty, expected one JSON object per line")
	}
	return p.t, nil
}

// readJSONL reads the lines of lr into the table and returns how many
// were not blank.
func (p *tableParser) readJSONL(lr *lineReader) int {
	c := p.c
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
			c.add(p.file, lr.n, base+i+1, "%s", utf8Msg(b, i))
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
	return lines
}

// chunkRead reads rows from data, whole rows of a table the first of which
// starts on line line, with p. It returns how many rows it saw (CSV
// records or JSON Lines that are not blank), well-formed or not.
type chunkRead func(p *tableParser, data []byte, line int) (int, error)

// readChunks reads the rows of data, which start on line line, into p's
// table: the chunks (consecutive, covering data) in parallel, each with a
// parser and a collector of its own, then joined in file order.
//
// A chunk that starts where a row starts is read as one pass over the file
// reads it, except for what p carries from row to row: the presence of
// post_id and criterion_id. The first chunk starts a row; a chunk without
// errors ends where a row ends (CSV: a chunk that ends inside a quoted
// field ends with a quoting error), so the next one starts a row. From the
// first chunk with an error, or with a presence that differs from the
// rows before it, the rest of data is read again in one pass, by p with
// the state one pass has there: the errors are exactly those of one pass,
// the first in file order first.
func (p *tableParser) readChunks(data []byte, line int, chunks []textChunk, read chunkRead) (int, error) {
	type part struct {
		p    *tableParser
		c    collector
		rows int
		err  error
	}
	parts := make([]part, len(chunks))
	var wg sync.WaitGroup
	for k, ch := range chunks {
		pt := &parts[k]
		pt.p = newTableParser(p.file, &pt.c)
		pt.p.t.hasFolds = p.t.hasFolds
		pt.p.mustBeEmpty = p.mustBeEmpty
		wg.Add(1)
		go func() {
			defer wg.Done()
			pt.rows, pt.err = read(pt.p, ch.data, line-1+ch.line)
		}()
	}
	wg.Wait()
	rows, off := 0, 0
	for k, pt := range parts {
		if pt.err != nil {
			return 0, pt.err
		}
		q := pt.p
		if len(pt.c.list) > 0 || p.posts.conflicts(q.posts) || p.crits.conflicts(q.crits) || p.layout.conflicts(q.layout) {
			n, err := read(p, data[off:], line-1+chunks[k].line)
			return rows + n, err
		}
		rows += pt.rows
		off += len(chunks[k].data)
		p.posts.follow(q.posts)
		p.crits.follow(q.crits)
		p.layout.follow(q.layout)
		p.t.join(q.t)
	}
	return rows, nil
}
