package plot

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// pdfCanvas is a vg.Canvas that draws a PDF page with fpdf directly. It
// exists for its text: gonum's vgpdf embeds its fonts in the Windows-1252
// code page (a label "BM25+RM3 (α=0.5)" prints "(?=0.5)") and embeds the
// whole font program in every file (some 220 kB). Here text is set in the
// TrueType font of the face as UTF-8, and fpdf embeds the subset of
// glyphs the page uses, so Greek, accents and math signs print and a
// figure PDF stays small. It also takes colours with straight (not
// premultiplied) components and alpha, and draws arcs as Bézier curves
// (arcsToCurves), which the PDF path operators need.
//
// Coordinates: vg's origin is the bottom left with y up; fpdf's is the top
// left with y down. The page starts with a transform that flips y (as
// vgpdf does), so paths are written in vg's coordinates.
type pdfCanvas struct {
	doc    *fpdf.Fpdf
	w, h   vg.Length
	width  []vg.Length // line width per Push level
	fonts  map[string]bool
	images int
	err    error
}

// newPDFCanvas returns a one-page PDF canvas of w × h. The caller holds
// pdfMu while fpdf's package defaults (dates) are read.
func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: w.Points(), Ht: h.Points()}})
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.AddPage()
	c := &pdfCanvas{doc: doc, w: w, h: h, width: []vg.Length{1}, fonts: map[string]bool{}}
	c.Push()
	c.Translate(vg.Point{Y: h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

// SetLineWidth implements vg.Canvas.
func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.width[len(c.width)-1] = w
	c.doc.SetLineWidth(w.Points())
}

// SetLineDash implements vg.Canvas.
func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = d.Points()
	}
	c.doc.SetDashPattern(ds, offs.Points())
}

// SetColor implements vg.Canvas: the straight components as the colour
// of lines, fills and text, and alpha as the opacity.
func (c *pdfCanvas) SetColor(col color.Color) {
	if col == nil {
		col = color.Black
	}
	n := color.NRGBAModel.Convert(col).(color.NRGBA)
	r, g, b := int(n.R), int(n.G), int(n.B)
	c.doc.SetFillColor(r, g, b)
	c.doc.SetDrawColor(r, g, b)
	c.doc.SetTextColor(r, g, b)
	c.doc.SetAlpha(float64(n.A)/255, "Normal")
}

// Rotate implements vg.Canvas (counter-clockwise in vg's coordinates).
func (c *pdfCanvas) Rotate(rad float64) { c.doc.TransformRotate(-rad*180/math.Pi, 0, 0) }

// Translate implements vg.Canvas.
func (c *pdfCanvas) Translate(pt vg.Point) { c.doc.TransformTranslate(pt.X.Points(), pt.Y.Points()) }

// Scale implements vg.Canvas.
func (c *pdfCanvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

// Push implements vg.Canvas.
func (c *pdfCanvas) Push() {
	c.width = append(c.width, c.width[len(c.width)-1])
	c.doc.TransformBegin()
}

// Pop implements vg.Canvas.
func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.width = c.width[:len(c.width)-1]
}

// Stroke implements vg.Canvas.
func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.width[len(c.width)-1] > 0 {
		c.path(arcsToCurves(p), "D")
	}
}

// Fill implements vg.Canvas.
func (c *pdfCanvas) Fill(p vg.Path) { c.path(arcsToCurves(p), "F") }

// path writes p (arcs already made curves) and paints it.
func (c *pdfCanvas) path(p vg.Path, style string) {
	var start vg.Point
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			start = comp.Pos
			c.doc.MoveTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.LineComp:
			c.doc.LineTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				c.doc.CurveTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(), comp.Pos.X.Points(), comp.Pos.Y.Points())
			case 2:
				c.doc.CurveBezierCubicTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(),
					comp.Control[1].X.Points(), comp.Control[1].Y.Points(), comp.Pos.X.Points(), comp.Pos.Y.Points())
			}
		case vg.CloseComp:
			c.doc.LineTo(start.X.Points(), start.Y.Points())
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

// FillString implements vg.Canvas: s in the face's TrueType font, UTF-8,
// its baseline's left end at pt.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 || s == "" {
		return
	}
	name := fontName(f)
	if !c.fonts[name] {
		var buf bytes.Buffer
		if _, err := f.Face.WriteSourceTo(nil, &buf); err != nil {
			c.err = fmt.Errorf("figure PDF: font %s: %w", name, err)
			return
		}
		c.doc.AddUTF8FontFromBytes(name, "", buf.Bytes())
		c.fonts[name] = true
	}
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1)
	// A font set inside an earlier q ... Q is gone from the page's state
	// while fpdf still counts it as current, and fpdf writes Tf only for a
	// change: a size a thousandth of a point off (written the same, to two
	// decimals) makes it write the font each time.
	c.doc.SetFont(name, "", f.Font.Size.Points()+0.001)
	c.doc.SetFont(name, "", f.Font.Size.Points())
	c.doc.Text(0, 0, s)
}

// fontName is the name a face's font is registered under in the PDF.
func fontName(f font.Face) string {
	return string(f.Font.Typeface) + string(f.Font.Variant) + fmt.Sprint(int(f.Font.Style), int(f.Font.Weight))
}

// DrawImage implements vg.Canvas: the image as a PNG in rect.
func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.err = err
		return
	}
	c.images++
	name := fmt.Sprintf("image%d", c.images)
	opt := fpdf.ImageOptions{ImageType: "png"}
	c.doc.RegisterImageOptionsReader(name, opt, &buf)
	c.Push()
	defer c.Pop()
	// The image is drawn top down: flip it back within its rectangle.
	c.Translate(vg.Point{X: rect.Min.X, Y: rect.Max.Y})
	c.Scale(1, -1)
	sz := rect.Size()
	c.doc.ImageOptions(name, 0, 0, sz.X.Points(), sz.Y.Points(), false, opt, 0, "")
}

// Size implements vg.CanvasSizer.
func (c *pdfCanvas) Size() (vg.Length, vg.Length) { return c.w, c.h }

// WriteTo writes the PDF.
func (c *pdfCanvas) WriteTo(w io.Writer) (int64, error) {
	if c.err != nil {
		return 0, c.err
	}
	c.Pop()
	var buf bytes.Buffer
	if err := c.doc.Output(&buf); err != nil {
		return 0, err
	}
	return buf.WriteTo(w)
}
