package plot

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/pngenc"
)

// decodesTo decodes data with image/png and compares it with img: the
// same bounds and pixels, alpha aside.
func decodesTo(t *testing.T, name string, img *image.RGBA, data []byte) {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rgb, ok := m.(*image.RGBA)
	if !ok || rgb.Bounds() != img.Bounds() {
		t.Fatalf("%s: decoded as %T %v, want RGBA %v", name, m, m.Bounds(), img.Bounds())
	}
	for i := range img.Pix {
		if i%4 != 3 && rgb.Pix[i] != img.Pix[i] {
			t.Fatalf("%s: pixel %d differs", name, i/4)
		}
	}
}

func encode(t testing.TB, img *image.RGBA) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pngenc.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEncodePNGFigures encodes every figure of the fixture: image/png
// decodes the PNG to the drawn pixels, and encoding twice gives the same
// bytes.
func TestEncodePNGFigures(t *testing.T) {
	specs := figures.Catalogue(figtest.Fixture())
	for i := range specs {
		f, err := build(&specs[i], screen, 0)
		if err != nil {
			t.Fatal(err)
		}
		img := f.raster()
		data := encode(t, img)
		decodesTo(t, specs[i].ID.String(), img, data)
		if again := encode(t, img); !bytes.Equal(again, data) {
			t.Fatalf("%s: two encodings differ", specs[i].ID)
		}
		putRaster(img) // the next figure draws over these pixels
	}
}

// BenchmarkEncodePNG encodes the fixture's figures (drawn once).
func BenchmarkEncodePNG(b *testing.B) {
	specs := figures.Catalogue(figtest.Fixture())
	var imgs []*image.RGBA
	for i := range specs {
		f, err := build(&specs[i], screen, 0)
		if err != nil {
			b.Fatal(err)
		}
		imgs = append(imgs, f.raster())
	}
	var n int
	for b.Loop() {
		n = 0
		for _, img := range imgs {
			n += len(encode(b, img))
		}
	}
	b.ReportMetric(float64(n), "bytes")
}
