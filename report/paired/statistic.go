package paired

import (
	"math"
	"slices"
	"strconv"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/stats"
)

// scored returns the labels and both sides' scores on the queries where
// both have a score, or why there are none. The labels are the query's
// and must agree between the sides.
func scored(p Pairs) (y []bool, sx, sy []float64, reason string) {
	y, sx, sy, _, reason = scoredKeep(p)
	return y, sx, sy, reason
}

func scoredKeep(p Pairs) (y []bool, sx, sy []float64, keep []int, reason string) {
	if p.X.Label == nil || p.Y.Label == nil {
		return nil, nil, nil, nil, "no labels in the per-query evidence"
	}
	if !slices.Equal(p.X.Label, p.Y.Label) {
		return nil, nil, nil, nil, "the queries' labels differ between the sides"
	}
	if p.X.Score == nil || p.Y.Score == nil {
		return nil, nil, nil, nil, "no NE scores in the per-query evidence"
	}
	for i := range p.X.Score {
		if !math.IsNaN(p.X.Score[i]) && !math.IsNaN(p.Y.Score[i]) {
			y = append(y, p.X.Label[i])
			sx, sy = append(sx, p.X.Score[i]), append(sy, p.Y.Score[i])
			keep = append(keep, i)
		}
	}
	if len(y) == 0 {
		return nil, nil, nil, nil, "no query with a score on both sides"
	}
	return y, sx, sy, keep, ""
}

// stat is a statistic of one side as a function of the group
// multiplicities of a bootstrap replicate (stats.RunCounts): a factory,
// called once per worker, so that the function may own scratch memory.
type stat func() func(cnt []int32) float64

// statistics returns metric id of both sides, for the scored and gate test
// kinds, on the queries keep (indexes into the sides), whose posts are g
// (ng of them).
func statistics(id metrics.ID, p Pairs) (fx, fy stat, keep []int, g []int32, ng int, reason string) {
	if metrics.TestOf(id) == metrics.TestGate {
		return gateStatistics(id, p)
	}
	y, sx, sy, keep, reason := scoredKeep(p)
	if reason != "" {
		return nil, nil, nil, nil, 0, reason
	}
	if needsProb(id) && (!p.X.Prob || !p.Y.Prob) {
		return nil, nil, nil, nil, 0, "the scores are not probabilities"
	}
	g, ng = groupsOf(p.Group, keep)
	side := func(s Side, score []float64) (stat, string) { return scoredStatistic(id, y, score, s, g, ng) }
	if fx, reason = side(p.X, sx); reason != "" {
		return nil, nil, nil, nil, 0, reason
	}
	if fy, reason = side(p.Y, sy); reason != "" {
		return nil, nil, nil, nil, 0, reason
	}
	return fx, fy, keep, g, ng, ""
}

// needsProb reports whether metric id reads the score as a probability.
func needsProb(id metrics.ID) bool {
	b, param, _ := metrics.ParseID(id)
	return b == metrics.NEECE || b == metrics.NEECEEqualMass || param == metrics.ParamTau
}

// scoredStatistic returns metric id of one side as a function of the
// group multiplicities: average precision, the in-sample TPR at an FPR
// budget (stats.Scored grouped kernels, those of the report's bootstrap)
// or the equal-width ECE (stats.Scored). The confusion metrics are
// confusionTest's.
func scoredStatistic(id metrics.ID, y []bool, score []float64, s Side, g []int32, ng int) (stat, string) {
	base, param, arg := metrics.ParseID(id)
	switch {
	case base == metrics.NEAUPRC:
		k := stats.NewScored(y, score).Grouped(g, ng)
		return func() func([]int32) float64 {
			ev := k.NewEval()
			return func(cnt []int32) float64 { ev.Load(cnt); return ev.AP() }
		}, ""
	case base == metrics.NEECE:
		if s.Bins < 1 {
			return nil, "no calibration bins in the settings"
		}
		k := stats.NewScored(y, score)
		return func() func([]int32) float64 {
			w := make([]int32, len(y))
			return func(cnt []int32) float64 {
				for i := range w {
					w[i] = cnt[g[i]]
				}
				return k.ECE(w, s.Bins)
			}
		}, ""
	case base == metrics.NEECEEqualMass:
		if s.Bins < 1 {
			return nil, "no calibration bins in the settings"
		}
		bins := metrics.MassBins(s.Bins, score, y)
		b32 := make([]int32, len(bins))
		for i, b := range bins {
			b32[i] = int32(b)
		}
		k := stats.NewCalibrationBins(y, score, g, ng, b32, s.Bins)
		return func() func([]int32) float64 {
			w := make([]int32, len(y))
			return func(cnt []int32) float64 {
				for i := range w {
					w[i] = cnt[g[i]]
				}
				return k.ECE(w)
			}
		}, ""
	case base == metrics.NETPR && param == metrics.ParamFPR:
		budget, err := strconv.ParseFloat(trimParam(arg), 64)
		if err != nil {
			return nil, "a budget that is not a number"
		}
		k := stats.NewScored(y, score).Grouped(g, ng)
		return func() func([]int32) float64 {
			ev := k.NewEval()
			var out [1]float64
			return func(cnt []int32) float64 { ev.Load(cnt); ev.TPRAtFPR([]float64{budget}, out[:]); return out[0] }
		}, ""
	}
	return nil, "no recomputation of this metric from labels and scores"
}

// confusionCells returns each post's confusion cells (TP, FP, TN, FN) of
// the queries flagged at a fixed threshold τ = x (param τ) or at their
// fold's tune-chosen threshold for FPR budget x (param FPR; a query of a
// fold without one is left out), so that a replicate sums posts.
func confusionCells(param metrics.Param, x float64, y []bool, score []float64, fold []int, s Side, g []int32, ng int) ([][4]int64, string) {
	cells := make([][4]int64, ng)
	for i := range y {
		var flagged bool
		switch param {
		case metrics.ParamTau:
			flagged = score[i] >= x
		case metrics.ParamFPR:
			if s.Threshold == nil || fold == nil {
				return nil, "no tune-chosen thresholds"
			}
			t, in := s.Threshold(fold[i], x)
			if !in {
				continue
			}
			flagged = score[i] >= t
		default:
			return nil, "no recomputation of this metric from labels and scores"
		}
		cells[g[i]][cell(flagged, y[i])]++
	}
	return cells, ""
}

// weighCells sets sum to the confusion cells of a replicate: each post's
// cells times its multiplicity.
func weighCells(cells [][4]int64, cnt []int32, sum []float64) {
	var t [4]int64
	for k, c := range cells {
		w := int64(cnt[k])
		for j := range t {
			t[j] += w * c[j]
		}
	}
	for j := range t {
		sum[j] = float64(t[j])
	}
}

func confusionOf(s []float64) metrics.Confusion {
	return metrics.Confusion{TP: int(s[0]), FP: int(s[1]), TN: int(s[2]), FN: int(s[3])}
}

// cell is the confusion cell of a query: 0 TP, 1 FP, 2 TN, 3 FN.
func cell(flagged, y bool) int {
	switch {
	case flagged && y:
		return 0
	case flagged:
		return 1
	case !y:
		return 2
	}
	return 3
}

// trimParam drops the "tau=" or "fpr=" of a parameter.
func trimParam(arg string) string {
	for i := range len(arg) {
		if arg[i] == '=' {
			return arg[i+1:]
		}
	}
	return arg
}

// gateRate is a clinical gate metric: scale · (weighted count of the
// queries that are in) / (weighted count of those that count), over the
// queries with a state.
type gateRate struct {
	in, of func(y bool, s dataset.State) bool
	scale  float64
}

func every(bool, dataset.State) bool { return true }

func is(st dataset.State) func(bool, dataset.State) bool {
	return func(_ bool, s dataset.State) bool { return s == st }
}

// gateRates are the clinical gate's metrics as rates of states and labels
// (docs/metrics.md, clinical gate): screening sensitivity (evidence
// queries not sent to NEG, among evidence queries), alert precision (POS
// queries with evidence, among POS queries), the NEG, UNCERTAIN and POS
// rates, alerts and screening misses per 1,000 queries.
var gateRates = map[metrics.Base]gateRate{
	metrics.ClinicalScreenSensitivity: {func(y bool, s dataset.State) bool { return y && s != dataset.StateNEG }, func(y bool, _ dataset.State) bool { return y }, 1},
	metrics.ClinicalAlertPrecision:    {func(y bool, s dataset.State) bool { return y && s == dataset.StatePOS }, is(dataset.StatePOS), 1},
	metrics.ClinicalNegRate:           {is(dataset.StateNEG), every, 1},
	metrics.ClinicalUncertainRate:     {is(dataset.StateUncertain), every, 1},
	metrics.ClinicalPosRate:           {is(dataset.StatePOS), every, 1},
	metrics.ClinicalAlertRatePer1000:  {is(dataset.StatePOS), every, 1000},
	metrics.ClinicalScreenFNPer1000:   {func(y bool, s dataset.State) bool { return y && s == dataset.StateNEG }, every, 1000},
}

func gateStatistics(id metrics.ID, p Pairs) (fx, fy stat, keep []int, g []int32, ng int, reason string) {
	def, ok := gateRates[id.Base()]
	if !ok {
		return nil, nil, nil, nil, 0, "no recomputation of this metric from gate states"
	}
	if p.X.Label == nil || p.Y.Label == nil {
		return nil, nil, nil, nil, 0, "no labels in the per-query evidence"
	}
	if !slices.Equal(p.X.Label, p.Y.Label) {
		return nil, nil, nil, nil, 0, "the queries' labels differ between the sides"
	}
	if p.X.State == nil || p.Y.State == nil {
		return nil, nil, nil, nil, 0, "no gate states in the per-query evidence"
	}
	for i := range p.X.State {
		if p.X.State[i] != dataset.StateNone && p.Y.State[i] != dataset.StateNone {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return nil, nil, nil, nil, 0, "no query with a gate state on both sides"
	}
	g, ng = groupsOf(p.Group, keep)
	f := func(state []dataset.State) stat {
		// Each post's numerator and denominator counts.
		num, den := make([]int64, ng), make([]int64, ng)
		for k, i := range keep {
			y, s := p.X.Label[i], state[i]
			if def.of(y, s) {
				den[g[k]]++
				if def.in(y, s) {
					num[g[k]]++
				}
			}
		}
		return func() func([]int32) float64 {
			return func(cnt []int32) float64 {
				var a, b int64
				for k := range num {
					a += int64(cnt[k]) * num[k]
					b += int64(cnt[k]) * den[k]
				}
				if b == 0 {
					return math.NaN()
				}
				return def.scale * float64(a) / float64(b)
			}
		}
	}
	return f(p.X.State), f(p.Y.State), keep, g, ng, ""
}
