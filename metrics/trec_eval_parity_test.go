package metrics_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paperbundle/dataset"
	"paperbundle/internal/trecevalout"
	"paperbundle/metrics"
)

// trecQuery is what the kernels of one query read: its ranking and its
// judgments, as the dataset package loads them from a run and qrels.
type trecQuery struct {
	q   *dataset.Query
	row *dataset.Row
}

// gains is the grade of each ranked document (below the relevance level
// too), as trec_eval's G, Rndcg, ndcg_rel and rbp take it.
func (t trecQuery) gains() []int {
	if t.row.Gain != nil {
		return t.row.Gain
	}
	return t.row.Rel
}

func (t trecQuery) counts() (ret, rel, relRet int) {
	ret = len(t.row.Rel)
	return ret, len(t.q.Gold), metrics.Hits(t.row.Rel, ret)
}

// parityMeasures computes, for one query, every measure of this test by
// trec_eval's name.
func parityMeasures(t trecQuery) map[string]float64 {
	ret, rel, relRet := t.counts()
	ideal := metrics.IdealGains(t.q.Gains())
	maxGrade := 0
	if len(ideal) > 0 {
		maxGrade = ideal[0]
	}
	nonRelRet := 0
	for i, j := range t.row.Judged {
		if j && t.row.Rel[i] == 0 {
			nonRelRet++
		}
	}
	m := map[string]float64{
		"num_ret": float64(ret), "num_rel": float64(rel), "num_rel_ret": float64(relRet),
		"num_nonrel_judged_ret": float64(nonRelRet),
		"set_P":                 metrics.SetPrecision(relRet, ret),
		"set_recall":            metrics.SetRecall(relRet, rel),
		"set_F":                 metrics.SetF(relRet, ret, rel),
		"set_map":               metrics.SetMAP(relRet, ret, rel),
		"set_relative_P":        metrics.SetRelativePrecision(relRet, ret, rel),
		"utility":               metrics.Utility(relRet, ret),
		"infAP":                 metrics.InfAP(t.row.Rel, t.row.Judged, t.row.Pooled, rel),
		"binG":                  metrics.BinG(t.row.Rel, rel),
		"G":                     metrics.NormalizedGain(t.gains(), ideal),
		"Rndcg":                 metrics.RNDCG(t.gains(), ideal, rel),
		"ndcg_rel":              metrics.NDCGRel(t.gains(), ideal),
		"rbp":                   metrics.RBP(t.gains(), maxGrade),
		"rbp_resid":             metrics.RBPResid(t.row.Judged),
		"gm_bpref":              metrics.GMBprefTerm(metrics.BPref(t.row.Rel, t.row.Judged, rel, t.q.NonRel)),
	}
	for _, x := range metrics.RPrecMults {
		m[fmt.Sprintf("Rprec_mult_%.2f", x)] = metrics.RPrecMult(t.row.Rel, rel, x)
	}
	return m
}

// TestTrecEvalParity compares the kernels of rank_trec_all.go with
// trec_eval 10's output (`trec_eval -q -m all_trec`, committed under
// testdata/trec_eval/expected; testdata/trec_eval/README.md says how it
// was made) on trec_eval's own test files, per query and in the `all`
// line, to 1e-4 (trec_eval prints 4 decimals). The `all` line is the mean
// over queries, but for the counts (sums; num_q the number of queries)
// and gm_bpref (exp of the mean of ln max(bpref, 1e-5); trec_eval prints
// no per-query gm_bpref).
func TestTrecEvalParity(t *testing.T) {
	src := filepath.Join("..", "testdata", "trec_eval")
	cases := []struct {
		name, qrels, run, expected string
		trec                       dataset.TREC
	}{
		{"test", "qrels.test", "results.test", "test.txt", dataset.TREC{}},
		{"with-comments", "qrels.test.with-comments", "results.test", "with-comments.txt", dataset.TREC{}},
		{"comment", "qrels.comment.test", "results.comment.test", "comment.txt", dataset.TREC{}},
		{"trunc -c", "qrels.test", "results.trunc", "trunc-c.txt", dataset.TREC{MissingRunZero: true}},
		{"rel_level -l2", "qrels.rel_level", "results.test", "rel_level-l2.txt", dataset.TREC{RelevanceLevel: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := dataset.Load(dataset.Spec{
				Systems: []dataset.SystemSpec{{Name: "run", Format: "trec", Input: filepath.Join(src, tc.run)}},
				Qrels:   filepath.Join(src, tc.qrels), TREC: tc.trec,
			})
			if err != nil {
				t.Fatal(err)
			}
			want := readTrecEvalOut(t, filepath.Join(src, "expected", tc.expected))
			sums := map[string]float64{}
			nq := 0
			for i := range ds.Queries {
				tq := trecQuery{&ds.Queries[i], &ds.Systems[0].Rows[i]}
				if tq.row.Absent {
					continue
				}
				nq++
				for name, v := range parityMeasures(tq) {
					sums[name] += v
					if name == "gm_bpref" {
						continue
					}
					checkTrecEval(t, want, name, tq.q.ID, v)
				}
			}
			checkTrecEval(t, want, "num_q", "all", float64(nq))
			for name, s := range sums {
				v := s / float64(nq)
				switch {
				case strings.HasPrefix(name, "num_"):
					v = s
				case name == "gm_bpref":
					v = math.Exp(s / float64(nq))
				}
				checkTrecEval(t, want, name, "all", v)
			}
		})
	}
}

func checkTrecEval(t *testing.T, want map[string]map[string]string, name, q string, got float64) {
	t.Helper()
	s, ok := want[name][q]
	if !ok {
		t.Errorf("%s %s: not in trec_eval's output", name, q)
		return
	}
	w, _ := strconv.ParseFloat(s, 64)
	if !(math.Abs(got-w) <= 1e-4+1e-9) {
		t.Errorf("%s %s = %.6f, trec_eval %s", name, q, got, s)
	}
}

// readTrecEvalOut reads trec_eval -q output: measure, query (or "all"),
// value.
func readTrecEvalOut(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	out, err := trecevalout.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTrecEvalDocs: docs/metrics.md's "trec_eval measures" table names
// every registry entry with a trec_eval name, beside its id.
func TestTrecEvalDocs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "metrics.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, d := range metrics.Defs() {
		if d.TrecEval == "" {
			continue
		}
		id := string(d.Base)
		switch d.Param {
		case metrics.ParamK:
			id += "@K"
		case metrics.ParamRecall:
			id += "@recall=X"
		case metrics.ParamMult:
			id += "@mult=X"
		}
		for _, s := range []string{"`" + d.TrecEval + "`", "`" + id + "`"} {
			if !strings.Contains(doc, s) {
				t.Errorf("docs/metrics.md does not name %s (trec_eval %s)", s, d.TrecEval)
			}
		}
	}
}
