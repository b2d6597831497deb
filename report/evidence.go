package report

import (
	"math"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report/paired"
)

// evidenceValues are the metric values of a block of evidence rows,
// column-major: cols[j] holds metric column j (Report.PerQueryColumns) by
// row, nil when no row of the block has that metric. A computed report
// has one block per system whose columns are the system's per-query
// vectors themselves, so the values are held once, not also copied row by
// row; per_query_metrics.csv read back is one block of every row.
type evidenceValues struct{ cols [][]float64 }

// Value returns the evidence's value of metric column j (the metric
// Report.PerQueryColumns[j]): NaN when it is undefined for the query or
// the evidence has no such column.
func (e *Evidence) Value(j int) Num {
	if e.values == nil || j < 0 || j >= len(e.values.cols) {
		return NaN
	}
	c := e.values.cols[j]
	if e.row >= len(c) {
		return NaN
	}
	return Num(c[e.row])
}

// WithValues returns e holding the metric values v, aligned with
// Report.PerQueryColumns: for a report assembled by hand (Compute and
// ReadPerQueryCSV set the values of theirs).
func (e Evidence) WithValues(v ...Num) Evidence {
	cols := make([][]float64, len(v))
	for j, x := range v {
		cols[j] = []float64{float64(x)}
	}
	e.values, e.row = &evidenceValues{cols: cols}, 0
	return e
}

// PairedSide returns the evidence of rows (indexes into r.PerQuery, all of
// system) for a paired test of metric id (report/paired): the metric's
// per-query values when it is a column, and every evidence field that
// applies (PerQueryFields), with the system's tune-chosen thresholds and
// the calibration bins of r's settings.
func (r *Report) PairedSide(id metrics.ID, system string, rows []int) paired.Side {
	f := r.PerQueryFields
	s := paired.Side{Prob: f.Score == ScoreProb, Bins: r.Settings.Calibration.Bins,
		Fold: make([]int, len(rows)), Threshold: r.fprThreshold(system)}
	j := -1
	for k, c := range r.PerQueryColumns {
		if c == id {
			j = k
		}
	}
	if j >= 0 {
		s.Values = make([]float64, len(rows))
	}
	if f.Label {
		s.Label = make([]bool, len(rows))
	}
	if f.Score != NoScore {
		s.Score = make([]float64, len(rows))
	}
	if f.State {
		s.State = make([]dataset.State, len(rows))
	}
	for k, i := range rows {
		q := &r.PerQuery[i]
		s.Fold[k] = q.Fold
		if s.Values != nil {
			s.Values[k] = float64(q.Value(j))
		}
		if s.Label != nil {
			s.Label[k] = q.Label
		}
		if s.Score != nil {
			s.Score[k] = float64(q.Score)
		}
		if s.State != nil {
			s.State[k] = q.State
		}
	}
	return s
}

// fprThreshold returns the tune-chosen FPR-budget thresholds of system by
// fold and budget (r.Thresholds): a null threshold (no score met the
// budget) flags nothing; a fold whose tune rows lack a class (its tune
// TPR or FPR undefined: no threshold was chosen) is outside the held-out
// population, as in the report.
func (r *Report) fprThreshold(system string) func(fold int, budget float64) (float64, bool) {
	return func(fold int, budget float64) (float64, bool) {
		for _, th := range r.Thresholds {
			if th.System != system || th.Fold != fold {
				continue
			}
			for _, pt := range th.FPR {
				if float64(pt.Budget) == budget {
					if !pt.TuneTPR.Valid() || !pt.TuneFPR.Valid() {
						return 0, false
					}
					if !pt.Threshold.Valid() {
						return math.Inf(1), true
					}
					return float64(pt.Threshold), true
				}
			}
		}
		return 0, false
	}
}
