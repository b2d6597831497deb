package tables

import (
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
)

// TestResultsTable: the Results sheet has one row per row of the results
// matrix with the same values, intervals and n, and the markers in words
// (matrixReport: full, letter a, is significantly better than rerank and
// retriever on Recall@10). It has no one n: each value has its own.
func TestResultsTable(t *testing.T) {
	r := matrixReport()
	mx := BuildMatrix(r)
	rt := ResultsTable(r)
	if len(rt.Rows) != len(mx.Rows) {
		t.Fatalf("%d rows, the matrix has %d", len(rt.Rows), len(mx.Rows))
	}
	col := -1
	for j, c := range rt.Columns {
		if c.Key == string(metrics.RankRecall.At(10)) {
			col = j
		}
	}
	if col < 0 || rt.Columns[col+1].Key != "rank.recall@10_n" || rt.Columns[col+2].Key != "rank.recall@10_markers" {
		t.Fatalf("no rank.recall@10 value, n and markers columns: %+v", rt.Columns)
	}
	if rt.N != 0 {
		t.Errorf("n = %d, want 0 (each value has its own n)", rt.N)
	}
	for i, row := range rt.Rows {
		got := row.Cells[col]
		want := matrixCell(t, mx, mx.Rows[i].System, metrics.RankRecall.At(10))
		if want.Present && (got.V != want.Value || !sameNum(got.Lo, want.Lo) || !sameNum(got.Hi, want.Hi)) {
			t.Errorf("%s: Recall@10 %v [%v], matrix %v [%v]", row.System, got.V, got.Lo, want.Value, want.Lo)
		}
		if n := row.Cells[col+1]; want.Present && (n.V != float64(want.N) || want.N <= 0) {
			t.Errorf("%s: Recall@10 n = %v, matrix %d", row.System, n.V, want.N)
		}
		if row.System == "full" && row.Cells[col+2].Text != "better than b, c" {
			t.Errorf("full's Recall@10 markers = %q", row.Cells[col+2].Text)
		}
	}
}

// sameNum: equal, or both undefined.
func sameNum(a, b float64) bool { return a == b || (!Defined(a) && !Defined(b)) }

// TestResultsMarkersMissedTarget: a cell that misses its target says so in
// the Results sheet's markers, with the target, as the matrix's ✗ does.
func TestResultsMarkersMissedTarget(t *testing.T) {
	lo := 0.995
	c := MatrixCell{Better: []string{"b"}, Missed: true, Target: &report.Target{Min: &lo}}
	if got, want := markers(c), "better than b; target not met (≥ 0.995)"; got != want {
		t.Errorf("markers = %q, want %q", got, want)
	}
	c.Missed = false
	if got, want := markers(c), "better than b"; got != want {
		t.Errorf("met target: markers = %q, want %q", got, want)
	}
}
