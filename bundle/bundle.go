// Package bundle is the last stage of the pipeline: it owns the versioned
// folder results/paper_bundle/<version>/ (docs/bundle.md) and reads it back
// for `paperbundle verify`.
//
// Renderers hand a Bundle finished bytes (Add, Writer); the command records
// every input file through an InputReader, the one reader its parser reads
// (tap.go), and AddRead (AddInput for content already in memory), which
// keep a reproducible gzip copy under inputs/ unless copies are off. Commit then writes the files into a
// temporary folder beside the target, fsyncs every file and folder, writes
// manifest.json last and renames the folder into place: the rename is the
// commit point, so a build killed at any moment leaves no version folder or
// a complete one. An existing version is replaced only with Force, by an
// atomic exchange where the system has one (commit.go).
//
// manifest.json records the schema version, the bundle version, the tool
// and its build identity (internal/toolid), Go and module versions, the seed, the sha256 of the resolved
// configuration, the version the bundle was compared with (previous), every
// input (path as given, size, sha256, copy) and every other bundle file
// (size, sha256). Open reads it back, Check compares a
// folder with it file by file, and (*Opened).InputData returns an input's
// copy, checked, so that verify can recompute the bundle.
package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"

	"paperbundle/internal/par"
	"paperbundle/internal/toolid"
)

// ManifestName is the file that lists the sha256 of every other file.
const ManifestName = "manifest.json"

// SchemaVersion is the manifest.json schema written by this package.
const SchemaVersion = 1

// InputsDir is the bundle folder that holds the gzip copies of the inputs.
const InputsDir = "inputs"

// ConfigName is the bundle file holding the resolved configuration; its
// sha256 is the manifest's config_sha256 unless CommitOptions.Config is set.
const ConfigName = "config.yaml"

var versionRE = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*$`)

// MaxVersionNumber is the largest number of a version (each number of
// v2.0.1): nine digits, so that the next version never overflows.
const MaxVersionNumber = 999_999_999

// ValidVersion reports whether v is a bundle version:
// ^v[0-9]+(\.[0-9]+)*$, each number of at most 9 digits (MaxVersionNumber).
func ValidVersion(v string) bool { return versionRE.MatchString(v) && !TooLarge(v) }

// TooLarge reports whether a number of version v has more than 9 digits.
func TooLarge(v string) bool {
	for _, p := range strings.Split(strings.TrimPrefix(v, "v"), ".") {
		if len(p) > 9 {
			return true
		}
	}
	return false
}

// major is the first number of a valid version (2 for v2.5), or -1 when
// v is not a valid version.
func major(v string) int {
	if !ValidVersion(v) {
		return -1
	}
	first, _, _ := strings.Cut(v[1:], ".")
	n, _ := strconv.Atoi(first)
	return n
}

// ErrExists is returned by Commit when the version exists and Force is off.
var ErrExists = errors.New("bundle version already exists")

// Manifest is manifest.json.
type Manifest struct {
	SchemaVersion int        `json:"schema_version"`
	Version       string     `json:"version"`
	Tool          string     `json:"tool"`
	ToolBuild     *toolid.ID `json:"tool_build,omitempty"` // absent from bundles made before it was recorded
	GoVersion     string     `json:"go_version"`
	Modules       []Module   `json:"modules"` // sorted by path; empty without build info
	Seed          uint64     `json:"seed"`
	ConfigSHA256  string     `json:"config_sha256"`
	// Previous is the version the bundle's changes were computed against;
	// absent for the first version of a folder, and from bundles made
	// before it was recorded.
	Previous *Previous `json:"previous,omitempty"`
	Inputs   []Input   `json:"inputs"` // in the order they were added
	Files    []Entry   `json:"files"`  // every file but manifest.json, sorted by path
}

// Previous names the version a bundle was compared with when it was built
// (CHANGES.md, the report's changes section and SUMMARY.md's changes are
// computed against it) and pins the files that comparison read, so that
// verify finds that version again and can tell when it is no longer the
// same.
type Previous struct {
	Version       string `json:"version"`
	MetricsSHA256 string `json:"metrics_sha256"` // sha256 of its metrics_master.json
	// PerQuerySHA256 is the sha256 of its per_query_metrics.csv, the rows
	// of the paired tests; absent when it had none.
	PerQuerySHA256 string `json:"per_query_sha256,omitempty"`
}

// Module is a Go module the tool was built from (debug.ReadBuildInfo).
type Module struct {
	Path    string `json:"path"`
	Version string `json:"version"`
}

// Input is an input file recorded in the manifest.
type Input struct {
	Path   string `json:"path"` // as the user gave it
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	Copy   string `json:"copy"` // bundle path of its gzip copy; "" when copies are off
}

// Entry is one bundle file in the manifest.
type Entry struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// HashFile returns the manifest record of an input file without a copy.
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

// Bundle collects the files of one version in memory until Commit. It is
// not safe for concurrent use, but for ReadInput (see there).
type Bundle struct {
	files  map[string][]byte // slash-separated relative path -> content
	inputs []Input
	stop   atomic.Bool // Cancel was called
}

// Cancel makes every ReadInput still reading give up (ErrCanceled): the
// bundle will not be committed (a build that failed).
func (b *Bundle) Cancel() { b.stop.Store(true) }

// New returns an empty bundle.
func New() *Bundle {
	return &Bundle{files: map[string][]byte{}}
}

// validName reports whether name is a clean, slash-separated path inside a
// bundle, other than manifest.json.
func validName(name string) bool {
	return name != "" && name != "." && path.Clean(name) == name && !path.IsAbs(name) &&
		name != ".." && !strings.HasPrefix(name, "../") && !strings.Contains(name, `\`) && name != ManifestName
}

// Add records a file. The name is a slash-separated path relative to the
// bundle root; a bad name or adding the same name twice is a programmer error.
func (b *Bundle) Add(name string, data []byte) {
	if !validName(name) {
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

// Names returns the file names in sorted order (manifest.json excluded).
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

// Inputs returns the inputs recorded by AddInput and AddRead, in the order added.
func (b *Bundle) Inputs() []Input { return append([]Input(nil), b.inputs...) }

// AddInput records an input file for the manifest: p is its path as the user
// gave it, data its content. With keepCopy, a gzip copy (InputCopy) is added
// under inputs/; when two paths sanitise to the same name the later one gets
// a "-2", "-3", ... suffix before ".gz". Adding the same path again returns
// the first record.
func (b *Bundle) AddInput(p string, data []byte, keepCopy bool) Input {
	r, err := readInput(p, bytes.NewReader(data), len(data), keepCopy, nil)
	if err != nil {
		panic(err) // a bytes.Reader does not fail
	}
	return b.AddRead(r)
}

// copyNameFor reserves the name of the copy of input p: InputCopy's name,
// with a "-2", "-3", ... suffix before ".gz" when it is taken.
func (b *Bundle) copyNameFor(p string) string {
	name := copyName(p)
	base := strings.TrimSuffix(name, ".gz")
	for i := 2; ; i++ {
		if _, taken := b.files[name]; !taken {
			break
		}
		name = base + "-" + strconv.Itoa(i) + ".gz"
	}
	b.Add(name, nil) // reserved; filled in by AddRead
	return name
}

// InputRead is an input file read by Bundle.ReadInput: its record and,
// when kept, the gzip bytes of its copy.
type InputRead struct {
	in   Input
	keep bool
	gz   []byte
}

// ErrCanceled is returned by ReadInput after Cancel.
var ErrCanceled = errors.New("bundle: canceled")

// ReadInput reads the input file at path, given by the user as p, in
// pieces of 1 MB: it is hashed and, with keepCopy, its copy compressed in
// the same pass, so that a large input is never held in memory whole. The
// record and the copy's bytes are those AddInput gives for the same
// content. Several ReadInput may run at once (they read nothing of the
// bundle but its Cancel flag); AddRead records their results in the order
// the caller chooses. After Cancel it returns ErrCanceled.
func (b *Bundle) ReadInput(p, path string, keepCopy bool) (InputRead, error) {
	f, err := os.Open(path)
	if err != nil {
		return InputRead{}, err
	}
	defer f.Close()
	size := 0
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = int(st.Size())
	}
	return readInput(p, f, size, keepCopy, &b.stop)
}

// readInput reads input p from r (size bytes expected, 0 if unknown) in
// pieces of 1 MB, hashing it and, with keepCopy, compressing its copy
// (inputHash). It gives up with ErrCanceled once stop (if not nil) is set.
func readInput(p string, r io.Reader, size int, keepCopy bool, stop *atomic.Bool) (InputRead, error) {
	hs := newInputHash(p, size, keepCopy)
	buf := make([]byte, min(max(size, 512), 1<<20))
	for {
		if stop != nil && stop.Load() {
			return InputRead{}, ErrCanceled
		}
		k, err := io.ReadFull(r, buf)
		if k > 0 {
			hs.write(buf[:k])
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return InputRead{}, err
		}
	}
	return hs.result()
}

// inputHash hashes the bytes of an input and, with a copy kept,
// compresses them at copyLevel with the zero gzip header, so that the
// copy's bytes depend on the content only.
type inputHash struct {
	p    string
	h    hash.Hash
	zw   *gzip.Writer
	gz   bytes.Buffer
	pend []byte // bytes not yet given to zw (less than copyChunk)
	n    int64
}

// copyChunk is the size of the pieces the copy's compressor is given:
// klauspost's output depends on how its input is cut into writes, and the
// reads of a pipe come in any sizes, so every copy is compressed in pieces
// of this size whatever the reads were.
const copyChunk = 1 << 20

func newInputHash(p string, size int, keepCopy bool) *inputHash {
	hs := &inputHash{p: p, h: sha256.New()}
	if keepCopy {
		hs.gz.Grow(size/3 + 4096)                         // BestSpeed keeps about a third
		hs.zw, _ = gzip.NewWriterLevel(&hs.gz, copyLevel) // copyLevel is valid
		hs.zw.ModTime = time.Unix(0, 0)                   // MTIME 0: no time (the zero time.Time is not written as 0)
	}
	return hs
}

func (hs *inputHash) write(b []byte) {
	hs.n += int64(len(b))
	hs.h.Write(b)
	hs.copy(b)
}

// copy compresses b into the copy, when one is kept. It touches only the
// copy's fields, so it may run beside the hashing of the same bytes.
func (hs *inputHash) copy(b []byte) {
	if hs.zw == nil {
		return
	}
	// Pieces of copyChunk bytes; a bytes.Buffer does not fail.
	for len(b) > 0 {
		if len(hs.pend) == 0 && len(b) >= copyChunk {
			hs.zw.Write(b[:copyChunk])
			b = b[copyChunk:]
			continue
		}
		k := min(copyChunk-len(hs.pend), len(b))
		hs.pend = append(hs.pend, b[:k]...)
		b = b[k:]
		if len(hs.pend) == copyChunk {
			hs.zw.Write(hs.pend)
			hs.pend = hs.pend[:0]
		}
	}
}

func (hs *inputHash) result() (InputRead, error) {
	in := InputRead{in: Input{Path: hs.p, Bytes: hs.n, SHA256: hex.EncodeToString(hs.h.Sum(nil))}, keep: hs.zw != nil}
	if hs.zw != nil {
		if len(hs.pend) > 0 {
			hs.zw.Write(hs.pend)
		}
		if err := hs.zw.Close(); err != nil {
			return InputRead{}, err
		}
		in.gz = hs.gz.Bytes()
	}
	return in, nil
}

// AddRead records an input read by ReadInput, as AddInput does (the same
// path again returns the first record).
func (b *Bundle) AddRead(r InputRead) Input {
	for _, in := range b.inputs {
		if in.Path == r.in.Path {
			return in
		}
	}
	in := r.in
	if r.keep {
		in.Copy = b.copyNameFor(in.Path)
		b.files[in.Copy] = r.gz
	}
	b.inputs = append(b.inputs, in)
	return in
}

// copyLevel is the fixed gzip level of input copies: the bytes of a copy
// depend only on the input (and the version of klauspost/compress, which
// go.mod pins). BestSpeed: on the demo's 91 MB of CSV it keeps a third of
// the size in 0.1 s per 15 MB, where level 6 keeps a quarter in ten times
// the time, most of the whole build's budget (docs/performance.md).
// klauspost/compress's gzip rather than the standard library's: on the
// 184 MB TREC run of the benchmarks it takes 1.0-1.1 s against 1.8-2.0 s,
// for a copy 10% smaller (docs/decisions.md).
const copyLevel = gzip.BestSpeed

// InputCopy returns the bundle name and the gzip bytes of the copy of the
// input at path p (as the user gave it). The name is inputs/ + a sanitised
// relative form of p + ".gz": p is cleaned ('\' taken as '/'), "." and ".."
// elements and a leading "/" are dropped, and characters other than ASCII
// letters, digits, '.', '-' and '_' become '_'. The gzip header carries no
// name, no time and OS "unknown", and the level is fixed, so the bytes are
// reproducible.
func InputCopy(p string, data []byte) (name string, gz []byte) {
	r, err := readInput(p, bytes.NewReader(data), len(data), true, nil)
	if err != nil {
		panic(err) // a bytes.Reader does not fail
	}
	return copyName(p), r.gz
}

func copyName(p string) string {
	var elems []string
	for _, e := range strings.Split(path.Clean(strings.ReplaceAll(p, `\`, "/")), "/") {
		if e == "" || e == "." || e == ".." {
			continue
		}
		elems = append(elems, strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
				return r
			}
			return '_'
		}, e))
	}
	if len(elems) == 0 {
		elems = []string{"input"}
	}
	return InputsDir + "/" + strings.Join(elems, "/") + ".gz"
}

// Manifest computes manifest.json for the files and inputs added so far:
// the inputs of AddInput, then opt.Inputs (hash-only records, as from
// HashFile).
func (b *Bundle) Manifest(opt CommitOptions) Manifest {
	m := Manifest{
		SchemaVersion: SchemaVersion,
		Version:       opt.Version,
		Tool:          opt.Tool,
		ToolBuild:     opt.ToolBuild,
		GoVersion:     runtime.Version(),
		Modules:       modules(),
		Seed:          opt.Seed,
		Previous:      opt.Previous,
		Inputs:        append(b.Inputs(), opt.Inputs...),
		Files:         []Entry{},
	}
	cfg, ok := opt.Config, opt.Config != nil
	if !ok {
		cfg, ok = b.files[ConfigName]
	}
	if ok {
		m.ConfigSHA256 = hexSum(cfg)
	}
	names := b.Names()
	m.Files = make([]Entry, len(names))
	par.Jobs(0, len(names), func() func(int) {
		return func(k int) {
			d := b.files[names[k]]
			m.Files[k] = Entry{Path: names[k], Bytes: int64(len(d)), SHA256: hexSum(d)}
		}
	})
	return m
}

// JSON returns the manifest as written to manifest.json: indented, with a
// final newline.
func (m Manifest) JSON() []byte {
	if m.Modules == nil {
		m.Modules = []Module{}
	}
	if m.Inputs == nil {
		m.Inputs = []Input{}
	}
	if m.Files == nil {
		m.Files = []Entry{}
	}
	js, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // only strings and numbers
	}
	return append(js, '\n')
}

func hexSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// modules lists the main module and every dependency the binary was built
// from, sorted by path; a replaced module shows its replacement's version.
func modules() []Module {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return []Module{}
	}
	mods := []Module{}
	if bi.Main.Path != "" {
		mods = append(mods, Module{Path: bi.Main.Path, Version: bi.Main.Version})
	}
	for _, d := range bi.Deps {
		m := Module{Path: d.Path, Version: d.Version}
		if d.Replace != nil {
			m.Version = d.Replace.Version
		}
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool {
		if mods[i].Path != mods[j].Path {
			return mods[i].Path < mods[j].Path
		}
		return mods[i].Version < mods[j].Version
	})
	return mods
}
