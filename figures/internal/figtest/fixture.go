// Package figtest holds the report fixtures the tests of figures,
// figures/plot and figures/echarts share: a small Report built by hand,
// and the demo Report of benchmark workload (a) computed from dataset/demo.
package figtest

import (
	"math"

	"paperbundle/metrics"
	"paperbundle/report"
)

// Fixture is a small Report built by hand (not by report.Compute): two
// systems, three criteria, 40 eval queries of which 10 have evidence. Its
// numbers are chosen so that every invariant the tests check holds by
// construction, and a few are undefined (NaN) on purpose:
//
//   - the second system's PR band has an undefined grid point;
//   - one reliability bin is empty (count 0, mean and frequency NaN);
//   - criterion A.3 has no positive query, so its ranking metrics and its
//     AUROC for the second system are undefined;
//   - one threshold-grid cell has no alert (alert precision NaN);
//   - per-query recall@10 is undefined for queries without evidence.
//
// The first system's label carries markup and the second a non-ASCII
// letter, for the escaping and code-page tests.

// The fixture's sizes and labels.
const (
	Eval      = 40
	Positives = 10
	LabelA    = `System <A> & "friends"`
	LabelB    = "Système B"
)

var (
	nan  = report.NaN
	fnan = math.NaN()
)

func nums(x ...float64) []report.Num { return report.Nums(x) }

// grid11 is the FPR (and recall) grid of the fixture: 0, 0.1, ..., 1.
func grid11() []report.Num {
	g := make([]report.Num, 11)
	for i := range g {
		g[i] = report.Num(float64(i) / 10)
	}
	return g
}

func metric(system string, id metrics.ID, slice report.Slice, v, lo, hi float64) report.Metric {
	m := report.Metric{System: system, ID: id, Slice: slice, Value: report.Num(v), N: Eval,
		Folds: []report.Num{}, FoldMean: nan, FoldStd: nan}
	if !math.IsNaN(lo) {
		m.CI = &report.CI{Low: report.Num(lo), High: report.Num(hi), Method: "percentile", Unit: "post", Resamples: 200}
	}
	return m
}

// The ten positive queries of each system, for the difficulty figure:
// gold count, candidates and gold among the candidates. Difficulty
// (NCand − GoldInPool) / NGold is 5, 4, 0, 8, 4, 2, 4, 2, 4, 10/3 and
// recall@10 cycles 0, 0.5, 1: (4, 0.5) occurs twice, and the third query
// (every candidate gold) has difficulty 0. scipy.stats.spearmanr of the
// ten pairs gives rho = -0.6081378946532863, p = 0.062127603424563645.
var (
	diffNGold  = []int{1, 2, 2, 1, 2, 4, 1, 2, 2, 3}
	diffNCand  = []int{6, 10, 2, 9, 10, 12, 5, 6, 10, 13}
	diffInPool = []int{1, 2, 2, 1, 2, 4, 1, 2, 2, 3}
)

// Rho and P are the Spearman correlation of difficulty and recall@10 of
// the first system and its p-value (scipy.stats.spearmanr).
const (
	Rho = -0.6081378946532863
	P   = 0.062127603424563645
)

// Fixture returns a new copy of the fixture Report.
//
// It is longer than 100 lines because it is the fixture's data written
// out in one literal: each curve and metric stands where a test's expected
// value can be checked against it by hand.
func Fixture() *report.Report {
	r := &report.Report{
		SchemaVersion: report.SchemaVersion,
		Version:       "v1",
		Title:         "Fixture",
		Tool:          "paperbundle test",
		Dataset: report.DatasetSummary{
			EvalQueries: Eval, PositiveQueries: Positives, PositiveRate: 0.25,
			Criteria: []string{"A.1", "A.2", "A.3"}, Posts: 14,
		},
		Systems: []report.SystemInfo{
			{Name: "sys-a", Label: LabelA, Kind: report.Pipeline, Primary: true},
			{Name: "sys_b", Label: LabelB, Kind: report.Pipeline, Reference: "sys-a"},
			{Name: "baseline:random", Label: "Random ranking", Kind: report.Baseline},
			{Name: "baseline:oracle", Label: "Oracle ranking", Kind: report.Baseline},
		},
		Settings: report.Settings{HeadlineCutoff: 10, Cutoffs: []int{1, 3, 5, 10}, FPRTargets: []float64{0.05, 0.1},
			GammaSweep: []float64{0.7, 0.8, 0.9}, Bootstrap: report.BootstrapSettings{Resamples: 200, Unit: "post", Method: "percentile", Confidence: 0.95},
			Calibration: report.CalibrationSettings{Bins: 5, Strategy: "uniform"}},
	}
	for si, sys := range []string{"sys-a", "sys_b"} {
		d := 0.05 * float64(si) // the second system is a little worse
		r.Curves.ROC = append(r.Curves.ROC, report.ROCCurve{
			System:     sys,
			FPR:        nums(0, 0, 0.1, 0.1, 0.3, 0.3, 0.6, 1),
			TPR:        nums(0, 0.4-d, 0.4-d, 0.7-d, 0.7-d, 0.9-d, 0.9-d, 1),
			Thresholds: []report.Num{report.Num(math.Inf(1)), 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.1},
			Grid:       grid11(),
			// TPR on the grid: the step curve's largest TPR at FPR <= x.
			GridTPR:  nums(0.4-d, 0.7-d, 0.7-d, 0.9-d, 0.9-d, 0.9-d, 0.9-d, 0.9-d, 0.9-d, 0.9-d, 1),
			BandLow:  nums(0.3-d, 0.55-d, 0.6-d, 0.8-d, 0.82-d, 0.84-d, 0.85-d, 0.86-d, 0.88-d, 0.9-d, 1),
			BandHigh: nums(0.5-d, 0.8-d, 0.82-d, 0.95-d, 0.96-d, 0.96-d, 0.97-d, 0.97-d, 0.98, 0.99, 1),
			Folds: [][]report.Num{
				nums(0.35-d, 0.65-d, 0.7-d, 0.85-d, 0.88-d, 0.9-d, 0.9-d, 0.92-d, 0.95-d, 0.97-d, 1),
				nums(0.45-d, 0.75-d, 0.72-d, 0.92-d, 0.93-d, 0.93-d, 0.94-d, 0.95-d, 0.96-d, 0.98-d, 1),
			},
			AUROC: report.Num(0.8 - d),
			Points: []report.OpPoint{
				{Label: "FPR budget 0.05", FPR: 0.075, TPR: report.Num(0.4 - d)},
				{Label: "FPR budget 0.1", FPR: 0.125, TPR: report.Num(0.65 - d)},
			},
		})
		prLow := nums(1, 0.9, 0.85, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.25)
		if si == 1 {
			prLow[5] = nan
		}
		r.Curves.PR = append(r.Curves.PR, report.PRCurve{
			System:        sys,
			Recall:        nums(1, 0.9, 0.9, 0.7, 0.4, 0),
			Precision:     nums(0.25, 0.3, 0.36, 0.5, 0.8, 1),
			Thresholds:    nums(0.1, 0.4, 0.5, 0.6, 0.8, 1),
			Grid:          grid11(),
			GridPrecision: nums(1, 0.95, 0.9, 0.85, 0.8, 0.6, 0.55, 0.5, 0.45, 0.3, 0.25),
			BandLow:       prLow,
			BandHigh:      nums(1, 1, 0.95, 0.9, 0.9, 0.75, 0.65, 0.6, 0.55, 0.35, 0.25),
			Folds:         [][]report.Num{nums(1, 0.9, 0.9, 0.8, 0.75, 0.6, 0.5, 0.45, 0.4, 0.3, 0.25)},
			PositiveRate:  0.25,
			AP:            report.Num(0.62 - d),
		})
		r.Curves.Reliability = append(r.Curves.Reliability, report.Reliability{System: sys, Strategy: "uniform", Bins: []report.Bin{
			{Lo: 0, Hi: 0.2, Count: 20, MeanP: 0.08, ObsFreq: 0.05, WilsonLo: 0.009, WilsonHi: 0.236},
			{Lo: 0.2, Hi: 0.4, Count: 10, MeanP: 0.3, ObsFreq: 0.2, WilsonLo: 0.057, WilsonHi: 0.51},
			{Lo: 0.4, Hi: 0.6, Count: 0, MeanP: nan, ObsFreq: nan, WilsonLo: nan, WilsonHi: nan},
			{Lo: 0.6, Hi: 0.8, Count: 6, MeanP: 0.7, ObsFreq: 0.5, WilsonLo: 0.188, WilsonHi: 0.812},
			{Lo: 0.8, Hi: 1, Count: 4, MeanP: 0.9, ObsFreq: 0.75, WilsonLo: 0.301, WilsonHi: 0.954},
		}})
		r.Curves.Decision = append(r.Curves.Decision, report.DecisionCurve{System: sys,
			Threshold: nums(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
			Model:     nums(0.18-d, 0.15-d, 0.12-d, 0.1-d, 0.08-d, 0.06-d, 0.04-d, 0.02, 0),
			TreatAll:  nums(0.167, 0.0625, -0.071, -0.25, -0.5, -0.875, -1.5, -2.75, -6.5),
		})
		// K histograms: 40 queries; by state 12 + 20 + 8; by evidence 30 + 10.
		r.Curves.DynKHist = append(r.Curves.DynKHist,
			report.Histogram{System: sys, Group: "all", K: []int{0, 1, 2, 3, 4}, Count: []int{12, 0, 10, 12, 6}},
			report.Histogram{System: sys, Group: "state=NEG", K: []int{0}, Count: []int{12}},
			report.Histogram{System: sys, Group: "state=UNCERTAIN", K: []int{2, 3, 4}, Count: []int{8, 9, 3}},
			report.Histogram{System: sys, Group: "state=POS", K: []int{2, 3, 4}, Count: []int{2, 3, 3}},
			report.Histogram{System: sys, Group: "has_evidence=0", K: []int{0, 1, 2, 3, 4}, Count: []int{11, 0, 8, 8, 3}},
			report.Histogram{System: sys, Group: "has_evidence=1", K: []int{0, 1, 2, 3, 4}, Count: []int{1, 0, 2, 4, 3}},
		)
		for gi, g := range []float64{0.7, 0.8, 0.9} {
			r.Curves.GammaSweep = append(r.Curves.GammaSweep, report.SweepPoint{System: sys, Gamma: report.Num(g),
				MeanK: report.Num(2 + float64(gi)*0.6), EvidenceRecall: report.Num(0.6 + 0.1*float64(gi) - d),
				EvidencePrecision: report.Num(0.5 - 0.1*float64(gi)), WorkloadPer1000: report.Num(2000 + 600*float64(gi))})
		}
		for _, on := range []string{"tune", "eval"} {
			for _, tn := range []float64{0, 0.5, 1} {
				for _, tp := range []float64{0, 0.5, 1} {
					if tp < tn {
						continue
					}
					ap := report.Num(0.25 + 0.7*tp)
					if tp == 1 {
						ap = nan // no query reaches p >= 1: no alert
					}
					r.Curves.GateGrid = append(r.Curves.GateGrid, report.GridCell{System: sys, On: on,
						TauNeg: report.Num(tn), TauPos: report.Num(tp), ScreenSensitivity: report.Num(1 - 0.6*tn - d),
						AlertPrecision: ap, WorkloadPer1000: report.Num(3000 * (1 - 0.5*tn))})
				}
			}
		}
		for _, st := range []string{"all", "1", "2-3"} {
			for _, k := range []int{1, 3, 5} {
				r.Curves.RankAtK = append(r.Curves.RankAtK, report.RankAtKPoint{System: sys, Stratum: st, K: k,
					Recall: report.Num(math.Min(1, 0.3*float64(k)-d)), Precision: report.Num(0.6 / float64(k))})
			}
		}
		for f := 0; f < 2; f++ {
			r.Thresholds = append(r.Thresholds, report.Thresholds{System: sys, Fold: f, Source: "tune",
				TauNeg: report.Num(0.05 * float64(f+1)), TauPos: report.Num(0.8 + 0.1*float64(f)), TauNegMet: true, TauPosMet: true})
		}
		// Metrics the figures read.
		r.Metrics = append(r.Metrics,
			metric(sys, metrics.NEAUROC.ID(), "", 0.8-d, 0.72-d, 0.87-d),
			metric(sys, metrics.RankNDCG.At(10), "", 0.7-d, 0.64-d, 0.76-d),
			metric(sys, metrics.NEHeldoutFPR.AtFPR(0.05), "", 0.075, fnan, fnan),
			metric(sys, metrics.NEHeldoutTPR.AtFPR(0.05), "", 0.4-d, fnan, fnan),
			metric(sys, metrics.NEHeldoutFPR.AtFPR(0.1), "", 0.125, fnan, fnan),
			metric(sys, metrics.NEHeldoutTPR.AtFPR(0.1), "", 0.65-d, fnan, fnan),
			metric(sys, metrics.DataN.ID(), "stratum=1", 4, fnan, fnan),
			metric(sys, metrics.DataN.ID(), "stratum=2-3", 6, fnan, fnan),
		)
		for ci, c := range r.Dataset.Criteria {
			au, rec, nd := 0.75+0.05*float64(ci)-d, 0.8-0.1*float64(ci), 0.7-0.1*float64(ci)
			if c == "A.3" {
				rec, nd = math.NaN(), math.NaN()
				if si == 1 {
					au = math.NaN()
				}
			}
			sl := report.CriterionSlice(c)
			r.Metrics = append(r.Metrics,
				metric(sys, metrics.NEAUROC.ID(), sl, au, au-0.1, math.Min(1, au+0.1)),
				metric(sys, metrics.RankRecall.At(10), sl, rec, rec-0.15, math.Min(1, rec+0.1)),
				metric(sys, metrics.RankNDCG.At(10), sl, nd, nd-0.15, nd+0.1),
			)
		}
	}
	// Spearman of difficulty for the first system only: the second
	// system's figure says n/a.
	r.Metrics = append(r.Metrics,
		metric("sys-a", metrics.RankSpearmanDifficulty.At(10), "", Rho, fnan, fnan),
		metric("sys-a", metrics.RankSpearmanDifficultyP.At(10), "", P, fnan, fnan))
	for i := len(r.Metrics) - 2; i < len(r.Metrics); i++ {
		r.Metrics[i].N = Positives
	}
	r.Metrics = append(r.Metrics,
		metric("baseline:random", metrics.RankNDCG.At(10), "", 0.3, 0.27, 0.33),
		metric("baseline:oracle", metrics.RankNDCG.At(10), "", 1, 1, 1))

	// Per-query values: 14 posts; the first 12 have all three criteria,
	// the last two only A.1 and A.2 (40 queries in all).
	r.PerQueryColumns = []metrics.ID{metrics.RankRecall.At(10), metrics.DynKEvidenceRecallAll.ID()}
	for _, sys := range []string{"sys-a", "sys_b"} {
		q := 0
		for p := 0; p < 14; p++ {
			for ci, c := range r.Dataset.Criteria {
				if p >= 12 && ci == 2 {
					continue
				}
				rec, all := nan, report.Num(1)
				pq := report.Evidence{System: sys, Query: "q", Post: "p" + string(rune('a'+p)), Criterion: c,
					NCand: 8, Difficulty: nan}
				if q%4 == 0 { // every fourth query has evidence
					j := q / 4
					rec = report.Num(float64(j%3) / 2)
					all = rec
					pq.Label = true
					pq.NGold, pq.NCand, pq.GoldInPool = diffNGold[j], diffNCand[j], diffInPool[j]
					pq.Difficulty = report.Num(float64(pq.NCand-pq.GoldInPool) / float64(pq.NGold))
				} else if q%5 == 0 {
					all = 0 // a no-evidence query that selected sentences
				}
				r.PerQuery = append(r.PerQuery, pq.WithValues(rec, all))
				q++
			}
		}
	}
	return r
}
