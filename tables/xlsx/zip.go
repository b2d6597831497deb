package xlsx

import (
	"archive/zip"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/klauspost/compress/flate"
	"github.com/xuri/excelize/v2"
)

// sortedZip is the zip writer given to excelize: it holds each entry as
// excelize writes it and, on Close, has archive/zip write the entries in
// name order with no modification time. excelize writes stream sheets in
// map order; this makes the same workbook the same bytes.
//
// An entry with a splice (a per-query sheet) gets the sheet's data rows
// on Close, just before its </sheetData>, written straight into the
// entry's compressor.
type sortedZip struct {
	w       io.Writer
	entries []*zipEntry
	splices map[string]func(io.Writer) error
}

// splice has the function rows write the data rows of the sheet whose zip
// entry is name, when the workbook is saved.
func (z *sortedZip) splice(name string, rows func(io.Writer) error) error {
	if _, dup := z.splices[name]; dup {
		return fmt.Errorf("zip: %s spliced twice", name)
	}
	if z.splices == nil {
		z.splices = map[string]func(io.Writer) error{}
	}
	z.splices[name] = rows
	return nil
}

// writer returns z as the zip writer of a workbook written to w.
func (z *sortedZip) writer(w io.Writer) excelize.ZipWriter {
	z.w = w
	return z
}

// The spliced per-query sheets are most of the workbook (113 MB of XML
// in the demo) and are compressed by klauspost/compress's deflate at
// BestSpeed, on one core: about 0.35 s and 15.6 MB for the demo's sheet,
// where compress/flate at its default level takes 2.3 s (10.7 MB) and at
// BestSpeed 0.4 s (15.7 MB); docs/workbook.md and docs/decisions.md. The
// other entries, small, get archive/zip's own deflate compressor.
const spliceLevel = flate.BestSpeed

// zipEntry is one entry as excelize wrote it.
type zipEntry struct {
	name string
	raw  bytes.Buffer
	rows func(io.Writer) error // the splice; nil for a plain entry
}

// Create starts the entry name.
func (z *sortedZip) Create(name string) (io.Writer, error) {
	e := &zipEntry{name: name, rows: z.splices[name]}
	z.entries = append(z.entries, e)
	return &e.raw, nil
}

// AddFS is not used by excelize when it saves a workbook.
func (z *sortedZip) AddFS(fs.FS) error { return errors.New("xlsx: zip: AddFS is not supported") }

// sheetDataEnd is where the rows of a spliced sheet go.
var sheetDataEnd = []byte("</sheetData>")

// fastCompressor compresses a spliced sheet.
func fastCompressor(w io.Writer) (io.WriteCloser, error) {
	return flate.NewWriter(w, spliceLevel)
}

// Close writes the entries, in name order, and the central directory.
func (z *sortedZip) Close() error {
	slices.SortStableFunc(z.entries, func(a, b *zipEntry) int { return cmp.Compare(a.name, b.name) })
	seen := map[string]bool{}
	for _, e := range z.entries {
		seen[e.name] = true
	}
	for name := range z.splices {
		if !seen[name] {
			return fmt.Errorf("zip: no entry %s for the rows of a stream sheet", name)
		}
	}
	zw := zip.NewWriter(z.w)
	for _, e := range z.entries {
		if err := e.writeTo(zw); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeTo writes the entry into zw: what excelize wrote, with the rows of
// a spliced sheet before its </sheetData>.
func (e *zipEntry) writeTo(zw *zip.Writer) error {
	x := e.raw.Bytes()
	i := len(x)
	if e.rows != nil {
		i = bytes.Index(x, sheetDataEnd)
		if i < 0 || bytes.LastIndex(x, sheetDataEnd) != i {
			return fmt.Errorf("zip: %s: no single %s to put the rows before", e.name, sheetDataEnd)
		}
		zw.RegisterCompressor(zip.Deflate, fastCompressor)
		defer zw.RegisterCompressor(zip.Deflate, nil) // archive/zip's own again
	}
	w, err := zw.Create(e.name)
	if err != nil {
		return err
	}
	if _, err := w.Write(x[:i]); err != nil {
		return err
	}
	if e.rows != nil {
		if err := e.rows(w); err != nil {
			return err
		}
	}
	_, err = w.Write(x[i:])
	e.raw = bytes.Buffer{}
	return err
}
