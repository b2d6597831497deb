package xlsx

import (
	"archive/zip"
	"bytes"
	"cmp"
	"errors"
	"io"
	"io/fs"
	"slices"

	"github.com/xuri/excelize/v2"
)

// sortedZip is the zip writer given to excelize: it holds each entry as
// excelize writes it and, on Close, has archive/zip write the entries in
// name order with no modification time. excelize writes its parts in map
// order; this makes the same workbook the same bytes.
type sortedZip struct {
	w       io.Writer
	entries []*zipEntry
}

// writer returns z as the zip writer of a workbook written to w.
func (z *sortedZip) writer(w io.Writer) excelize.ZipWriter {
	z.w = w
	return z
}

// zipEntry is one entry as excelize wrote it.
type zipEntry struct {
	name string
	raw  bytes.Buffer
}

// Create starts the entry name.
func (z *sortedZip) Create(name string) (io.Writer, error) {
	e := &zipEntry{name: name}
	z.entries = append(z.entries, e)
	return &e.raw, nil
}

// AddFS is not used by excelize when it saves a workbook.
func (z *sortedZip) AddFS(fs.FS) error { return errors.New("xlsx: zip: AddFS is not supported") }

// Close writes the entries, in name order, and the central directory.
func (z *sortedZip) Close() error {
	slices.SortStableFunc(z.entries, func(a, b *zipEntry) int { return cmp.Compare(a.name, b.name) })
	zw := zip.NewWriter(z.w)
	for _, e := range z.entries {
		if err := e.writeTo(zw); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeTo writes the entry into zw as excelize wrote it.
func (e *zipEntry) writeTo(zw *zip.Writer) error {
	w, err := zw.Create(e.name)
	if err != nil {
		return err
	}
	_, err = w.Write(e.raw.Bytes())
	e.raw = bytes.Buffer{}
	return err
}
