// Package plot draws the figure specs of package figures as static files
// with gonum.org/v1/plot: SVG (fonts not embedded), PDF (the glyphs used of
// Liberation Sans embedded as a TrueType subset, UTF-8; fixed dates) and
// 300-dpi PNG. It sits at the end of the
// pipeline
//
//	*report.Report -> figures.Catalogue -> []figures.Spec -> plot.Render -> figures/<id>.svg|.pdf|.png
//
// Each SVG figure also comes as markup for report.html (File.Inline, see
// inline.go): the same drawing, written for the page with its styles as
// the page's classes, so the page inlines it as it is.
//
// gonum/plot, fpdf and the workarounds for their limits live here only.
// The house style (Liberation Sans, the Okabe-Ito palette, viridis heat
// maps, legends in a column beside the data) is in style.go.
//
// Output is byte-identical on rebuild and on any number of cores: figures
// are drawn in parallel, each into its own buffers, and returned in spec
// order; SVG and PNG are deterministic as rendered, and PDFs carry the
// creation and modification dates of Options.Date.
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"runtime"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"paperbundle/figures"
)

// DPI is the resolution of the PNG figures.
const DPI = 300

// Dir is the folder of the bundle that holds the figures.
const Dir = "figures/"

// DefaultDate is the creation and modification date written into every
// PDF when the Report carries no generation time (SOURCE_DATE_EPOCH).
var DefaultDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Options control Render.
type Options struct {
	// Date is the creation and modification date of every PDF: the
	// Report's generation time (see DateOf); the zero time means
	// DefaultDate.
	Date time.Time

	// OnSVG, when set, is called once every figure's SVG is made, with
	// the SVG files (and their page markup, File.Inline) in catalogue
	// order, before the PDFs and PNGs are made (a page that inlines the
	// SVGs can be written meanwhile). It is not called when a figure
	// fails.
	OnSVG func(svg []File)
}

// DateOf returns the PDF date of a report's generation time (RFC 3339, as
// report.Report.Generated holds it): the time in UTC, else DefaultDate.
func DateOf(generated string) time.Time {
	if generated != "" {
		if t, err := time.Parse(time.RFC3339, generated); err == nil {
			return t.UTC()
		}
	}
	return DefaultDate
}

// File is one rendered file: its path in the bundle and its bytes.
type File struct {
	ID   figures.FigureID // the figure drawn
	Name string           // figures/<id>.svg, .pdf or .png
	Data []byte
	// Inline is the figure as markup for report.html (SVG files only).
	Inline *InlineSVG
}

// figure is one static figure ready to draw: a file stem, a paper size and
// a function that draws it on any canvas.
type figure struct {
	name string
	w, h vg.Length
	draw func(c draw.Canvas)
	rec  *recording // the drawing, made by the first paint
	// clampLines keeps every stroke between 0.5 and 1 pt (paper figures).
	clampLines bool
}

// Render draws every spec as figures/<id>.svg, figures/<id>.pdf and
// figures/<id>.png, in spec order (each as SVG, PDF, PNG). Figures are
// drawn on GOMAXPROCS goroutines; the bytes are those of a one-goroutine
// render.
func Render(specs []figures.Spec, opt Options) ([]File, error) {
	date := opt.Date
	if date.IsZero() {
		date = DefaultDate
	}
	type out struct {
		f             *figure
		svg, pdf, png []byte
		inline        *InlineSVG
		err           error
	}
	res := make([]out, len(specs))
	// Two passes on all cores: every figure laid out and drawn as SVG,
	// then as PDF and PNG.
	each := func(job func(o *out, s *figures.Spec)) {
		jobs := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < max(1, min(runtime.GOMAXPROCS(0), len(specs))); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					if res[i].err == nil {
						job(&res[i], &specs[i])
					}
				}
			}()
		}
		for i := range specs {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
	}
	each(func(o *out, s *figures.Spec) {
		if o.f, o.err = build(s, screen, 0); o.err == nil {
			o.svg, o.err = o.f.svg()
			o.inline = o.f.inline()
		}
	})
	for i := range specs {
		if err := res[i].err; err != nil {
			return nil, fmt.Errorf("plot: %s: %w", specs[i].ID, err)
		}
	}
	if opt.OnSVG != nil {
		svg := make([]File, len(specs))
		for i := range specs {
			svg[i] = File{specs[i].ID, Dir + specs[i].ID.String() + ".svg", res[i].svg, res[i].inline}
		}
		opt.OnSVG(svg)
	}
	each(func(o *out, s *figures.Spec) {
		if o.pdf, o.err = o.f.pdf(date); o.err == nil {
			o.png, o.err = o.f.png()
		}
		o.f = nil
	})
	files := make([]File, 0, 3*len(specs))
	for i := range specs {
		if err := res[i].err; err != nil {
			return nil, fmt.Errorf("plot: %s: %w", specs[i].ID, err)
		}
		id, name := specs[i].ID, Dir+specs[i].ID.String()
		files = append(files, File{id, name + ".svg", res[i].svg, res[i].inline}, File{id, name + ".pdf", res[i].pdf, nil},
			File{id, name + ".png", res[i].png, nil})
	}
	return files, nil
}

// svg renders the figure as SVG. Fonts are not embedded; the font-family
// list falls back to Arial and Helvetica, which are metric-compatible with
// Liberation Sans, so text keeps its measured width.
func (f *figure) svg() ([]byte, error) {
	c := vgsvg.New(f.w, f.h)
	paintPage(c, f.w, f.h)
	f.paint(c)
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
	c := newPDFCanvas(f.w, f.h)
	pdfMu.Unlock()
	paintPage(c, f.w, f.h)
	f.paint(c)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// paintPage fills the whole page white: the plots draw no background of
// their own (see newPlot).
func paintPage(c vg.Canvas, w, h vg.Length) {
	c.SetColor(color.White)
	c.Fill(vg.Rectangle{Max: vg.Point{X: w, Y: h}}.Path())
}

// arcsToCurves returns p with every arc replaced by a line to its start
// (as vg.Path.Arc draws one) and cubic Bézier segments of at most 90°:
// for a segment of angle θ from a0 to a1 on a circle of radius r, the
// control points lie on the tangents at distance
//
//	k = 4/3 · tan(θ/4) · r
//
// which keeps the radial error below 0.03% of r.
func arcsToCurves(p vg.Path) vg.Path {
	has := false
	for _, c := range p {
		if c.Type == vg.ArcComp {
			has = true
			break
		}
	}
	if !has {
		return p
	}
	out := make(vg.Path, 0, len(p)+8)
	for i, c := range p {
		if c.Type != vg.ArcComp {
			out = append(out, c)
			continue
		}
		r := float64(c.Radius)
		at := func(a float64) vg.Point {
			return vg.Point{X: c.Pos.X + vg.Length(r*math.Cos(a)), Y: c.Pos.Y + vg.Length(r*math.Sin(a))}
		}
		start := vg.PathComp{Type: vg.LineComp, Pos: at(c.Start)}
		if i == 0 {
			start.Type = vg.MoveComp
		}
		out = append(out, start)
		n := max(1, int(math.Ceil(math.Abs(c.Angle)/(math.Pi/2)-1e-9)))
		th := c.Angle / float64(n)
		k := 4.0 / 3 * math.Tan(th/4) * r
		for j := 0; j < n; j++ {
			a0 := c.Start + float64(j)*th
			a1 := a0 + th
			p0, p3 := at(a0), at(a1)
			p1 := vg.Point{X: p0.X - vg.Length(k*math.Sin(a0)), Y: p0.Y + vg.Length(k*math.Cos(a0))}
			p2 := vg.Point{X: p3.X + vg.Length(k*math.Sin(a1)), Y: p3.Y - vg.Length(k*math.Cos(a1))}
			out = append(out, vg.PathComp{Type: vg.CurveComp, Pos: p3, Control: []vg.Point{p1, p2}})
		}
	}
	return out
}
