// Package bundle is the last stage of the pipeline: it owns the versioned
// folder results/paper_bundle/<version>/. Renderers hand it finished bytes;
// it writes them into a temporary folder beside the final one, adds
// manifest.json (sha256 of every file and input), and renames the folder into
// place, so an interrupted build never leaves a partial version and an
// existing version is never overwritten without Force.
package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ManifestName is the file that lists the sha256 of every other file.
const ManifestName = "manifest.json"

var versionRE = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*$`)

// ValidVersion reports whether v is a bundle version (SPEC 7: ^v[0-9]+(\.[0-9]+)*$).
func ValidVersion(v string) bool { return versionRE.MatchString(v) }

// ErrExists is returned by Commit when the version exists and Force is off.
var ErrExists = errors.New("bundle version already exists")

// NextVersion returns the first vN (N = 1, 2, ...) that is not a folder in root.
func NextVersion(root string) (string, error) {
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	max := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "v") {
			continue
		}
		n, err := strconv.Atoi(name[1:])
		if err == nil && n > max {
			max = n
		}
	}
	return "v" + strconv.Itoa(max+1), nil
}

// Input is an input file recorded in the manifest.
type Input struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// HashFile returns the manifest record of an input file.
func HashFile(p string) (Input, error) {
	f, err := os.Open(p)
	if err != nil {
		return Input{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Input{}, err
	}
	return Input{Path: filepath.ToSlash(p), SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n}, nil
}

// Bundle collects the files of one version in memory until Commit.
type Bundle struct {
	files map[string][]byte // slash-separated relative path -> content
}

// New returns an empty bundle.
func New() *Bundle { return &Bundle{files: map[string][]byte{}} }

// Add records a file. The name is a slash-separated path relative to the
// bundle root; adding the same name twice is a programmer error.
func (b *Bundle) Add(name string, data []byte) {
	clean := path.Clean(name)
	if clean != name || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "..") || name == ManifestName {
		panic("bundle: bad file name " + strconv.Quote(name))
	}
	if _, dup := b.files[name]; dup {
		panic("bundle: file added twice: " + name)
	}
	b.files[name] = data
}

// Writer returns a buffer whose content becomes the file name when Close is
// called. It lets renderers that write to an io.Writer stream into the bundle.
func (b *Bundle) Writer(name string) io.WriteCloser {
	return &fileWriter{b: b, name: name}
}

type fileWriter struct {
	b    *Bundle
	name string
	buf  bytes.Buffer
}

func (w *fileWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *fileWriter) Close() error {
	w.b.Add(w.name, w.buf.Bytes())
	return nil
}

// Names returns the file names in sorted order.
func (b *Bundle) Names() []string {
	names := make([]string, 0, len(b.files))
	for n := range b.files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// File returns a file's content.
func (b *Bundle) File(name string) ([]byte, bool) {
	d, ok := b.files[name]
	return d, ok
}

// Manifest is manifest.json.
type Manifest struct {
	Tool    string  `json:"tool"`
	Version string  `json:"version"`
	Files   []Entry `json:"files"`
	Inputs  []Input `json:"inputs"`
}

// Entry is one bundle file in the manifest.
type Entry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

// Manifest computes the manifest of the files added so far.
func (b *Bundle) Manifest(tool, version string, inputs []Input) Manifest {
	m := Manifest{Tool: tool, Version: version, Inputs: inputs, Files: []Entry{}}
	if m.Inputs == nil {
		m.Inputs = []Input{}
	}
	for _, n := range b.Names() {
		sum := sha256.Sum256(b.files[n])
		m.Files = append(m.Files, Entry{Path: n, SHA256: hex.EncodeToString(sum[:]), Bytes: len(b.files[n])})
	}
	return m
}

// CommitOptions says where and how a bundle is written.
type CommitOptions struct {
	Root    string // results/paper_bundle
	Version string
	Force   bool // replace an existing version
	Tool    string
	Inputs  []Input
}

// Commit writes the bundle into Root/Version atomically: files go into a
// temporary folder in Root, manifest.json last, then the folder is renamed
// into place. It returns the final folder.
func (b *Bundle) Commit(opt CommitOptions) (string, error) {
	if !ValidVersion(opt.Version) {
		return "", fmt.Errorf("bundle: version %q must match ^v[0-9]+(\\.[0-9]+)*$", opt.Version)
	}
	final := filepath.Join(opt.Root, opt.Version)
	if _, err := os.Stat(final); err == nil && !opt.Force {
		return "", fmt.Errorf("%w: %s (use -force to replace it)", ErrExists, final)
	}
	if err := os.MkdirAll(opt.Root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(opt.Root, "."+opt.Version+".tmp-")
	if err != nil {
		return "", err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	for _, n := range b.Names() {
		if err := writeFile(filepath.Join(tmp, filepath.FromSlash(n)), b.files[n]); err != nil {
			return "", err
		}
	}
	man, err := json.MarshalIndent(b.Manifest(opt.Tool, opt.Version, opt.Inputs), "", "  ")
	if err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(tmp, ManifestName), append(man, '\n')); err != nil {
		return "", err
	}
	if _, err := os.Stat(final); err == nil {
		// -force: move the old version aside first, remove it only after the
		// new one is in place.
		old := tmp + ".old"
		if err := os.Rename(final, old); err != nil {
			return "", err
		}
		if err := os.Rename(tmp, final); err != nil {
			os.Rename(old, final)
			return "", err
		}
		os.RemoveAll(old)
	} else if err := os.Rename(tmp, final); err != nil {
		return "", err
	}
	ok = true
	return final, nil
}

func writeFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
