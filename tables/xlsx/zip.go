package xlsx

import (
	"archive/zip"
	"bytes"
	"cmp"
	"compress/flate"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"slices"

	"github.com/xuri/excelize/v2"
)

// sortedZip is the zip writer given to excelize: it compresses each entry
// as it comes and, on Close, writes the entries in name order with no
// modification time. excelize writes stream sheets in map order; this
// makes the same workbook the same bytes.
type sortedZip struct {
	w       io.Writer
	entries []*zipEntry
}

func newSortedZip(w io.Writer) excelize.ZipWriter { return &sortedZip{w: w} }

// zipEntry is one compressed entry waiting to be written.
type zipEntry struct {
	name       string
	compressed bytes.Buffer
	fw         *flate.Writer
	crc        hash.Hash32
	size       uint64
}

func (e *zipEntry) Write(p []byte) (int, error) {
	e.crc.Write(p)
	e.size += uint64(len(p))
	return e.fw.Write(p)
}

// Create starts the entry name.
func (z *sortedZip) Create(name string) (io.Writer, error) {
	e := &zipEntry{name: name, crc: crc32.NewIEEE()}
	fw, err := flate.NewWriter(&e.compressed, flate.DefaultCompression)
	if err != nil {
		return nil, err
	}
	e.fw = fw
	z.entries = append(z.entries, e)
	return e, nil
}

// AddFS is not used by excelize when it saves a workbook.
func (z *sortedZip) AddFS(fs.FS) error { return errors.New("xlsx: zip: AddFS is not supported") }

// Close writes the entries, in name order, and the central directory.
func (z *sortedZip) Close() error {
	slices.SortStableFunc(z.entries, func(a, b *zipEntry) int { return cmp.Compare(a.name, b.name) })
	zw := zip.NewWriter(z.w)
	for _, e := range z.entries {
		if err := e.fw.Close(); err != nil {
			return err
		}
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name:               e.name,
			Method:             zip.Deflate,
			CRC32:              e.crc.Sum32(),
			CompressedSize64:   uint64(e.compressed.Len()),
			UncompressedSize64: e.size,
		})
		if err != nil {
			return err
		}
		if _, err := e.compressed.WriteTo(w); err != nil {
			return err
		}
	}
	return zw.Close()
}
