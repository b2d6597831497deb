package bundle

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// committed commits sample() into a fresh root and returns its folder.
func committed(t *testing.T) string {
	t.Helper()
	dir, err := sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v1", Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// statusLines runs Check and returns its non-OK lines.
func statusLines(t *testing.T, dir string) string {
	t.Helper()
	st, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for i, s := range st {
		if i > 0 && st[i-1].Path >= s.Path {
			t.Errorf("statuses not sorted by path: %s before %s", st[i-1].Path, s.Path)
		}
		if s.Status != StatusOK {
			bad = append(bad, s.String())
		}
	}
	return strings.Join(bad, "\n")
}

// fixEntry rewrites the manifest's files entry of name to match the file on
// disk, as someone covering up an edit would.
func fixEntry(t *testing.T, dir, name string) {
	t.Helper()
	m, _ := readManifest(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Files {
		if m.Files[i].Path == name {
			m.Files[i].SHA256, m.Files[i].Bytes = sum(data), int64(len(data))
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestName), m.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, dir string)
		want   string
	}{
		{"intact", func(t *testing.T, dir string) {}, ""},
		{"flipped byte", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "figures", "roc.svg")
			data, _ := os.ReadFile(p)
			data[1] ^= 1
			os.WriteFile(p, data, 0o644)
		}, "CHANGED figures/roc.svg: sha256 differs from the manifest"},
		{"truncated", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "metrics_master.json"), []byte("{"), 0o644)
		}, "CHANGED metrics_master.json: 1 bytes, the manifest says 3"},
		{"removed", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, ConfigName))
		}, "MISSING config.yaml"},
		{"added", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "figures", "extra.png"), nil, 0o644)
		}, "EXTRA figures/extra.png"},
		{"symlink", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "metrics_master.json")
			os.Rename(p, p+".real")
			os.Symlink("metrics_master.json.real", p)
		}, "NOT A FILE metrics_master.json: not a regular file: a symbolic link, FIFO or device in a bundle is never read\nEXTRA metrics_master.json.real"},
		{"input copy edited, files entry fixed", func(t *testing.T, dir string) {
			_, gz := InputCopy("x", []byte("query_id,score\nq1,0.9\n"))
			os.WriteFile(filepath.Join(dir, "inputs", "data", "full.csv.gz"), gz, 0o644)
			fixEntry(t, dir, "inputs/data/full.csv.gz")
		}, "CHANGED inputs/data/full.csv.gz: content differs from the input's sha256"},
		{"input copy not gzip, files entry fixed", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "inputs", "abs", "qrels.txt.gz"), []byte("q1 0 d1 1\n"), 0o644)
			fixEntry(t, dir, "inputs/abs/qrels.txt.gz")
		}, "CHANGED inputs/abs/qrels.txt.gz: not a gzip copy: gzip: invalid header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := committed(t)
			tc.tamper(t, dir)
			if got := statusLines(t, dir); got != tc.want {
				t.Errorf("Check:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestCheckCountsEveryFile(t *testing.T) {
	st, err := Check(committed(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 5 { // config.yaml, figures/roc.svg, 2 input copies, metrics_master.json
		t.Errorf("%d statuses, want 5: %v", len(st), st)
	}
}

func TestInputData(t *testing.T) {
	dir := committed(t)
	o, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	data, err := o.InputData(0)
	if err != nil || string(data) != "query_id,score\nq1,0.5\n" {
		t.Errorf("InputData(0) = %q, %v", data, err)
	}
	_, gz := InputCopy("x", []byte("query_id,score\nq1,0.9\n"))
	os.WriteFile(filepath.Join(dir, "inputs", "data", "full.csv.gz"), gz, 0o644)
	if _, err := o.InputData(0); err == nil || !strings.Contains(err.Error(), "content differs from the input's sha256") {
		t.Errorf("InputData of an edited copy: %v", err)
	}

	b := New()
	b.AddInput("x.csv", []byte("a"), false)
	dir, err = b.Commit(CommitOptions{Root: t.TempDir(), Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if o, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := o.InputData(0); err == nil || !strings.Contains(err.Error(), "no copy") {
		t.Errorf("InputData without copies: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "no manifest.json") {
		t.Errorf("Open without manifest: %v", err)
	}
	good, _ := json.Marshal(Manifest{SchemaVersion: 1, Files: []Entry{{Path: "a", SHA256: strings.Repeat("0", 64)}}})
	for _, tc := range []struct{ manifest, want string }{
		{`{"schema_version": 1, `, "invalid manifest: unexpected end of JSON input"},
		{`[]`, "invalid manifest: json: cannot unmarshal array"},
		{`{"schema_version": 2}`, "schema_version 2, want 1"},
		{strings.Replace(string(good), `"a"`, `"../../etc/passwd"`, 1), `bad path "../../etc/passwd"`},
		{strings.Replace(string(good), `"a"`, `"manifest.json"`, 1), `bad path "manifest.json"`},
		{strings.Replace(string(good), `"0000`, `"zz00`, 1), "a: bad sha256"},
		{`{"schema_version": 1, "inputs": [{"path": "x", "sha256": "` + strings.Repeat("0", 64) + `", "copy": "/etc/x.gz"}]}`, `bad copy path "/etc/x.gz"`},
		// previous names an earlier version and sha256 sums, nothing else.
		{`{"schema_version": 1, "version": "v2", "previous": {"version": "../v1", "metrics_sha256": "` + strings.Repeat("0", 64) + `"}}`, `previous: version "../v1" is not a version before "v2"`},
		{`{"schema_version": 1, "version": "v2", "previous": {"version": "v2", "metrics_sha256": "` + strings.Repeat("0", 64) + `"}}`, `previous: version "v2" is not a version before "v2"`},
		{`{"schema_version": 1, "version": "v2", "previous": {"version": "v1", "metrics_sha256": "x"}}`, "previous: bad metrics_sha256"},
		{`{"schema_version": 1, "version": "v2", "previous": {"version": "v1", "metrics_sha256": "` + strings.Repeat("0", 64) + `", "per_query_sha256": "x"}}`, "previous: bad per_query_sha256"},
	} {
		os.WriteFile(filepath.Join(dir, ManifestName), []byte(tc.manifest), 0o644)
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want %q", tc.manifest, err, tc.want)
		}
	}
	os.WriteFile(filepath.Join(dir, ManifestName), good, 0o644)
	if _, err := Open(dir); err != nil {
		t.Errorf("Open of a good manifest: %v", err)
	}
}

// TestManifestRoundTrip: Open reads back exactly what Commit wrote.
func TestManifestRoundTrip(t *testing.T) {
	dir := committed(t)
	o, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, raw := readManifest(t, dir)
	if !bytes.Equal(o.Manifest.JSON(), raw) {
		t.Errorf("manifest does not round-trip")
	}
}
