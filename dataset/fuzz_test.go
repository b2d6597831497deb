package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// The fuzz targets feed arbitrary bytes through load, the code path of
// Load, and check that it never panics, that errors are well-formed, and
// that every Dataset it accepts keeps the invariants the rest of the
// pipeline relies on.

func addFile(f *testing.F, name string) {
	b, err := os.ReadFile(testdata(name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

// checkResult fails t when err or d break the contract of Load.
func checkResult(t *testing.T, d *Dataset, err error) {
	if err != nil {
		var list ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("error %v (%T), want an ErrorList", err, err)
		}
		if len(list) == 0 || len(list) > MaxErrors {
			t.Fatalf("%d errors, want 1 to %d", len(list), MaxErrors)
		}
		for _, e := range list {
			if e.File == "" || e.Msg == "" || e.Line < 0 || (e.Line > 0 && e.Column < 1) {
				t.Fatalf("malformed error %#v", e)
			}
		}
		return
	}
	if len(d.Queries) == 0 {
		t.Fatal("no error and no queries")
	}
	for i, q := range d.Queries {
		if i > 0 && finalCmp(&d.Queries[i-1], &q) >= 0 {
			t.Fatalf("queries %d and %d out of order or repeated", i-1, i)
		}
		if q.ID == "" || q.Post == "" || q.Fold < 0 || len(q.GoldRels) != len(q.Gold) {
			t.Fatalf("bad query %+v", q)
		}
		for _, g := range q.GoldRels {
			if g < 1 {
				t.Fatalf("grade %d < 1 in %+v", g, q)
			}
		}
	}
	for _, s := range d.Systems {
		if len(s.Rows) != len(d.Queries) {
			t.Fatalf("%d rows for %d queries", len(s.Rows), len(d.Queries))
		}
		for i, r := range s.Rows {
			n := len(r.Candidates)
			if len(r.Scores) != n || len(r.Rel) != n || (r.NodeProbs != nil && len(r.NodeProbs) != n) {
				t.Fatalf("row %d: misaligned %+v", i, r)
			}
			for k := range r.Scores {
				if math.IsNaN(r.Scores[k]) || math.IsInf(r.Scores[k], 0) || (k > 0 && r.Scores[k] > r.Scores[k-1]) {
					t.Fatalf("row %d: scores not finite and descending: %v", i, r.Scores)
				}
				if r.Rel[k] < 0 {
					t.Fatalf("row %d: negative grade", i)
				}
			}
			for _, p := range r.NodeProbs {
				if !(p >= 0 && p <= 1) {
					t.Fatalf("row %d: node prob %v", i, p)
				}
			}
			if r.HasNEProb && !(r.NEProb >= 0 && r.NEProb <= 1) {
				t.Fatalf("row %d: ne_prob %v", i, r.NEProb)
			}
		}
	}
}

// addCSVSeeds adds the CSV fixtures, the CSV error cases and the bad-input
// corpus of per-query CSV files.
func addCSVSeeds(f *testing.F) {
	addFile(f, "basic.csv")
	addFile(f, "query_only.csv")
	addFile(f, "post_only.csv")
	for _, tc := range csvCases {
		if s, ok := tc.files["s.csv"]; ok {
			f.Add([]byte(s))
		}
	}
	addBadCorpus(f, "sys.csv")
	// The long layout and classifier-only tables.
	addFile(f, "basic_long.csv")
	for _, cases := range [][]errCase{longCases, classifierCases} {
		for _, tc := range cases {
			if s, ok := tc.files["s.csv"]; ok {
				f.Add([]byte(s))
			}
		}
	}
}

// FuzzParquet feeds arbitrary bytes as a Parquet table: never a panic,
// only well-formed errors or a valid Dataset.
func FuzzParquet(f *testing.F) {
	addFile(f, "basic.parquet")
	addFile(f, "basic_long.parquet")
	addBadCorpus(f, "sys.parquet")
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.parquet"}}}, memFiles(map[string]string{"s.parquet": string(data)}))
		checkResult(t, d, err)
	})
}

func FuzzCSV(f *testing.F) {
	addCSVSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv"}}}, memFiles(map[string]string{"s.csv": string(data)}))
		checkResult(t, d, err)
	})
}

func FuzzJSONL(f *testing.F) {
	addFile(f, "basic.jsonl")
	for _, tc := range jsonlCases {
		f.Add([]byte(tc.files["s.jsonl"]))
	}
	addBadCorpus(f, "sys.jsonl")
	f.Add([]byte(`{"query_id":"q","gold_uids":null,"candidate_uids":["a","b"],"candidate_scores":[1,1],"x":[[[{"y":[]}]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.jsonl"}}}, memFiles(map[string]string{"s.jsonl": string(data)}))
		checkResult(t, d, err)
	})
}

// fuzzQrels and fuzzRun are the fixed partners of the fuzzed TREC file.
const (
	fuzzQrels = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq3 0 d1 -1\n"
	fuzzRun   = "q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.5 t\nq2 Q0 d3 1 3 t\nq3 Q0 d4 1 1 t\n"
)

// trecSeeds adds a fixture and the files called key of the TREC error
// cases.
func trecSeeds(f *testing.F, fixture, key string) {
	addFile(f, "trec/"+fixture)
	for _, tc := range trecCases {
		if s, ok := tc.files[key]; ok {
			f.Add([]byte(s))
		}
	}
}

func FuzzTRECRun(f *testing.F) {
	trecSeeds(f, "run_a.txt", "r.txt")
	addFile(f, "trec/run_b.txt")
	addBadCorpus(f, "run.txt")
	f.Add([]byte(fuzzRun))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*trecSpec(nil), memFiles(map[string]string{"qrels.txt": fuzzQrels, "r.txt": string(data)}))
		checkResult(t, d, err)
	})
}

func FuzzQrels(f *testing.F) {
	trecSeeds(f, "qrels.txt", "qrels.txt")
	addBadCorpus(f, "qrels.txt")
	f.Add([]byte(fuzzQrels))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*trecSpec(nil), memFiles(map[string]string{"qrels.txt": string(data), "r.txt": fuzzRun}))
		checkResult(t, d, err)
	})
}

// addBadCorpus adds every file called name in the folders of the top-level
// bad-input corpus (testdata/bad; docs/reliability.md) as a seed.
func addBadCorpus(f *testing.F, name string) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "bad", "*", name))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// fuzzSideQrels and fuzzSideRun are the fixed partners of a fuzzed queries
// or ne_probs table: four evaluated queries q1 to q4 (q3 without gold).
const (
	fuzzSideQrels = "q1 0 d1 1\nq2 0 d3 1\nq3 0 d1 0\nq4 0 d2 1\n"
	fuzzSideRun   = "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\nq2 Q0 d3 1 0.7 t\nq3 Q0 d1 1 0.2 t\nq4 Q0 d2 1 0.4 t\n"
)

// trecSideSeeds adds a fixture, the files called key of the TREC error
// cases, and those of the bad-input corpus.
func trecSideSeeds(f *testing.F, fixtures []string, key, corpusName string) {
	for _, name := range fixtures {
		addFile(f, "trec/"+name)
	}
	for _, tc := range trecCases {
		if s, ok := tc.files[key]; ok {
			f.Add([]byte(s))
		}
	}
	addBadCorpus(f, corpusName)
}

// FuzzQueries fuzzes the queries table of TREC inputs (query_id, post_id,
// criterion_id, fold, split): the folds and splits it assigns go through
// the leakage checks too.
func FuzzQueries(f *testing.F) {
	trecSideSeeds(f, []string{"queries.csv"}, "queries.csv", "queries.csv")
	f.Add([]byte("query_id,post_id,criterion_id,fold,split\nq1,P1,A,0,eval\nq2,P1,B,0,eval\nq3,P2,A,1,eval\nq4,P2,B,1,tune\n"))
	f.Add([]byte("\ufeffQUERY_ID , split\r\nq1,test\r\nq2,dev\r\nq3,train\r\nq4,val\r\n"))
	f.Add([]byte("query_id,fold\nq1,\"0\"\nq2,2.0\nq3,-0\nq4,\"1\n"))
	spec := trecSpec(func(s *Spec) { s.Queries = "queries.csv" })
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*spec, memFiles(map[string]string{"qrels.txt": fuzzSideQrels, "r.txt": fuzzSideRun, "queries.csv": string(data)}))
		checkResult(t, d, err)
	})
}

// FuzzNEProbs fuzzes a TREC system's ne_probs table (query_id, ne_prob).
func FuzzNEProbs(f *testing.F) {
	trecSideSeeds(f, []string{"ne_a.csv", "ne_b.csv"}, "ne.csv", "ne.csv")
	f.Add([]byte("query_id,ne_prob\nq1,0.9\nq2,0\nq3,1\nq4,0.5\n"))
	f.Add([]byte("ne_prob,query_id,extra\r\n1e-3,q1,x\r\n.5,q2,\r\n1.,q3,\"a,b\"\r\n0.25,q4,\r\n"))
	spec := trecSpec(func(s *Spec) { s.Systems[0].NEProbs = "ne.csv" })
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*spec, memFiles(map[string]string{"qrels.txt": fuzzSideQrels, "r.txt": fuzzSideRun, "ne.csv": string(data)}))
		checkResult(t, d, err)
		if err == nil {
			for _, r := range d.Systems[0].Rows {
				if !r.HasNEProb {
					t.Fatal("a row without ne_prob was accepted")
				}
			}
		}
	})
}

// parseRunBoth parses data in one pass and in 3 chunks and fails when the
// runs or the errors differ: the parallel reading of a large run must be
// the sequential one.
func parseRunBoth(t *testing.T, data []byte) {
	t.Helper()
	seq := &collector{}
	defer func(m, n int) { runChunkMin, runChunks = m, n }(runChunkMin, runChunks)
	runChunkMin, runChunks = 1<<62, 0
	a, errA := parseRun("run.txt", bytes.NewReader(data), seq)
	runChunkMin, runChunks = 1, 3
	par := &collector{}
	b, errB := parseRun("run.txt", bytes.NewReader(data), par)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("errors differ: %v / %v", errA, errB)
	}
	if errA != nil {
		return
	}
	if ea, eb := seq.list.Error(), par.list.Error(); ea != eb {
		t.Fatalf("messages differ:\n one pass: %s\n chunks:   %s", ea, eb)
	}
	if len(seq.list) > 0 {
		return
	}
	if len(a.queries) != len(b.queries) {
		t.Fatalf("%d queries in one pass, %d in chunks", len(a.queries), len(b.queries))
	}
	for i, q := range a.queries {
		r := b.queries[i]
		if q.qid != r.qid || q.line != r.line || !slices.Equal(q.docs, r.docs) || !slices.Equal(q.scores, r.scores) {
			t.Fatalf("query %d differs: %+v / %+v", i, q, r)
		}
	}
}

func FuzzRunChunks(f *testing.F) {
	f.Add([]byte("q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.8 t\nq2 Q0 d1 1 0.5 t\n\nq1 Q0 d3 3 0.1 t\r\n"))
	f.Add([]byte("\ufeffq1 Q0 d1 1 0.9 t\nq1 Q0 d1 2 0.8 t\nbad line\nq2 Q0 d1 1 x t\n"))
	f.Add([]byte(""))
	f.Add([]byte("q1 Q0 d1 1 0.9 t"))
	f.Fuzz(func(t *testing.T, data []byte) { parseRunBoth(t, data) })
}

// parseTableBoth parses data as a per-query table in one pass and in 2 to
// 5 chunks (by the length of data) and fails when the tables or the errors
// differ: the parallel reading of a large table must be the sequential
// one.
func parseTableBoth(t *testing.T, data []byte, jsonl bool) {
	t.Helper()
	parse, file := parseTableCSV, "s.csv"
	if jsonl {
		parse, file = parseTableJSONL, "s.jsonl"
	}
	defer func(m, n int) { tableChunkMin, tableChunks = m, n }(tableChunkMin, tableChunks)
	tableChunkMin, tableChunks = 1<<62, 0
	seq := &collector{}
	a, errA := parse(file, bytes.NewReader(data), seq)
	n := 2 + len(data)%4
	tableChunkMin, tableChunks = 1, n
	par := &collector{}
	b, errB := parse(file, bytes.NewReader(data), par)
	if (errA == nil) != (errB == nil) {
		t.Fatalf("%d chunks: errors differ: %v / %v", n, errA, errB)
	}
	if ea, eb := seq.list.Error(), par.list.Error(); ea != eb {
		t.Fatalf("%d chunks: messages differ:\n one pass: %s\n chunks:   %s", n, ea, eb)
	}
	if len(seq.list) > 0 || errA != nil || (a == nil && b == nil) {
		return
	}
	if (a == nil) != (b == nil) {
		t.Fatalf("%d chunks: table %v / %v", n, a, b)
	}
	if a.recs.len() != b.recs.len() {
		t.Fatalf("%d chunks: %d rows in one pass, %d in chunks", n, a.recs.len(), b.recs.len())
	}
	for i := range a.recs.len() {
		if ra, rb := a.recs.at(i), b.recs.at(i); !reflect.DeepEqual(ra, rb) {
			t.Fatalf("%d chunks: row %d differs:\n %+v\n %+v", n, i, ra, rb)
		}
	}
	a1, b1 := *a, *b
	a1.recs, b1.recs = records{}, records{}
	if !reflect.DeepEqual(a1, b1) {
		t.Fatalf("%d chunks: tables differ:\n %+v\n %+v", n, a1, b1)
	}
}

// tableChunkSeeds adds the fixtures, the error cases and the bad-input
// corpus of one table format, and rows that put quotes and newlines where
// a chunk may be cut.
func tableChunkSeeds(f *testing.F, jsonl bool) {
	if jsonl {
		addFile(f, "basic.jsonl")
		for _, tc := range jsonlCases {
			f.Add([]byte(tc.files["s.jsonl"]))
		}
		addBadCorpus(f, "sys.jsonl")
		f.Add([]byte("{\"post_id\":\"P1\",\"gold_uids\":[],\"candidate_uids\":[\"a\"],\"candidate_scores\":[1]}\n\n" +
			"{\"post_id\":\"P2\",\"criterion_id\":\"A\",\"gold_uids\":[\"a\"],\"candidate_uids\":[\"a\"],\"candidate_scores\":[1]}\r\n" +
			"{\"post_id\":\"P3\",\"split\":\"train\",\"gold_uids\":[\"a\",\"a\"],\"candidate_uids\":[],\"candidate_scores\":[]}\n"))
		return
	}
	addCSVSeeds(f)
	addFile(f, "bad.csv")
	f.Add([]byte(hdr + "P1,\"g\n\",\"a\n;b\",1;2\nP2,,\"\"\"a\"\"\",1\n\nP3,,a,1\n"))
	f.Add([]byte(hdr + "P1,,a,1\nP2,,\"a\nP3,,a,1\nP4,,a,1\n"))
	f.Add([]byte(hdr + "P1,,a,1\nP2,,a\"b,1\nP3,,\"a\"\"\n\",1\nP4,,a,1\n"))
	f.Add([]byte("criterion_id," + hdr + "A,P1,,a,1\n,P2,,a,1\nA,P3,,a,1\n,P4,,a,1\n"))
}

func FuzzTableChunks(f *testing.F) {
	tableChunkSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte) { parseTableBoth(t, data, false) })
}

func FuzzJSONLChunks(f *testing.F) {
	tableChunkSeeds(f, true)
	f.Fuzz(func(t *testing.T, data []byte) { parseTableBoth(t, data, true) })
}
