package figures

import (
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
)

// TestROCPair: the primary against another system, each curve with its
// own band (series 0 and 1), the diagonal, three legend entries; no pair
// when a system has no ROC curve.
func TestROCPair(t *testing.T) {
	r := figtest.Fixture()
	s, ok := ROCPair(r, "sys-a", "sys_b", 3)
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
	if _, ok := ROCPair(r, "sys-a", "nobody", 3); ok {
		t.Error("a pair with a system that has no curve")
	}
}

// TestCatalogueDecimals: at 2 decimals (paper.decimals) a ROC's legend
// and subtitle show AUROC with two, the default catalogue with three.
func TestCatalogueDecimals(t *testing.T) {
	r := figtest.Fixture()
	auc := func(specs []Spec) string {
		for _, s := range specs {
			if s.ID.String() == "roc_sys_a" {
				return s.Subtitle
			}
		}
		return ""
	}
	two, three := auc(CatalogueDecimals(r, 2)), auc(Catalogue(r))
	if !strings.HasPrefix(two, "AUROC 0.") || len(strings.Fields(two)[1]) != len("0.00;") || len(strings.Fields(three)[1]) != len("0.000;") {
		t.Errorf("subtitles %q (2 decimals), %q (3)", two, three)
	}
}
