package figures

import (
	"testing"

	"paperbundle/figures/internal/figtest"
)

// TestROCPair: the primary against another system, each curve with its
// own band (series 0 and 1), the diagonal, three legend entries; no pair
// when a system has no ROC curve.
func TestROCPair(t *testing.T) {
	r := figtest.Fixture()
	s, ok := ROCPair(r, "sys-a", "sys_b")
	if !ok {
		t.Fatal("no pair for the fixture's two systems")
	}
	if s.ID.String() != "roc_pair_sys_a" || !s.ID.Valid() {
		t.Errorf("id %q", s.ID)
	}
	bands := map[int]bool{}
	for _, e := range s.Panels[0].Elements {
		if b, ok := e.(*Band); ok {
			bands[b.Style.Series] = true
		}
	}
	if !bands[0] || !bands[1] || len(s.Legend) != 3 {
		t.Errorf("bands %v, %d legend entries; want series 0 and 1, 3 entries", bands, len(s.Legend))
	}
	if _, ok := ROCPair(r, "sys-a", "nobody"); ok {
		t.Error("a pair with a system that has no curve")
	}
}
