package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPerQueryCSVSklearn: per_query_metrics.csv of a classifier-only
// bundle (query_id, post_id, fold, label and a score; 400 rows) is a
// self-sufficient record: its label and score columns are the table's, so
// scikit-learn's roc_auc_score on them (testdata/clf400/sklearn_auroc.json,
// written by sklearn_auroc.py) is the bundle's ne.auroc; the columns that
// do not apply (candidates, criteria, Dynamic-K) are absent.
func TestPerQueryCSVSklearn(t *testing.T) {
	t.Parallel()
	var ref map[string]float64
	data, err := os.ReadFile(filepath.Join("testdata", "clf400", "sklearn_auroc.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, score string }{{"ne_prob.csv", "ne_prob"}, {"ne_score.csv", "ne_score"}} {
		t.Run(c.score, func(t *testing.T) {
			t.Parallel()
			input, err := os.ReadFile(filepath.Join("testdata", "clf400", c.file))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "clf.csv"), input)
			cfg := filepath.Join(dir, "paper.yaml")
			writeFile(t, cfg, []byte("title: classifier\nseed: 7\nsystems:\n  - {name: clf, input: clf.csv}\nbootstrap: {resamples: 50}\n"))
			root := filepath.Join(dir, "out")
			if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
				t.Fatalf("build: exit %d: %s", code, msg)
			}
			pq := readCSV(t, filepath.Join(root, "v1", "per_query_metrics.csv"))
			in := readCSV(t, filepath.Join(dir, "clf.csv"))
			head := pq[0]
			for _, col := range []string{"label", c.score} {
				if !slices.Contains(head, col) {
					t.Fatalf("no %s column in %v", col, head)
				}
			}
			for _, col := range []string{"n_gold", "n_candidates", "gold_in_pool", "difficulty", "criterion_id", "selected_k"} {
				if slices.Contains(head, col) {
					t.Errorf("column %s of a classifier-only table: want it absent (%v)", col, head)
				}
			}
			for _, col := range head {
				if strings.HasPrefix(col, "rank.") || strings.HasPrefix(col, "dynk.") {
					t.Errorf("column %s of a classifier-only table", col)
				}
			}
			// The label and score of each query are the table's.
			at := func(rows [][]string, col string) int { return slices.Index(rows[0], col) }
			byQuery := map[string][]string{}
			for _, r := range in[1:] {
				byQuery[r[at(in, "query_id")]] = r
			}
			if len(pq)-1 != len(in)-1 {
				t.Fatalf("%d per-query rows, %d input rows", len(pq)-1, len(in)-1)
			}
			num := func(s string) float64 {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				return x
			}
			for _, r := range pq[1:] {
				src := byQuery[r[at(pq, "query_id")]]
				if src == nil || r[at(pq, "label")] != src[at(in, "label")] || num(r[at(pq, c.score)]) != num(src[at(in, c.score)]) {
					t.Fatalf("row %v, input %v", r, src)
				}
			}
			var m master
			js, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(js, &m); err != nil {
				t.Fatal(err)
			}
			var auroc *float64
			for _, x := range m.Metrics {
				if x.ID == "ne.auroc" && x.Slice == "" {
					auroc = x.Value
				}
			}
			if auroc == nil || math.Abs(*auroc-ref[c.file]) > 1e-12 {
				t.Errorf("ne.auroc %s, sklearn's roc_auc_score on the label and %s columns %v", show(auroc), c.score, ref[c.file])
			}
		})
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestPerQueryCSVTREC: a TREC bundle's per_query_metrics.csv has no NE
// score, gate state, selected K or Dynamic-K column (none applies), and a
// column for every per-query mean, trec_eval's measures among them.
func TestPerQueryCSVTREC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"qrels.test", "results.test"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "trec_eval", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, f), data)
	}
	cfg := filepath.Join(dir, "paper.yaml")
	writeFile(t, cfg, []byte("title: trec\nseed: 1\nqrels: qrels.test\nsystems:\n  - {name: run, input: results.test, format: trec}\nbootstrap: {resamples: 0}\n"))
	root := filepath.Join(dir, "out")
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("build: exit %d: %s", code, msg)
	}
	head := readCSV(t, filepath.Join(root, "v1", "per_query_metrics.csv"))[0]
	for _, col := range head {
		if strings.HasPrefix(col, "ne") || col == "state" || col == "selected_k" || strings.HasPrefix(col, "dynk.") {
			t.Errorf("column %s of a TREC bundle: want it absent", col)
		}
	}
	for _, col := range []string{"label", "rank.hit@10", "rank.capped_recall@10", "rank.bpref", "rank.iprec@recall=0.5", "rank.pct_recall@p=0.5"} {
		if !slices.Contains(head, col) {
			t.Errorf("no column %s in %v", col, head)
		}
	}
}
