package tables

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
)

// matrixReport is a hand-made report: three systems of the inputs (full,
// rerank, retriever; full is primary) and the two baselines, with
// comparisons of full against each other system.
func matrixReport() *report.Report {
	ci := func(lo, hi float64) *report.CI { return &report.CI{Low: report.Num(lo), High: report.Num(hi)} }
	m := func(sys string, id metrics.ID, v float64, c *report.CI, folds ...float64) report.Metric {
		x := report.Metric{System: sys, ID: id, N: 100, Value: report.Num(v), CI: c, FoldMean: report.NaN, FoldStd: report.NaN}
		if len(folds) > 0 {
			x.Folds = report.Nums(folds)
			x.FoldMean = report.Num(folds[0]+folds[1]) / 2
			x.FoldStd = 0.01
		}
		return x
	}
	r := &report.Report{
		Systems: []report.SystemInfo{
			{Name: "full", Label: "Full pipeline", Kind: report.Pipeline, Primary: true},
			{Name: "rerank", Label: "Reranker", Kind: report.Pipeline},
			{Name: "retriever", Label: "Retriever", Kind: report.Pipeline},
			{Name: "baseline:random", Label: "Random ranking", Kind: report.Baseline},
			{Name: "baseline:oracle", Label: "Oracle ranking", Kind: report.Baseline},
		},
		Settings: report.Settings{HeadlineCutoff: 10, Seed: 42,
			Bootstrap: report.BootstrapSettings{Resamples: 10000, Unit: "post", Method: "percentile", Confidence: 0.95}},
		Metrics: []report.Metric{
			m("full", "rank.recall@10", 0.8, ci(0.75, 0.85), 0.79, 0.81),
			m("rerank", "rank.recall@10", 0.7, ci(0.65, 0.75), 0.69, 0.71),
			m("retriever", "rank.recall@10", 0.6, ci(0.55, 0.65), 0.59, 0.61),
			m("baseline:random", "rank.recall@10", 0.3, nil),
			m("baseline:oracle", "rank.recall@10", 1, nil),
			m("full", "rank.recall@5", 0.7, nil), // not the headline cutoff: no column
			m("full", "rank.mrr", 0.7, nil),      // not a headline metric: no column
			m("full", "rank.ndcg@10", 0.6, nil),
			m("rerank", "rank.ndcg@10", 0.6, nil), // a tie for best
			m("retriever", "rank.ndcg@10", 0.62, nil),
			m("baseline:oracle", "rank.ndcg@10", 1, nil),
			m("full", "ne.auroc", 0.9, ci(0.88, 0.92)),
			m("rerank", "ne.auroc", 0.91, ci(0.89, 0.93)),
			// retriever has no ne_prob: ne.* does not apply to it
			m("full", "ne.ece", 0.03, nil),
			m("rerank", "ne.ece", 0.05, nil),
			m("baseline:random", "ne.ece", 0.5, nil), // baselines show ranking columns only
			m("full", "ne.auprc", 0.4, nil),
			{System: "rerank", ID: "ne.auprc", N: 100, Value: report.NaN, FoldMean: report.NaN, FoldStd: report.NaN},
		},
	}
	// The comparisons are decoded from metrics_master.json's form, so the
	// test reads the same whichever fields the model has: "test" and "p"
	// (with each test's own p) or "p_permutation" and "delong_p".
	if err := json.Unmarshal([]byte(matrixComparisons), &r.Comparisons); err != nil {
		panic(err)
	}
	r.Reindex()
	return r
}

// matrixComparisons: full against each other system (and a baseline).
// Recall@10: full better than both (p_holm 0.008, 0.002 < 0.05). nDCG@10:
// retriever better than full (diff < 0); full vs rerank at p_holm = alpha
// is not significant. ECE is lower-is-better: a negative difference is an
// improvement. AUROC: not significant. A comparison with a baseline is
// never a marker.
const matrixComparisons = `[
 {"system": "full", "reference": "rerank", "id": "rank.recall@10", "diff": 0.1, "test": "permutation", "p": 0.004, "p_permutation": 0.004, "p_holm": 0.008},
 {"system": "full", "reference": "retriever", "id": "rank.recall@10", "diff": 0.2, "test": "permutation", "p": 0.001, "p_permutation": 0.001, "p_holm": 0.002},
 {"system": "full", "reference": "retriever", "id": "rank.ndcg@10", "diff": -0.02, "test": "permutation", "p": 0.01, "p_permutation": 0.01, "p_holm": 0.02},
 {"system": "full", "reference": "rerank", "id": "rank.ndcg@10", "diff": 0, "test": "permutation", "p": 0.05, "p_permutation": 0.05, "p_holm": 0.05},
 {"system": "full", "reference": "rerank", "id": "ne.ece", "diff": -0.02, "test": "permutation", "p": 0.005, "p_permutation": 0.005, "p_holm": 0.01},
 {"system": "full", "reference": "rerank", "id": "ne.auroc", "diff": -0.01, "test": "delong", "p": 0.2, "p_permutation": null, "delong_p": 0.2, "p_holm": 0.4},
 {"system": "full", "reference": "baseline:random", "id": "rank.recall@10", "diff": 0.5, "test": "permutation", "p": 0.0001, "p_permutation": 0.0001, "p_holm": 0.0001}
]`

// TestMatrix: the columns and rows of matrixReport's matrix, in order, and
// the primary and baseline flags.
func TestMatrix(t *testing.T) {
	mx := BuildMatrix(matrixReport())

	var ids []metrics.ID
	for _, c := range mx.Columns {
		ids = append(ids, c.ID)
	}
	// Registry order: NE gate, calibration, then ranking (recall before nDCG).
	wantIDs := []metrics.ID{"ne.auroc", "ne.auprc", "ne.ece", "rank.recall@10", "rank.ndcg@10"}
	if !reflect.DeepEqual(ids, wantIDs) {
		t.Fatalf("columns %v, want %v", ids, wantIDs)
	}
	var rows []string
	for _, r := range mx.Rows {
		rows = append(rows, r.Letter+":"+r.System)
	}
	wantRows := []string{"a:full", "b:rerank", "c:retriever", ":baseline:random", ":baseline:oracle"}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Fatalf("rows %v, want %v", rows, wantRows)
	}
	if !mx.Rows[0].Primary || mx.Rows[1].Primary || !mx.Rows[3].Baseline {
		t.Errorf("primary/baseline flags wrong: %+v", mx.Rows)
	}
}

// matrixCell is the (sys, id) cell of mx.
func matrixCell(t *testing.T, mx Matrix, sys string, id metrics.ID) MatrixCell {
	t.Helper()
	for _, r := range mx.Rows {
		if r.System != sys {
			continue
		}
		for j, c := range mx.Columns {
			if c.ID == id {
				return r.Cells[j]
			}
		}
	}
	t.Fatalf("no cell %s %s", sys, id)
	return MatrixCell{}
}

// TestMatrixMarkers: the letters, downward marks and best values of the
// cells of matrixReport.
func TestMatrixMarkers(t *testing.T) {
	mx := BuildMatrix(matrixReport())
	cell := func(sys string, id metrics.ID) MatrixCell { return matrixCell(t, mx, sys, id) }
	type want struct {
		sys     string
		id      metrics.ID
		present bool
		better  []string
		worse   []string
		best    bool
	}
	for _, w := range []want{
		{"full", "rank.recall@10", true, []string{"b", "c"}, nil, true},
		{"rerank", "rank.recall@10", true, nil, []string{"a"}, false},
		{"retriever", "rank.recall@10", true, nil, []string{"a"}, false},
		{"baseline:oracle", "rank.recall@10", true, nil, nil, false}, // 1.0 > 0.8 but never best
		{"baseline:random", "rank.recall@10", true, nil, nil, false},
		{"full", "rank.ndcg@10", true, nil, []string{"c"}, false},
		{"rerank", "rank.ndcg@10", true, nil, nil, false}, // p = alpha is not significant
		{"retriever", "rank.ndcg@10", true, []string{"a"}, nil, true},
		{"baseline:random", "rank.ndcg@10", false, nil, nil, false},
		{"full", "ne.ece", true, []string{"b"}, nil, true}, // 0.03 < 0.05: lower is better
		{"rerank", "ne.ece", true, nil, []string{"a"}, false},
		{"baseline:random", "ne.ece", false, nil, nil, false}, // not a ranking column
		{"retriever", "ne.auroc", false, nil, nil, false},     // does not apply
		{"rerank", "ne.auroc", true, nil, nil, true},
		{"full", "ne.auroc", true, nil, nil, false},
		{"full", "ne.auprc", true, nil, nil, false}, // one defined value: no best
		{"rerank", "ne.auprc", true, nil, nil, false},
	} {
		c := cell(w.sys, w.id)
		if c.Present != w.present || !reflect.DeepEqual(c.Better, w.better) || !reflect.DeepEqual(c.Worse, w.worse) || c.Best != w.best {
			t.Errorf("%s %s: present %v better %v worse %v best %v; want %v %v %v %v",
				w.sys, w.id, c.Present, c.Better, c.Worse, c.Best, w.present, w.better, w.worse, w.best)
		}
	}
}

// TestMatrixFormats: the formatted values, folds, intervals, tests, headers
// and notes of matrixReport's matrix.
func TestMatrixFormats(t *testing.T) {
	mx := BuildMatrix(matrixReport())
	cell := func(sys string, id metrics.ID) MatrixCell { return matrixCell(t, mx, sys, id) }
	if c := cell("rerank", "ne.auprc"); !math.IsNaN(c.Value) || c.Note == "" || mx.FormatValue(1, c) != "n/a" {
		t.Errorf("undefined AUPRC: value %v note %q", c.Value, c.Note)
	}
	// Fold mean ± std: (0.79 + 0.81) / 2 = 0.8, std 0.01 as given.
	if got := mx.FormatFolds(3, cell("full", "rank.recall@10")); got != "0.8000 ± 0.0100" {
		t.Errorf("folds %q", got)
	}
	if got := mx.FormatCI(3, cell("full", "rank.recall@10")); got != "[0.7500, 0.8500]" {
		t.Errorf("CI %q", got)
	}
	if got := mx.FormatValue(0, cell("retriever", "ne.auroc")); got != "" {
		t.Errorf("absent cell shows %q", got)
	}
	if mx.Folds != 2 || mx.Alpha != 0.05 || mx.Correction != "holm" {
		t.Errorf("folds %d alpha %v correction %q", mx.Folds, mx.Alpha, mx.Correction)
	}
	tests := map[metrics.ID][]string{}
	for _, c := range mx.Columns {
		tests[c.ID] = c.Tests
	}
	if !reflect.DeepEqual(tests["ne.auroc"], []string{"delong"}) || !reflect.DeepEqual(tests["rank.recall@10"], []string{"permutation"}) {
		t.Errorf("tests %v", tests)
	}
	if mx.Columns[3].Plain != "Evidence found in the top 10" || mx.Columns[3].Title != "Recall@10" {
		t.Errorf("header %q / %q", mx.Columns[3].Plain, mx.Columns[3].Title)
	}
	// Every comparison has full on the system side: with the primary
	// mode the note names it.
	mx.Mode = "primary"
	if !strings.Contains(strings.Join(mx.Notes(), " "), "Compared: the primary system (a) with each other system.") || mx.Reference != -1 {
		t.Errorf("mode note: %q (reference %d)", mx.Notes(), mx.Reference)
	}
	notes := strings.Join(mx.Notes(), "\n")
	for _, s := range []string{"with its confidence interval (percentile bootstrap, 10,000 resamples of posts, 95% confidence level, seed 42)", "mean ± std over 2 folds", "Holm-corrected p < 0.05",
		"AUROC: DeLong's test", "Recall@10, nDCG@10: paired permutation test", "never bold"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
}

func TestMatrixSingleSystem(t *testing.T) {
	r := &report.Report{
		Systems:  []report.SystemInfo{{Name: "clf", Label: "Classifier", Kind: report.Pipeline, Primary: true}},
		Settings: report.Settings{HeadlineCutoff: 10, Bootstrap: report.BootstrapSettings{Confidence: 0.95}},
		Metrics:  []report.Metric{{System: "clf", ID: "ne.auroc", Value: 0.8, FoldMean: report.NaN, FoldStd: report.NaN, Folds: []report.Num{0.8}}},
	}
	r.Reindex()
	mx := BuildMatrix(r)
	if len(mx.Columns) != 1 || len(mx.Rows) != 1 || mx.Rows[0].Cells[0].Best || mx.Folds != 0 {
		t.Fatalf("matrix %+v", mx)
	}
	notes := strings.Join(mx.Notes(), "\n")
	if strings.Contains(notes, "folds") || strings.Contains(notes, "Superscript") {
		t.Errorf("single system, single fold notes: %s", notes)
	}
}

func TestLetter(t *testing.T) {
	for i, want := range map[int]string{0: "a", 1: "b", 25: "z", 26: "aa", 27: "ab", 51: "az", 52: "ba", 701: "zz", 702: "aaa"} {
		if got := Letter(i); got != want {
			t.Errorf("Letter(%d) = %q, want %q", i, got, want)
		}
	}
}
