package plot

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"math"

	"git.sr.ht/~sbinet/gg"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// This file holds the raster output: the 300-dpi canvas, the resampling of
// raster images (heat maps, colour bars) onto it, and the PNG encoder.

// png renders the figure at DPI dots per inch on white. The page is white
// from vgimg's memory fill. Glyphs are placed with the nearest-neighbour
// interpolator: text is drawn at whole-pixel offsets, where bilinear
// sampling gives the same pixels, and nearest-neighbour lets x/image copy
// each glyph mask directly instead of resampling it. Raster images go
// through pngCanvas.DrawImage.
func (f *figure) png() ([]byte, error) {
	w := int(f.w.Dots(DPI) + 0.5)
	h := int(f.h.Dots(DPI) + 0.5)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	ctx := gg.NewContextForRGBA(img) // draws into img, no copy
	ctx.SetLineCapButt()
	ctx.InvertY()
	ctx.SetInterpolator(xdraw.NearestNeighbor)
	c := vgimg.NewWith(vgimg.UseImageWithContext(img, ctx), vgimg.UseDPI(DPI))
	f.draw(draw.New(pngCanvas{c, img}))
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pngCanvas is the vgimg canvas of a figure with its own drawing of
// raster images.
type pngCanvas struct {
	*vgimg.Canvas
	img *image.RGBA
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
	// Source pixels as RGB triples.
	pix := make([]float32, 3*sw*sh)
	if n, ok := src.(*image.NRGBA); ok {
		for y := 0; y < sh; y++ {
			row := n.Pix[(y+sb.Min.Y-n.Rect.Min.Y)*n.Stride+(sb.Min.X-n.Rect.Min.X)*4:]
			for x := 0; x < sw; x++ {
				p := row[4*x : 4*x+4 : 4*x+4]
				if p[3] != 0xff {
					return false
				}
				k := 3 * (y*sw + x)
				pix[k], pix[k+1], pix[k+2] = float32(p[0]), float32(p[1]), float32(p[2])
			}
		}
	} else {
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
	db := dst.Bounds()
	cols := boxWeights(x0, x1, sw, db.Min.X, db.Max.X)
	rows := boxWeights(y0, y1, sh, db.Min.Y, db.Max.Y)
	if len(cols.w) == 0 || len(rows.w) == 0 {
		return true
	}
	// Along x: every source row onto the destination columns.
	nc := len(cols.w)
	tmp := make([]float32, 3*nc*sh)
	for y := 0; y < sh; y++ {
		srow := pix[3*y*sw:]
		trow := tmp[3*y*nc:]
		for i, ws := range cols.w {
			var r, g, b float32
			for t, w := range ws {
				k := 3 * (cols.first[i] + t)
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

// upFilterRGB writes the PNG Up filter of one row of RGBA pixels as RGB:
// dst[3x+c] = pix[4x+c] − up[4x+c] mod 256 for the channels c = R, G, B.
// Two pixels at a time are subtracted in one 64-bit word, byte by byte
// without carries: with H the top bit of every byte,
//
//	a − b = ((a | H) − (b &^ H)) ^ ((a ^ ^b) & H)  (per byte)
func upFilterRGB(dst, pix, up []byte) {
	const hi = 0x8080808080808080
	n := len(dst) / 3
	x := 0
	for ; x+2 <= n; x += 2 {
		a := binary.LittleEndian.Uint64(pix[4*x:])
		b := binary.LittleEndian.Uint64(up[4*x:])
		d := ((a | hi) - (b &^ hi)) ^ ((a ^ ^b) & hi)
		o := dst[3*x : 3*x+6 : 3*x+6]
		o[0], o[1], o[2] = byte(d), byte(d>>8), byte(d>>16)
		o[3], o[4], o[5] = byte(d>>32), byte(d>>40), byte(d>>48)
	}
	for ; x < n; x++ {
		dst[3*x], dst[3*x+1], dst[3*x+2] = pix[4*x]-up[4*x], pix[4*x+1]-up[4*x+1], pix[4*x+2]-up[4*x+2]
	}
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
	// Each row: the filter byte (2, Up), then R, G, B minus the pixel
	// above (mod 256); above the first row is zero.
	row := make([]byte, 1+3*W)
	row[0] = 2
	up := make([]byte, 4*W)
	for y := 0; y < H; y++ {
		pix := img.Pix[y*img.Stride : y*img.Stride+4*W]
		upFilterRGB(row[1:], pix, up)
		if _, err := zw.Write(row); err != nil {
			return err
		}
		up = pix
	}
	if err := zw.Close(); err != nil {
		return err
	}
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	_, err = w.Write(out.Bytes())
	return err
}
