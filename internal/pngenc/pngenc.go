// Package pngenc writes the PNG files of the figures: 8-bit RGB, the Up
// filter on every row, and a deflate stream of its own. It is kept
// instead of image/png because it is about 13 times faster on the demo's
// figures (docs/decisions.md, "PNG, zip and parallel deflate").
package pngenc

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
	"math/bits"
	"slices"
)

// A 300-dpi figure is 1,500 to 2,100 pixels wide and mostly white, and
// most of its pixels are the pixel above (Up filter: a zero delta) or
// have the delta of the pixel to their left (a horizontal line, a band).
// The encoder walks the pixels of a row once: a run of pixels with the
// delta of the pixel before is one deflate match at distance 3 (the
// previous pixel's three bytes), found eight bytes at a time while the
// pixels equal those above; any other pixel is three literals. The
// tokens of a block are then coded with a Huffman code of their own
// (dynamic block). compress/flate at BestSpeed, before, hashed and
// compared every byte of the 5.7 MB of raw RGB of each figure; this does
// work in proportion to what changes along a row. Files are about 5%
// larger (docs/figures.md); the pixels are the same, and the bytes depend
// only on the image.

// Encode writes an opaque image as an 8-bit RGB PNG (alpha dropped:
// figures are drawn on an opaque white page). The bytes depend only on
// the pixels.
func Encode(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	W, H := b.Dx(), b.Dy()
	out := make([]byte, 0, 64<<10)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(W))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(H))
	ihdr[8], ihdr[9] = 8, 2 // bit depth 8, colour type RGB
	out = appendChunk(out, "IHDR", ihdr[:])

	// IDAT: its length and CRC are filled in once the stream is written.
	idat := len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	d := deflater{bw: bitWriter{out: append(out, 0x78, 0x01)}, s1: 1} // zlib header: deflate, 32K window, fastest
	d.toks = make([]uint32, 0, blockTokens+4*W+8)
	zero := make([]byte, 4*W)
	up := zero
	for y := 0; y < H; y++ {
		pix := img.Pix[(y+b.Min.Y-img.Rect.Min.Y)*img.Stride+(b.Min.X-img.Rect.Min.X)*4:][:4*W]
		d.row(pix, up)
		up = pix
		if len(d.toks) >= blockTokens {
			d.block(false)
		}
	}
	d.block(true)
	d.bw.flush()
	out = binary.BigEndian.AppendUint32(d.bw.out, uint32(d.s2%adlerMod)<<16|uint32(d.s1%adlerMod))
	binary.BigEndian.PutUint32(out[idat:], uint32(len(out)-idat-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[idat+4:]))
	out = appendChunk(out, "IEND", nil)
	_, err := w.Write(out)
	return err
}

// appendChunk appends a PNG chunk: length, type, data, CRC of type and data.
func appendChunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}

// Tokens of a deflate block: a literal byte (0 to 255), or tokMatch plus
// a length (3 to 258) for a match at distance 3.
const (
	tokMatch    = 1 << 16
	blockTokens = 1 << 16 // tokens per block, about: the code follows the figure's regions
	adlerMod    = 65521
)

// deflater turns filtered rows into a zlib stream.
type deflater struct {
	bw     bitWriter
	toks   []uint32
	s1, s2 uint64 // Adler-32 of the bytes so far, reduced at the end of each row
}

// row adds one image row: the filter byte (2, Up), then R, G, B of each
// pixel minus the pixel above (mod 256); above the first row is zero.
func (d *deflater) row(pix, up []byte) {
	d.lit(2)
	W := len(pix) / 4
	run := 0        // pixels with the delta last after the last one written
	var last uint32 // delta of the pixel before, R | G<<8 | B<<16
	for x := 0; x < W; {
		if run > 0 && last == 0 {
			n := equalPixels(pix[4*x:], up[4*x:])
			run += n
			x += n
			if x == W {
				break
			}
		}
		p, q := pix[4*x:4*x+3:4*x+3], up[4*x:4*x+3:4*x+3]
		delta := uint32(p[0]-q[0]) | uint32(p[1]-q[1])<<8 | uint32(p[2]-q[2])<<16
		if x > 0 && delta == last {
			run++
			x++
			continue
		}
		if run > 0 {
			d.repeat(run, last)
			run = 0
		}
		d.lit(byte(delta))
		d.lit(byte(delta >> 8))
		d.lit(byte(delta >> 16))
		last = delta
		x++
	}
	if run > 0 {
		d.repeat(run, last)
	}
	d.s1 %= adlerMod
	d.s2 %= adlerMod
}

// equalPixels returns how many pixels at the start of a (RGBA) have the
// colour of those at the start of b: 64 pixels at a time while they are
// the same bytes, then two at a time.
func equalPixels(a, b []byte) int {
	const rgb = 0x00ffffff00ffffff
	n := 0
	for len(a) >= 256 && len(b) >= 256 && bytes.Equal(a[:256], b[:256]) {
		a, b = a[256:], b[256:]
		n += 64
	}
	for len(a) >= 8 && len(b) >= 8 {
		if x := (binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)) & rgb; x != 0 {
			return n + bits.TrailingZeros64(x)/32
		}
		a, b = a[8:], b[8:]
		n += 2
	}
	if len(a) >= 4 && len(b) >= 4 && a[0] == b[0] && a[1] == b[1] && a[2] == b[2] {
		n++
	}
	return n
}

// lit adds a literal byte.
func (d *deflater) lit(c byte) {
	d.toks = append(d.toks, uint32(c))
	d.s1 += uint64(c)
	d.s2 += d.s1
}

// repeat adds k more pixels of delta v: 3k bytes, each the byte three
// before, as matches of at most 258 bytes, none shorter than 3.
func (d *deflater) repeat(k int, v uint32) {
	for n := 3 * k; n > 0; {
		l := min(n, 258)
		if n-l > 0 && n-l < 3 {
			l = n - 3
		}
		d.toks = append(d.toks, tokMatch|uint32(l))
		n -= l
	}
	// Adler-32 of k triplets (a, b, c) from s1 = S: s1 grows by
	// k(a+b+c), s2 by 3kS + 3(a+b+c)k(k-1)/2 + k(3a+2b+c).
	a, b, c := uint64(v&0xff), uint64(v>>8&0xff), uint64(v>>16)
	t, kk := a+b+c, uint64(k)
	d.s2 += 3*kk*(d.s1%adlerMod) + 3*t*(kk*(kk-1)/2) + kk*(3*a+2*b+c)
	d.s1 += kk * t
	d.s2 %= adlerMod
}

// lengthCode is the deflate code of a match length: its symbol, the
// number of extra bits and their value.
type lengthCode struct {
	sym    uint16
	nextra uint8
	extra  uint16
}

var lengthCodes = func() (t [259]lengthCode) {
	base := [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	extra := [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for i := range base { // ascending: 258 ends with its own code, 285
		for l := int(base[i]); l < int(base[i])+1<<extra[i] && l <= 258; l++ {
			t[l] = lengthCode{sym: uint16(257 + i), nextra: extra[i], extra: uint16(l) - base[i]}
		}
	}
	return t
}()

// Distance code: only code 2 (distance 3) is used; codes 0 and 2 get one
// bit each so that the code is complete, as strict decoders want.
var (
	distLens = []uint8{1, 0, 1}
	dist3    = uint64(1) // the code of distance 3: 1, one bit
)

// clOrder is the order in which the lengths of the code length code are
// written (RFC 1951, 3.2.7).
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// block writes the tokens as one dynamic-Huffman block.
func (d *deflater) block(final bool) {
	var freq [286]uint32
	for _, t := range d.toks {
		if t < tokMatch {
			freq[t]++
		} else {
			freq[lengthCodes[t&0xffff].sym]++
		}
	}
	freq[256]++ // end of block
	litLens := huffmanLengths(freq[:], 15)
	litCodes := canonicalCodes(litLens)

	nlit := 286
	for nlit > 257 && litLens[nlit-1] == 0 {
		nlit--
	}
	// The code lengths of both codes, run-length coded (symbols 0 to 18,
	// extra bits in the high byte).
	cl := encodeLengths(append(slices.Clone(litLens[:nlit]), distLens...))
	var clFreq [19]uint32
	for _, c := range cl {
		clFreq[c&0xff]++
	}
	clLens := huffmanLengths(clFreq[:], 7)
	clCodes := canonicalCodes(clLens)
	nclen := 19
	for nclen > 4 && clLens[clOrder[nclen-1]] == 0 {
		nclen--
	}

	w := &d.bw
	hdr := uint64(2 << 1) // dynamic Huffman
	if final {
		hdr |= 1
	}
	w.put(hdr, 3)
	w.put(uint64(nlit-257), 5)
	w.put(uint64(len(distLens)-1), 5)
	w.put(uint64(nclen-4), 4)
	for _, s := range clOrder[:nclen] {
		w.put(uint64(clLens[s]), 3)
	}
	for _, c := range cl {
		s := c & 0xff
		w.put(uint64(clCodes[s]), uint(clLens[s]))
		switch s {
		case 16:
			w.put(uint64(c>>8), 2)
		case 17:
			w.put(uint64(c>>8), 3)
		case 18:
			w.put(uint64(c>>8), 7)
		}
	}
	for _, t := range d.toks {
		if t < tokMatch {
			w.put(uint64(litCodes[t]), uint(litLens[t]))
			continue
		}
		lc := lengthCodes[t&0xffff]
		n := uint(litLens[lc.sym])
		w.put(uint64(litCodes[lc.sym])|uint64(lc.extra)<<n|dist3<<(n+uint(lc.nextra)), n+uint(lc.nextra)+1)
	}
	w.put(uint64(litCodes[256]), uint(litLens[256]))
	d.toks = d.toks[:0]
}

// encodeLengths run-length codes a list of code lengths with the symbols
// of RFC 1951 3.2.7: 0 to 15 a length, 16 the previous length 3 to 6
// times, 17 a zero 3 to 10 times, 18 a zero 11 to 138 times. Each entry
// is a symbol with its extra bits' value shifted left by 8.
func encodeLengths(lens []uint8) []uint16 {
	var out []uint16
	for i := 0; i < len(lens); {
		l := lens[i]
		n := 1
		for i+n < len(lens) && lens[i+n] == l {
			n++
		}
		i += n
		if l == 0 {
			for n >= 11 {
				r := min(n, 138)
				out = append(out, 18|uint16(r-11)<<8)
				n -= r
			}
			if n >= 3 {
				out = append(out, 17|uint16(n-3)<<8)
				n = 0
			}
			for ; n > 0; n-- {
				out = append(out, 0)
			}
			continue
		}
		out = append(out, uint16(l))
		n--
		for n >= 3 {
			r := min(n, 6)
			out = append(out, 16|uint16(r-3)<<8)
			n -= r
		}
		for ; n > 0; n-- {
			out = append(out, uint16(l))
		}
	}
	return out
}

// huffmanLengths returns the code length of each symbol of a Huffman
// code for the frequencies, none longer than limit: a complete code
// (two symbols at least, the second a zero-frequency one when only one
// is used). When the optimal code is too deep the frequencies are halved
// (never below 1) until it is not; all-equal frequencies give a balanced
// tree, so this ends. Ties go to the lower symbol: the lengths depend
// only on the frequencies.
func huffmanLengths(freq []uint32, limit int) []uint8 {
	lens := make([]uint8, len(freq))
	var syms []int
	for s, f := range freq {
		if f > 0 {
			syms = append(syms, s)
		}
	}
	switch len(syms) {
	case 0:
		return lens
	case 1:
		lens[syms[0]] = 1
		if syms[0] == 0 {
			lens[1] = 1
		} else {
			lens[0] = 1
		}
		return lens
	}
	w := make([]uint64, len(syms))
	for i, s := range syms {
		w[i] = uint64(freq[s])
	}
	for {
		if huffmanDepths(syms, w, lens) <= limit {
			return lens
		}
		for i := range w {
			w[i] = max(1, w[i]/2)
		}
	}
}

// huffmanDepths builds a Huffman tree over the weights w of syms (two at
// least), sets lens[syms[i]] to the depth of each leaf and returns the
// greatest depth.
func huffmanDepths(syms []int, w []uint64, lens []uint8) int {
	n := len(syms)
	// Leaves in ascending weight (ties: lower symbol first), then the
	// internal nodes in the order they are made, which is ascending too:
	// the two-queue construction.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case w[a] < w[b]:
			return -1
		case w[a] > w[b]:
			return 1
		}
		return a - b
	})
	weight := make([]uint64, 2*n-1)
	parent := make([]int, 2*n-1)
	for i, o := range order {
		weight[i] = w[o]
	}
	leaf, node := 0, n // next leaf; next internal node to take
	pick := func(made int) int {
		if leaf < n && (node >= made || weight[leaf] <= weight[node]) {
			leaf++
			return leaf - 1
		}
		node++
		return node - 1
	}
	for made := n; made < 2*n-1; made++ {
		a := pick(made)
		b := pick(made)
		weight[made] = weight[a] + weight[b]
		parent[a], parent[b] = made, made
	}
	// Depths from the root (the last node) down: parents come after
	// their children.
	depth := make([]int, 2*n-1)
	maxDepth := 0
	for i := 2*n - 3; i >= 0; i-- {
		depth[i] = depth[parent[i]] + 1
	}
	for i, o := range order {
		lens[syms[o]] = uint8(depth[i])
		maxDepth = max(maxDepth, depth[i])
	}
	return maxDepth
}

// canonicalCodes returns the canonical Huffman codes of the lengths (RFC
// 1951 3.2.2), bit-reversed for deflate's least-significant-bit-first
// stream.
func canonicalCodes(lens []uint8) []uint16 {
	var count [16]int
	for _, l := range lens {
		if l > 0 {
			count[l]++
		}
	}
	var next [16]int
	code := 0
	for l := 1; l < 16; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	codes := make([]uint16, len(lens))
	for s, l := range lens {
		if l == 0 {
			continue
		}
		codes[s] = bits.Reverse16(uint16(next[l])) >> (16 - l)
		next[l]++
	}
	return codes
}

// bitWriter writes deflate's bit stream, least significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// put writes the n (at most 32) low bits of v.
func (w *bitWriter) put(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	if w.nacc >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.nacc -= 32
	}
}

// flush writes the bits left, padding the last byte with zeros.
func (w *bitWriter) flush() {
	for w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= min(8, w.nacc)
	}
}
