package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestTRECNoRelevantAnywhere: under trec.no_relevant: zero (the default)
// a judged query without relevant documents is ranked and scores 0, as
// trec_eval scores it, also when no judged query has a relevant document:
// qrels with only grade-0 judgments, or grades below relevance_level. The
// ranking section exists and rank.map is 0 over both judged queries.
func TestTRECNoRelevantAnywhere(t *testing.T) {
	run := "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d3 1 3.0 r\nq2 Q0 d1 2 1.0 r\n"
	for _, tc := range []struct{ name, qrels, extra string }{
		{"grade 0 only", "q1 0 d1 0\nq1 0 d2 0\nq2 0 d1 0\nq2 0 d3 0\n", ""},
		{"level above every grade", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq2 0 d3 0\n", "trec: {relevance_level: 2}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range map[string]string{"qrels.txt": tc.qrels, "a.run": run,
				"paper.yaml": "title: t\nqrels: qrels.txt\nsystems:\n  - {name: a, input: a.run, format: trec}\nbootstrap: {resamples: 50}\n" + tc.extra} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			root := filepath.Join(dir, "out")
			if _, stderr, code := runCmd("build", "-q", "-config", filepath.Join(dir, "paper.yaml"), "-out", root); code != 0 {
				t.Fatalf("build: exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Capabilities struct {
					Present []string `json:"present"`
				} `json:"capabilities"`
				Metrics []struct {
					System, ID, Slice string
					Value             *float64
					N                 int
				} `json:"metrics"`
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			ranking := false
			for _, p := range m.Capabilities.Present {
				ranking = ranking || p == "ranking"
			}
			if !ranking {
				t.Fatalf("no ranking section: present %v", m.Capabilities.Present)
			}
			found := false
			for _, x := range m.Metrics {
				if x.System == "a" && x.ID == "rank.map" && x.Slice == "" {
					found = true
					if x.Value == nil || *x.Value != 0 || x.N != 2 {
						t.Errorf("rank.map = %v over n = %d, want 0 over the 2 judged queries", x.Value, x.N)
					}
				}
			}
			if !found {
				t.Error("no rank.map")
			}
		})
	}
}
