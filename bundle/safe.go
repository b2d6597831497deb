package bundle

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A bundle is untrusted input to verify, diff and summary: someone may
// send one whose files are symbolic links (to a FIFO that never ends, to
// /dev/zero), devices, or copies whose manifest lies about their size.
// Every file of a bundle is read through OpenFile or ReadFile here: a
// symbolic link is never followed (no path element may be one), a FIFO or
// a device is never read, and reads stop at a maximum.

// ErrNotAFile is the error of a bundle path that is a symbolic link, a
// FIFO, a device, a socket or a folder where a file is expected: verify
// reports it as NOT A FILE (exit 3).
var ErrNotAFile = errors.New("not a regular file: a symbolic link, FIFO or device in a bundle is never read")

// ErrTooLarge is the error of a bundle file larger than its maximum.
var ErrTooLarge = errors.New("larger than its maximum")

// MaxFileBytes is the largest bundle file verify, diff and summary read
// into memory (report.html of many systems and the per-query CSV of a
// million queries are far below it).
const MaxFileBytes = 4 << 30

// MaxManifestBytes is the largest manifest.json read.
const MaxManifestBytes = 256 << 20

// OpenFile opens the file rel (slash-separated) inside the bundle folder
// dir for reading, refusing (ErrNotAFile) a path with a symbolic link in
// it, and anything but a regular file: it is opened without following a
// link and without blocking (a FIFO), and checked again once open.
func OpenFile(dir, rel string) (*os.File, error) {
	p := dir
	elems := strings.Split(rel, "/")
	for i, e := range elems {
		p = filepath.Join(p, e)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		last := i == len(elems)-1
		if (!last && !fi.IsDir()) || (last && !fi.Mode().IsRegular()) {
			return nil, &os.PathError{Op: "open", Path: p, Err: ErrNotAFile}
		}
	}
	f, err := openNoFollow(p)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: p, Err: ErrNotAFile}
	}
	return f, nil
}

// ReadFile reads the file rel of the bundle folder dir (OpenFile), at
// most max bytes of it (ErrTooLarge past that).
func ReadFile(dir, rel string, max int64) ([]byte, error) {
	f, err := OpenFile(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []byte
	if fi, err := f.Stat(); err == nil && fi.Size() <= max {
		data = make([]byte, 0, fi.Size()+1)
	}
	buf := bytesWriter{data}
	n, err := io.Copy(&buf, io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, &os.PathError{Op: "read", Path: filepath.Join(dir, filepath.FromSlash(rel)), Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)}
	}
	return buf.b, nil
}

type bytesWriter struct{ b []byte }

func (w *bytesWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// MaxCopyBytes is the absolute maximum of a decompressed input copy,
// whatever the manifest says (dataset.MaxInputBytes, the largest input
// a build reads).
const MaxCopyBytes = 64 << 30

// copyTo decompresses the copy of input in into w, stopping at the size
// the manifest records and at MaxCopyBytes, whichever comes first, and
// checks the size and sha256. Memory stays constant whatever the copy
// holds.
func (o *Opened) copyTo(w io.Writer, in Input) error {
	f, err := OpenFile(o.Dir, in.Copy)
	if err != nil {
		if errors.Is(err, ErrNotAFile) || errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return envErr(in.Copy, err) // permissions, I/O: the machine's
	}
	defer f.Close()
	rf := &readErr{r: f}
	zr, err := gzip.NewReader(rf)
	if rf.err != nil {
		return envErr(in.Copy, rf.err)
	}
	if err != nil {
		return fmt.Errorf("not a gzip copy: %v", err)
	}
	limit := min(in.Bytes, MaxCopyBytes)
	h := sha256.New()
	ww := &writeErr{w: w}
	n, err := io.Copy(io.MultiWriter(h, ww), io.LimitReader(zr, limit+1))
	switch {
	case ww.err != nil:
		return ww.err // the destination's: the caller names it
	case rf.err != nil:
		return envErr(in.Copy, rf.err)
	case err != nil:
		return fmt.Errorf("not a gzip copy: %v", err)
	}
	if n != in.Bytes || hex.EncodeToString(h.Sum(nil)) != in.SHA256 {
		return errCopyDiffers
	}
	return nil
}

// ExtractInput writes the content of input i (an index into
// Manifest.Inputs) from its gzip copy to the new file path, checking its
// size and sha256 against the manifest (the file is removed when they
// differ). It fails when the bundle holds no copy.
func (o *Opened) ExtractInput(i int, path string) error {
	in := o.Manifest.Inputs[i]
	if in.Copy == "" {
		return fmt.Errorf("bundle: input %s: no copy in the bundle (built with bundle.copy_inputs: false)", in.Path)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return envErr(path, err)
	}
	ww := &writeErr{w: f}
	err = o.copyTo(ww, in)
	if cerr := f.Close(); err == nil && cerr != nil {
		ww.err, err = cerr, cerr
	}
	if err != nil {
		os.Remove(path)
		if ww.err != nil {
			return envErr(path, ww.err) // a full disk: the machine's
		}
		var env *EnvError
		if errors.As(err, &env) {
			return err
		}
		return fmt.Errorf("bundle: input %s: %s: %w", in.Path, in.Copy, err)
	}
	return nil
}

// writeErr and readErr remember the first error of their writer or
// reader, so that a failure of the machine (a full disk, an I/O error) is
// told apart from a copy that is not valid gzip.
type writeErr struct {
	w   io.Writer
	err error
}

func (w *writeErr) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF && r.err == nil {
		r.err = err
	}
	return n, err
}
