package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestTRECMatchesTrecEval builds a bundle from a TREC run and qrels and
// checks the shared measures against trec_eval's documented semantics,
// computed by hand below. Ties: score descending, then docno descending,
// so in q1 d3 (0.5) ranks before d2 (0.5).
//
//	q1 ranked d1 d3 d2 d4, grades 1 0 2 0, qrels grades {d1:1, d2:2, d5:1}
//	q2 ranked d4 d3,       grades 0 1,     qrels {d3:1}
//	q3 has no qrels: not evaluated.
//
//	P_5:        q1 2/5, q2 1/5                      -> 0.3
//	recall_5:   q1 2/3, q2 1                        -> 0.833333
//	recip_rank: q1 1,   q2 1/2                      -> 0.75
//	map_cut_5:  q1 (1 + 2/3)/3, q2 (1/2)/1          -> 0.527778
//	ndcg_cut_5 (gain = grade):
//	  q1 DCG 1/1 + 2/log2(4) = 2; IDCG 2 + 1/log2(3) + 1/log2(4)
//	  q2 DCG 1/log2(3); IDCG 1
//
// The whole-ranking measures (no cutoff; R = number of qrels with grade > 0):
//
//	map:   q1 (1/1 + 2/3)/3 = 5/9, q2 (1/2)/1        -> 0.527778
//	ndcg (gain = grade; ideal from all qrels grades, uncut):
//	  q1 DCG 2; IDCG 2 + 1/log2(3) + 1/log2(4) -> 0.638788
//	  q2 DCG 1/log2(3); IDCG 1                 -> 0.630930
//	  mean                                         -> 0.634859
//	Rprec: q1 R = 3, top 3 = d1 d3 d2: 2/3; q2 R = 1, top 1 = d4: 0
//	                                               -> 0.333333
//
// The measures of TREC judgments (judged: q1 d1 d2, not d3 d4; q2 d3 and
// d9 (rel 0), not d4; R = 3, N = 0 for q1, R = 1, N = 1 for q2):
//
//	bpref: q1 d1 and d2 have no judged non-relevant above: (1 + 1)/3;
//	       q2 d4 is unjudged, skipped: 1                -> 0.833333
//	unj_5: q1 d3 d4 of 5: 2/5; q2 d4: 1/5               -> 0.3
//	11pt_avg: q1 R = 3, relevant at ranks 1, 3: levels 0-0.4 need 0 or 1
//	       relevant (max P 1), 0.5-0.8 need round(3x) = 2 (P@3 = 2/3),
//	       0.9 and 1 need 3, never reached (0): (5 + 4·2/3)/11;
//	       q2 R = 1, relevant at rank 2: every level 1/2  -> 0.598485
//	gm_map: exp((ln 5/9 + ln 1/2)/2) = sqrt(5/18)       -> 0.527046
//
// trec_eval 10.0 run on these files (without q3's line) with -m bpref
// -m gm_map -m 11pt_avg -m unj.5 prints bpref 0.8333, gm_map 0.5270,
// 11pt_avg 0.5985, unj_5 0.3000.
//
// trec_eval 10.0 (usnistgov/trec_eval, built from source) run on these files
// with -m map -m ndcg -m Rprec -m map_cut.5 -m ndcg_cut.5 -m P.5
// -m recip_rank prints the same numbers to its four decimals: map 0.5278,
// ndcg 0.6349, Rprec 0.3333, map_cut_5 0.5278, ndcg_cut_5 0.6349, P_5
// 0.3000, recip_rank 0.7500.
func TestTRECMatchesTrecEval(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("qrels.txt", "q1 0 d1 1\nq1 0 d2 2\nq1 0 d5 1\nq2 0 d3 1\nq2 0 d9 0\n")
	write("run.txt", "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d3 3 0.5 t\nq1 Q0 d4 4 0.1 t\n"+
		"q2 Q0 d3 1 0.2 t\nq2 Q0 d4 2 0.8 t\nq3 Q0 d1 1 0.5 t\n")
	write("paper.yaml", "title: trec\nqrels: qrels.txt\nsystems:\n  - {name: bm25, format: trec, input: run.txt}\n"+
		"cutoffs: [5]\ncontract: {ndcg_gain: linear}\nbootstrap: {resamples: 50}\n")
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metrics []struct {
			System, ID, Slice string
			Value             *float64
		}
		Dataset struct {
			RunOnly map[string]int `json:"trec_run_queries_without_qrels"`
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"rank.precision@5": 0.3,
		"rank.recall@5":    (2.0/3 + 1) / 2,
		"rank.mrr":         0.75,
		"rank.map@5":       ((1+2.0/3)/3 + 0.5) / 2,
		"rank.ndcg@5":      (2/(2+1/math.Log2(3)+0.5) + 1/math.Log2(3)) / 2,
		"rank.map":         (5.0/9 + 0.5) / 2,
		"rank.ndcg":        (2/(2+1/math.Log2(3)+0.5) + 1/math.Log2(3)) / 2,
		"rank.r_precision": (2.0/3 + 0) / 2,
		"rank.bpref":       (2.0/3 + 1) / 2,
		"rank.unjudged@5":  0.3,
		"rank.11pt_avg":    ((5+4*2.0/3)/11 + 0.5) / 2,
		"rank.gm_map":      math.Sqrt(5.0 / 18),
	}
	const tol = 1e-4 // TREC metrics must equal trec_eval's to 1e-4
	for _, m := range doc.Metrics {
		w, ok := want[m.ID]
		if !ok || m.System != "bm25" || m.Slice != "" {
			continue
		}
		delete(want, m.ID)
		if m.Value == nil || math.Abs(*m.Value-w) > tol {
			t.Errorf("%s = %v, trec_eval gives %.6f", m.ID, m.Value, w)
		}
	}
	for id := range want {
		t.Errorf("%s missing", id)
	}
	if doc.Dataset.RunOnly["bm25"] != 1 {
		t.Errorf("run queries without qrels = %v, want bm25: 1", doc.Dataset.RunOnly)
	}
}
