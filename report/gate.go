package report

import (
	"math"

	"paperbundle/dataset"
	"paperbundle/internal/par"
	"paperbundle/metrics"
	"paperbundle/report/engine"
)

// gateRows says which eval rows the clinical gate metrics are computed
// on: neg keeps the rows whose fold has tau_neg (NEG rate, screening
// sensitivity and misses), both the rows whose fold has tau_neg and tau_pos
// (the metrics of the UNCERTAIN and POS states, and the workload). A nil
// function keeps every row.
type gateRows struct {
	neg, both *engine.Rows
}

// gate computes the three-state clinical gate (docs/metrics.md "Thresholds"): per fold, tau_neg
// and tau_pos from tune rows only, states on eval rows.
//
// tau_neg cannot be chosen when the fold's tune rows have no positive (no
// screening sensitivity to estimate), tau_pos when they have no negative
// either (every alert precision would be 1 whatever the threshold) or when
// tau_neg cannot be chosen. Such a fold's rows are left out of the gate
// metrics that depend on the missing threshold (docs/statistics.md). Their
// states still follow the chooser's safe side, so that Dynamic-K and the
// end-to-end metrics have a policy to run: without tau_neg every query is
// screened in (UNCERTAIN), without tau_pos there is no POS state.
func (c *computer) gate(sc *sysCalc, sys *dataset.System) gateRows {
	n := len(c.eval)
	sc.state = make([]dataset.State, n)
	given := true
	for i := range c.eval {
		sc.state[i] = sys.Rows[c.eval[i]].State
		if sc.state[i] == dataset.StateNone {
			given = false
		}
	}
	if given {
		return gateRows{}
	}
	if sc.ne == nil || !c.ds.HasNEProb {
		for i := range sc.state {
			sc.state[i] = dataset.StateNone // no gate: every query goes through
		}
		return gateRows{}
	}
	tauNeg := map[int]float64{}
	tauPos := map[int]float64{}
	noNeg := map[int]bool{} // folds without tau_neg
	noPos := map[int]bool{} // folds without tau_pos (it cannot be chosen)
	for _, f := range c.folds {
		ty, tp := c.tuneData(sys, f)
		tn, okN := metrics.ChooseScreenThreshold(ty, tp, c.cfg.Gate.ScreenSensitivity)
		tpv, okP := metrics.ChooseAlertThreshold(ty, tp, tn, c.cfg.Gate.AlertPrecision)
		_, neg := c.tuneClasses(f)
		if !okN || neg == 0 {
			// Not chosen: with no negative tune row the alert precision
			// is 1 at every threshold and says nothing.
			tpv, okP = math.Inf(1), false
			noPos[f] = true
			if !okN {
				noNeg[f] = true
			}
		}
		if !okP {
			tpv = math.Inf(1)
		}
		tauNeg[f], tauPos[f] = tn, tpv
		th := c.thresholdsFor(sc.name, f)
		th.TauNeg, th.TauPos, th.TauNegMet, th.TauPosMet = Num(tn), Num(tpv), okN, okP
	}
	for i, p := range sc.ne {
		f := c.fold[i]
		switch {
		case p < tauNeg[f]:
			sc.state[i] = dataset.StateNEG
		case p < tauPos[f]:
			sc.state[i] = dataset.StateUncertain
		default:
			sc.state[i] = dataset.StatePOS
		}
	}
	var g gateRows
	if len(noPos) > 0 {
		g.both = engine.SelectRows(len(c.eval), func(i int) bool { return !noPos[c.fold[i]] })
	}
	if len(noNeg) > 0 {
		g.neg = engine.SelectRows(len(c.eval), func(i int) bool { return !noNeg[c.fold[i]] })
	}
	return g
}

// selectAll runs selectFor on every eval row (on all cores for many rows):
// k[i] is the number of sentences selected, hits[i] how many are gold.
func (c *computer) selectAll(row func(int) *dataset.Row, state []dataset.State, gamma, gammaUnc float64, k, hits []int) {
	c.rows(len(k), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := row(i)
			sel := c.selectFor(r, state[i], gamma, gammaUnc)
			k[i] = len(sel)
			for _, j := range sel {
				if r.Rel[j] > 0 {
					hits[i]++
				}
			}
		}
	})
}

// selectFor runs the Dynamic-K policy (or takes the pipeline's selections)
// for one eval row, given its state and gamma.
func (c *computer) selectFor(r *dataset.Row, st dataset.State, gamma, gammaUnc float64) []int {
	if st == dataset.StateNEG {
		return nil
	}
	if r.HasSelected {
		pos := make(map[string]int, len(r.Candidates))
		for j, u := range r.Candidates {
			pos[u] = j
		}
		out := make([]int, 0, len(r.Selected))
		for _, u := range r.Selected {
			if j, ok := pos[u]; ok {
				out = append(out, j)
			}
		}
		return out
	}
	pol := metrics.DynKPolicy{KMin: c.cfg.DynamicK.KMin, HardCap: c.cfg.DynamicK.HardCap, KMaxRatio: c.cfg.DynamicK.KMaxRatio}
	g := gamma
	if st == dataset.StateUncertain {
		g = gammaUnc
	}
	probs := r.NodeProbs
	if probs == nil {
		// Without node_probs the policy uses the scores, shifted to be
		// non-negative, as its mass (docs/decisions.md).
		probs = make([]float64, len(r.Scores))
		lo := math.Inf(1)
		for _, s := range r.Scores {
			lo = math.Min(lo, s)
		}
		for j, s := range r.Scores {
			probs[j] = s - lo
		}
	}
	return pol.Select(probs, g)
}

// dynamicK computes the Dynamic-K metrics (docs/metrics.md), the clinical gate metrics and end-to-end
// deployment metrics for one system.
// gk says which rows the clinical gate metrics keep (see gate).
//
// ownK says whether the system has a Dynamic-K selection of its own
// (node_probs or selected_uids): without it there are no Dynamic-K,
// workload or end-to-end metrics for it, and its selected K stays 0.
func (c *computer) dynamicK(sc *sysCalc, sys *dataset.System, row func(int) *dataset.Row, query func(int) *dataset.Query, gk gateRows, ownK bool) {
	n := len(c.eval)
	dk := c.cfg.DynamicK
	sc.k = make([]int, n)
	kf := make([]float64, n)
	if ownK && c.has(DynamicK) {
		hits := make([]int, n)
		c.selectAll(row, sc.state, dk.Gamma, dk.GammaUncertain, sc.k, hits)
		c.evidenceStats(sc, "", sc.k, hits, query, true)
		for i := range kf {
			kf[i] = float64(sc.k[i])
		}
		c.kStats(sc, kf, row, query)
	}
	if c.has(ClinicalGate) {
		c.clinical(sc, sys, row, kf, gk, ownK && c.has(EndToEnd))
	}
	if ownK && c.has(EndToEnd) {
		c.endToEnd(sc)
	}
}

// kStats records the distributions of the selected K and the gamma sweep.
func (c *computer) kStats(sc *sysCalc, kf []float64, row func(int) *dataset.Row, query func(int) *dataset.Query) {
	n := len(c.eval)
	dk := c.cfg.DynamicK
	c.kDist(sc, "", "all", nil)
	for _, st := range []dataset.State{dataset.StateNEG, dataset.StateUncertain, dataset.StatePOS} {
		in := engine.SelectRows(n, func(i int) bool { return sc.state[i] == st })
		if in.Len() == 0 {
			continue
		}
		c.kDist(sc, StateSlice(st.String()), "state="+st.String(), in)
		c.addMean(sc, metrics.DynKKMean.ID(), StateSlice(st.String()), metrics.AllQueries, kf, in, false)
	}
	for _, h := range []bool{false, true} {
		lab := EvidenceSlice(h)
		in := engine.SelectRows(n, func(i int) bool { return c.y[i] == h })
		c.kDist(sc, lab, string(lab), in)
		c.addMean(sc, metrics.DynKKMean.ID(), lab, metrics.AllQueries, kf, in, false)
	}
	c.addMean(sc, metrics.DynKKMean.ID(), "", metrics.AllQueries, kf, nil, false)

	// Gamma sweep: the policy re-run at each gamma, the gate's states kept.
	for _, g := range dk.Sweep {
		ks := make([]int, n)
		hs := make([]int, n)
		c.selectAll(row, sc.state, g, g, ks, hs)
		c.sweepStats(sc, g, ks, hs, query)
	}
}

// clinical records the clinical gate metrics and the threshold
// grid of one system; the review workload only with the end-to-end
// selection (workload).
func (c *computer) clinical(sc *sysCalc, sys *dataset.System, row func(int) *dataset.Row, kf []float64, gk gateRows, workload bool) {
	n := len(c.eval)
	{
		pop := metrics.AllQueries
		one := make([]float64, n)
		for i := range one {
			one[i] = 1
		}
		is := func(st dataset.State) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = b2f(sc.state[i] == st)
			}
			return v
		}
		c.addRatio(sc, metrics.ClinicalNegRate.ID(), "", pop, is(dataset.StateNEG), one, nil, 1, gk.neg, true)
		c.addRatio(sc, metrics.ClinicalUncertainRate.ID(), "", pop, is(dataset.StateUncertain), one, nil, 1, gk.both, true)
		c.addRatio(sc, metrics.ClinicalPosRate.ID(), "", pop, is(dataset.StatePOS), one, nil, 1, gk.both, true)
		c.addRatio(sc, metrics.ClinicalAlertRatePer1000.ID(), "", pop, is(dataset.StatePOS), one, nil, 1000, gk.both, true)
		scrIn := make([]float64, n)
		yv := make([]float64, n)
		fnScr := make([]float64, n)
		posY := make([]float64, n)
		for i := range scrIn {
			yv[i] = b2f(c.y[i])
			scrIn[i] = b2f(c.y[i] && sc.state[i] != dataset.StateNEG)
			fnScr[i] = b2f(c.y[i] && sc.state[i] == dataset.StateNEG)
			posY[i] = b2f(c.y[i] && sc.state[i] == dataset.StatePOS)
		}
		c.addRatio(sc, metrics.ClinicalScreenSensitivity.ID(), "", pop, scrIn, yv, one, 1, gk.neg, true)
		c.addRatio(sc, metrics.ClinicalScreenFNPer1000.ID(), "", pop, fnScr, one, nil, 1000, gk.neg, true)
		c.addRatio(sc, metrics.ClinicalAlertPrecision.ID(), "", pop, posY, is(dataset.StatePOS), one, 1, gk.both, true)
		if workload {
			c.addRatio(sc, metrics.ClinicalWorkloadPer1000.ID(), "", pop, kf, one, nil, 1000, gk.both, true)
		}
		if sc.ne != nil && c.ds.HasNEProb && !c.statesGiven(sys) {
			c.gateGrid(sc, sys, row, workload)
		}
	}
}

// endToEnd records the end-to-end deployment metrics over all queries: predicted
// positive = the system returns at least one sentence.
func (c *computer) endToEnd(sc *sysCalc) {
	n := len(c.eval)
	pred := make([]bool, n)
	for i := range pred {
		pred[i] = sc.k[i] > 0
	}
	ids := map[string]metrics.ID{"tp": metrics.E2ETP.ID(), "tn": metrics.E2ETN.ID(), "fp": metrics.E2EFP.ID(), "fn": metrics.E2EFN.ID(),
		"fpr": metrics.E2EFPR.ID(), "fnr": metrics.E2EFNR.ID(), "precision": metrics.E2EPrecision.ID(), "sensitivity": metrics.E2ERecall.ID(), "f1": metrics.E2EF1.ID()}
	c.addConfusion(sc, "e2e", "", pred, nil, ids, true)
	for ci, cr := range c.criteria {
		c.addConfusion(sc, "e2e", critSlice(cr), pred, c.critSel[ci],
			map[string]metrics.ID{"precision": metrics.E2EPrecision.ID(), "sensitivity": metrics.E2ERecall.ID()}, true)
	}
}

func (c *computer) statesGiven(sys *dataset.System) bool {
	for _, qi := range c.eval {
		if sys.Rows[qi].State == dataset.StateNone {
			return false
		}
	}
	return true
}

// evidenceStats registers the Dynamic-K evidence metrics for selections of
// size k with hits gold items each.
func (c *computer) evidenceStats(sc *sysCalc, slice Slice, k, hits []int, query func(int) *dataset.Query, boot bool) {
	n := len(k)
	rec := make([]float64, n)
	prec := make([]float64, n)
	recAll := make([]float64, n)
	precAll := make([]float64, n)
	kf := make([]float64, n)
	predPos := make([]float64, n)
	hitsPos := make([]float64, n)
	goldPos := make([]float64, n)
	hitsCond := make([]float64, n)
	goldCond := make([]float64, n)
	one := make([]float64, n)
	for i := 0; i < n; i++ {
		ng := len(query(i).Gold)
		rec[i], prec[i] = nan, nan
		if ng > 0 {
			rec[i] = metrics.EvidenceRecall(hits[i], ng, k[i])
			prec[i] = metrics.EvidencePrecision(hits[i], k[i])
			hitsPos[i], goldPos[i] = float64(hits[i]), float64(ng)
			if k[i] > 0 {
				hitsCond[i], goldCond[i] = float64(hits[i]), float64(ng)
			}
		}
		recAll[i] = metrics.EvidenceRecallAll(hits[i], ng, k[i])
		precAll[i] = metrics.EvidencePrecisionAll(hits[i], ng, k[i])
		kf[i] = float64(k[i])
		predPos[i] = b2f(k[i] > 0)
		one[i] = 1
	}
	pos, all := metrics.PositivesOnly, metrics.AllQueries
	c.addMean(sc, metrics.DynKEvidenceRecall.ID(), slice, pos, rec, nil, boot)
	c.addMean(sc, metrics.DynKEvidencePrecision.ID(), slice, pos, prec, nil, boot)
	c.addMean(sc, metrics.DynKEvidenceRecallAll.ID(), slice, all, recAll, nil, boot)
	c.addMean(sc, metrics.DynKEvidencePrecisionAll.ID(), slice, all, precAll, nil, boot)
	c.addMean(sc, metrics.DynKAvgKAll.ID(), slice, all, kf, nil, boot)
	c.addRatio(sc, metrics.DynKAvgKPredPos.ID(), slice, metrics.PredPositive, kf, predPos, nil, 1, nil, boot)
	yv := make([]float64, n)
	for i := range yv {
		yv[i] = b2f(c.y[i])
	}
	c.addRatio(sc, metrics.DynKEvidenceRecallMicro.ID(), slice, pos, hitsPos, goldPos, yv, 1, nil, boot)
	c.addRatio(sc, metrics.DynKEvidenceRecallMicroConditional.ID(), slice, pos, hitsCond, goldCond, yv, 1, nil, boot)
}

func (c *computer) sweepStats(sc *sysCalc, g float64, k, hits []int, query func(int) *dataset.Query) {
	n := len(k)
	rec := make([]float64, n)
	prec := make([]float64, n)
	kf := make([]float64, n)
	one := make([]float64, n)
	for i := 0; i < n; i++ {
		ng := len(query(i).Gold)
		rec[i], prec[i] = nan, nan
		if ng > 0 {
			rec[i] = metrics.EvidenceRecall(hits[i], ng, k[i])
			prec[i] = metrics.EvidencePrecision(hits[i], k[i])
		}
		kf[i] = float64(k[i])
		one[i] = 1
	}
	pos, all := metrics.PositivesOnly, metrics.AllQueries
	c.addMean(sc, metrics.DynKMeanK.AtGamma(g), "", all, kf, nil, false)
	c.addMean(sc, metrics.DynKEvidenceRecall.AtGamma(g), "", pos, rec, nil, false)
	c.addMean(sc, metrics.DynKEvidencePrecision.AtGamma(g), "", pos, prec, nil, false)
	c.addRatio(sc, metrics.DynKWorkloadPer1000.AtGamma(g), "", all, kf, one, nil, 1000, nil, false)
}

// kDist records the K histogram and summary of a group of eval rows.
func (c *computer) kDist(sc *sysCalc, slice Slice, group string, keep *engine.Rows) {
	var ks []int
	var kf []float64
	for i := range c.eval {
		if keep.Has(i) {
			ks = append(ks, sc.k[i])
			kf = append(kf, float64(sc.k[i]))
		}
	}
	v, cnt := metrics.Histogram(ks)
	if v == nil {
		v, cnt = []int{}, []int{}
	}
	c.rep.Curves.DynKHist = append(c.rep.Curves.DynKHist, Histogram{System: sc.name, Group: group, K: v, Count: cnt})
	c.distribution(sc.name, metrics.DynKSelectedK, slice, kf)
}

// distribution records the spread of per-query values.
func (c *computer) distribution(system string, id metrics.ID, slice Slice, v []float64) {
	s := metrics.Summarize(v)
	c.rep.Distributions = append(c.rep.Distributions, Distribution{System: system, ID: id, Slice: slice, N: s.N,
		Mean: Num(s.Mean), Std: Num(s.Std), Median: Num(s.Median), P25: Num(s.P25), P75: Num(s.P75), P90: Num(s.P90),
		Min: Num(s.Min), Max: Num(s.Max), CV: Num(metrics.CV(v))})
}

// gateGrid evaluates the clinical gate over a tau_neg x tau_pos grid, on
// the tune rows (pooled over folds) and on the eval rows.
//
// Without a Dynamic-K selection of the system's own (workload false) the
// workload of a cell is undefined (null), not the 0 of an empty selection.
func (c *computer) gateGrid(sc *sysCalc, sys *dataset.System, row func(int) *dataset.Row, workload bool) {
	grid := []float64{}
	for k := 0; k <= 20; k++ {
		grid = append(grid, float64(k)/20)
	}
	type obs struct {
		p    float64
		y    bool
		kPos int // sentences returned when POS
		kUnc int // when UNCERTAIN
	}
	dk := c.cfg.DynamicK
	mk := func(r *dataset.Row, y bool) obs {
		if !workload {
			return obs{p: r.NEProb, y: y}
		}
		return obs{p: r.NEProb, y: y, kPos: len(c.selectFor(r, dataset.StatePOS, dk.Gamma, dk.GammaUncertain)),
			kUnc: len(c.selectFor(r, dataset.StateUncertain, dk.Gamma, dk.GammaUncertain))}
	}
	var tune, eval []obs
	seen := map[int]bool{}
	for _, f := range c.folds {
		if c.crossFit[f] {
			continue
		}
		for _, qi := range c.tuneOf[f] {
			if !seen[qi] {
				seen[qi] = true
				tune = append(tune, mk(&sys.Rows[qi], c.ds.Queries[qi].HasEvidence()))
			}
		}
	}
	eval = make([]obs, len(c.eval))
	c.rows(len(eval), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			eval[i] = mk(row(i), c.y[i])
		}
	})
	type pair struct{ tn, tp float64 }
	var pairs []pair
	for _, tn := range grid {
		for _, tp := range grid {
			if tp >= tn {
				pairs = append(pairs, pair{tn, tp})
			}
		}
	}
	for _, set := range []struct {
		on   string
		rows []obs
	}{{"tune", tune}, {"eval", eval}} {
		if len(set.rows) == 0 {
			continue
		}
		// One cell per (tau_neg, tau_pos), each a pass over the rows: the
		// cells on all cores, each summed in row order.
		cells := make([]GridCell, len(pairs))
		workers := 1
		if len(set.rows) >= engine.ParallelRows {
			workers = 0 // all cores
		}
		par.Jobs(workers, len(pairs), func() func(int) {
			return func(pi int) {
				tn, tp := pairs[pi].tn, pairs[pi].tp
				var pos, scr, alerts, alertPos, work float64
				for _, o := range set.rows {
					if o.y {
						pos++
					}
					switch {
					case o.p < tn:
					case o.p < tp:
						if o.y {
							scr++
						}
						work += float64(o.kUnc)
					default:
						if o.y {
							scr++
							alertPos++
						}
						alerts++
						work += float64(o.kPos)
					}
				}
				cells[pi] = GridCell{System: sc.name, On: set.on, TauNeg: Num(tn), TauPos: Num(tp),
					ScreenSensitivity: Num(safeDiv(scr, pos)), AlertPrecision: Num(safeDiv(alertPos, alerts)),
					WorkloadPer1000: Num(1000 * work / float64(len(set.rows)))}
				if !workload {
					cells[pi].WorkloadPer1000 = NaN
				}
			}
		})
		c.rep.Curves.GateGrid = append(c.rep.Curves.GateGrid, cells...)
	}
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return nan
	}
	return a / b
}
