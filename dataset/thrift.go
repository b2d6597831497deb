package dataset

import "errors"

// A Parquet file's footer is a Thrift struct (compact protocol) whose
// lists and strings carry their lengths; the library allocates them as
// written before it reads them, so a damaged or hostile footer that claims
// a list of 2^31 items ends the process out of memory. checkThrift walks
// the footer first and refuses a length larger than the bytes left (every
// item takes at least one byte), and a nesting deeper than thriftDepth.

const thriftDepth = 64

var errThrift = errors.New("a length in the file's footer is larger than the footer")

type thriftWalk struct {
	b []byte
	i int
}

// checkThrift checks that b starts with a well-formed compact Thrift
// struct whose lengths fit in b.
func checkThrift(b []byte) error {
	w := &thriftWalk{b: b}
	return w.structure(0)
}

func (w *thriftWalk) byte1() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThrift
	}
	c := w.b[w.i]
	w.i++
	return c, nil
}

func (w *thriftWalk) varint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := w.byte1()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errThrift
}

// left is how many bytes are left.
func (w *thriftWalk) left() uint64 { return uint64(len(w.b) - w.i) }

func (w *thriftWalk) structure(depth int) error {
	if depth > thriftDepth {
		return errThrift
	}
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		t := h & 0x0f
		if t == 0 {
			return nil // stop
		}
		if h>>4 == 0 {
			if _, err := w.varint(); err != nil { // the field id
				return err
			}
		}
		if err := w.value(t, depth); err != nil {
			return err
		}
	}
}

func (w *thriftWalk) value(t byte, depth int) error {
	switch t {
	case 1, 2: // booleans, in the field header
		return nil
	case 3:
		_, err := w.byte1()
		return err
	case 4, 5, 6:
		_, err := w.varint()
		return err
	case 7:
		if w.left() < 8 {
			return errThrift
		}
		w.i += 8
		return nil
	case 8:
		n, err := w.varint()
		if err != nil || n > w.left() {
			return errThrift
		}
		w.i += int(n)
		return nil
	case 9, 10:
		h, err := w.byte1()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = w.varint(); err != nil {
				return err
			}
		}
		if n > w.left() {
			return errThrift
		}
		et := h & 0x0f
		for range n {
			if et == 1 || et == 2 {
				// A boolean item takes a byte of its own.
				if _, err := w.byte1(); err != nil {
					return err
				}
				continue
			}
			if err := w.value(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11:
		n, err := w.varint()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n > w.left()/2 {
			return errThrift
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		for range n {
			for _, et := range []byte{kv >> 4, kv & 0x0f} {
				if et == 1 || et == 2 {
					if _, err := w.byte1(); err != nil {
						return err
					}
					continue
				}
				if err := w.value(et, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	case 12:
		return w.structure(depth + 1)
	}
	return errThrift
}
