package dataset

import (
	"errors"
	"math"
	"os"
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

func FuzzCSV(f *testing.F) {
	addFile(f, "basic.csv")
	addFile(f, "query_only.csv")
	addFile(f, "post_only.csv")
	for _, tc := range csvCases {
		if s, ok := tc.files["s.csv"]; ok {
			f.Add([]byte(s))
		}
	}
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
	f.Add([]byte(fuzzRun))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*trecSpec(nil), memFiles(map[string]string{"qrels.txt": fuzzQrels, "r.txt": string(data)}))
		checkResult(t, d, err)
	})
}

func FuzzQrels(f *testing.F) {
	trecSeeds(f, "qrels.txt", "qrels.txt")
	f.Add([]byte(fuzzQrels))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := load(*trecSpec(nil), memFiles(map[string]string{"qrels.txt": string(data), "r.txt": fuzzRun}))
		checkResult(t, d, err)
	})
}
