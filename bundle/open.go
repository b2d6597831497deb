package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
)

// Opened is a bundle folder read back with its manifest.
type Opened struct {
	Dir      string
	Manifest Manifest
}

var sha256RE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Open reads dir/manifest.json. It fails when the file is missing, is not
// valid JSON, has another schema_version, or names a path outside the
// bundle, a bad sha256 or a file twice.
func Open(dir string) (*Opened, error) {
	mp := filepath.Join(dir, ManifestName)
	data, err := ReadFile(dir, ManifestName, MaxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("bundle: %s: no %s: not a bundle folder, or its build did not finish", dir, ManifestName)
	}
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("bundle: %s: invalid manifest: %v", mp, err)
	}
	bad := func(format string, args ...any) (*Opened, error) {
		return nil, fmt.Errorf("bundle: %s: invalid manifest: "+format, append([]any{mp}, args...)...)
	}
	if m.SchemaVersion != SchemaVersion {
		return bad("schema_version %d, want %d", m.SchemaVersion, SchemaVersion)
	}
	if p := m.Previous; p != nil {
		switch {
		case !ValidVersion(p.Version) || !VersionLess(p.Version, m.Version):
			return bad("previous: version %q is not a version before %q", p.Version, m.Version)
		case !sha256RE.MatchString(p.MetricsSHA256):
			return bad("previous: bad metrics_sha256")
		case p.PerQuerySHA256 != "" && !sha256RE.MatchString(p.PerQuerySHA256):
			return bad("previous: bad per_query_sha256")
		}
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		switch {
		case !validName(f.Path):
			return bad("files: bad path %q", f.Path)
		case seen[f.Path]:
			return bad("files: %s listed twice", f.Path)
		case !sha256RE.MatchString(f.SHA256) || f.Bytes < 0:
			return bad("files: %s: bad sha256 or bytes", f.Path)
		}
		seen[f.Path] = true
	}
	for _, in := range m.Inputs {
		switch {
		case in.Copy != "" && !validName(in.Copy):
			return bad("inputs: %s: bad copy path %q", in.Path, in.Copy)
		case !sha256RE.MatchString(in.SHA256) || in.Bytes < 0:
			return bad("inputs: %s: bad sha256 or bytes", in.Path)
		}
	}
	return &Opened{Dir: dir, Manifest: m}, nil
}

// InputData returns the content of input i (an index into
// Manifest.Inputs) from its gzip copy, after checking its size and sha256
// against the manifest. It fails when the bundle holds no copy. It holds
// up to the size the manifest records in memory: for a bundle from
// elsewhere, ExtractInput to a file.
func (o *Opened) InputData(i int) ([]byte, error) {
	in := o.Manifest.Inputs[i]
	if in.Copy == "" {
		return nil, fmt.Errorf("bundle: input %s: no copy in the bundle (built with bundle.copy_inputs: false)", in.Path)
	}
	data, err := o.readCopy(in)
	if err != nil {
		return nil, fmt.Errorf("bundle: input %s: %s: %w", in.Path, in.Copy, err)
	}
	return data, nil
}

// errCopyDiffers is the failure of a copy that decompresses to other bytes
// than the input the manifest records.
var errCopyDiffers = errors.New("content differs from the input's sha256")

func (o *Opened) readCopy(in Input) ([]byte, error) {
	var b bytes.Buffer
	if err := o.copyTo(&b, in); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Status is the result of checking one file of a bundle against its manifest.
type Status int

const (
	StatusOK       Status = iota // size and sha256 as in the manifest
	StatusChanged                // size or sha256 differs, or an input copy does not give the input
	StatusMissing                // in the manifest, not on disk
	StatusExtra                  // on disk, not in the manifest
	StatusNotAFile               // a symbolic link, FIFO or device: never read
	// StatusUnreadable: the file could not be read on this machine (its
	// permissions, an I/O error); its bytes are not known to differ.
	StatusUnreadable
)

// An EnvError is a failure of the machine, not of the bundle: a temporary
// folder missing or full, a file whose permissions forbid reading it, a
// disk that is full. verify exits 1 on it, naming Path and Err, rather
// than calling the bundle invalid.
type EnvError struct {
	Path string
	Err  error
}

func (e *EnvError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *EnvError) Unwrap() error { return e.Err }

// envErr wraps err as an EnvError of path (nil stays nil; an EnvError is
// kept as it is).
func envErr(path string, err error) error {
	var e *EnvError
	if err == nil || errors.As(err, &e) {
		return err
	}
	return &EnvError{Path: path, Err: err}
}

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "OK"
	case StatusChanged:
		return "CHANGED"
	case StatusMissing:
		return "MISSING"
	case StatusExtra:
		return "EXTRA"
	case StatusNotAFile:
		return "NOT A FILE"
	case StatusUnreadable:
		return "UNREADABLE"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// FileStatus is the state of one bundle file.
type FileStatus struct {
	Path   string // slash-separated, relative to the bundle folder
	Status Status
	Detail string // why CHANGED; "" otherwise
}

// String is the line verify prints: "OK metrics_master.json",
// "CHANGED inputs/x.csv.gz: content differs from the input's sha256".
func (s FileStatus) String() string {
	if s.Detail == "" {
		return s.Status.String() + " " + s.Path
	}
	return s.Status.String() + " " + s.Path + ": " + s.Detail
}

// Check opens dir and compares it with its manifest (see (*Opened).Check).
func Check(dir string) ([]FileStatus, error) {
	o, err := Open(dir)
	if err != nil {
		return nil, err
	}
	return o.Check()
}

// Check compares the bundle folder with its manifest: one status per file
// listed in the manifest or present on disk (manifest.json excepted), sorted
// by path. A file is CHANGED when its size or sha256 differs or it is not a
// regular file. An input copy is also decompressed and checked against the
// input's size and sha256, so an edited copy whose files entry was fixed up
// is still CHANGED. The bundle is complete when nothing is MISSING or EXTRA,
// and valid when every status is OK.
func (o *Opened) Check() ([]FileStatus, error) {
	onDisk := map[string]bool{}
	err := filepath.WalkDir(o.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(o.Dir, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); rel != ManifestName {
			onDisk[rel] = d.Type().IsRegular()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	st := map[string]FileStatus{}
	for _, f := range o.Manifest.Files {
		_, present := onDisk[f.Path]
		st[f.Path] = o.checkFile(f, present)
	}
	for _, in := range o.Manifest.Inputs {
		if in.Copy == "" {
			continue
		}
		s, listed := st[in.Copy]
		if !listed {
			s = FileStatus{Path: in.Copy, Status: StatusChanged, Detail: "not listed in the manifest's files"}
			if _, present := onDisk[in.Copy]; !present {
				s = FileStatus{Path: in.Copy, Status: StatusMissing}
			}
		}
		if s.Status == StatusMissing {
			st[in.Copy] = s
			continue
		}
		if s.Status == StatusNotAFile || s.Status == StatusUnreadable {
			st[in.Copy] = s
			continue
		}
		if err := o.copyTo(io.Discard, in); err != nil {
			var env *EnvError
			if errors.As(err, &env) {
				s.Status, s.Detail = StatusUnreadable, env.Err.Error()
			} else if s.Status == StatusChanged {
				s.Detail += "; " + err.Error()
			} else {
				s.Status, s.Detail = StatusChanged, err.Error()
			}
		}
		st[in.Copy] = s
	}
	for p, regular := range onDisk {
		if _, ok := st[p]; !ok {
			st[p] = FileStatus{Path: p, Status: StatusExtra}
			if !regular {
				st[p] = FileStatus{Path: p, Status: StatusNotAFile, Detail: ErrNotAFile.Error()}
			}
		}
	}
	out := make([]FileStatus, 0, len(st))
	for _, s := range st {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// checkFile compares one file with its manifest entry.
func (o *Opened) checkFile(e Entry, present bool) FileStatus {
	s := FileStatus{Path: e.Path, Status: StatusMissing}
	if !present {
		return s
	}
	s.Status = StatusChanged
	f, err := OpenFile(o.Dir, e.Path)
	if errors.Is(err, ErrNotAFile) {
		s.Status, s.Detail = StatusNotAFile, ErrNotAFile.Error()
		return s
	}
	if err != nil {
		s.Status, s.Detail = StatusUnreadable, err.Error()
		return s
	}
	defer f.Close()
	h := sha256.New()
	// A file that grew past its recorded size is CHANGED without being
	// read to its end.
	n, err := io.Copy(h, io.LimitReader(f, e.Bytes+1))
	switch {
	case err != nil:
		s.Status, s.Detail = StatusUnreadable, err.Error()
	case n > e.Bytes:
		s.Detail = fmt.Sprintf("more than the %d bytes the manifest says", e.Bytes)
	case n != e.Bytes:
		s.Detail = fmt.Sprintf("%d bytes, the manifest says %d", n, e.Bytes)
	case hex.EncodeToString(h.Sum(nil)) != e.SHA256:
		s.Detail = "sha256 differs from the manifest"
	default:
		s.Status = StatusOK
	}
	return s
}
