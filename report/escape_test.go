package report

import (
	"context"
	"strings"
	"testing"
)

// TestEscaping: user strings reaching CSV and LaTeX cannot become formulas
// or break the markup (SPEC 12).
func TestEscaping(t *testing.T) {
	ds := handDataset()
	ds.Systems[0].Label = "<script>alert(1)</script> 50% of_x"
	for i := range ds.Queries {
		ds.Queries[i].Criterion = "=cmd|' /C calc'!A0"
		ds.Queries[i].Post = "+" + ds.Queries[i].Post
	}
	cfg := handConfig(0)
	r, err := Compute(context.Background(), cfg, ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Systems[0].Label = ds.Systems[0].Label
	for _, tb := range r.Tables() {
		csv := string(tb.CSV())
		for _, line := range strings.Split(csv, "\n") {
			for _, cell := range strings.Split(line, ",") {
				if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
					t.Errorf("%s.csv: cell %q could run as a formula", tb.Name, cell)
				}
			}
		}
		tex := string(tb.LaTeX())
		if strings.Contains(tex, "50% ") || strings.Contains(tex, "of_x") {
			t.Errorf("%s.tex: unescaped %% or _ in %q", tb.Name, tex)
		}
	}
	pq := string(r.PerQueryCSV())
	if strings.Contains(pq, "\n=cmd") || strings.Contains(pq, ",=cmd") || strings.Contains(pq, ",+p") {
		t.Errorf("per_query_metrics.csv holds a formula cell")
	}
}
