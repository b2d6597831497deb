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
	"fmt"
	"image/png"
	"runtime"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
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
	c := vgimg.NewWith(vgimg.UseWH(f.w, f.h), vgimg.UseDPI(DPI))
	f.draw(draw.New(c))
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, c.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
