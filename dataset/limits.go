package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
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
	l.total += int64(len(b))
	if l.total > maxInputBytes {
		return &InputError{File: l.file, Msg: fmt.Sprintf("the file is larger than %s, the maximum of an input; expected a per-query table, a TREC run or qrels (is this the right file?)", sizeText(maxInputBytes))}
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
	return &InputError{File: l.file, Line: l.line, Msg: fmt.Sprintf("line longer than %s, the maximum; expected one record per line of text (is this a text file?)", sizeText(maxLineBytes))}
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
}

func (g *gunzip) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		return n, gzipError(g.file, err)
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
