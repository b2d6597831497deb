package report

import (
	"math"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report/paired"
)

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
			s.Values[k] = float64(q.Values[j])
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
