package plot

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"sync"

	"git.sr.ht/~sbinet/gg"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"paperbundle/internal/pngenc"
)

// This file holds the raster output: the 300-dpi canvas, the resampling of
// raster images (heat maps, colour bars) onto it; the PNG encoder is in
// paperbundle/internal/pngenc.

// png renders the figure at DPI dots per inch on white. The page is white
// from vgimg's memory fill. Glyphs are placed with the nearest-neighbour
// interpolator: text is drawn at whole-pixel offsets, where bilinear
// sampling gives the same pixels, and nearest-neighbour lets x/image copy
// each glyph mask directly instead of resampling it. Raster images go
// through pngCanvas.DrawImage.
func (f *figure) png() ([]byte, error) {
	img := f.raster()
	defer putRaster(img)
	var buf bytes.Buffer
	if err := pngenc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// raster draws the figure at DPI dots per inch (see png) into an image
// of the pool; putRaster gives it back.
func (f *figure) raster() *image.RGBA {
	w := int(f.w.Dots(DPI) + 0.5)
	h := int(f.h.Dots(DPI) + 0.5)
	img := getRaster(w, h)
	ctx := gg.NewContextForRGBA(img) // draws into img, no copy
	ctx.SetLineCapButt()
	ctx.InvertY()
	ctx.SetInterpolator(xdraw.NearestNeighbor)
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI))
	f.paint(pngCanvas{Canvas: c, img: img, ctx: ctx, faces: map[font.Face]*glyphFace{}})
	return img
}

// rasters holds the pixels of figures drawn and encoded, for the next
// figure: a 300-dpi figure is 7 to 10 MB of RGBA, which a new image
// clears and, once the collector has returned it, faults in again. The
// canvas paints every pixel white before drawing (vgimg.NewWith), so
// what an image held before does not show.
var rasters sync.Pool

// getRaster returns a w x h image from the pool, or a new one.
func getRaster(w, h int) *image.RGBA {
	n := 4 * w * h
	if p, ok := rasters.Get().(*[]uint8); ok && cap(*p) >= n {
		return &image.RGBA{Pix: (*p)[:n], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

// putRaster gives the pixels of img back to the pool.
func putRaster(img *image.RGBA) {
	p := img.Pix
	rasters.Put(&p)
}

// pngCanvas is the vgimg canvas of a figure with its own drawing of
// raster images (DrawImage) and text (FillString, glyphs.go).
type pngCanvas struct {
	*vgimg.Canvas
	img   *image.RGBA
	ctx   *gg.Context // the canvas's
	faces map[font.Face]*glyphFace
}

// DrawImage implements vg.Canvas. An opaque image is area-averaged onto
// the pixels whose centres it covers (boxResample); others are drawn by
// vgimg with bilinear resampling.
func (c pngCanvas) DrawImage(r vg.Rectangle, src image.Image) {
	// vgimg maps r to device pixels with y running down from the top.
	H := float64(c.img.Bounds().Dy())
	x0, x1 := r.Min.X.Dots(DPI), r.Max.X.Dots(DPI)
	y0, y1 := H-r.Max.Y.Dots(DPI), H-r.Min.Y.Dots(DPI)
	if boxResample(c.img, src, x0, y0, x1, y1) {
		return
	}
	c.Canvas.DrawImage(r, src)
}

// boxResample draws the opaque image src stretched over the device
// rectangle [x0, x1] x [y0, y1] of dst: every pixel whose centre lies
// inside takes the mean of the source pixels under its footprint, each
// weighted by the area it covers (a box filter, applied along x then
// along y). Cell edges of a heat map stay sharp when it is enlarged, and
// no source pixel is skipped when it is reduced. It reports false, drawing
// nothing, when src has a non-opaque pixel or the rectangle is empty.
func boxResample(dst *image.RGBA, src image.Image, x0, y0, x1, y1 float64) bool {
	sb := src.Bounds()
	sw, sh := sb.Dx(), sb.Dy()
	if sw == 0 || sh == 0 || !(x1 > x0) || !(y1 > y0) {
		return false
	}
	db := dst.Bounds()
	cols := boxWeights(x0, x1, sw, db.Min.X, db.Max.X)
	rows := boxWeights(y0, y1, sh, db.Min.Y, db.Max.Y)
	// The source pixels: the bytes of an NRGBA image as they are (four a
	// pixel), any other image as RGB triples of float32.
	var (
		nrgba  *image.NRGBA
		pix    []float32
		stride int // of a row of pix
		step   int // elements of a pixel
	)
	if n, ok := src.(*image.NRGBA); ok {
		nrgba, step = n, 4
		for y := 0; y < sh; y++ {
			row := n.Pix[n.PixOffset(sb.Min.X, sb.Min.Y+y):][:4*sw]
			for x := 3; x < len(row); x += 4 {
				if row[x] != 0xff {
					return false
				}
			}
		}
	} else {
		pix, stride, step = make([]float32, 3*sw*sh), 3*sw, 3
		for y := 0; y < sh; y++ {
			for x := 0; x < sw; x++ {
				p := color.NRGBAModel.Convert(src.At(sb.Min.X+x, sb.Min.Y+y)).(color.NRGBA)
				if p.A != 0xff {
					return false
				}
				k := 3 * (y*sw + x)
				pix[k], pix[k+1], pix[k+2] = float32(p.R), float32(p.G), float32(p.B)
			}
		}
	}
	if len(cols.w) == 0 || len(rows.w) == 0 {
		return true
	}
	// Along x: every source row onto the destination columns (a byte
	// converted to float32 is exact: the sums are those of float32
	// triples).
	nc := len(cols.w)
	tmp := make([]float32, 3*nc*sh)
	for y := 0; y < sh; y++ {
		trow := tmp[3*y*nc:]
		if nrgba != nil {
			srow := nrgba.Pix[nrgba.PixOffset(sb.Min.X, sb.Min.Y+y):]
			for i, ws := range cols.w {
				var r, g, b float32
				for t, w := range ws {
					k := step * (cols.first[i] + t)
					r += w * float32(srow[k])
					g += w * float32(srow[k+1])
					b += w * float32(srow[k+2])
				}
				trow[3*i], trow[3*i+1], trow[3*i+2] = r, g, b
			}
			continue
		}
		srow := pix[y*stride:]
		for i, ws := range cols.w {
			var r, g, b float32
			for t, w := range ws {
				k := step * (cols.first[i] + t)
				r += w * srow[k]
				g += w * srow[k+1]
				b += w * srow[k+2]
			}
			trow[3*i], trow[3*i+1], trow[3*i+2] = r, g, b
		}
	}
	// Along y: the destination rows.
	acc := make([]float32, 3*nc)
	for j, ws := range rows.w {
		clear(acc)
		for t, w := range ws {
			trow := tmp[3*(rows.first[j]+t)*nc:]
			for k := range acc {
				acc[k] += w * trow[k]
			}
		}
		y := rows.start + j
		out := dst.Pix[(y-db.Min.Y)*dst.Stride:]
		for i := 0; i < nc; i++ {
			o := 4 * (cols.start + i - db.Min.X)
			out[o] = clamp8(acc[3*i])
			out[o+1] = clamp8(acc[3*i+1])
			out[o+2] = clamp8(acc[3*i+2])
			out[o+3] = 0xff
		}
	}
	return true
}

// boxFilter holds, for a run of destination pixels from start, the first
// source pixel each one reads and the weights of the source pixels it
// reads (summing to 1).
type boxFilter struct {
	start int
	first []int
	w     [][]float32
}

// boxWeights maps n source pixels onto the device span [a, b] and returns
// the box weights of the destination pixels in [lo, hi) whose centres lie
// inside the span.
func boxWeights(a, b float64, n, lo, hi int) boxFilter {
	scale := float64(n) / (b - a) // source pixels per device pixel
	first := max(lo, int(math.Ceil(a-0.5)))
	last := min(hi-1, int(math.Ceil(b-0.5))-1)
	f := boxFilter{start: first}
	for d := first; d <= last; d++ {
		// The footprint [d, d+1) in source coordinates, clipped to the image.
		s0 := math.Max(0, (float64(d)-a)*scale)
		s1 := math.Min(float64(n), (float64(d)+1-a)*scale)
		if s1 <= s0 {
			s1 = math.Min(float64(n), s0+1e-9)
			s0 = math.Min(s0, s1)
		}
		i0 := min(n-1, int(math.Floor(s0)))
		i1 := max(i0, min(n-1, int(math.Ceil(s1))-1))
		ws := make([]float32, i1-i0+1)
		tot := 0.0
		for i := i0; i <= i1; i++ {
			cov := math.Min(s1, float64(i+1)) - math.Max(s0, float64(i))
			if cov < 0 {
				cov = 0
			}
			ws[i-i0] = float32(cov)
			tot += cov
		}
		if tot <= 0 {
			ws[0], tot = 1, 1
		}
		for i := range ws {
			ws[i] = float32(float64(ws[i]) / tot)
		}
		f.first = append(f.first, i0)
		f.w = append(f.w, ws)
	}
	return f
}

// clamp8 rounds v to the nearest byte value.
func clamp8(v float32) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}
