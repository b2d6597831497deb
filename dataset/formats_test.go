package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"os"
	"reflect"
	"strings"
	"testing"
)

// gz compresses s with gzip.
func gz(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// toTSV rewrites a CSV file with tabs between the fields, quoting as
// encoding/csv does (pandas' to_csv(sep="\t") quotes the same fields).
func toTSV(t *testing.T, csvText string) string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(csvText))
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Comma = '\t'
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// loadAs loads one system, the file name with the given content.
func loadAs(t *testing.T, name, content string) (*Dataset, error) {
	t.Helper()
	return load(Spec{Systems: []SystemSpec{{Name: "full", Label: "Full pipeline", Input: name}}}, memFiles(map[string]string{name: content}))
}

// TestFormats loads testdata/basic.csv as TSV and gzip-compressed CSV,
// TSV and JSON Lines: each gives the hand-derived Dataset of TestLoadTable.
func TestFormats(t *testing.T) {
	csvText, err := os.ReadFile(testdata("basic.csv"))
	if err != nil {
		t.Fatal(err)
	}
	jsonl, err := os.ReadFile(testdata("basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tsv := toTSV(t, string(csvText))
	cases := map[string]string{
		"basic.tsv":      tsv,
		"basic.TAB":      tsv,
		"basic.csv.gz":   gz(t, string(csvText)),
		"basic.tsv.gz":   gz(t, tsv),
		"basic.jsonl.gz": gz(t, string(jsonl)),
		"basic.ndjson":   string(jsonl),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := loadAs(t, name, content)
			if err != nil {
				t.Fatal(err)
			}
			want := wantBasic(name)
			if !reflect.DeepEqual(d, want) {
				t.Errorf("got\n%+v\nwant\n%+v", d, want)
			}
		})
	}
}

// TestGzipTREC reads a gzip-compressed TREC run, qrels, queries table and
// ne_probs table: the Dataset equals the one of the plain files.
func TestGzipTREC(t *testing.T) {
	files := map[string]string{}
	plain := Spec{Qrels: "qrels.txt", Queries: "queries.csv", Systems: []SystemSpec{{Name: "a", Input: "run_a.txt", Format: "trec", NEProbs: "ne_a.csv"}}}
	zipped := Spec{Qrels: "qrels.txt.gz", Queries: "queries.csv.gz", Systems: []SystemSpec{{Name: "a", Input: "run_a.txt.gz", Format: "trec", NEProbs: "ne_a.csv.gz", Source: "run_a.txt"}}}
	for _, n := range []string{"qrels.txt", "queries.csv", "run_a.txt", "ne_a.csv"} {
		b, err := os.ReadFile(testdata("trec/" + n))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = string(b)
		files[n+".gz"] = gz(t, string(b))
	}
	a, err := load(plain, memFiles(files))
	if err != nil {
		t.Fatal(err)
	}
	b, err := load(zipped, memFiles(files))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range b.Notes {
		b.Notes[i] = strings.ReplaceAll(n, ".gz", "")
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("gzip:\n%+v\nplain:\n%+v", b, a)
	}
}

var formatCases = []errCase{
	{name: "unknown extension", files: map[string]string{"s.txt": "post_id\n"},
		spec: &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.txt"}}},
		want: []string{"s.txt: system s: cannot tell the format of s.txt from its name, expected format: csv, tsv, jsonl, parquet or trec on the system, or a name ending in .csv, .tsv, .jsonl, .ndjson or .parquet, each also compressed as .gz (.csv.gz)"}},
	{name: "gz that is not gzip", files: map[string]string{"s.csv.gz": "post_id,gold_uids\n"},
		spec: &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv.gz"}}},
		want: []string{"s.csv.gz: cannot decompress the file: it is not gzip-compressed, expected a complete gzip file for a name ending in .gz (or rename it without .gz if it is not compressed)"}},
	{name: "truncated gzip", files: map[string]string{"s.csv.gz": "x"},
		spec: &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv.gz"}}},
		want: []string{"s.csv.gz: cannot decompress the file: the compressed data ends early (a truncated file), expected a complete gzip file for a name ending in .gz (or rename it without .gz if it is not compressed)"}},
	{name: "tsv error position", files: map[string]string{"s.tsv": "post_id\tgold_uids\tcandidate_uids\tcandidate_scores\nP1\t\ts1;s2\t0.5;x\n"},
		spec: &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.tsv"}}},
		want: []string{`s.tsv:2:11: candidate_scores item 2 is "x", expected a finite number`}},
	{name: "tsv field count", files: map[string]string{"s.tsv": "post_id\tgold_uids\tcandidate_uids\tcandidate_scores\nP1\t\ts1\n"},
		spec: &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.tsv"}}},
		want: []string{"s.tsv:2:1: row has 3 fields but the header has 4, expected one value per column (an empty value still needs its tab)"}},
}

func TestFormatErrors(t *testing.T) { runErrCases(t, formatCases) }

// TestTruncatedGzipRows: a gzip stream cut in the middle is an input
// error, not a silently shorter table.
func TestTruncatedGzipRows(t *testing.T) {
	csvText, err := os.ReadFile(testdata("basic.csv"))
	if err != nil {
		t.Fatal(err)
	}
	z := gz(t, string(csvText))
	_, err = loadAs(t, "basic.csv.gz", z[:len(z)-10])
	if err == nil || !strings.Contains(err.Error(), "cannot decompress the file") {
		t.Errorf("error %v, want cannot decompress", err)
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(testdata(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
