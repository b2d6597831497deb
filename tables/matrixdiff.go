package tables

import (
	"math"

	"paperbundle/report"
)

// PrimaryDiff is a system's difference to the primary system on one
// headline metric, read from the report's comparisons (never computed
// here): Diff = system − primary.
type PrimaryDiff struct {
	Diff        float64
	Test        string  // "permutation", "delong" or "bootstrap"
	P           float64 // the corrected p-value (p_holm; equal to p without correction)
	Significant bool    // P below the matrix's alpha
}

// DiffToPrimary returns the comparison of system with the primary on
// column j, when the report compared that pair on that metric (either
// way round: a comparison of the primary with the system is negated).
func (mx Matrix) DiffToPrimary(r *report.Report, system string, j int) (PrimaryDiff, bool) {
	primary := ""
	for _, row := range mx.Rows {
		if row.Primary {
			primary = row.System
		}
	}
	if primary == "" || system == primary || j < 0 || j >= len(mx.Columns) {
		return PrimaryDiff{}, false
	}
	id := mx.Columns[j].ID
	for _, c := range r.Comparisons {
		if c.ID != id || comparisonTest(c) == "" || !c.Diff.Valid() {
			continue
		}
		sign := 0.0
		switch {
		case c.System == system && c.Reference == primary:
			sign = 1
		case c.System == primary && c.Reference == system:
			sign = -1
		default:
			continue
		}
		p := float64(comparisonP(c))
		d := sign * float64(c.Diff)
		if d == 0 {
			d = math.Abs(d) // no -0
		}
		return PrimaryDiff{Diff: d, Test: comparisonTest(c), P: p, Significant: p < mx.Alpha}, true
	}
	return PrimaryDiff{}, false
}
