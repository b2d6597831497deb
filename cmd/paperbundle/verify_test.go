package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// builtBundle builds the small project and returns the bundle folder.
func builtBundle(t *testing.T) string {
	t.Helper()
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	return filepath.Join(root, "v1")
}

// fixManifest sets the size and sha256 of file name in manifest.json to
// its current content, as a forger would.
func fixManifest(t *testing.T, dir, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	editManifest(t, dir, func(m map[string]any) {
		found := false
		for _, f := range m["files"].([]any) {
			e := f.(map[string]any)
			if e["path"] == name {
				e["sha256"], e["bytes"], found = hex.EncodeToString(sum[:]), len(data), true
			}
		}
		if !found {
			t.Fatalf("%s not in the manifest", name)
		}
	})
}

// editManifest rewrites manifest.json through edit.
func editManifest(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	mp := filepath.Join(dir, "manifest.json")
	raw, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(mp, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerify: an intact bundle verifies and recomputes (exit 0); each
// kind of tampering is reported by name with exit 3.
func TestVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bundles")
	}
	if out, stderr, code := runCmd("verify", builtBundle(t)); code != 0 || !strings.Contains(out, "valid and recomputed") {
		t.Fatalf("intact bundle: exit %d\n%s%s", code, out, stderr)
	}
	cases := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		want   []string
	}{
		{"flipped byte in a figure", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "figures", "systems.svg")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 1
			os.WriteFile(p, data, 0o644)
		}, []string{"CHANGED  figures/systems.svg"}},
		{"removed file", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "tables", "scorecard.csv"))
		}, []string{"MISSING  tables/scorecard.csv"}},
		{"added file", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
		}, []string{"EXTRA    notes.txt"}},
		{"edited input copy", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "inputs", "sys.csv.gz")
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(zr)
			f.Close()
			data = bytes.Replace(data, []byte("0.9;0.5;0.1"), []byte("0.1;0.5;0.9"), 1)
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(data)
			zw.Close()
			os.WriteFile(p, b.Bytes(), 0o644)
			fixManifest(t, dir, "inputs/sys.csv.gz")
		}, []string{"CHANGED  inputs/sys.csv.gz"}},
		{"edited metrics_master.json, hash fixed", func(t *testing.T, dir string) {
			p := filepath.Join(dir, "metrics_master.json")
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(data, []byte(`"id": "ne.auroc"`))
			j := bytes.Index(data[i:], []byte(`"value": `))
			if i < 0 || j < 0 {
				t.Fatal("no ne.auroc value in metrics_master.json")
			}
			k := i + j + len(`"value": `)
			data = append(data[:k:k], append([]byte("0.999,\"was\": "), data[k:]...)...)
			os.WriteFile(p, data, 0o644)
			fixManifest(t, dir, "metrics_master.json")
		}, []string{"OK       metrics_master.json", "DIFFERS  metrics_master.json", "metric sys ne.auroc"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := builtBundle(t)
			c.tamper(t, dir)
			out, stderr, code := runCmd("verify", dir)
			if code != exitCheck {
				t.Errorf("exit %d, want %d\n%s%s", code, exitCheck, out, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestVerifyHashesOnly: with bundle.copy_inputs false the bundle has no
// inputs/, and verify checks the hashes and says it could not recompute.
func TestVerifyHashesOnly(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	y, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(y, []byte("bundle: {copy_inputs: false}\n")...), 0o644)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "v1", "inputs")); err == nil {
		t.Error("copy_inputs: false wrote inputs/")
	}
	out, stderr, code := runCmd("verify", filepath.Join(root, "v1"))
	if code != 0 || !strings.Contains(out, "not recomputed") || !strings.Contains(out, "valid (hashes only)") || strings.Contains(out, "valid and recomputed") {
		t.Errorf("verify: exit %d\n%s%s", code, out, stderr)
	}
}

// twoVersions builds v1 and v2 (another bootstrap seed: the intervals
// move) of the small project into root and returns root.
func twoVersions(t *testing.T) string {
	t.Helper()
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	y, _ := os.ReadFile(cfg)
	for _, v := range []string{"v1", "v2"} {
		if v == "v2" {
			os.WriteFile(cfg, append(y, []byte("seed: 11\n")...), 0o644)
		}
		if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-version", v, "-q"); code != 0 {
			t.Fatalf("build %s: exit %d: %s", v, code, stderr)
		}
	}
	return root
}

// TestVerifyChanges: build records in v2's manifest the version it was
// compared with and the sha256 of the two files the comparison read;
// verify finds v1 from that record and recomputes CHANGES.md, SUMMARY.md
// and report.html against it, and checks them by hash only when v1 is
// not beside v2.
func TestVerifyChanges(t *testing.T) {
	root := twoVersions(t)
	ch, err := os.ReadFile(filepath.Join(root, "v2", "CHANGES.md"))
	if err != nil || !bytes.HasPrefix(ch, []byte("# Changes since v1\n")) || !bytes.Contains(ch, []byte("seed: 20260118 -> 11")) {
		t.Fatalf("v2/CHANGES.md: %v\n%s", err, ch)
	}
	// The record, against the files of v1 as sha256sum would give them.
	m1, m2 := readManifestJSON(t, filepath.Join(root, "v1")), readManifestJSON(t, filepath.Join(root, "v2"))
	if _, ok := m1["previous"]; ok {
		t.Errorf("v1, the first version, records a previous: %v", m1["previous"])
	}
	want := map[string]any{
		"version":          "v1",
		"metrics_sha256":   fileSum(t, filepath.Join(root, "v1", "metrics_master.json")),
		"per_query_sha256": fileSum(t, filepath.Join(root, "v1", "per_query_metrics.csv")),
	}
	if got, _ := m2["previous"].(map[string]any); !reflect.DeepEqual(got, want) {
		t.Errorf("v2's previous = %v\nwant %v", m2["previous"], want)
	}
	out, stderr, code := runCmd("verify", filepath.Join(root, "v2"))
	if code != 0 || !strings.Contains(out, "CHANGES.md recomputed against v1\n") || !strings.Contains(out, "valid and recomputed") {
		t.Errorf("verify v2: exit %d\n%s%s", code, out, stderr)
	}
	// SUMMARY.md's changes are recomputed, not read back: an edited line,
	// its hash fixed in the manifest, differs from the recomputation.
	sm := filepath.Join(root, "v2", "SUMMARY.md")
	data, _ := os.ReadFile(sm)
	edited := bytes.Replace(data, []byte("## Changes since v1\n\n"), []byte("## Changes since v1\n\n- Claim changed: none, trust us\n"), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("v2/SUMMARY.md has no changes part:\n%s", data)
	}
	os.WriteFile(sm, edited, 0o644)
	fixManifest(t, filepath.Join(root, "v2"), "SUMMARY.md")
	out, stderr, code = runCmd("verify", filepath.Join(root, "v2"))
	if code != exitCheck || !strings.Contains(out, "DIFFERS  SUMMARY.md") {
		t.Errorf("verify v2 with an edited SUMMARY.md: exit %d\n%s%s", code, out, stderr)
	}
	os.WriteFile(sm, data, 0o644)
	fixManifest(t, filepath.Join(root, "v2"), "SUMMARY.md")

	// Without v1 beside it, v2's changes are checked by hash only.
	alone := filepath.Join(t.TempDir(), "alone")
	os.MkdirAll(alone, 0o755)
	if err := os.Rename(filepath.Join(root, "v2"), filepath.Join(alone, "v2")); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runCmd("verify", filepath.Join(alone, "v2"))
	if code != 0 || !strings.Contains(out, `CHANGES.md, SUMMARY.md and report.html checked by hashes only ("v1"`) || !strings.Contains(out, "valid and recomputed") {
		t.Errorf("verify v2 without v1: exit %d\n%s%s", code, out, stderr)
	}
}

// readManifestJSON reads a bundle's manifest.json as generic JSON.
func readManifestJSON(t *testing.T, dir string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fileSum is the sha256 of a file in hexadecimal.
func fileSum(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
