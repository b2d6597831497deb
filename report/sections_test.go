package report

import (
	"context"
	"testing"
)

// TestAbsentInputs: without ne_prob and criteria the NE, calibration,
// clinical, per-criterion and per-post sections are left out with a reason
// and the build still succeeds; without node_probs or selected_uids there
// is no Dynamic-K (and so no end-to-end) section.
func TestAbsentInputs(t *testing.T) {
	ds := handDataset()
	ds.HasNEProb, ds.HasCriteria = false, false
	for i := range ds.Queries {
		ds.Queries[i].Criterion = ""
	}
	for i := range ds.Systems[0].Rows {
		ds.Systems[0].Rows[i].HasNEProb = false
		ds.Systems[0].Rows[i].NEProb = 0
	}
	r, err := Compute(context.Background(), handConfig(50), ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"ne_gate": false, "calibration": false, "clinical_gate": false, "per_criterion": false, "per_post": false, "ranking": true, "dynamic_k": false, "end_to_end": false}
	for _, s := range r.Sections() {
		w, ok := want[s.ID]
		if !ok {
			continue
		}
		if s.Present != w {
			t.Errorf("section %s present = %v, want %v", s.ID, s.Present, w)
		}
		if !s.Present && s.Reason == "" {
			t.Errorf("section %s absent without a reason", s.ID)
		}
	}
	if _, ok := r.Metric("sys", "ne.auroc", ""); ok {
		t.Error("ne.auroc computed without ne_prob")
	}
	if m, ok := r.Metric("sys", "rank.recall@2", ""); !ok || m.Value != 0.75 {
		t.Errorf("rank.recall@2 = %v, want 0.75", m.Value)
	}
	if err := r.HardCheckError(); err != nil {
		t.Errorf("hard checks failed: %v", err)
	}
	if _, err := r.JSON(); err != nil {
		t.Fatal(err)
	}
}
