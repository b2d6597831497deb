package xlsx

// This file keeps the parallel deflate (internal/pflate) that compressed
// the per-query sheets before klauspost/compress's deflate on one core
// did, for BenchmarkZipDemo (see docs/decisions.md).

import (
	"bytes"
	"compress/flate"
	"io"
	"runtime"
)

// parWriter compresses a stream on all cores: the stream is cut into
// blocks of a fixed size, each block compressed by its own flate writer
// ending with a sync flush (the last one with the final block), and the
// compressed blocks written in order: one valid deflate stream, as pigz
// writes. The cuts depend only on the byte count, so the output is the
// same on any number of cores. A back-reference never crosses a cut, which
// costs a little size.
type parWriter struct {
	dst     io.Writer
	level   int
	block   int
	buf     []byte
	pending []chan parResult
	slots   chan struct{}
	err     error
}

type parResult struct {
	b   []byte
	err error
}

// newParWriter returns a parWriter that compresses at level (compress/flate) in blocks
// of block bytes into dst.
func newParWriter(dst io.Writer, level, block int) *parWriter {
	return &parWriter{dst: dst, level: level, block: block, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// Write adds p to the stream.
func (d *parWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), d.block-len(d.buf))
		d.buf = append(d.buf, p[:k]...)
		p = p[k:]
		if len(d.buf) == d.block {
			d.submit(d.buf, false)
			d.buf = make([]byte, 0, d.block)
		}
	}
	return n, d.err
}

// submit compresses data in the background and writes finished blocks,
// in order, while more than two per core are waiting.
func (d *parWriter) submit(data []byte, final bool) {
	ch := make(chan parResult, 1)
	d.pending = append(d.pending, ch)
	d.slots <- struct{}{}
	go func() {
		defer func() { <-d.slots }()
		var out bytes.Buffer
		out.Grow(len(data)/4 + 64)
		fw, err := flate.NewWriter(&out, d.level)
		if err == nil {
			_, err = fw.Write(data)
		}
		if err == nil {
			if final {
				err = fw.Close()
			} else {
				err = fw.Flush()
			}
		}
		ch <- parResult{out.Bytes(), err}
	}()
	for len(d.pending) > 2*cap(d.slots) {
		d.drain()
	}
}

// drain writes the oldest block.
func (d *parWriter) drain() {
	r := <-d.pending[0]
	d.pending = d.pending[1:]
	if d.err == nil {
		d.err = r.err
	}
	if d.err == nil {
		_, d.err = d.dst.Write(r.b)
	}
}

// Close compresses the rest as the final block and writes every block.
func (d *parWriter) Close() error {
	d.submit(d.buf, true)
	d.buf = nil
	for len(d.pending) > 0 {
		d.drain()
	}
	return d.err
}
