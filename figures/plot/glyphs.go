package plot

import (
	"image"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// FillString implements vg.Canvas: the text as vgimg draws it (the same
// calls on the same gg context), but with one font face per font and
// size for the whole figure instead of a new one for each text, and
// glyph masks kept from figure to figure (see glyphFace).
func (c pngCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 {
		return
	}
	face, ok := c.faces[f]
	if !ok {
		face = &glyphFace{Face: f.FontFace(c.DPI()), key: faceKey{face: f, dpi: c.DPI()}}
		c.faces[f] = face
	}
	c.ctx.Push()
	defer c.ctx.Pop()
	c.ctx.SetFontFace(face)
	_, h := c.Size()
	x, y := pt.X.Dots(c.DPI()), pt.Y.Dots(c.DPI())
	c.ctx.InvertY()
	c.ctx.DrawString(s, x, h.Dots(c.DPI())-y)
}

// glyphFace is an x/image font face that keeps the glyph masks it
// returns, and its kerning, in glyphCache. The mask of a glyph depends on the
// face, the rune and where the dot falls within a pixel (1/64ths in x and
// y): a glyph drawn a whole number of pixels away is the same mask over
// a rectangle moved by as many pixels. The figures of one kind put the
// same texts at the same places, so the demo's 105 figures draw about
// 5,800 distinct glyph masks (2 MB), each rasterised once.
type glyphFace struct {
	xfont.Face         // the figure's own: rasterises what glyphCache lacks
	key        faceKey // what the masks are kept under
}

// faceKey is a gonum font face (font, size, parsed font) at a resolution.
type faceKey struct {
	face font.Face
	dpi  float64
}

// glyphKey is a rune in a face with the sub-pixel offset of the dot; a
// kerning pair is r with kern set to the rune before it.
type glyphKey struct {
	faceKey
	r, kern rune
	dx, dy  fixed.Int26_6 // 0 to 63
	isKern  bool
}

// glyph is what Glyph returned for a dot at (dx, dy) of pixel (0, 0), or
// a kerning.
type glyph struct {
	dr      image.Rectangle
	mask    *image.Alpha // a copy: the face reuses its own; nil for none
	maskp   image.Point
	advance fixed.Int26_6 // the kerning of a pair
	ok      bool
}

// glyphCache keeps masks and kernings for all figures and goroutines. It
// stops taking new ones beyond maxGlyphBytes of masks or maxGlyphs
// entries; the figures are the same whether a glyph comes from it or
// from the face.
var glyphCache struct {
	sync.RWMutex
	m     map[glyphKey]glyph
	bytes int
}

const (
	maxGlyphBytes = 32 << 20
	maxGlyphs     = 1 << 18
)

func lookupGlyph(k glyphKey) (glyph, bool) {
	glyphCache.RLock()
	g, ok := glyphCache.m[k]
	glyphCache.RUnlock()
	return g, ok
}

func keepGlyph(k glyphKey, g glyph) {
	glyphCache.Lock()
	defer glyphCache.Unlock()
	if len(glyphCache.m) >= maxGlyphs || g.mask != nil && glyphCache.bytes+len(g.mask.Pix) > maxGlyphBytes {
		return
	}
	if glyphCache.m == nil {
		glyphCache.m = map[glyphKey]glyph{}
	}
	if _, dup := glyphCache.m[k]; !dup {
		glyphCache.m[k] = g
		if g.mask != nil {
			glyphCache.bytes += len(g.mask.Pix)
		}
	}
}

// Glyph implements font.Face.
func (f *glyphFace) Glyph(dot fixed.Point26_6, r rune) (dr image.Rectangle, mask image.Image, maskp image.Point, advance fixed.Int26_6, ok bool) {
	k := glyphKey{faceKey: f.key, r: r, dx: dot.X & 63, dy: dot.Y & 63}
	g, hit := lookupGlyph(k)
	if !hit {
		var m image.Image
		g.dr, m, g.maskp, g.advance, g.ok = f.Face.Glyph(fixed.Point26_6{X: k.dx, Y: k.dy}, r)
		switch m := m.(type) {
		case *image.Alpha:
			g.mask = &image.Alpha{Pix: append([]uint8(nil), m.Pix...), Stride: m.Stride, Rect: m.Rect}
		case nil:
		default: // not the opentype face's mask: drawn as it comes
			return f.Face.Glyph(dot, r)
		}
		keepGlyph(k, g)
	}
	off := image.Point{X: int(dot.X >> 6), Y: int(dot.Y >> 6)}
	if g.mask == nil {
		return g.dr.Add(off), nil, g.maskp, g.advance, g.ok
	}
	return g.dr.Add(off), g.mask, g.maskp, g.advance, g.ok
}

// Kern implements font.Face.
func (f *glyphFace) Kern(r0, r1 rune) fixed.Int26_6 {
	k := glyphKey{faceKey: f.key, r: r1, kern: r0, isKern: true}
	g, hit := lookupGlyph(k)
	if !hit {
		g.advance = f.Face.Kern(r0, r1)
		keepGlyph(k, g)
	}
	return g.advance
}
