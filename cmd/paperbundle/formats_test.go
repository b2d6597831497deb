package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestGzipInputBuild builds from a gzip-compressed table: the manifest
// hashes the compressed bytes (the file as it is on disk), inputs/ keeps
// them, verify recomputes the bundle from that copy, and the metrics are
// those of the plain file.
func TestGzipInputBuild(t *testing.T) {
	table := classifierCSV("ne_score", func(x float64) float64 { return x })
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(table))
	zw.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sys.csv.gz"), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "paper.yaml")
	if err := os.WriteFile(cfg, []byte("title: test\nsystems:\n  - {name: sys, input: sys.csv.gz}\nbootstrap: {resamples: 50}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "out")
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("build: exit %d: %s", code, msg)
	}
	var man struct {
		Inputs []struct {
			Path, SHA256, Copy string
			Bytes              int
		} `json:"inputs"`
	}
	data, err := os.ReadFile(filepath.Join(root, "v1", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &man); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(z.Bytes())
	found := false
	for _, in := range man.Inputs {
		if in.Path == "sys.csv.gz" {
			found = true
			if in.SHA256 != hex.EncodeToString(sum[:]) || in.Bytes != z.Len() {
				t.Errorf("manifest records %s, %d bytes; want the compressed file's %x, %d bytes", in.SHA256, in.Bytes, sum, z.Len())
			}
		}
	}
	if !found {
		t.Fatalf("manifest inputs %+v lack sys.csv.gz", man.Inputs)
	}
	if code, msg := runGuarded(t, "verify", filepath.Join(root, "v1")); code != 0 {
		t.Errorf("verify: exit %d: %s", code, msg)
	}
	m := buildDegenerate(t, degenCase{csvText: table})
	zm, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var zmaster master
	if err := json.Unmarshal(zm, &zmaster); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(m.Metrics)
	b, _ := json.Marshal(zmaster.Metrics)
	if !bytes.Equal(a, b) {
		t.Error("the metrics of sys.csv.gz differ from those of sys.csv")
	}
}
