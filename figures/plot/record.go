package plot

import (
	"image"
	"image/color"
	"slices"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// paint draws the figure on c. The figure is laid out once, on a
// recorder, the first time: ticks, text measures, legend and panel
// layout, glyph boxes; each canvas (SVG, PDF, PNG) then gets the same
// calls, in the same order, as if the figure were drawn on it.
func (f *figure) paint(c vg.Canvas) {
	if f.clampLines {
		c = lineClamp{c}
	}
	if f.rec == nil {
		f.rec = &recorder{w: f.w, h: f.h}
		f.draw(draw.New(f.rec))
	}
	for _, op := range f.rec.ops {
		op(c)
	}
}

// recorder is a vg.Canvas of a given size that keeps the calls made on
// it. Paths and dash patterns are copied, in case a caller reuses them.
type recorder struct {
	w, h vg.Length
	ops  []func(vg.Canvas)
}

func (r *recorder) add(op func(vg.Canvas)) { r.ops = append(r.ops, op) }

// Size implements vg.CanvasSizer.
func (r *recorder) Size() (w, h vg.Length) { return r.w, r.h }

// SetLineWidth implements vg.Canvas.
func (r *recorder) SetLineWidth(w vg.Length) { r.add(func(c vg.Canvas) { c.SetLineWidth(w) }) }

// SetLineDash implements vg.Canvas.
func (r *recorder) SetLineDash(pattern []vg.Length, offset vg.Length) {
	pattern = slices.Clone(pattern)
	r.add(func(c vg.Canvas) { c.SetLineDash(pattern, offset) })
}

// SetColor implements vg.Canvas.
func (r *recorder) SetColor(col color.Color) { r.add(func(c vg.Canvas) { c.SetColor(col) }) }

// Rotate implements vg.Canvas.
func (r *recorder) Rotate(a float64) { r.add(func(c vg.Canvas) { c.Rotate(a) }) }

// Translate implements vg.Canvas.
func (r *recorder) Translate(pt vg.Point) { r.add(func(c vg.Canvas) { c.Translate(pt) }) }

// Scale implements vg.Canvas.
func (r *recorder) Scale(x, y float64) { r.add(func(c vg.Canvas) { c.Scale(x, y) }) }

// Push implements vg.Canvas.
func (r *recorder) Push() { r.add(func(c vg.Canvas) { c.Push() }) }

// Pop implements vg.Canvas.
func (r *recorder) Pop() { r.add(func(c vg.Canvas) { c.Pop() }) }

// Stroke implements vg.Canvas.
func (r *recorder) Stroke(p vg.Path) {
	p = slices.Clone(p)
	r.add(func(c vg.Canvas) { c.Stroke(p) })
}

// Fill implements vg.Canvas.
func (r *recorder) Fill(p vg.Path) {
	p = slices.Clone(p)
	r.add(func(c vg.Canvas) { c.Fill(p) })
}

// FillString implements vg.Canvas.
func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	r.add(func(c vg.Canvas) { c.FillString(f, pt, s) })
}

// DrawImage implements vg.Canvas.
func (r *recorder) DrawImage(rect vg.Rectangle, img image.Image) {
	r.add(func(c vg.Canvas) { c.DrawImage(rect, img) })
}
