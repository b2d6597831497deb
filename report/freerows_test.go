package report

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
)

// TestFreeRows: Options.FreeRows changes nothing in the report (the same
// metrics_master.json bytes, per-query rows included) and leaves every
// row's per-candidate lists freed; without it the dataset is untouched.
// The second system gives its own selected sets, whose matching needs the
// candidate ids until the Dynamic-K section has run.
func TestFreeRows(t *testing.T) {
	mkData := func() *dataset.Dataset {
		ds := handDataset()
		sel := dataset.System{Name: "sel", Label: "Selected", Rows: make([]dataset.Row, len(ds.Queries))}
		for i, r := range ds.Systems[0].Rows {
			r.Candidates = append([]string(nil), r.Candidates...)
			r.Scores = append([]float64(nil), r.Scores...)
			r.Rel = append([]int(nil), r.Rel...)
			r.Selected, r.HasSelected = r.Candidates[:1], true
			sel.Rows[i] = r
		}
		ds.Systems = append(ds.Systems, sel)
		return ds
	}
	cfg := handConfig(200)
	cfg.Systems = append(cfg.Systems, config.System{Name: "sel", Label: "Selected", Input: "y.csv"})
	compute := func(free bool) ([]byte, *dataset.Dataset) {
		ds := mkData()
		r, err := Compute(context.Background(), cfg, ds, Options{Version: "v1", Tool: "test", FreeRows: free})
		if err != nil {
			t.Fatal(err)
		}
		js, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var pq bytes.Buffer
		for _, q := range r.PerQuery {
			pq.WriteString(q.System + " " + q.Query)
			for j := range r.PerQueryColumns {
				fmt.Fprintf(&pq, " %v", float64(q.Value(j)))
			}
			pq.WriteString("\n")
		}
		return append(js, pq.Bytes()...), ds
	}
	kept, dsKept := compute(false)
	freed, dsFreed := compute(true)
	if !bytes.Equal(kept, freed) {
		t.Errorf("the report differs with FreeRows (%d and %d bytes)", len(kept), len(freed))
	}
	for si, sys := range dsFreed.Systems {
		for i, r := range sys.Rows {
			if r.Candidates != nil || r.Scores != nil || r.Rel != nil || r.NodeProbs != nil || r.Selected != nil {
				t.Fatalf("system %d row %d not freed: %+v", si, i, r)
			}
		}
	}
	for si, sys := range dsKept.Systems {
		for i, r := range sys.Rows {
			if len(r.Candidates) == 0 || len(r.Scores) != len(r.Candidates) || len(r.Rel) != len(r.Candidates) {
				t.Fatalf("system %d row %d changed without FreeRows: %+v", si, i, r)
			}
		}
	}
}
