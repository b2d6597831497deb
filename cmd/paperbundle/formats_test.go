package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"os"
	"paperbundle/internal/golden"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestGzipInputBuild builds from a gzip-compressed table: the manifest
// hashes the compressed bytes (the file as it is on disk), inputs/ keeps
// them, verify recomputes the bundle from that copy, and the metrics are
// those of the plain file.
func TestGzipInputBuild(t *testing.T) {
	t.Parallel()
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

// wideToLong rewrites a wide per-query CSV (lists separated by ';') in
// the long layout: one row per candidate, a gold id that is not a
// candidate as a gold row without a score, a query with neither as a
// query-level row.
func wideToLong(t *testing.T, wide string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(wide)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok {
			return rec[i]
		}
		return ""
	}
	list := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ";")
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"post_id", "criterion_id", "fold", "split", "candidate_uid", "score", "is_gold", "node_prob", "ne_prob"})
	for _, rec := range recs[1:] {
		q := []string{get(rec, "post_id"), get(rec, "criterion_id"), get(rec, "fold"), get(rec, "split")}
		gold := map[string]bool{}
		for _, g := range list(get(rec, "gold_uids")) {
			gold[g] = true
		}
		cands, scores, nps := list(get(rec, "candidate_uids")), list(get(rec, "candidate_scores")), list(get(rec, "node_probs"))
		ne := get(rec, "ne_prob")
		for k, c := range cands {
			g := "0"
			if gold[c] {
				g = "1"
				delete(gold, c)
			}
			np := ""
			if nps != nil {
				np = nps[k]
			}
			w.Write(append(append([]string{}, q...), c, scores[k], g, np, ne))
		}
		for _, g := range list(get(rec, "gold_uids")) {
			if gold[g] {
				w.Write(append(append([]string{}, q...), g, "", "1", "", ne))
			}
		}
		if len(cands) == 0 && len(list(get(rec, "gold_uids"))) == 0 {
			w.Write(append(append([]string{}, q...), "", "", "", "", ne))
		}
	}
	w.Flush()
	return b.String()
}

// masterWithoutSource reads a bundle's metrics_master.json with
// systems[].source removed (it names the input file).
func masterWithoutSource(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if systems, ok := m["systems"].([]any); ok {
		for _, s := range systems {
			if s, ok := s.(map[string]any); ok {
				delete(s, "source")
			}
		}
	}
	out, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestLongLayoutBuild: a wide table and the same data in the long layout
// give the same metrics_master.json, systems[].source aside.
func TestLongLayoutBuild(t *testing.T) {
	t.Parallel()
	dc := degenCase{posts: 12, folds: 3, gold: func(i, j int) []string {
		switch (i + j) % 3 {
		case 0:
			return []string{"s2"}
		case 1:
			return []string{"s1", "s9"} // s9 is not a candidate
		}
		return nil
	}}
	wide := dc.csv()
	long := wideToLong(t, wide)
	dir := t.TempDir()
	build := func(name, content string) string {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return buildOneSystem(t, dir, name, name)
	}
	a, b := build("wide.csv", wide), build("long.csv", long)
	if a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := range min(len(al), len(bl)) {
			if al[i] != bl[i] {
				t.Fatalf("metrics_master.json differs at line %d:\nwide: %s\nlong: %s", i+1, al[i], bl[i])
			}
		}
		t.Fatalf("metrics_master.json differs in length: %d and %d lines", len(al), len(bl))
	}
	if !strings.Contains(a, `"rank.`) {
		t.Error("no ranking metric: the comparison shows nothing")
	}
}

// wideParquetRow is one row of a wide table as pandas writes it through
// pyarrow (optional scalars, LIST columns with optional items).
type wideParquetRow struct {
	PostID      *string    `parquet:"post_id,optional"`
	CriterionID *string    `parquet:"criterion_id,optional"`
	Fold        *int64     `parquet:"fold,optional"`
	Split       *string    `parquet:"split,optional"`
	GoldUIDs    []*string  `parquet:"gold_uids,optional,list"`
	Candidates  []*string  `parquet:"candidate_uids,optional,list"`
	Scores      []*float64 `parquet:"candidate_scores,optional,list"`
	NodeProbs   []*float64 `parquet:"node_probs,optional,list"`
	NEProb      *float64   `parquet:"ne_prob,optional"`
}

// wideToParquet rewrites a wide per-query CSV (lists separated by ';')
// as Parquet, two rows per row group.
func wideToParquet(t *testing.T, wide string) []byte {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(wide)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	str := func(s string) *string { return &s }
	strs := func(s string) []*string {
		out := []*string{}
		if s != "" {
			for _, x := range strings.Split(s, ";") {
				out = append(out, str(x))
			}
		}
		return out
	}
	num := func(s string) *float64 {
		if s == "" {
			return nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return &x
	}
	nums := func(s string) []*float64 {
		if s == "" {
			return nil
		}
		var out []*float64
		for _, x := range strings.Split(s, ";") {
			out = append(out, num(x))
		}
		return out
	}
	var rows []wideParquetRow
	for _, rec := range recs[1:] {
		fold, err := strconv.ParseInt(rec[col["fold"]], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, wideParquetRow{str(rec[col["post_id"]]), str(rec[col["criterion_id"]]), &fold, str(rec[col["split"]]),
			strs(rec[col["gold_uids"]]), strs(rec[col["candidate_uids"]]), nums(rec[col["candidate_scores"]]),
			nums(rec[col["node_probs"]]), num(rec[col["ne_prob"]])})
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[wideParquetRow](&b)
	for i := 0; i < len(rows); i += 2 {
		if _, err := w.Write(rows[i:min(i+2, len(rows))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFormatsBuildAlike: the same data as CSV, TSV, JSON Lines, Parquet
// (plain and gzip-compressed) and in the long layout builds the same
// metrics_master.json, systems[].source aside.
func TestFormatsBuildAlike(t *testing.T) {
	t.Parallel()
	dc := degenCase{posts: 12, folds: 3, tune: true, gold: mixed}
	wide := dc.csv()
	var tsv bytes.Buffer
	recs, err := csv.NewReader(strings.NewReader(wide)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	tw := csv.NewWriter(&tsv)
	tw.Comma = '\t'
	tw.WriteAll(recs)
	pq := wideToParquet(t, wide)
	var pqgz bytes.Buffer
	zw := gzip.NewWriter(&pqgz)
	zw.Write(pq)
	zw.Close()
	dir := t.TempDir()
	build := func(name string, content []byte) string {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		return buildOneSystem(t, dir, name, name)
	}
	want := build("wide.csv", []byte(wide))
	for name, content := range map[string][]byte{"wide.jsonl": wideToJSONL(t, wide), "wide.tsv": tsv.Bytes(), "wide.parquet": pq, "wide.parquet.gz": pqgz.Bytes(), "long.csv": []byte(wideToLong(t, wide))} {
		if got := build(name, content); got != want {
			t.Errorf("%s: metrics_master.json differs from wide.csv's:\n%s", name, golden.Diff([]byte(want), []byte(got)))
		}
	}
}

// wideToJSONL rewrites a wide per-query CSV (lists separated by ';') as
// JSON Lines: lists as arrays, numbers as numbers, empty cells left out.
func wideToJSONL(t *testing.T, wide string) []byte {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(wide)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, rec := range recs[1:] {
		obj := map[string]any{}
		for i, h := range recs[0] {
			v := rec[i]
			switch h {
			case "gold_uids", "candidate_uids":
				items := []string{}
				if v != "" {
					items = strings.Split(v, ";")
				}
				obj[h] = items
			case "candidate_scores", "node_probs":
				if v == "" {
					if h == "candidate_scores" {
						obj[h] = []float64{}
					}
					continue
				}
				var xs []float64
				for _, x := range strings.Split(v, ";") {
					f, err := strconv.ParseFloat(x, 64)
					if err != nil {
						t.Fatal(err)
					}
					xs = append(xs, f)
				}
				obj[h] = xs
			case "fold", "ne_prob":
				if v == "" {
					continue
				}
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatal(err)
				}
				obj[h] = f
			default:
				obj[h] = v
			}
		}
		line, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestDuckDBParquet: Parquet files written by DuckDB's own writer (snappy
// and zstd pages, dictionary encoding, LIST columns; testdata/duckdb, made
// by make.mjs there) build the same metrics_master.json as the CSV they
// were written from, in the wide layout with list columns and in the long
// layout.
func TestDuckDBParquet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	build := func(name string) string {
		in, err := filepath.Abs(filepath.Join("testdata", "duckdb", name))
		if err != nil {
			t.Fatal(err)
		}
		return buildOneSystem(t, dir, name, in)
	}
	want := build("wide.csv")
	for _, name := range []string{"wide.parquet", "long.parquet", "long.csv"} {
		if got := build(name); got != want {
			t.Errorf("%s: metrics_master.json differs from wide.csv's:\n%s", name, golden.Diff([]byte(want), []byte(got)))
		}
	}
}

// buildOneSystem builds, in dir, a bundle of one system whose input is
// input (a path, or a name in dir), from a configuration named after name,
// and returns its metrics_master.json without the inputs' sources.
func buildOneSystem(t *testing.T, dir, name, input string) string {
	t.Helper()
	cfg := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(cfg, []byte("title: test\nsystems:\n  - {name: sys, input: "+input+"}\nbootstrap: {resamples: 50}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "out_"+name)
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("build %s: exit %d: %s", name, code, msg)
	}
	return masterWithoutSource(t, filepath.Join(root, "v1", "metrics_master.json"))
}
