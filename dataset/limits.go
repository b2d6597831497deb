package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// The maximums of an input (docs/reliability.md). They are generous: a
// query with 5,000 candidates is a line of about 300 KB and a list of
// 5,000 items; a 10 GB input is read. Past one of them reading stops with
// an input error at the file and line (exit 2), so that /dev/zero or a
// binary file given as an input ends in an error within seconds, not in
// an out-of-memory kill.
const (
	// MaxLineBytes is the longest line of an input, its line ending
	// excluded (a CSV record quoted over several lines: each line).
	MaxLineBytes = 16 << 20
	// MaxFieldBytes is the longest field of a per-query table: a CSV
	// cell (quoted over several lines included) or a JSONL value.
	MaxFieldBytes = 16 << 20
	// MaxListItems is the most items of a list cell (candidates, scores,
	// gold, node probabilities).
	MaxListItems = 1_000_000
	// MaxInputBytes is the largest input file.
	MaxInputBytes = 64 << 30
)

// maxLineBytes and maxInputBytes are the limits in force: variables so
// that tests can lower them.
var (
	maxLineBytes  int64 = MaxLineBytes
	maxInputBytes int64 = MaxInputBytes
)

// limitReader passes an input on to its parser while counting its bytes
// and the length of its current line; past maxInputBytes or
// maxLineBytes it fails with an *InputError. The whole-file path of
// readIfLarge reads the underlying file itself and checks the limits on
// the bytes read (checkWhole).
type limitReader struct {
	r     io.Reader
	file  string
	total int64
	line  int   // lines started so far (1 at the start)
	cur   int64 // bytes of the current line so far
	err   error

	// binary: the input is a binary file (Parquet), which has no lines:
	// only its size is bounded.
	binary bool
}

func newLimitReader(file string, r io.Reader) *limitReader {
	return &limitReader{r: r, file: file, line: 1}
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	if n > 0 {
		if lerr := l.count(p[:n]); lerr != nil {
			l.err = lerr
			return 0, lerr
		}
	}
	return n, err
}

// count advances over b, the next bytes of the input.
func (l *limitReader) count(b []byte) error {
	if l.total == 0 && !l.binary {
		if enc, ok := utf16At(b); ok {
			return &InputError{File: l.file, Line: 1, Column: 1, Msg: fmt.Sprintf("the file is %s, expected UTF-8 text (convert it, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8)", enc)}
		}
	}
	l.total += int64(len(b))
	if l.total > maxInputBytes {
		return &InputError{File: l.file, Msg: fmt.Sprintf("the file is larger than %s, the maximum of an input, expected a per-query table, a TREC run or qrels (is this the right file?)", sizeText(maxInputBytes))}
	}
	if l.binary {
		return nil
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.cur += int64(len(b))
			break
		}
		l.cur += int64(i)
		if err := l.lineErr(); err != nil {
			return err
		}
		l.line++
		l.cur = 0
		b = b[i+1:]
	}
	return l.lineErr()
}

func (l *limitReader) lineErr() error {
	if l.cur <= maxLineBytes {
		return nil
	}
	// The column is the byte past the maximum.
	return &InputError{File: l.file, Line: l.line, Column: int(maxLineBytes) + 1, Msg: fmt.Sprintf("line longer than %s (the maximum), expected one record per line of text (is this a text file?)", sizeText(maxLineBytes))}
}

// checkWhole checks the limits on the whole content of the input.
func (l *limitReader) checkWhole(data []byte) error {
	return l.count(data)
}

// sizeOK checks the size a file reports before it is read whole.
func (l *limitReader) sizeOK(size int64) error {
	if size > maxInputBytes {
		return &InputError{File: l.file, Msg: fmt.Sprintf("the file is %s, larger than %s, the maximum of an input", sizeText(size), sizeText(maxInputBytes))}
	}
	return nil
}

// Stat passes on the file information of the underlying reader.
func (l *limitReader) Stat() (os.FileInfo, error) {
	if s, ok := l.r.(interface{ Stat() (os.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.New("no file information")
}

// sizeText writes a byte count in binary units (64 MiB, 64 GiB).
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// gunzip passes on the decompressed bytes of a gzip-compressed input,
// turning a damaged stream into an input error of the file.
type gunzip struct {
	zr   *gzip.Reader
	file string
	lr   *limitReader // counts the decompressed lines, when set
}

func (g *gunzip) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		ie := gzipError(g.file, err)
		if g.lr != nil && ie.Line == 0 {
			// Where the decompressed text stops: the bytes read so far
			// (n of them still to be counted) end there.
			line, col := g.lr.line, g.lr.cur+1
			for _, c := range p[:n] {
				if c == '\n' {
					line, col = line+1, 1
				} else {
					col++
				}
			}
			ie.Line, ie.Column = line, int(col)
			ie.Msg = strings.Replace(ie.Msg, ", expected", fmt.Sprintf(" at line %d of the decompressed text, expected", line), 1)
		}
		return n, ie
	}
	return n, err
}

// gzipError is the input error of a gzip stream that cannot be read.
func gzipError(file string, err error) *InputError {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie
	}
	what := err.Error()
	switch {
	case errors.Is(err, gzip.ErrHeader):
		what = "it is not gzip-compressed"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		what = "the compressed data ends early (a truncated file)"
	case errors.Is(err, gzip.ErrChecksum):
		what = "the compressed data is damaged (checksum mismatch)"
	}
	return &InputError{File: file, Msg: fmt.Sprintf("cannot decompress the file: %s, expected a complete gzip file for a name ending in .gz (or rename it without .gz if it is not compressed)", what)}
}

// controlAt returns the byte offset in s of the first control character
// (C0 but tab, DEL, or C1), or -1. Tab separates fields where it may
// appear; ids are checked with tabOK false.
func controlAt[T string | []byte](s T, tabOK bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20:
			if !(tabOK && (c == '\t' || c == '\r' || c == '\v' || c == '\f')) {
				return i
			}
		case c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
			return i // U+0080 to U+009F in UTF-8
		}
	}
	return -1
}

// controlMsg describes the control character at byte i of an id.
func controlMsg(what string, s []byte, i int) string {
	r, _ := utf8.DecodeRune(s[i:])
	if r == utf8.RuneError {
		r = rune(s[i])
	}
	return fmt.Sprintf("%s is %q: a control character (U+%04X) at character %d, expected printable text (an id is written into CSV, HTML and the terminal; remove the character)",
		what, clipBytes(s), r, utf8.RuneCount(s[:i])+1)
}

// utf16At reports whether b, the start of an input, is UTF-16 text (a
// byte order mark, or ASCII letters alternating with zero bytes), and
// which byte order.
func utf16At(b []byte) (string, bool) {
	switch {
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return "UTF-16 little-endian (with a byte order mark)", true
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return "UTF-16 big-endian (with a byte order mark)", true
	case len(b) >= 4 && b[0] != 0 && b[1] == 0 && b[2] != 0 && b[3] == 0:
		return "UTF-16 little-endian", true
	case len(b) >= 4 && b[0] == 0 && b[1] != 0 && b[2] == 0 && b[3] != 0:
		return "UTF-16 big-endian", true
	}
	return "", false
}
