package xlsx

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

	"paperbundle/internal/pflate"
)

// sortedZip is the zip writer given to excelize: it compresses each entry
// as it comes and, on Close, writes the entries in name order with no
// modification time. excelize writes stream sheets in map order; this
// makes the same workbook the same bytes.
//
// An entry with a splice (a per-query sheet) is held uncompressed, as
// excelize gives it, until Close: the splice then writes the sheet's data
// rows just before its </sheetData>, straight into the compressor.
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

// Compression levels. The spliced per-query sheets are most of the
// workbook (112 MB of XML in the demo) and are compressed at BestSpeed:
// 0.36 s instead of 2.3 s at the default level for the demo's sheet, and
// 15.7 MB instead of 10.7 MB (docs/workbook.md). The other entries, small,
// keep the default level.
const (
	entryLevel  = flate.DefaultCompression
	spliceLevel = flate.BestSpeed
)

// zipEntry is one compressed entry waiting to be written.
type zipEntry struct {
	name       string
	compressed chunks
	fw         deflater // a flate.Writer, or a pflate.Writer for a spliced sheet
	crc        hash.Hash32
	size       uint64
	rows       func(io.Writer) error // the splice; nil for a plain entry
	raw        bytes.Buffer          // what excelize wrote, for a spliced entry
}

// Write compresses p, or holds it for a spliced entry.
func (e *zipEntry) Write(p []byte) (int, error) {
	if e.rows != nil {
		return e.raw.Write(p)
	}
	return e.write(p)
}

// write adds p to the compressed entry.
func (e *zipEntry) write(p []byte) (int, error) {
	e.crc.Write(p)
	e.size += uint64(len(p))
	return e.fw.Write(p)
}

// entryWriter is zipEntry.write as an io.Writer, for a splice.
type entryWriter struct{ e *zipEntry }

func (w entryWriter) Write(p []byte) (int, error) { return w.e.write(p) }

// Create starts the entry name.
func (z *sortedZip) Create(name string) (io.Writer, error) {
	e := &zipEntry{name: name, crc: crc32.NewIEEE(), rows: z.splices[name]}
	level := entryLevel
	if e.rows != nil {
		level = spliceLevel
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
func (z *sortedZip) AddFS(fs.FS) error { return errors.New("xlsx: zip: AddFS is not supported") }

// sheetDataEnd is where the rows of a spliced sheet go.
var sheetDataEnd = []byte("</sheetData>")

// finish compresses a spliced entry: what excelize wrote up to its
// </sheetData>, the rows, then the rest.
func (e *zipEntry) finish() error {
	if e.rows == nil {
		return nil
	}
	x := e.raw.Bytes()
	i := bytes.Index(x, sheetDataEnd)
	if i < 0 || bytes.LastIndex(x, sheetDataEnd) != i {
		return fmt.Errorf("zip: %s: no single %s to put the rows before", e.name, sheetDataEnd)
	}
	pd := pflate.New(&e.compressed, spliceLevel, parBlock)
	e.fw = pd
	if _, err := e.write(x[:i]); err != nil {
		return err
	}
	if err := e.rows(entryWriter{e}); err != nil {
		return err
	}
	_, err := e.write(x[i:])
	return err
}

// parBlock is the size of the blocks of a spliced sheet that are
// compressed on all cores.
const parBlock = 4 << 20

// deflater is a flate.Writer or a pflate.Writer.
type deflater interface {
	io.Writer
	Close() error
}

// Close writes the entries, in name order, and the central directory.
func (z *sortedZip) Close() error {
	slices.SortStableFunc(z.entries, func(a, b *zipEntry) int { return cmp.Compare(a.name, b.name) })
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
		e.compressed = chunks{}
	}
	return zw.Close()
}

// chunks is a buffer of compressed bytes that grows by whole chunks
// instead of doubling and copying what it holds.
type chunks struct {
	full [][]byte
	last []byte
	n    int
}

// chunkSize is the size of a chunk after the first ones.
const chunkSize = 1 << 20

func (c *chunks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.last) == cap(c.last) {
			if c.last != nil {
				c.full = append(c.full, c.last)
			}
			// Small first chunks: most entries are a few kilobytes.
			c.last = make([]byte, 0, min(chunkSize, max(4<<10, 2*c.n)))
		}
		k := copy(c.last[len(c.last):cap(c.last)], p)
		c.last = c.last[:len(c.last)+k]
		p = p[k:]
	}
	c.n += n
	return n, nil
}

// Len returns the number of bytes written.
func (c *chunks) Len() int { return c.n }

// WriteTo writes the bytes to w.
func (c *chunks) WriteTo(w io.Writer) (int64, error) {
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
