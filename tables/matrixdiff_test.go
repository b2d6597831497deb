package tables

import (
	"testing"

	"paperbundle/metrics"
)

// TestDiffToPrimary: matrixReport's comparisons are full (the primary)
// against each other system, so a system's difference to the primary is
// the comparison negated: retriever's Recall@10 is 0.2 below full's,
// significant (p_holm 0.002 < 0.05); rerank's nDCG@10 equals full's at
// p_holm = alpha, not significant; the primary itself, and a pair never
// compared, have none.
func TestDiffToPrimary(t *testing.T) {
	r := matrixReport()
	mx := BuildMatrix(r)
	col := func(id metrics.ID) int {
		for j, c := range mx.Columns {
			if c.ID == id {
				return j
			}
		}
		t.Fatalf("no column %s", id)
		return -1
	}
	recall, ndcg := col(metrics.RankRecall.At(10)), col(metrics.RankNDCG.At(10))
	d, ok := mx.DiffToPrimary(r, "retriever", recall)
	if !ok || d.Diff != -0.2 || !d.Significant || d.Test != "permutation" || d.P != 0.002 {
		t.Errorf("retriever Recall@10: %+v, %v; want -0.2, significant, permutation, p 0.002", d, ok)
	}
	d, ok = mx.DiffToPrimary(r, "rerank", ndcg)
	if !ok || d.Diff != 0 || d.Significant {
		t.Errorf("rerank nDCG@10: %+v, %v; want 0, not significant", d, ok)
	}
	if d, ok := mx.DiffToPrimary(r, "full", recall); ok {
		t.Errorf("the primary has a difference to itself: %+v", d)
	}
	if d, ok := mx.DiffToPrimary(r, "retriever", col(metrics.NEECE.ID())); ok {
		t.Errorf("retriever ECE was never compared with the primary, got %+v", d)
	}
}
