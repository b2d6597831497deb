package bundle

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// InputReader is the one reader of an input file: the bytes its user (a
// parser) reads are the bytes that are hashed and, with a copy kept,
// compressed into the copy under inputs/, so that the manifest records
// what was parsed even when the file changes during the build, or is a
// FIFO or standard input that can be read only once.
//
// Read passes the bytes on as they are read. A user that wants the whole
// content at once (a large file parsed in parallel chunks) calls
// ReadWhole; the content is then hashed and compressed on a goroutine of
// its own, beside the parsing. Finish reads what the user left unread and
// returns the record for AddRead.
type InputReader struct {
	r      io.Reader
	hs     *inputHash
	whole  chan struct{} // closed when ReadWhole's hashing is done; nil without ReadWhole
	eof    bool
	closed bool
}

// NewInputReader returns the reader of input p (as the user gave it) that
// reads r. It closes r on Close when r is an io.Closer.
func NewInputReader(p string, r io.Reader, keepCopy bool) *InputReader {
	size := 0
	if st, err := statOf(r); err == nil && st.Mode().IsRegular() {
		size = int(min(st.Size(), 1<<30))
	}
	return &InputReader{r: r, hs: newInputHash(p, size, keepCopy)}
}

func statOf(r io.Reader) (os.FileInfo, error) {
	if s, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.New("no file information")
}

// Read reads from the input; the bytes read are hashed and copied.
func (x *InputReader) Read(p []byte) (int, error) {
	if x.whole != nil {
		return 0, io.EOF // ReadWhole read everything
	}
	n, err := x.r.Read(p)
	if n > 0 {
		x.hs.write(p[:n])
	}
	if err == io.EOF {
		x.eof = true
	}
	return n, err
}

// Stat is the input's file information (an error when it has none), so
// that a user can size its buffers.
func (x *InputReader) Stat() (os.FileInfo, error) { return statOf(x.r) }

// ReadWhole appends the rest of the input to dst and returns the result;
// size is the expected number of bytes still to read, a hint. The bytes
// it reads (not dst's, which were read through Read) are hashed and copied
// concurrently until Finish: the caller must not modify them.
func (x *InputReader) ReadWhole(dst []byte, size int64) ([]byte, error) {
	if x.whole != nil || x.eof {
		return dst, nil
	}
	// One buffer of the expected size and a byte to see the end, not
	// ReadAll's doublings; a file that grew meanwhile is read on.
	head := len(dst)
	buf := make([]byte, head+int(max(size, 0))+1)
	// Copied into a slice of buf, not buf itself: the compiler would fuse
	// make and copy into one call that clears the rest of a large buffer
	// in a single stretch the collector cannot interrupt.
	copy(buf[:head], dst)
	n, err := io.ReadFull(x.r, buf[head:])
	buf = buf[:head+n]
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
	case err != nil:
		return nil, err
	default:
		rest, err := io.ReadAll(x.r)
		if err != nil {
			return nil, err
		}
		buf = append(buf, rest...)
	}
	x.eof = true
	x.whole = make(chan struct{})
	read := buf[head:]
	go func() {
		// The hash and the copy of the same bytes on two goroutines: the
		// copy's compression takes four times the hashing.
		done := make(chan struct{})
		go func() {
			x.hs.copy(read)
			close(done)
		}()
		x.hs.hash(read)
		<-done
		close(x.whole)
	}()
	return buf, nil
}

// Close closes the underlying reader when it is an io.Closer.
func (x *InputReader) Close() error {
	x.closed = true
	if c, ok := x.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Finish reads what is left of the input (a user that stopped before the
// end), waits for the hashing and returns the record for AddRead.
func (x *InputReader) Finish() (InputRead, error) {
	if x.whole != nil {
		<-x.whole
	} else if !x.eof {
		if x.closed {
			return InputRead{}, fmt.Errorf("bundle: %s was closed before its end: its hash would not be that of what was read", x.hs.p)
		}
		if _, err := io.Copy(io.Discard, x); err != nil {
			return InputRead{}, err
		}
	}
	return x.hs.result()
}
