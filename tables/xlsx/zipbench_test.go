package xlsx

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"os"
	"slices"
	"testing"

	kflate "github.com/klauspost/compress/flate"

	"paperbundle/internal/cputime"
)

// demoEntries reads the workbook PAPERBUNDLE_XLSX names (the demo
// bundle's tables.xlsx) as excelize would give it to the zip writer: the
// entries in reverse name order, the largest sheet without its data rows
// (raw) and its rows apart (the splice).
func demoEntries(b *testing.B) (names []string, raw map[string][]byte, big string, rows []byte) {
	path := os.Getenv("PAPERBUNDLE_XLSX")
	if path == "" {
		b.Skip("PAPERBUNDLE_XLSX names no workbook (the demo bundle's tables.xlsx)")
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		b.Fatal(err)
	}
	defer zr.Close()
	raw = map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			b.Fatal(err)
		}
		data, err := io.ReadAll(r)
		if err != nil {
			b.Fatal(err)
		}
		names = append(names, f.Name)
		raw[f.Name] = data
		if big == "" || len(data) > len(raw[big]) {
			big = f.Name
		}
	}
	slices.Sort(names)
	slices.Reverse(names)
	x := raw[big]
	lo := bytes.Index(x, []byte("<sheetData>")) + len("<sheetData>")
	hi := bytes.Index(x, sheetDataEnd)
	rows = slices.Clone(x[lo:hi])
	raw[big] = slices.Concat(x[:lo], x[hi:])
	return names, raw, big, rows
}

// writeRows writes rows in pieces of 32 kB, about as the rows writer of
// a per-query sheet hands them on.
func writeRows(w io.Writer, rows []byte) error {
	for p := rows; len(p) > 0; {
		k := min(len(p), 32<<10)
		if _, err := w.Write(p[:k]); err != nil {
			return err
		}
		p = p[k:]
	}
	return nil
}

// BenchmarkZipDemo measures the choices of docs/decisions.md on the demo
// bundle's workbook (PAPERBUNDLE_XLSX): deflate of the per-query sheet
// (its 113 MB of XML) by compress/flate and by klauspost/compress's flate,
// and the whole workbook written by archive/zip (sortedZip). The earlier
// hand-written writer and parallel deflate it was compared with are in
// commit 8cfeb8b (tables/xlsx/zip_old_test.go, pflate_old_test.go).
// cpu-s/op is the CPU time of the process per op; bytes the compressed
// size.
func BenchmarkZipDemo(b *testing.B) {
	names, raw, big, rows := demoEntries(b)
	sheet := slices.Concat(raw[big][:bytes.Index(raw[big], sheetDataEnd)], rows, raw[big][bytes.Index(raw[big], sheetDataEnd):])
	benchDeflaters(b, sheet)
	benchWorkbooks(b, names, raw, big, rows, sheet)
}

// benchDeflaters times each deflate on the per-query sheet (sheet) and
// checks that it inflates back to it.
func benchDeflaters(b *testing.B, sheet []byte) {
	deflaters := []struct {
		name string
		new  func(io.Writer) io.WriteCloser
	}{
		{"flate", func(w io.Writer) io.WriteCloser { fw, _ := flate.NewWriter(w, flate.BestSpeed); return fw }},
		{"klauspost-1", func(w io.Writer) io.WriteCloser { fw, _ := kflate.NewWriter(w, 1); return fw }},
		{"klauspost-2", func(w io.Writer) io.WriteCloser { fw, _ := kflate.NewWriter(w, 2); return fw }},
	}
	for _, d := range deflaters {
		b.Run("deflate/"+d.name, func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			c0, n := cputime.Now(), 0
			for range b.N {
				out.Reset()
				w := d.new(&out)
				if err := writeRows(w, sheet); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.StopTimer() // the check below is not the writer's
			b.ReportMetric((cputime.Now()-c0).Seconds()/float64(n), "cpu-s/op")
			b.ReportMetric(float64(out.Len()), "bytes")
			got, err := io.ReadAll(flate.NewReader(&out))
			if err != nil || !bytes.Equal(got, sheet) {
				b.Fatalf("inflated %d bytes (%v), want the sheet's %d", len(got), err, len(sheet))
			}
		})
	}
}

// benchWorkbooks times each zip writer on the whole workbook (the entries
// names with contents raw; the sheet big spliced with rows) and checks
// every entry read back.
func benchWorkbooks(b *testing.B, names []string, raw map[string][]byte, big string, rows, sheet []byte) {
	type zipWriter interface {
		Create(string) (io.Writer, error)
		Close() error
	}
	writers := []struct {
		name string
		new  func(w io.Writer) zipWriter
	}{
		{"archive-zip", func(w io.Writer) zipWriter {
			z := &sortedZip{}
			z.writer(w)
			z.splice(big, func(w io.Writer) error { return writeRows(w, rows) })
			return z
		}},
	}
	for _, zw := range writers {
		b.Run("workbook/"+zw.name, func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			c0, n := cputime.Now(), 0
			for range b.N {
				out = bytes.Buffer{} // as excelize's buffer, new for each workbook
				z := zw.new(&out)
				for _, name := range names {
					w, err := z.Create(name)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := w.Write(raw[name]); err != nil {
						b.Fatal(err)
					}
				}
				if err := z.Close(); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.StopTimer()
			b.ReportMetric((cputime.Now()-c0).Seconds()/float64(n), "cpu-s/op")
			b.ReportMetric(float64(out.Len()), "bytes")
			zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
			if err != nil || len(zr.File) != len(names) {
				b.Fatalf("%v, %d entries", err, len(zr.File))
			}
			for _, f := range zr.File {
				r, _ := f.Open()
				got, err := io.ReadAll(r)
				want := raw[f.Name]
				if f.Name == big {
					want = sheet
				}
				if err != nil || !bytes.Equal(got, want) {
					b.Fatalf("%s: %v, content differs", f.Name, err)
				}
			}
		})
	}
}
