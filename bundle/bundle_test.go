package bundle

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{"v1": true, "v2.0": true, "v10.3.1": true, "1": false, "v": false, "v1.": false, "v1/../x": false, "V1": false} {
		if got := ValidVersion(v); got != want {
			t.Errorf("ValidVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// sample is a small bundle with two inputs (one copied) and a config.
func sample() *Bundle {
	b := New()
	b.Add("metrics_master.json", []byte("{}\n"))
	b.Add("figures/roc.svg", []byte("<svg/>"))
	b.Add(ConfigName, []byte("seed: 7\n"))
	b.AddInput("../data/full.csv", []byte("query_id,score\nq1,0.5\n"), true)
	b.AddInput("/abs/qrels.txt", []byte("q1 0 d1 1\n"), true)
	return b
}

func readManifest(t *testing.T, dir string) (Manifest, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m, raw
}

func TestManifestFields(t *testing.T) {
	cfg := []byte("resolved: true\n")
	dir, err := sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v2.1", Tool: "paperbundle v0.3.0", Seed: 18446744073709551615, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	m, raw := readManifest(t, dir)
	if m.SchemaVersion != 1 || m.Version != "v2.1" || m.Tool != "paperbundle v0.3.0" || m.GoVersion != runtime.Version() {
		t.Errorf("header = %d %q %q %q", m.SchemaVersion, m.Version, m.Tool, m.GoVersion)
	}
	if m.Seed != 18446744073709551615 || !bytes.Contains(raw, []byte(`"seed": 18446744073709551615,`)) {
		t.Errorf("seed = %d, not exact in JSON", m.Seed)
	}
	if m.ConfigSHA256 != sum(cfg) {
		t.Errorf("config_sha256 = %s, want the sha256 of the given config", m.ConfigSHA256)
	}
	if !sort.SliceIsSorted(m.Modules, func(i, j int) bool { return m.Modules[i].Path < m.Modules[j].Path }) {
		t.Errorf("modules not sorted: %v", m.Modules)
	}
	for _, key := range []string{"schema_version", "version", "tool", "go_version", "modules", "seed", "config_sha256", "inputs", "files", "copy"} {
		if !bytes.Contains(raw, []byte(`"`+key+`":`)) {
			t.Errorf("manifest.json lacks %q", key)
		}
	}
	wantIn := []Input{
		{Path: "../data/full.csv", Bytes: 22, SHA256: sum([]byte("query_id,score\nq1,0.5\n")), Copy: "inputs/data/full.csv.gz"},
		{Path: "/abs/qrels.txt", Bytes: 10, SHA256: sum([]byte("q1 0 d1 1\n")), Copy: "inputs/abs/qrels.txt.gz"},
	}
	if len(m.Inputs) != 2 || m.Inputs[0] != wantIn[0] || m.Inputs[1] != wantIn[1] {
		t.Errorf("inputs = %+v\nwant %+v", m.Inputs, wantIn)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil || f.SHA256 != sum(data) || f.Bytes != int64(len(data)) {
			t.Errorf("files entry %+v does not match the file (%v)", f, err)
		}
	}
	want := "config.yaml figures/roc.svg inputs/abs/qrels.txt.gz inputs/data/full.csv.gz metrics_master.json"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("files = %s\nwant %s", got, want)
	}

	// Without Config, config_sha256 is the sha256 of the bundle's config.yaml.
	dir, err = sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	m, raw = readManifest(t, dir)
	if m.ConfigSHA256 != sum([]byte("seed: 7\n")) {
		t.Errorf("config_sha256 without Config = %s", m.ConfigSHA256)
	}
	// The first version of a folder records no previous version.
	if m.Previous != nil || bytes.Contains(raw, []byte(`"previous"`)) {
		t.Errorf("a bundle committed without Previous records one: %+v", m.Previous)
	}
}

// TestManifestPrevious: the version a bundle was compared with is
// recorded under "previous" as given, between config_sha256 and inputs,
// and a per-query sha256 is left out when there was none.
func TestManifestPrevious(t *testing.T) {
	metrics, perQuery := sum([]byte("{}")), sum([]byte("system\n"))
	for _, tc := range []struct {
		prev Previous
		want string
	}{
		{Previous{Version: "v1", MetricsSHA256: metrics, PerQuerySHA256: perQuery},
			`"config_sha256": "` + sum([]byte("seed: 7\n")) + `",
  "previous": {
    "version": "v1",
    "metrics_sha256": "` + metrics + `",
    "per_query_sha256": "` + perQuery + `"
  },
  "inputs": [`},
		{Previous{Version: "v1.9", MetricsSHA256: metrics},
			`"previous": {
    "version": "v1.9",
    "metrics_sha256": "` + metrics + `"
  },`},
	} {
		prev := tc.prev
		dir, err := sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v2", Previous: &prev})
		if err != nil {
			t.Fatal(err)
		}
		_, raw := readManifest(t, dir)
		if !bytes.Contains(raw, []byte(tc.want)) {
			t.Errorf("manifest.json lacks\n%s\n\n%s", tc.want, raw)
		}
		o, err := Open(dir)
		if err != nil || o.Manifest.Previous == nil || *o.Manifest.Previous != tc.prev {
			t.Errorf("Open: previous %+v, %v; want %+v", o.Manifest.Previous, err, tc.prev)
		}
	}
}

// TestCommitDeterministic: the same files committed twice give identical
// manifest.json and input copies.
func TestCommitDeterministic(t *testing.T) {
	opt := CommitOptions{Version: "v1", Tool: "t", Seed: 3}
	opt.Root = t.TempDir()
	a, err := sample().Commit(opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Root = t.TempDir()
	b, err := sample().Commit(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ManifestName, "inputs/data/full.csv.gz", "inputs/abs/qrels.txt.gz"} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two commits", f)
		}
	}
}

func TestInputCopy(t *testing.T) {
	data := bytes.Repeat([]byte("query_id,label,score\nq1,1,0.25\n"), 1000)
	name, gz := InputCopy("runs/full.csv", data)
	_, gz2 := InputCopy("other/name.csv", data)
	if name != "inputs/runs/full.csv.gz" || !bytes.Equal(gz, gz2) {
		t.Errorf("InputCopy: name %s, copies of the same bytes equal: %v", name, bytes.Equal(gz, gz2))
	}
	// RFC 1952 header: ID1 ID2 CM FLG MTIME(4) XFL OS; no FNAME flag, time 0.
	if len(gz) < 10 || gz[3] != 0 || !bytes.Equal(gz[4:8], []byte{0, 0, 0, 0}) {
		t.Errorf("gzip header % x: want no flags and MTIME 0", gz[:10])
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(back, data) || zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gunzip: %v, equal %v, name %q, time %v", err, bytes.Equal(back, data), zr.Name, zr.ModTime)
	}
	if len(gz)*10 > len(data) {
		t.Errorf("copy of %d bytes is %d bytes: not compressed", len(data), len(gz))
	}

	for p, want := range map[string]string{
		"x.csv":               "inputs/x.csv.gz",
		"./a/../b/x.csv":      "inputs/b/x.csv.gz",
		"/home/me/run 1.tsv":  "inputs/home/me/run_1.tsv.gz",
		`C:\data\x.csv`:       "inputs/C_/data/x.csv.gz",
		"..":                  "inputs/input.gz",
		"dir/<script>é.jsonl": "inputs/dir/_script__.jsonl.gz",
	} {
		if got, _ := InputCopy(p, nil); got != want {
			t.Errorf("InputCopy(%q) name = %s, want %s", p, got, want)
		}
	}
}

func TestAddInput(t *testing.T) {
	b := New()
	x := b.AddInput("../x.csv", []byte("a"), true)
	y := b.AddInput("x.csv", []byte("b"), true)
	z := b.AddInput("./x.csv", []byte("c"), true)
	again := b.AddInput("x.csv", []byte("ignored"), true)
	off := b.AddInput("y.csv", []byte("d"), false)
	if x.Copy != "inputs/x.csv.gz" || y.Copy != "inputs/x.csv-2.gz" || z.Copy != "inputs/x.csv-3.gz" {
		t.Errorf("copies %s %s %s: want unique names", x.Copy, y.Copy, z.Copy)
	}
	if again != y || off.Copy != "" || off.SHA256 != sum([]byte("d")) {
		t.Errorf("again = %+v (want %+v), off = %+v", again, y, off)
	}
	if n := len(b.Inputs()); n != 4 {
		t.Errorf("%d inputs recorded, want 4", n)
	}
	if _, ok := b.File("inputs/y.csv.gz"); ok {
		t.Errorf("copy made with copies off")
	}
}

func TestCommitAtomicAndRefuses(t *testing.T) {
	root := t.TempDir()
	b := New()
	b.Add("metrics_master.json", []byte("{}\n"))
	b.Add("figures/a.svg", []byte("<svg/>"))
	dir, err := b.Commit(CommitOptions{Root: root, Version: "v1", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"metrics_master.json", "figures/a.svg", ManifestName} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	assertOnly(t, root, "v1")
	b2 := New()
	b2.Add("metrics_master.json", []byte("changed"))
	if _, err := b2.Commit(CommitOptions{Root: root, Version: "v1"}); !errors.Is(err, ErrExists) {
		t.Errorf("second commit of v1: %v, want ErrExists", err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "metrics_master.json"))
	if string(got) != "{}\n" {
		t.Errorf("existing version modified: %q", got)
	}
	assertOnly(t, root, "v1")
	if v, release, err := ClaimNextVersion(root); err != nil || v != "v2" {
		t.Errorf("ClaimNextVersion = %s (%v), want v2", v, err)
	} else {
		release()
	}
}

// TestRenameNoReplace: the commit rename never replaces a version that
// appeared meanwhile, even an empty folder (which a plain rename replaces).
func TestRenameNoReplace(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := renameNoReplace(a, b); !errors.Is(err, os.ErrExist) {
		t.Errorf("renameNoReplace onto an empty folder: %v, want ErrExist", err)
	}
	if err := renameNoReplace(a, filepath.Join(root, "c")); err != nil {
		t.Errorf("renameNoReplace to a new name: %v", err)
	}
}

// TestForce replaces a version with the atomic exchange and with the
// fallback: the old content is gone, the new one complete, nothing left over.
func TestForce(t *testing.T) {
	for _, mode := range []string{"exchange", "fallback"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "fallback" {
				defer func(f func(a, b string) error) { exchange = f }(exchange)
				exchange = func(a, b string) error { return errNoExchange }
			}
			root := t.TempDir()
			if _, err := sample().Commit(CommitOptions{Root: root, Version: "v1", Tool: "paperbundle test"}); err != nil {
				t.Fatal(err)
			}
			b := New()
			b.Add("metrics_master.json", []byte("new"))
			dir, err := b.Commit(CommitOptions{Root: root, Version: "v1", Force: true})
			if err != nil {
				t.Fatal(err)
			}
			assertOnly(t, root, "v1")
			got, _ := os.ReadFile(filepath.Join(dir, "metrics_master.json"))
			if string(got) != "new" {
				t.Errorf("-force did not replace: %q", got)
			}
			for _, old := range []string{"figures", "inputs", ConfigName} {
				if _, err := os.Stat(filepath.Join(dir, old)); !os.IsNotExist(err) {
					t.Errorf("-force kept %s of the old version", old)
				}
			}
			assertValid(t, dir)
			// Force without an existing version is a plain commit.
			if _, err := b.Commit(CommitOptions{Root: root, Version: "v2", Force: true}); err != nil {
				t.Fatal(err)
			}
			assertOnly(t, root, "v1", "v2")
		})
	}
}

// TestExchange: where the system has an atomic exchange, it swaps two
// folders.
func TestExchange(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	os.MkdirAll(filepath.Join(a, "new"), 0o755)
	os.MkdirAll(filepath.Join(b, "old"), 0o755)
	err := sysExchange(a, b)
	if errors.Is(err, errNoExchange) {
		t.Skipf("no atomic exchange on %s/%s or this filesystem", runtime.GOOS, runtime.GOARCH)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(b, "new")); err != nil {
		t.Errorf("b does not hold the new folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(a, "old")); err != nil {
		t.Errorf("a does not hold the old folder: %v", err)
	}
	if err := sysExchange(a, filepath.Join(root, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("exchange with a missing path: %v, want ErrNotExist", err)
	}
}

// deadPid returns the pid of a process that has exited and been reaped.
func deadPid(t *testing.T) int {
	prog, err := exec.LookPath("true")
	if err != nil {
		prog = os.Args[0] // runs no test with -test.run=^$
	}
	cmd := exec.Command(prog, "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if pidAlive(pid) {
		t.Skipf("pid %d was reused", pid)
	}
	return pid
}

func TestLeftovers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process probe")
	}
	root := t.TempDir()
	dead, live := strconv.Itoa(deadPid(t)), strconv.Itoa(os.Getpid())
	mk := func(name string, age time.Duration) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(p, "figures"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "figures", "half.svg"), []byte("<sv"), 0o644)
		if age > 0 {
			old := time.Now().Add(-age)
			os.Chtimes(p, old, old)
		}
	}
	mk(".v3.tmp-"+dead+"-123", 0)            // a killed build: removed
	mk(".v3.1.tmp-"+live+"-456", 0)          // a running build: kept
	mk(".v4.tmp-"+live+"-789", 48*time.Hour) // older than LeftoverAge: removed
	mk(".v5.tmp-"+dead+"-1-old", 0)          // fallback killed between its renames: moved back to v5
	mk(".v6.tmp-x", 0)                       // not ours: kept
	mk("notes", 0)                           // not ours: kept
	if _, err := sample().Commit(CommitOptions{Root: root, Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, root, ".v3.1.tmp-"+live+"-456", ".v6.tmp-x", "notes", "v1", "v5")
	if _, err := os.Stat(filepath.Join(root, "v5", "figures", "half.svg")); err != nil {
		t.Errorf("old version not moved back: %v", err)
	}
}

func assertOnly(t *testing.T, root string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("root holds %v, want %v", got, want)
	}
}

func assertValid(t *testing.T, dir string) {
	t.Helper()
	st, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Status != StatusOK {
			t.Errorf("%s", s)
		}
	}
}

// TestReadInput: a file read in pieces by ReadInput and recorded by AddRead
// has the size and sha256 of its content, and its copy is the bytes of one
// gzip write of the whole content at the copy level with the zero header
// (written here with compress/gzip directly; larger than a piece, so that
// the pieces are joined); AddInput gives the same record for the same
// bytes; the same path again returns the first record; after Cancel,
// ReadInput gives up.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("query_id,score\nq1,0.5\nq2,0.25\n"), 100_000) // 3 MB
	p := filepath.Join(dir, "full.csv")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// The copy made of the whole content in one write.
	_, oneShotGz := InputCopy("runs/full.csv", data)
	oneShot := bytes.NewBuffer(oneShotGz)
	if zr, err := gzip.NewReader(bytes.NewReader(oneShotGz)); err != nil {
		t.Fatal(err)
	} else if back, err := io.ReadAll(zr); err != nil || !bytes.Equal(back, data) {
		t.Fatalf("the one-write copy does not inflate to the input: %v", err)
	}
	// Written in pieces of any sizes, the copy has the same bytes.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		hs := newInputHash("runs/full.csv", len(data), true)
		for rest := data; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(3<<20))
			hs.write(rest[:k])
			rest = rest[k:]
		}
		if r, err := hs.result(); err != nil || !bytes.Equal(r.gz, oneShotGz) {
			t.Fatalf("a copy written in random pieces differs from the one-write copy (%v)", err)
		}
	}
	want := Input{Path: "runs/full.csv", Bytes: int64(len(data)), SHA256: sum(data), Copy: "inputs/runs/full.csv.gz"}

	b := New()
	r, err := b.ReadInput("runs/full.csv", p, true)
	if err != nil {
		t.Fatal(err)
	}
	got := b.AddRead(r)
	if got != want {
		t.Errorf("AddRead = %+v, want %+v", got, want)
	}
	if gz, _ := b.File(got.Copy); !bytes.Equal(gz, oneShot.Bytes()) {
		t.Errorf("the copy read in pieces differs from one gzip write (%d and %d bytes)", len(gz), oneShot.Len())
	}
	if in := New().AddInput("runs/full.csv", data, true); in != want {
		t.Errorf("AddInput = %+v, want %+v", in, want)
	}
	if again := b.AddRead(r); again != got || len(b.Inputs()) != 1 {
		t.Errorf("the same path again: %+v, %d inputs", again, len(b.Inputs()))
	}
	r, err = b.ReadInput("other.csv", p, false)
	if err != nil {
		t.Fatal(err)
	}
	if off := b.AddRead(r); off.Copy != "" || off.SHA256 != want.SHA256 || off.Bytes != int64(len(data)) {
		t.Errorf("without a copy: %+v", off)
	}
	if _, err := b.ReadInput("x.csv", filepath.Join(dir, "missing.csv"), true); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	b.Cancel()
	if _, err := b.ReadInput("runs/full.csv", p, true); !errors.Is(err, ErrCanceled) {
		t.Errorf("after Cancel: %v, want ErrCanceled", err)
	}
}

// TestInputReader: the record of an input read through an InputReader,
// in pieces or whole, is AddInput's for the bytes read, and a reader
// closed before its end is an error.
func TestInputReader(t *testing.T) {
	data := bytes.Repeat([]byte("post_id,criterion_id\nP1,A.1\n"), 5000)
	want := New().AddInput("runs/full.csv", data, true)
	for _, mode := range []string{"pieces", "whole"} {
		b := New()
		x := NewInputReader("runs/full.csv", bytes.NewReader(data), true)
		var got []byte
		if mode == "whole" {
			got, _ = x.ReadWhole(int64(len(data)))
		} else {
			got, _ = io.ReadAll(iotest.OneByteReader(x))
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%s: read %d bytes, want %d", mode, len(got), len(data))
		}
		r, err := x.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if in := b.AddRead(r); in != want {
			t.Errorf("%s: %+v, want %+v", mode, in, want)
		}
	}
	x := NewInputReader("a.csv", bytes.NewReader(data), false)
	x.Read(make([]byte, 10))
	x.Close()
	if _, err := x.Finish(); err == nil {
		t.Errorf("a reader closed after 10 bytes finished without an error")
	}
}
