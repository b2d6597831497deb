package pflate

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"testing"
)

// A stream compressed in blocks on all cores inflates to the stream, for
// any block size, and the bytes do not depend on the number of cores.
func TestParDeflate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var src []byte
	for len(src) < 120_000 {
		if r.IntN(3) == 0 {
			src = append(src, byte(r.IntN(256)))
		} else {
			src = append(src, "<row r=\"12\"><c t=\"inlineStr\"><is><t>x</t></is></c></row>"[r.IntN(20):]...)
		}
	}
	for _, block := range []int{997, 4096, 65536, 1 << 20} {
		var outs [][]byte
		for _, slots := range []int{1, 2, 5} {
			var z bytes.Buffer
			d := New(&z, flate.BestSpeed, block)
			d.slots = make(chan struct{}, slots)
			for p := src; len(p) > 0; {
				k := min(len(p), 1+r.IntN(9000))
				if _, err := d.Write(p[:k]); err != nil {
					t.Fatal(err)
				}
				p = p[k:]
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(flate.NewReader(bytes.NewReader(z.Bytes())))
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("block %d: inflated %d bytes (%v), want the %d written", block, len(got), err, len(src))
			}
			outs = append(outs, z.Bytes())
		}
		for _, o := range outs[1:] {
			if !bytes.Equal(o, outs[0]) {
				t.Fatalf("block %d: the bytes depend on the number of workers", block)
			}
		}
	}
	// An empty stream is one final empty block.
	var z bytes.Buffer
	d := New(&z, flate.BestSpeed, 16)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(flate.NewReader(&z)); err != nil || len(got) != 0 {
		t.Fatalf("empty stream: %q, %v", got, err)
	}
}
