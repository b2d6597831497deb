package plot

import (
	"fmt"
	"math"
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"paperbundle/figures"
)

// This file measures what a figure puts on its page, from the drawing
// calls gonum records: the box of every text (the outlines of its glyphs
// in the font face it is set in, placed at the advance widths gonum lays
// text out with) and of every filled shape (markers, bars, areas), in page
// coordinates. Tests use it to find what is cut at a page edge and labels
// that run into each other.

// inked is one text or filled shape and its box on the page.
type inked struct {
	text string // "" for a shape
	box  vg.Rectangle
}

func (k inked) String() string {
	what := "shape"
	if k.text != "" {
		what = fmt.Sprintf("%q", k.text)
	}
	return fmt.Sprintf("%s at x %.1f-%.1f, y %.1f-%.1f pt", what, k.box.Min.X, k.box.Max.X, k.box.Min.Y, k.box.Max.Y)
}

// affine maps (x, y) to (a x + c y + e, b x + d y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.c*y + m.e), Y: vg.Length(m.b*x + m.d*y + m.f)}
}

// then is m followed, in the local coordinates, by n (m * n).
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

// boxOf is the page box of the local points pts under m.
func boxOf(m affine, pts ...vg.Point) vg.Rectangle {
	inf := vg.Length(math.Inf(1))
	r := vg.Rectangle{Min: vg.Point{X: inf, Y: inf}, Max: vg.Point{X: -inf, Y: -inf}}
	for _, p := range pts {
		q := m.apply(p)
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	return r
}

// textInk is the box of the glyphs of s set in face from the origin on
// the baseline (y up): each glyph's outline bounds, placed at the advance
// widths and kerning gonum measures the text with (font.Face.Width).
func textInk(face font.Face, s string) vg.Rectangle {
	f := face.Face
	upem := fixed.Int26_6(f.UnitsPerEm())
	scale := float64(face.Font.Size) / float64(upem) // points per font unit
	var buf sfnt.Buffer
	inf := math.Inf(1)
	x0, x1, y0, y1 := inf, -inf, inf, -inf
	pen, prev, has := fixed.Int26_6(0), sfnt.GlyphIndex(0), false
	for _, r := range s {
		g, err := f.GlyphIndex(&buf, r)
		if err != nil {
			panic(err)
		}
		if has {
			if k, err := f.Kern(&buf, prev, g, upem, xfont.HintingNone); err == nil {
				pen += k
			}
		}
		b, adv, err := f.GlyphBounds(&buf, g, upem, xfont.HintingNone)
		if err != nil {
			panic(err)
		}
		if b.Max.X > b.Min.X { // a space has no outline
			x0, x1 = math.Min(x0, float64(pen+b.Min.X)), math.Max(x1, float64(pen+b.Max.X))
			y0, y1 = math.Min(y0, float64(-b.Max.Y)), math.Max(y1, float64(-b.Min.Y)) // sfnt's y points down
		}
		pen += adv
		prev, has = g, true
	}
	if x0 > x1 {
		return vg.Rectangle{}
	}
	return vg.Rectangle{Min: vg.Point{X: vg.Length(x0 * scale), Y: vg.Length(y0 * scale)},
		Max: vg.Point{X: vg.Length(x1 * scale), Y: vg.Length(y1 * scale)}}
}

// ink lays f out on gonum's recorder and returns every text and filled
// shape it draws, in drawing order, but the page's background.
func ink(f *figure) []inked {
	rec := &recording{w: f.w, h: f.h}
	f.draw(draw.New(rec))
	m := affine{a: 1, d: 1}
	var stack []affine
	var out []inked
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Push:
			stack = append(stack, m)
		case *recorder.Pop:
			m, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case *recorder.Translate:
			m = m.then(affine{a: 1, d: 1, e: float64(a.Point.X), f: float64(a.Point.Y)})
		case *recorder.Rotate:
			s, c := math.Sincos(a.Angle)
			m = m.then(affine{a: c, b: s, c: -s, d: c})
		case *recorder.Scale:
			m = m.then(affine{a: a.X, d: a.Y})
		case *recorder.FillString:
			r := textInk(font.DefaultCache.Lookup(a.Font, a.Size), a.String)
			p := a.Point
			out = append(out, inked{text: a.String, box: boxOf(m,
				vg.Point{X: p.X + r.Min.X, Y: p.Y + r.Min.Y}, vg.Point{X: p.X + r.Max.X, Y: p.Y + r.Max.Y})})
		case *recorder.Fill:
			var pts []vg.Point
			for _, pc := range a.Path {
				switch pc.Type {
				case vg.ArcComp:
					r := pc.Radius
					pts = append(pts, vg.Point{X: pc.Pos.X - r, Y: pc.Pos.Y - r}, vg.Point{X: pc.Pos.X + r, Y: pc.Pos.Y + r},
						vg.Point{X: pc.Pos.X - r, Y: pc.Pos.Y + r}, vg.Point{X: pc.Pos.X + r, Y: pc.Pos.Y - r})
				case vg.CloseComp:
				default:
					pts = append(pts, pc.Pos)
					pts = append(pts, pc.Control...)
				}
			}
			if len(pts) > 0 {
				out = append(out, inked{box: boxOf(m, pts...)})
			}
		}
	}
	// The first fill is the page's white background.
	for i, k := range out {
		if k.text == "" {
			if k.box.Min.X <= 0 && k.box.Min.Y <= 0 && k.box.Max.X >= f.w && k.box.Max.Y >= f.h {
				out = append(out[:i], out[i+1:]...)
			}
			break
		}
	}
	return out
}

// offPage lists what f draws past an edge of its page or within m points
// of it (a marker flush with the edge of a figure shown on its own reads
// as cut, and anti-aliasing does cut it; a paper figure may reach the
// column's edge).
func offPage(f *figure, m vg.Length) []string {
	var bad []string
	for _, k := range ink(f) {
		b := k.box
		if b.Min.X < m || b.Min.Y < m || b.Max.X > f.w-m || b.Max.Y > f.h-m {
			bad = append(bad, fmt.Sprintf("%v (page %.1f x %.1f pt)", k, f.w, f.h))
		}
	}
	return bad
}

// overlappingTexts lists the pairs of texts of f whose boxes overlap
// (by more than a tenth of a point each way: boxes that only touch, as
// the lines of one legend entry do, are apart).
func overlappingTexts(f *figure) []string {
	const tol = 0.1
	var ts []inked
	for _, k := range ink(f) {
		if k.text != "" {
			ts = append(ts, k)
		}
	}
	var bad []string
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			a, b := ts[i].box, ts[j].box
			if a.Min.X+tol < b.Max.X && b.Min.X+tol < a.Max.X && a.Min.Y+tol < b.Max.Y && b.Min.Y+tol < a.Max.Y {
				bad = append(bad, ts[i].String()+" and "+ts[j].String())
			}
		}
	}
	return bad
}

// buildFig lays out spec s in look lk (page width pw for a paper look).
func buildFig(t *testing.T, s *figures.Spec, lk look, pw vg.Length) *figure {
	t.Helper()
	f, err := build(s, lk, pw)
	if err != nil {
		t.Fatalf("%s: %v", s.ID, err)
	}
	return f
}
