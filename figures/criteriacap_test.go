package figures

import (
	"strconv"
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
)

// TestCriteriaDrawnCapped checks that a per-criterion figure does not grow
// with the number of criteria: with 2,000 criteria the heat map has
// MaxCriteriaDrawn rows and the bar charts MaxCriteriaDrawn categories,
// each with a note naming how many were not drawn. (The heat map's raster
// once took 24 px per criterion: 1.96 GB for 2,000.)
func TestCriteriaDrawnCapped(t *testing.T) {
	r := figtest.Fixture()
	n := len(r.PerQuery)
	for i := range 2000 - len(r.Dataset.Criteria) {
		c := "X." + strconv.Itoa(i)
		r.Dataset.Criteria = append(r.Dataset.Criteria, c)
		q := r.PerQuery[i%n]
		q.Criterion = c
		r.PerQuery = append(r.PerQuery, q)
	}
	for _, id := range []string{"per_query_heatmap_sys_a", "criteria_auroc_sys_a", "criteria_ranking_sys_a"} {
		s := specByID(t, r, id)
		ax := s.Panels[0].X
		if s.Kind == KindPerQueryHeatmap {
			ax = s.Panels[0].Y
			if h := elements[*HeatMap](s)[0]; len(h.Rows) != MaxCriteriaDrawn {
				t.Errorf("%s: %d heat-map rows, want %d", id, len(h.Rows), MaxCriteriaDrawn)
			}
		}
		if len(ax.Categories) != MaxCriteriaDrawn {
			t.Errorf("%s: %d criteria on the axis, want %d", id, len(ax.Categories), MaxCriteriaDrawn)
		}
		want := "1940 of 2000 criteria not drawn"
		if !strings.Contains(strings.Join(s.Notes, "\n"), want) {
			t.Errorf("%s: notes %q do not say %q", id, s.Notes, want)
		}
	}
}
