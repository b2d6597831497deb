package plot

import (
	"bytes"
	"image"
	"testing"

	"git.sr.ht/~sbinet/gg"
	xdraw "golang.org/x/image/draw"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
)

// vgimgText is the PNG canvas with vgimg's own text drawing (a new face
// for each text, every glyph rasterised anew).
type vgimgText struct{ pngCanvas }

func (c vgimgText) FillString(f font.Face, pt vg.Point, s string) { c.Canvas.FillString(f, pt, s) }

// TestGlyphCache: every figure of the fixture, and of the fixture with
// hostile and long labels, has the same pixels whether its text is
// drawn with the kept glyphs or by vgimg.
func TestGlyphCache(t *testing.T) {
	for _, r := range []struct {
		name  string
		specs []figures.Spec
	}{
		{"fixture", figures.Catalogue(figtest.Fixture())},
		{"labels", figures.Catalogue(relabeled("Système ± é 😀 </script> \"quoted\"", "A.1 – x"))},
	} {
		for i := range r.specs {
			f, err := build(&r.specs[i], screen, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := f.raster()
			w, h := got.Bounds().Dx(), got.Bounds().Dy()
			want := image.NewRGBA(image.Rect(0, 0, w, h))
			ctx := gg.NewContextForRGBA(want)
			ctx.SetLineCapButt()
			ctx.InvertY()
			ctx.SetInterpolator(xdraw.NearestNeighbor)
			c := vgimg.NewWith(vgimg.UseImageWithContext(want, ctx), vgimg.UseDPI(DPI))
			f.paint(vgimgText{pngCanvas{Canvas: c, img: want, ctx: ctx}})
			if !bytes.Equal(got.Pix, want.Pix) {
				n := 0
				for k := range got.Pix {
					if got.Pix[k] != want.Pix[k] {
						n++
					}
				}
				t.Errorf("%s/%s: %d bytes differ from vgimg's text", r.name, r.specs[i].ID, n)
			}
		}
	}
}
