package xlsx

// This file keeps the zip writer of tables.xlsx as it was before
// archive/zip compressed the entries itself, for BenchmarkZipDemo (see
// docs/decisions.md).

import (
	"archive/zip"
	"bytes"
	"cmp"
	"compress/flate"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"slices"

	"github.com/xuri/excelize/v2"
)

// oldZip is the zip writer given to excelize: it compresses each entry
// as it comes and, on Close, writes the entries in name order with no
// modification time. excelize writes stream sheets in map order; this
// makes the same workbook the same bytes.
//
// An entry with a splice (a per-query sheet) is held uncompressed, as
// excelize gives it, until Close: the splice then writes the sheet's data
// rows just before its </sheetData>, straight into the compressor.
type oldZip struct {
	w       io.Writer
	entries []*oldEntry
	splices map[string]func(io.Writer) error
}

// splice has the function rows write the data rows of the sheet whose zip
// entry is name, when the workbook is saved.
func (z *oldZip) splice(name string, rows func(io.Writer) error) error {
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
func (z *oldZip) writer(w io.Writer) excelize.ZipWriter {
	z.w = w
	return z
}

// Compression levels. The spliced per-query sheets are most of the
// workbook (112 MB of XML in the demo) and are compressed at BestSpeed:
// 0.36 s instead of 2.3 s at the default level for the demo's sheet, and
// 15.7 MB instead of 10.7 MB (docs/workbook.md). The other entries, small,
// keep the default level.
const (
	oldEntryLevel  = flate.DefaultCompression
	oldSpliceLevel = flate.BestSpeed
)

// oldEntry is one compressed entry waiting to be written.
type oldEntry struct {
	name       string
	compressed oldChunks
	fw         oldDeflater // a flate.Writer, or a parWriter for a spliced sheet
	crc        hash.Hash32
	size       uint64
	rows       func(io.Writer) error // the splice; nil for a plain entry
	raw        bytes.Buffer          // what excelize wrote, for a spliced entry
}

// Write compresses p, or holds it for a spliced entry.
func (e *oldEntry) Write(p []byte) (int, error) {
	if e.rows != nil {
		return e.raw.Write(p)
	}
	return e.write(p)
}

// write adds p to the compressed entry.
func (e *oldEntry) write(p []byte) (int, error) {
	e.crc.Write(p)
	e.size += uint64(len(p))
	return e.fw.Write(p)
}

// oldEntryWriter is oldEntry.write as an io.Writer, for a splice.
type oldEntryWriter struct{ e *oldEntry }

func (w oldEntryWriter) Write(p []byte) (int, error) { return w.e.write(p) }

// Create starts the entry name.
func (z *oldZip) Create(name string) (io.Writer, error) {
	e := &oldEntry{name: name, crc: crc32.NewIEEE(), rows: z.splices[name]}
	level := oldEntryLevel
	if e.rows != nil {
		level = oldSpliceLevel
	}
	if e.rows == nil {
		fw, err := flate.NewWriter(&e.compressed, level)
		if err != nil {
			return nil, err
		}
		e.fw = fw
	}
	z.entries = append(z.entries, e)
	return e, nil
}

// AddFS is not used by excelize when it saves a workbook.
func (z *oldZip) AddFS(fs.FS) error { return errors.New("xlsx: zip: AddFS is not supported") }

// oldSheetDataEnd is where the rows of a spliced sheet go.
var oldSheetDataEnd = []byte("</sheetData>")

// finish compresses a spliced entry: what excelize wrote up to its
// </sheetData>, the rows, then the rest.
func (e *oldEntry) finish() error {
	if e.rows == nil {
		return nil
	}
	x := e.raw.Bytes()
	i := bytes.Index(x, oldSheetDataEnd)
	if i < 0 || bytes.LastIndex(x, oldSheetDataEnd) != i {
		return fmt.Errorf("zip: %s: no single %s to put the rows before", e.name, oldSheetDataEnd)
	}
	pd := newParWriter(&e.compressed, oldSpliceLevel, oldParBlock)
	e.fw = pd
	if _, err := e.write(x[:i]); err != nil {
		return err
	}
	if err := e.rows(oldEntryWriter{e}); err != nil {
		return err
	}
	_, err := e.write(x[i:])
	return err
}

// oldParBlock is the size of the blocks of a spliced sheet that are
// compressed on all cores.
const oldParBlock = 4 << 20

// oldDeflater is a flate.Writer or a parWriter.
type oldDeflater interface {
	io.Writer
	Close() error
}

// Close writes the entries, in name order, and the central directory.
func (z *oldZip) Close() error {
	slices.SortStableFunc(z.entries, func(a, b *oldEntry) int { return cmp.Compare(a.name, b.name) })
	seen := map[string]bool{}
	size := 22 // the end of the central directory
	for _, e := range z.entries {
		seen[e.name] = true
		if err := e.finish(); err != nil {
			return err
		}
		if err := e.fw.Close(); err != nil {
			return err
		}
		size += e.compressed.Len() + 2*(46+len(e.name)) + 20 // headers and zip64 extra
	}
	for name := range z.splices {
		if !seen[name] {
			return fmt.Errorf("zip: no entry %s for the rows of a stream sheet", name)
		}
	}
	if b, ok := z.w.(*bytes.Buffer); ok { // excelize's: grown once, not doubled
		b.Grow(size)
	}
	zw := zip.NewWriter(z.w)
	for _, e := range z.entries {
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
		e.compressed = oldChunks{}
	}
	return zw.Close()
}

// oldChunks is a buffer of compressed bytes that grows by whole oldChunks
// instead of doubling and copying what it holds.
type oldChunks struct {
	full [][]byte
	last []byte
	n    int
}

// oldChunkSize is the size of a chunk after the first ones.
const oldChunkSize = 1 << 20

func (c *oldChunks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.last) == cap(c.last) {
			if c.last != nil {
				c.full = append(c.full, c.last)
			}
			// Small first oldChunks: most entries are a few kilobytes.
			c.last = make([]byte, 0, min(oldChunkSize, max(4<<10, 2*c.n)))
		}
		k := copy(c.last[len(c.last):cap(c.last)], p)
		c.last = c.last[:len(c.last)+k]
		p = p[k:]
	}
	c.n += n
	return n, nil
}

// Len returns the number of bytes written.
func (c *oldChunks) Len() int { return c.n }

// WriteTo writes the bytes to w.
func (c *oldChunks) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, b := range append(c.full, c.last) {
		k, err := w.Write(b)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
