package plot

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/pngenc"
)

// pngPool is a png.EncoderBufferPool that keeps one buffer: the
// encoder's scratch rows and zlib writer are reused from figure to
// figure, as a bundle build would.
type pngPool struct{ b *png.EncoderBuffer }

func (p *pngPool) Get() *png.EncoderBuffer  { return p.b }
func (p *pngPool) Put(b *png.EncoderBuffer) { p.b = b }

// BenchmarkPNGLibrary encodes every figure of the demo Report with the
// package's encoder and with image/png at BestSpeed and at its default
// level (one reused EncoderBufferPool each): the measurement behind the
// choice of encoder in docs/decisions.md. Each figure is drawn with the
// timer stopped, so time and allocations are the encoder's alone; bytes
// is the size of all the PNGs.
func BenchmarkPNGLibrary(b *testing.B) {
	specs := figures.Catalogue(figtest.Demo(b))
	std := func(level png.CompressionLevel) func(io.Writer, *image.RGBA) error {
		e := &png.Encoder{CompressionLevel: level, BufferPool: &pngPool{}}
		return func(w io.Writer, img *image.RGBA) error { return e.Encode(w, img) }
	}
	encoders := []struct {
		name string
		enc  func(io.Writer, *image.RGBA) error
	}{
		{"own", pngenc.Encode},
		{"image-png-speed", std(png.BestSpeed)},
		{"image-png-default", std(png.DefaultCompression)},
	}
	for _, e := range encoders {
		b.Run(e.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			n := 0
			for range b.N {
				n = 0
				for i := range specs {
					b.StopTimer()
					f, err := build(&specs[i], screen, 0)
					if err != nil {
						b.Fatal(err)
					}
					img := f.raster()
					buf.Reset()
					b.StartTimer()
					if err := e.enc(&buf, img); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					n += buf.Len()
					putRaster(img)
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
