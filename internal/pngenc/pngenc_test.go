package pngenc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"testing"
)

// upFilterRGB writes the PNG Up filter of one row of RGBA pixels as RGB:
// dst[3x+c] = pix[4x+c] − up[4x+c] mod 256 for the channels c = R, G, B.
// Two pixels at a time are subtracted in one 64-bit word, byte by byte
// without carries: with H the top bit of every byte,
//
//	a − b = ((a | H) − (b &^ H)) ^ ((a ^ ^b) & H)  (per byte)
//
// It was the filter of the encoder before Encode coded runs of pixels
// itself; the tests build the expected filtered rows with it.
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

// filtered returns the image data of img as a PNG holds it before
// compression: each row the filter byte 2 (Up), then R, G, B minus the
// pixel above.
func filtered(img *image.RGBA) []byte {
	W, H := img.Bounds().Dx(), img.Bounds().Dy()
	out := make([]byte, 0, H*(1+3*W))
	row := make([]byte, 3*W)
	up := make([]byte, 4*W)
	for y := 0; y < H; y++ {
		pix := img.Pix[y*img.Stride : y*img.Stride+4*W]
		upFilterRGB(row, pix, up)
		out = append(append(out, 2), row...)
		up = pix
	}
	return out
}

// checkPNG decodes data with image/png and with compress/zlib (which
// checks the Adler-32 at the end of the stream) and compares it with img:
// the same pixels, alpha aside, and the same filtered rows.
func checkPNG(t *testing.T, name string, img *image.RGBA, data []byte) {
	t.Helper()
	samePixels(t, name, img, data)
	i := bytes.Index(data, []byte("IDAT"))
	n := int(binary.BigEndian.Uint32(data[i-4:]))
	zr, err := zlib.NewReader(bytes.NewReader(data[i+4 : i+4+n]))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: zlib: %v", name, err)
	}
	if !bytes.Equal(raw, filtered(img)) {
		t.Fatalf("%s: the filtered rows differ", name)
	}
}

// samePixels decodes data with image/png and compares it with img: the
// same bounds and pixels, alpha aside.
func samePixels(t *testing.T, name string, img *image.RGBA, data []byte) {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if m.Bounds() != img.Bounds() {
		t.Fatalf("%s: bounds %v, want %v", name, m.Bounds(), img.Bounds())
	}
	rgb, ok := m.(*image.RGBA)
	if !ok {
		t.Fatalf("%s: decoded as %T", name, m)
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
	if err := Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAgainstImagePNG: an image written by Encode and the same image
// written by image/png decode, with image/png, to the same pixels.
func TestAgainstImagePNG(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	img := image.NewRGBA(image.Rect(0, 0, 700, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 700; x++ {
			c := [4]byte{255, 255, 255, 255}
			switch {
			case y%50 == 0 || x%100 == 0:
				c = [4]byte{0, 0, 0, 255}
			case x > 300 && x < 500 && y > 100:
				c = [4]byte{byte(x), byte(y), 0x80, 255}
			case rng.IntN(40) == 0:
				c = [4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), 255}
			}
			copy(img.Pix[y*img.Stride+4*x:], c[:])
		}
	}
	var lib bytes.Buffer
	if err := png.Encode(&lib, img); err != nil {
		t.Fatal(err)
	}
	samePixels(t, "image/png", img, lib.Bytes())
	own := encode(t, img)
	samePixels(t, "Encode", img, own)
	checkPNG(t, "Encode", img, own)
}

// TestEncodePNGSynthetic encodes images that exercise the edges of the
// encoder: widths of 1 to 9 pixels, long runs, runs across the 258-byte
// limit of a match, noise, alpha that differs between equal colours,
// a single row, and a block boundary.
func TestEncodePNGSynthetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type gen func(x, y int) [4]byte
	white := func(x, y int) [4]byte { return [4]byte{255, 255, 255, 255} }
	cases := []struct {
		name string
		w, h int
		px   gen
	}{
		{"white", 300, 40, white},
		{"black", 7, 5, func(x, y int) [4]byte { return [4]byte{0, 0, 0, 255} }},
		{"noise", 257, 31, func(x, y int) [4]byte {
			return [4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), 255}
		}},
		{"sparse", 1700, 60, func(x, y int) [4]byte {
			if rng.IntN(50) == 0 {
				return [4]byte{byte(rng.IntN(4)), 0x72, 0xb2, 255}
			}
			return [4]byte{255, 255, 255, 255}
		}},
		{"stripes", 1000, 30, func(x, y int) [4]byte { return [4]byte{byte(x / 87), byte(y), byte(x / 86 * 3), 255} }},
		{"diagonal", 500, 500, func(x, y int) [4]byte {
			if x == y || x == y+1 {
				return [4]byte{0, 0, 0, 255}
			}
			return [4]byte{255, 255, 255, 255}
		}},
		{"alpha", 64, 4, func(x, y int) [4]byte { return [4]byte{9, 9, 9, byte(x * y)} }},
		{"one row", 1001, 1, func(x, y int) [4]byte { return [4]byte{byte(x), byte(x / 3), 255, 255} }},
		{"many blocks", 400, 700, func(x, y int) [4]byte {
			return [4]byte{byte(x*y + rng.IntN(2)), byte(x ^ y), byte(y), 255}
		}},
	}
	for w := 1; w <= 9; w++ {
		cases = append(cases, struct {
			name string
			w, h int
			px   gen
		}{"narrow", w, 9, func(x, y int) [4]byte { return [4]byte{byte(x * 40), byte(y * 20), byte(x & y), 255} }})
	}
	for _, c := range cases {
		img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
		for y := 0; y < c.h; y++ {
			for x := 0; x < c.w; x++ {
				p := c.px(x, y)
				copy(img.Pix[y*img.Stride+4*x:], p[:])
			}
		}
		checkPNG(t, c.name, img, encode(t, img))
	}
}

// TestHuffmanLengths: the codes are complete (Kraft sum 1, which strict
// inflaters require), within the limit, optimal when the limit does not
// bind, and give a zero length to unused symbols.
func TestHuffmanLengths(t *testing.T) {
	fib := make([]uint32, 40) // Fibonacci weights: an optimal code 39 deep
	fib[0], fib[1] = 1, 1
	for i := 2; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	tests := []struct {
		name  string
		freq  []uint32
		limit int
		want  []uint8 // nil: only checked
	}{
		{"two", []uint32{5, 0, 1}, 15, []uint8{1, 0, 1}},
		{"one", []uint32{0, 0, 7}, 15, []uint8{1, 0, 1}},
		{"one at zero", []uint32{3}, 15, nil},
		{"skewed", []uint32{1, 1, 2, 4}, 15, []uint8{3, 3, 2, 1}},
		{"equal", []uint32{1, 1, 1, 1}, 15, []uint8{2, 2, 2, 2}},
		{"fibonacci", fib, 15, nil},
		{"fibonacci 7", fib[:19], 7, nil},
	}
	for _, tt := range tests {
		freq := tt.freq
		if len(freq) == 1 {
			freq = append(freq, 0) // a second symbol to give the spare code
		}
		lens := huffmanLengths(freq, tt.limit)
		if tt.want != nil && !bytes.Equal(lens, tt.want) {
			t.Errorf("%s: lengths %v, want %v", tt.name, lens, tt.want)
		}
		kraft := 0
		for s, l := range lens {
			if int(l) > tt.limit {
				t.Errorf("%s: symbol %d has length %d > %d", tt.name, s, l, tt.limit)
			}
			if freq[s] > 0 && l == 0 {
				t.Errorf("%s: used symbol %d has no code", tt.name, s)
			}
			if l > 0 {
				kraft += 1 << (tt.limit - int(l))
			}
		}
		if kraft != 1<<tt.limit {
			t.Errorf("%s: Kraft sum %d/%d, want 1", tt.name, kraft, 1<<tt.limit)
		}
	}
}

// TestUpFilter compares the word-at-a-time Up filter with the byte
// arithmetic of the PNG specification, at odd and even widths.
func TestUpFilter(t *testing.T) {
	for _, w := range []int{1, 2, 3, 7, 64, 1001} {
		pix, up := make([]byte, 4*w), make([]byte, 4*w)
		for i := range pix {
			pix[i], up[i] = byte(i*7+3), byte(i*13+250)
		}
		got := make([]byte, 3*w)
		upFilterRGB(got, pix, up)
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				if want := pix[4*x+c] - up[4*x+c]; got[3*x+c] != want {
					t.Fatalf("width %d, pixel %d, channel %d: %d, want %d", w, x, c, got[3*x+c], want)
				}
			}
		}
	}
}
