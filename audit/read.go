package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Limits bound what reading a manuscript may cost. A manuscript past them
// is refused with an error naming the file and the limit.
type Limits struct {
	FileBytes  int64 // one LaTeX, Markdown or text file
	TotalBytes int64 // every file read, \input files included
	Files      int   // files read through \input, \include, \subfile
	Depth      int   // nesting of \input
	DocxBytes  int64 // a .docx file on disk
	XMLBytes   int64 // word/document.xml or word/footnotes.xml, uncompressed
	Numbers    int   // numbers in the whole manuscript (each is a finding)
}

// DefaultLimits are far above a manuscript (a 40-page paper is about
// 150 KB of LaTeX or 1 MB of document.xml; a thesis 2 MB of LaTeX) and
// below what would take more than a few seconds or much memory.
func DefaultLimits() Limits {
	return Limits{FileBytes: 4 << 20, TotalBytes: 16 << 20, Files: 500, Depth: 16,
		DocxBytes: 32 << 20, XMLBytes: 16 << 20, Numbers: 200000}
}

// source is one file of the manuscript, ready to scan: text is orig
// without what is not prose (comments, the preamble, \label, \ref and
// \cite arguments, macro calls, LaTeX braces and commands), with two
// marks: rowEnd ends a table row or a paragraph, cellSep separates table
// cells. Positions are computed on orig through pos.
type source struct {
	file   string
	orig   []byte
	text   []byte
	pos    []int32 // pos[i]: the offset in orig of text[i]
	macros []macroUse
	docx   bool  // line numbers are paragraph numbers
	lines  []int // offsets of line starts in orig, built on first use

	colLine, colOff, colRunes int // the last column computed (lineCol)
}

const (
	rowEnd  = '\x1e'
	cellSep = '\x1f'
)

// macroUse is a paperbundle macro in LaTeX: \pbvalue{full}{ne.auroc} and
// the like, \pbassert with its expected text.
type macroUse struct {
	off  int
	name string   // without the backslash
	args []string // brace and bracket arguments in order, bracket ones marked by a leading '['
	call string   // the whole call as typed
}

// ReadError is a file of the manuscript that cannot be read: missing,
// too large, not text, an \input that leaves the manuscript's folder.
// Line is 0 when the error is not at a place in a file.
type ReadError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *ReadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// reader reads the files of one manuscript within its limits.
type reader struct {
	lim     Limits
	total   int64
	files   int
	sources []*source
}

// Read reads the manuscript files named by paths (LaTeX files with the
// files they \input) and returns them ready to scan, in reading order.
func Read(paths []string, lim Limits) ([]*source, error) {
	r := &reader{lim: lim}
	for _, p := range paths {
		if err := r.readTop(p); err != nil {
			return nil, err
		}
	}
	return r.sources, nil
}

func (r *reader) readTop(p string) error {
	switch kindOf(p) {
	case kindDocx:
		s, err := readDocx(p, r.lim)
		if err != nil {
			return err
		}
		r.sources = append(r.sources, s)
		return nil
	case kindTeX:
		root, err := filepath.Abs(filepath.Dir(p))
		if err != nil {
			return &ReadError{File: p, Msg: err.Error()}
		}
		if real, err := filepath.EvalSymlinks(root); err == nil {
			root = real
		}
		return r.readTeX(p, p, root, nil)
	case kindText:
		data, err := r.readText(p)
		if err != nil {
			return err
		}
		r.sources = append(r.sources, markdownSource(p, data))
		return nil
	}
	return &ReadError{File: p, Msg: "audit reads LaTeX (.tex), Markdown (.md), plain text (.txt) and Word (.docx) files; convert this one to one of them"}
}

type fileKind int

const (
	kindOther fileKind = iota
	kindTeX
	kindText
	kindDocx
)

func kindOf(p string) fileKind {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".tex", ".ltx":
		return kindTeX
	case ".md", ".markdown", ".txt", ".text", "":
		return kindText
	case ".docx":
		return kindDocx
	}
	return kindOther
}

// readText reads a text file within the limits: a regular file, at most
// FileBytes, valid text (no NUL byte).
func (r *reader) readText(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, &ReadError{File: p, Msg: "cannot read it (" + pathErr(err) + "); check the name"}
	}
	if !fi.Mode().IsRegular() {
		return nil, &ReadError{File: p, Msg: "not a regular file; audit reads manuscript files only"}
	}
	if fi.Size() > r.lim.FileBytes {
		return nil, &ReadError{File: p, Msg: fmt.Sprintf("larger than %d MiB, the most audit reads of one file; is it a manuscript?", r.lim.FileBytes>>20)}
	}
	r.files++
	if r.files > r.lim.Files {
		return nil, &ReadError{File: p, Msg: fmt.Sprintf("more than %d files read through \\input; is there a loop?", r.lim.Files)}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, &ReadError{File: p, Msg: "cannot read it (" + pathErr(err) + ")"}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, r.lim.FileBytes+1))
	if err != nil {
		return nil, &ReadError{File: p, Msg: "cannot read it (" + pathErr(err) + ")"}
	}
	if int64(len(data)) > r.lim.FileBytes {
		return nil, &ReadError{File: p, Msg: fmt.Sprintf("larger than %d MiB, the most audit reads of one file", r.lim.FileBytes>>20)}
	}
	r.total += int64(len(data))
	if r.total > r.lim.TotalBytes {
		return nil, &ReadError{File: p, Msg: fmt.Sprintf("the manuscript passes %d MiB with this file, the most audit reads", r.lim.TotalBytes>>20)}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line := bytes.Count(data[:i], []byte{'\n'}) + 1
		return nil, &ReadError{File: p, Line: line, Col: 1, Msg: "a NUL byte: this is not a text file"}
	}
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("?"))
	}
	return data, nil
}

func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
