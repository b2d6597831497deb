package plot

import (
	"image"
	"image/color"
	"slices"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// The hand-written recorder figures/plot used before gonum's vg/recorder,
// kept for BenchmarkRecorder (see docs/decisions.md).

// closureRecorder is a vg.Canvas of a given size that keeps the calls made on
// it. Paths and dash patterns are copied, in case a caller reuses them.
type closureRecorder struct {
	w, h vg.Length
	ops  []func(vg.Canvas)
}

func (r *closureRecorder) add(op func(vg.Canvas)) { r.ops = append(r.ops, op) }

// Size implements vg.CanvasSizer.
func (r *closureRecorder) Size() (w, h vg.Length) { return r.w, r.h }

// SetLineWidth implements vg.Canvas.
func (r *closureRecorder) SetLineWidth(w vg.Length) { r.add(func(c vg.Canvas) { c.SetLineWidth(w) }) }

// SetLineDash implements vg.Canvas.
func (r *closureRecorder) SetLineDash(pattern []vg.Length, offset vg.Length) {
	pattern = slices.Clone(pattern)
	r.add(func(c vg.Canvas) { c.SetLineDash(pattern, offset) })
}

// SetColor implements vg.Canvas.
func (r *closureRecorder) SetColor(col color.Color) { r.add(func(c vg.Canvas) { c.SetColor(col) }) }

// Rotate implements vg.Canvas.
func (r *closureRecorder) Rotate(a float64) { r.add(func(c vg.Canvas) { c.Rotate(a) }) }

// Translate implements vg.Canvas.
func (r *closureRecorder) Translate(pt vg.Point) { r.add(func(c vg.Canvas) { c.Translate(pt) }) }

// Scale implements vg.Canvas.
func (r *closureRecorder) Scale(x, y float64) { r.add(func(c vg.Canvas) { c.Scale(x, y) }) }

// Push implements vg.Canvas.
func (r *closureRecorder) Push() { r.add(func(c vg.Canvas) { c.Push() }) }

// Pop implements vg.Canvas.
func (r *closureRecorder) Pop() { r.add(func(c vg.Canvas) { c.Pop() }) }

// Stroke implements vg.Canvas.
func (r *closureRecorder) Stroke(p vg.Path) {
	p = slices.Clone(p)
	r.add(func(c vg.Canvas) { c.Stroke(p) })
}

// Fill implements vg.Canvas.
func (r *closureRecorder) Fill(p vg.Path) {
	p = slices.Clone(p)
	r.add(func(c vg.Canvas) { c.Fill(p) })
}

// FillString implements vg.Canvas.
func (r *closureRecorder) FillString(f font.Face, pt vg.Point, s string) {
	r.add(func(c vg.Canvas) { c.FillString(f, pt, s) })
}

// DrawImage implements vg.Canvas.
func (r *closureRecorder) DrawImage(rect vg.Rectangle, img image.Image) {
	r.add(func(c vg.Canvas) { c.DrawImage(rect, img) })
}
