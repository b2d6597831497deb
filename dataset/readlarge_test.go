package dataset

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fileInfo is the os.FileInfo of an in-memory file of n bytes.
type fileInfo int64

func (n fileInfo) Name() string       { return "f" }
func (n fileInfo) Size() int64        { return int64(n) }
func (n fileInfo) Mode() os.FileMode  { return 0o644 }
func (n fileInfo) ModTime() time.Time { return time.Time{} }
func (n fileInfo) IsDir() bool        { return false }
func (n fileInfo) Sys() any           { return nil }

// statReader is a file that reads in order only (no ReaderAt), with its
// size known, as a pipe-less file behind a wrapper is.
type statReader struct {
	r    io.Reader
	size int64
}

func (s *statReader) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *statReader) Stat() (os.FileInfo, error) { return fileInfo(s.size), nil }

// wholeFile is a source that reads its rest itself, as bundle.InputReader
// does; it records how many bytes went through Read and through ReadWhole.
type wholeFile struct {
	statReader
	streamed, whole int
}

func (w *wholeFile) Read(p []byte) (int, error) {
	n, err := w.statReader.Read(p)
	w.streamed += n
	return n, err
}

func (w *wholeFile) ReadWhole(dst []byte, size int64) ([]byte, error) {
	rest, err := io.ReadAll(w.statReader.r)
	w.whole += len(rest)
	return append(dst, rest...), err
}

// TestReadIfLargeAfterSniff: a text input whose first 64 KiB were read
// into the sniffing buffer is read whole as those bytes and the rest of
// the file (from an os.File with ReadAt, a file read in order, and a
// source that reads its rest itself), with every byte counted once by the
// limits; below the size for a whole read it is left to stream, the
// sniffed bytes included; and a line over the maximum past the sniffed
// bytes is reported at its own line.
func TestReadIfLargeAfterSniff(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "q%d Q0 d%d %d %d.5 tag\n", i%50, i, i, 20000-i)
	}
	content := b.String()
	lines := strings.Count(content, "\n")
	path := filepath.Join(t.TempDir(), "run.txt")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	sources := map[string]func(t *testing.T) io.Reader{
		"os.File": func(t *testing.T) io.Reader {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		},
		"read in order": func(*testing.T) io.Reader {
			return &statReader{r: strings.NewReader(content), size: int64(len(content))}
		},
		"reads its rest": func(*testing.T) io.Reader {
			return &wholeFile{statReader: statReader{r: strings.NewReader(content), size: int64(len(content))}}
		},
	}
	sniffed := func(t *testing.T, src io.Reader) (*sniffedReader, *limitReader) {
		lr := newLimitReader("run.txt", src)
		br := bufio.NewReaderSize(lr, sniffBytes)
		if ie := sniffText("run.txt", br, false); ie != nil {
			t.Fatal(ie)
		}
		if br.Buffered() == 0 || br.Buffered() >= len(content) {
			t.Fatalf("%d bytes sniffed of %d: the test needs a part", br.Buffered(), len(content))
		}
		return &sniffedReader{Reader: br, lr: lr}, lr
	}
	for name, open := range sources {
		t.Run(name+"/whole", func(t *testing.T) {
			src := open(t)
			s, lr := sniffed(t, src)
			data, whole, err := readIfLarge(s, 1)
			if err != nil || !whole {
				t.Fatalf("whole %v, err %v", whole, err)
			}
			if string(data) != content {
				t.Fatalf("read %d bytes, want the file's %d", len(data), len(content))
			}
			if lr.total != int64(len(content)) || lr.line != lines+1 {
				t.Errorf("limits counted %d bytes and %d lines, want %d and %d", lr.total, lr.line-1, len(content), lines)
			}
			if w, ok := src.(*wholeFile); ok && (w.streamed != sniffBytes || w.whole != len(content)-sniffBytes) {
				t.Errorf("%d bytes read through Read and %d by ReadWhole, want %d and the rest", w.streamed, w.whole, sniffBytes)
			}
		})
		t.Run(name+"/streamed", func(t *testing.T) {
			s, _ := sniffed(t, open(t))
			data, whole, err := readIfLarge(s, len(content)+1)
			if err != nil || whole || data != nil {
				t.Fatalf("a file below the size: whole %v, %d bytes, err %v; want left to stream", whole, len(data), err)
			}
			rest, err := io.ReadAll(s)
			if err != nil || string(rest) != content {
				t.Fatalf("streamed %d bytes (err %v), want the file's %d", len(rest), err, len(content))
			}
		})
	}

	defer func(l int64) { maxLineBytes = l }(maxLineBytes)
	maxLineBytes = 100
	long := strings.Replace(content, "q7 Q0 d19007 ", "q7 Q0 d19007"+strings.Repeat("x", 100)+" ", 1)
	at := strings.Count(long[:strings.Index(long, "xxx")], "\n") + 1
	s, _ := sniffed(t, &statReader{r: strings.NewReader(long), size: int64(len(long))})
	_, _, err := readIfLarge(s, 1)
	if ie, _ := err.(*InputError); ie == nil || ie.Line != at || bytes.Count([]byte(long[:sniffBytes]), []byte("\n")) >= at {
		t.Errorf("a long line at line %d, past the sniffed bytes: %v", at, err)
	}
}

// TestSplitFieldsPlain: splitFields cuts a line where strings.FieldsFunc
// cuts it at isSpace, with each field's byte column, and reports a line
// plain only when it is valid UTF-8 without a control character (the
// checks it lets its callers skip), and every printable ASCII line plain.
func TestSplitFieldsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 10))
	alphabet := []byte("ab1.# \t\r\v\f\x00\x1b\x7f\xc2\x85\xe2\x82\xac\xff~!")
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		ascii := rng.IntN(2) == 0
		for i := range b {
			if ascii {
				b[i] = alphabet[rng.IntN(10)] // printable and separators only
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		fs, plain := splitFields(nil, b)
		want := strings.FieldsFunc(string(b), func(r rune) bool { return r < utf8.RuneSelf && isSpace(byte(r)) })
		if len(fs) != len(want) {
			t.Fatalf("%q: %d fields, want %d", b, len(fs), len(want))
		}
		for i, f := range fs {
			if string(f.b) != want[i] || string(b[f.col-1:f.col-1+len(f.b)]) != want[i] {
				t.Fatalf("%q: field %d is %q at column %d, want %q", b, i, f.b, f.col, want[i])
			}
		}
		if plain && (invalidUTF8(b) >= 0 || controlAt(b, true) >= 0) {
			t.Fatalf("%q: plain, but the checks find a problem", b)
		}
		if ascii && !plain {
			t.Fatalf("%q: printable ASCII and separators, not plain", b)
		}
	}
}
