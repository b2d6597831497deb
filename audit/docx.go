package audit

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// readDocx reads a Word file: the text of word/document.xml in order,
// tables included (a row is a segment, its cells are cells), then the
// footnotes of word/footnotes.xml. Each paragraph is one line of the
// source, so a finding's line is its paragraph number (body first, then
// footnotes). The file and each part are bounded (Limits): a zip bomb
// stops at XMLBytes of inflated text.
func readDocx(p string, lim Limits) (*source, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, &ReadError{File: p, Msg: "cannot read it (" + pathErr(err) + "); check the name"}
	}
	if !fi.Mode().IsRegular() {
		return nil, &ReadError{File: p, Msg: "not a regular file; audit reads manuscript files only"}
	}
	if fi.Size() > lim.DocxBytes {
		return nil, &ReadError{File: p, Msg: fmt.Sprintf("a .docx of %d MiB, larger than the %d MiB audit reads; save the manuscript without embedded media, or as .txt", fi.Size()>>20, lim.DocxBytes>>20)}
	}
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, &ReadError{File: p, Msg: "not a .docx file (" + err.Error() + "); save it from Word or LibreOffice as .docx"}
	}
	defer zr.Close()
	d := &docxText{}
	found := false
	for _, part := range []string{"word/document.xml", "word/footnotes.xml", "word/endnotes.xml"} {
		for _, f := range zr.File {
			if f.Name != part {
				continue
			}
			if err := d.readPart(f, lim); err != nil {
				return nil, &ReadError{File: p, Msg: err.Error()}
			}
			found = found || part == "word/document.xml"
		}
	}
	if !found {
		return nil, &ReadError{File: p, Msg: "a zip file without word/document.xml: not a .docx; save it from Word or LibreOffice as .docx"}
	}
	s := d.b.source(p, []byte(d.orig.String()))
	s.docx = true
	return s, nil
}

// docxText collects paragraphs: orig holds one paragraph a line, b the
// scan text with table marks.
type docxText struct {
	orig  strings.Builder
	b     builder
	para  []byte // the paragraph being read
	table int    // depth of w:tbl
}

var errTooLarge = errors.New("too large")

// readPart reads one XML part of the .docx within lim.XMLBytes.
func (d *docxText) readPart(f *zip.File, lim Limits) error {
	if f.UncompressedSize64 > uint64(lim.XMLBytes) {
		return fmt.Errorf("%s inflates to %d MiB, more than the %d MiB audit reads (a zip bomb, or a manuscript too large to audit)", f.Name, f.UncompressedSize64>>20, lim.XMLBytes>>20)
	}
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("%s: %v", f.Name, err)
	}
	defer rc.Close()
	lr := &limitedReader{r: rc, left: lim.XMLBytes}
	dec := xml.NewDecoder(lr)
	skip := 0 // depth inside an element whose text is not read
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, errTooLarge) || lr.left < 0 {
			return fmt.Errorf("%s inflates to more than the %d MiB audit reads (a zip bomb, or a manuscript too large to audit)", f.Name, lim.XMLBytes>>20)
		}
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
			// archive/zip stops at the size the header declares, so a
			// header that lies about a bomb ends here
			return fmt.Errorf("%s is damaged (%v): its size or checksum is not what the zip says; save the file again from Word or LibreOffice", f.Name, err)
		}
		if err != nil {
			return fmt.Errorf("%s is not valid XML (%v); save the file again from Word or LibreOffice", f.Name, err)
		}
		skip = d.token(tok, skip)
	}
}

// token takes one XML token of a part: text into the paragraph, the
// ends of paragraphs, cells, rows and tables; skip is the depth inside an
// element whose text is not read (deleted text, field codes, Word's
// separator notes), returned updated.
func (d *docxText) token(tok xml.Token, skip int) int {
	switch t := tok.(type) {
	case xml.StartElement:
		if skip > 0 {
			skip++
			return skip
		}
		switch t.Name.Local {
		case "delText", "instrText":
			skip = 1
		case "footnote", "endnote":
			for _, a := range t.Attr {
				if a.Name.Local == "type" { // separators, not notes
					skip = 1
				}
			}
		case "tbl":
			d.table++
		case "tab":
			d.para = append(d.para, ' ')
		case "br", "cr":
			d.para = append(d.para, ' ')
		}
	case xml.EndElement:
		if skip > 0 {
			skip--
			return skip
		}
		switch t.Name.Local {
		case "p":
			d.endPara()
		case "tc":
			d.mark(cellSep)
		case "tr":
			d.mark(rowEnd)
		case "tbl":
			d.table--
		}
	case xml.CharData:
		if skip == 0 { // between elements only whitespace, which is collapsed
			d.para = append(d.para, t...)
		}
	}
	return skip
}

// endPara ends a paragraph: one line of orig, its text in the scan text,
// a row end after it outside tables (in a table the cell and the row
// end it).
func (d *docxText) endPara() {
	text := strings.TrimSpace(strings.Join(strings.Fields(string(d.para)), " "))
	d.para = d.para[:0]
	base := d.orig.Len()
	d.orig.WriteString(text)
	for i := 0; i < len(text); i++ {
		d.b.add(text[i], base+i)
	}
	d.orig.WriteByte('\n')
	if d.table > 0 {
		d.b.add(' ', base+len(text))
	} else {
		d.b.mark(rowEnd, base+len(text))
	}
}

// mark ends a table cell or row.
func (d *docxText) mark(c byte) {
	at := max(d.orig.Len()-1, 0)
	d.b.mark(c, at)
}

// limitedReader fails once more than left bytes were read.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, errTooLarge
	}
	return n, err
}
