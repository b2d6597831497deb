// Package figures renders the figures of a paper bundle from the finished
// report: it sits after report.Compute in the pipeline
//
//	inputs -> dataset -> report.Compute -> *report.Report -> renderers -> bundle
//
// and is one of the renderers. Render writes every static figure with
// gonum.org/v1/plot as SVG, PDF and 300-dpi PNG under figures/ of the
// bundle; ECharts returns the same figures as interactive go-echarts
// snippets for report.html. Both only read the Report: every number drawn
// is a number of the Report, and undefined values (NaN) are left out,
// never drawn as 0. docs/figures.md lists every figure.
//
// Output is byte-identical on rebuild: figures are built in a fixed
// order, SVG and PNG are deterministic as rendered, and PDFs carry fixed
// creation and modification dates.
package figures

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"git.sr.ht/~sbinet/gg"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"paperbundle/report"
)

// DPI is the resolution of the PNG figures.
const DPI = 300

// Dir is the folder of the bundle that holds the figures.
const Dir = "figures/"

// DefaultPDFDate is the creation and modification date written into every
// PDF when the Report carries no generation time (SOURCE_DATE_EPOCH).
var DefaultPDFDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// figure is one static figure: a file stem, a paper size and a function
// that draws it on any canvas. parts keeps the plotted data for tests.
type figure struct {
	name  string
	w, h  vg.Length
	draw  func(c draw.Canvas)
	parts map[string]any
}

// Render writes figures/<name>.svg, figures/<name>.pdf and
// figures/<name>.png for every figure the Report has data for. It matches
// report.Renderer.
func Render(s report.Sink, r *report.Report) error {
	figs := build(r)
	date := pdfDate(r)
	type out struct {
		svg, pdf, png []byte
		err           error
	}
	res := make([]out, len(figs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(runtime.GOMAXPROCS(0), len(figs))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				o := &res[i]
				if o.svg, o.err = figs[i].svg(); o.err != nil {
					continue
				}
				if o.pdf, o.err = figs[i].pdf(date); o.err != nil {
					continue
				}
				o.png, o.err = figs[i].png()
			}
		}()
	}
	for i := range figs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, f := range figs {
		if err := res[i].err; err != nil {
			return fmt.Errorf("figures: %s: %w", f.name, err)
		}
		s.Add(Dir+f.name+".svg", res[i].svg)
		s.Add(Dir+f.name+".pdf", res[i].pdf)
		s.Add(Dir+f.name+".png", res[i].png)
	}
	return nil
}

// Names returns the file stems of the figures Render writes for r, in
// order.
func Names(r *report.Report) []string {
	var out []string
	for _, f := range build(r) {
		out = append(out, f.name)
	}
	return out
}

// pdfDate is the Report's generation time, else DefaultPDFDate.
func pdfDate(r *report.Report) time.Time {
	if r.Generated != "" {
		if t, err := time.Parse(time.RFC3339, r.Generated); err == nil {
			return t.UTC()
		}
	}
	return DefaultPDFDate
}

// svg renders the figure as SVG. Fonts are not embedded; the font-family
// list falls back to Arial and Helvetica, which are metric-compatible with
// Liberation Sans, so text keeps its measured width.
func (f *figure) svg() ([]byte, error) {
	c := vgsvg.New(f.w, f.h)
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")), nil
}

// pdfMu serialises the setting of fpdf's package-level defaults with the
// creation of a document, which copies them.
var pdfMu sync.Mutex

// pdf renders the figure as PDF with fonts embedded and the given
// creation and modification date.
func (f *figure) pdf(date time.Time) ([]byte, error) {
	pdfMu.Lock()
	fpdf.SetDefaultCreationDate(date)
	fpdf.SetDefaultModificationDate(date)
	fpdf.SetDefaultCatalogSort(true)
	c := vgpdf.New(f.w, f.h)
	pdfMu.Unlock()
	f.draw(draw.New(cp1252Canvas{c}))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// png renders the figure at DPI dots per inch on white.
func (f *figure) png() ([]byte, error) {
	w := int(f.w.Dots(DPI) + 0.5)
	h := int(f.h.Dots(DPI) + 0.5)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	ctx := gg.NewContextForRGBA(img) // draws into img, no copy
	ctx.SetLineCapButt()
	ctx.InvertY()
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodePNG writes an opaque image as an 8-bit RGB PNG with the Up filter
// on every row and fast zlib compression: several times faster than
// image/png's adaptive filtering on figures, and deterministic. Alpha is
// dropped (figures are drawn on an opaque white background).
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var hdr [8]byte
		binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
		copy(hdr[4:], typ)
		out.Write(hdr[:])
		out.Write(data)
		crc := crc32.NewIEEE()
		crc.Write(hdr[4:])
		crc.Write(data)
		var c [4]byte
		binary.BigEndian.PutUint32(c[:], crc.Sum32())
		out.Write(c[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(W))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(H))
	ihdr[8], ihdr[9] = 8, 2 // bit depth 8, colour type RGB
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	if err != nil {
		return err
	}
	prev := make([]byte, 3*W)
	cur := make([]byte, 3*W)
	row := make([]byte, 1+3*W)
	row[0] = 2 // filter type Up
	for y := 0; y < H; y++ {
		pix := img.Pix[(y-b.Min.Y+b.Min.Y)*img.Stride:]
		for x := 0; x < W; x++ {
			copy(cur[3*x:3*x+3], pix[4*x:4*x+3])
		}
		for i := range cur {
			row[1+i] = cur[i] - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return err
	}
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	_, err = w.Write(out.Bytes())
	return err
}

// cp1252Canvas passes text to the PDF canvas in Windows-1252, the code
// page vgpdf embeds its fonts with: without it any non-ASCII rune of a
// label (é, ±) would print as two wrong glyphs. Runes outside the code page
// print as '?'.
type cp1252Canvas struct{ *vgpdf.Canvas }

// FillString implements vg.Canvas.
func (c cp1252Canvas) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, toCP1252(s))
}

func toCP1252(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if c, ok := charmap.Windows1252.EncodeRune(r); ok {
			b = append(b, c)
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}
