package report

import (
	"math"
	"runtime"
	"strconv"
	"sync"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report/engine"
)

// scoredStat is a metric that is not a sum (AUROC, AUPRC): it is computed
// from scores and labels of a subset of eval rows.
type scoredStat struct {
	key  metricKey
	rows []int // eval row positions
	y    []bool
	p    []float64
	kind string // "auroc" or "auprc"
	band bool   // also compute the ROC/PR band (whole population only)
}

func (s *scoredStat) value(rows []int) float64 {
	y := make([]bool, 0, len(rows))
	p := make([]float64, 0, len(rows))
	for _, i := range rows {
		y = append(y, s.y[i])
		p = append(p, s.p[i])
	}
	if s.kind == "auroc" {
		return metrics.AUROC(y, p)
	}
	return metrics.AveragePrecision(y, p)
}

func critSlice(name string) Slice { return CriterionSlice(name) }
func stratumSlice(l string) Slice { return StratumSlice(l) }
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// addMean registers a mean of per-row values over the rows kept (NaN
// values are outside the population).
func (c *computer) addMean(sc *sysCalc, id metrics.ID, slice Slice, pop metrics.Population, v []float64, keep *engine.Rows, boot bool) *sumStat {
	name := string(id) + "|" + string(slice)
	x := sc.tab.ColOf(name+"|x", keep, v, engine.NaNZero)
	m := sc.tab.ColOf(name+"|m", keep, v, engine.NotNaN)
	st := &sumStat{key: metricKey{sc.name, id, slice}, pop: pop, cols: []int{x, m}, f: ratio, nCol: m, perQ: -1, boot: boot}
	if slice == "" && c.keepPerQuery(sc.name) {
		sc.keepPerQ(id, v)
	}
	sc.stats = append(sc.stats, st)
	return st
}

// addRatio registers Σnum / Σden (times scale) over the rows kept.
func (c *computer) addRatio(sc *sysCalc, id metrics.ID, slice Slice, pop metrics.Population, num, den []float64, nvec []float64, scale float64, keep *engine.Rows, boot bool) {
	name := string(id) + "|" + string(slice)
	a := sc.tab.ColOf(name+"|num", keep, num, engine.Value)
	b := sc.tab.ColOf(name+"|den", keep, den, engine.Value)
	nc := b
	if nvec != nil {
		nc = sc.tab.ColOf(name+"|n", keep, nvec, engine.Value)
	}
	f := ratio
	if scale != 1 {
		f = func(s []float64) float64 { return ratio(s) * scale }
	}
	sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, slice}, pop: pop, cols: []int{a, b, nc}, f: f, nCol: nc, den: []int{b}, perQ: -1, boot: boot})
}

// addConfusion registers the confusion-matrix metrics of a decision.
// ids maps a confusion metric name (tp, sensitivity, ...) to its metric id.
func (c *computer) addConfusion(sc *sysCalc, tag string, slice Slice, pred []bool, keep *engine.Rows, ids map[string]metrics.ID, boot bool) {
	name := tag + "|" + string(slice)
	cell := func(want, truth bool) func(i int) float64 {
		return func(i int) float64 { return b2f(pred[i] == want && c.y[i] == truth) }
	}
	tp := sc.tab.ColIn(name+"|tp", keep, cell(true, true))
	fp := sc.tab.ColIn(name+"|fp", keep, cell(true, false))
	tn := sc.tab.ColIn(name+"|tn", keep, cell(false, false))
	fn := sc.tab.ColIn(name+"|fn", keep, cell(false, true))
	all := sc.tab.ColIn(name+"|all", keep, func(i int) float64 { return 1 })
	for _, m := range []string{"tp", "tn", "fp", "fn", "sensitivity", "specificity", "fpr", "fnr", "precision", "npv", "f1", "mcc", "balanced_accuracy"} {
		id, ok := ids[m]
		if !ok {
			continue
		}
		m := m
		f := func(s []float64) float64 {
			cm := metrics.Confusion{TP: int(s[0]), FP: int(s[1]), TN: int(s[2]), FN: int(s[3])}
			switch m {
			case "tp":
				return s[0]
			case "fp":
				return s[1]
			case "tn":
				return s[2]
			case "fn":
				return s[3]
			case "sensitivity":
				return cm.Sensitivity()
			case "specificity":
				return cm.Specificity()
			case "fpr":
				return cm.FPR()
			case "fnr":
				return cm.FNR()
			case "precision":
				return cm.Precision()
			case "npv":
				return cm.NPV()
			case "f1":
				return cm.F1()
			case "mcc":
				return cm.MCC()
			}
			return cm.BalancedAccuracy()
		}
		isCount := m == "tp" || m == "fp" || m == "tn" || m == "fn"
		// The cells a rate of the confusion matrix is divided by; F1,
		// MCC and balanced accuracy are not one ratio and have none.
		den := map[string][]int{"sensitivity": {tp, fn}, "fnr": {tp, fn}, "specificity": {tn, fp}, "fpr": {tn, fp},
			"precision": {tp, fp}, "npv": {tn, fn}}[m]
		sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, slice}, pop: metrics.AllQueries, cols: []int{tp, fp, tn, fn, all}, f: f, nCol: all, den: den, perQ: -1, boot: boot && !isCount})
	}
}

// system computes every section for system si.
func (c *computer) system(si int) {
	sys := &c.ds.Systems[si]
	n := len(c.eval)
	sc := &sysCalc{name: sys.Name, tab: engine.NewTable(n, c.group, c.nGroups), perQ: map[metrics.ID][]float64{}}
	c.sys = append(c.sys, sc)
	row := func(i int) *dataset.Row { return &sys.Rows[c.eval[i]] }
	query := func(i int) *dataset.Query { return &c.ds.Queries[c.eval[i]] }

	if c.neScore {
		// ne_prob, or ne_score: the rank-based NE metrics read either;
		// the probability-only ones check c.ds.HasNEProb.
		sc.ne = make([]float64, n)
		for i := range sc.ne {
			sc.ne[i] = neScore(row(i))
		}
	}
	ownK := c.dynK[si]
	absent := c.absentOf(si)
	rest := func(c *computer, sc *sysCalc) {
		gk := c.gate(sc, sys)
		c.dynamicK(sc, sys, row, query, gk, ownK)
		if c.has(Ranking) {
			c.ranking(sc, func(i int) []int { return row(i).Rel }, func(i int) []int { return row(i).Gains() }, absent, query, true)
			if c.ds.TRECConventions != nil {
				c.trecRanking(sc, row, query)
			}
		}
		c.perCriterion(sc, absent)
		if c.has(PerPost) && ownK {
			c.multiLabel(sc)
		}
	}
	if !c.neScore {
		rest(c, sc)
		return
	}
	if !c.forkSections() {
		c.neGate(sc, sys)
		rest(c, sc)
		return
	}
	// The NE gate section reads nothing the other sections compute (they
	// read sc.ne only): it runs on a shard of its own while they run on
	// another, and both are merged in the serial order, NE gate first.
	calc := [2]*sysCalc{sc.fork(), sc.fork()}
	var parts [2]part
	var wg sync.WaitGroup
	wg.Go(func() { parts[0] = c.section(func(sh *computer) { sh.neGate(calc[0], sys) }) })
	parts[1] = c.section(func(sh *computer) { rest(sh, calc[1]) })
	wg.Wait()
	for k := range parts {
		sc.join(calc[k])
		c.merge(parts[k])
	}
	c.rep.Reindex()
}

// forkSections reports whether the sections of one system run
// concurrently: when there are cores to spare, that is fewer systems than
// workers.
func (c *computer) forkSections() bool {
	w := c.opt.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return len(c.ds.Systems) < w
}

// fork returns an empty sysCalc for the same system and rows as sc, for a
// section computed concurrently; join adds it back.
func (sc *sysCalc) fork() *sysCalc {
	t := sc.tab
	return &sysCalc{name: sc.name, tab: t.Fork(),
		ne: sc.ne, perQ: map[metrics.ID][]float64{}}
}

// join appends the columns and statistics of o, a fork of sc, to sc: a
// column equal to one sc already has is that column (as engine.Table.Col would
// have found it), so sc ends as a serial run of both sections leaves it.
func (sc *sysCalc) join(o *sysCalc) {
	remap := sc.tab.Join(o.tab)
	for _, st := range o.stats {
		// Statistics may share a cols slice: map into a new one.
		cols := make([]int, len(st.cols))
		for k, j := range st.cols {
			cols[k] = remap[j]
		}
		st.cols = cols
		st.nCol = remap[st.nCol]
		if st.den != nil {
			den := make([]int, len(st.den))
			for k, j := range st.den {
				den[k] = remap[j]
			}
			st.den = den
		}
		if st.perQ >= 0 {
			st.perQ = remap[st.perQ]
		}
		sc.stats = append(sc.stats, st)
	}
	sc.scored = append(sc.scored, o.scored...)
	if o.k != nil {
		sc.k = o.k
	}
	if o.state != nil {
		sc.state = o.state
	}
	for id, v := range o.perQ {
		sc.keepPerQ(id, v)
	}
}

// neGate computes the NE gate's classification and calibration metrics for
// one system (all queries).
func (c *computer) neGate(sc *sysCalc, sys *dataset.System) {
	all := make([]int, len(c.eval))
	for i := range all {
		all[i] = i
	}
	au := &scoredStat{key: metricKey{sc.name, metrics.NEAUROC.ID(), ""}, rows: all, y: c.y, p: sc.ne, kind: "auroc", band: true}
	ap := &scoredStat{key: metricKey{sc.name, metrics.NEAUPRC.ID(), ""}, rows: all, y: c.y, p: sc.ne, kind: "auprc", band: true}
	sc.scored = append(sc.scored, au, ap)
	prob := c.ds.HasNEProb // false: ne_score, not a probability

	// Brier and ECE as sums.
	pop := metrics.AllQueries
	if prob {
		sq := make([]float64, len(c.eval))
		for i, p := range sc.ne {
			d := p - b2f(c.y[i])
			sq[i] = d * d
		}
		c.addMean(sc, metrics.NEBrier.ID(), "", pop, sq, nil, true)
		c.addECE(sc, metrics.NEECE.ID(), c.cfg.Calibration.Bins, uniformBin(c.cfg.Calibration.Bins, sc.ne))
		c.addECE(sc, metrics.NEECEEqualMass.ID(), c.cfg.Calibration.Bins, metrics.MassBins(c.cfg.Calibration.Bins, sc.ne, c.y))
	}

	// In-sample TPR at FPR targets (descriptive).
	roc := metrics.ROC(c.y, sc.ne)
	for _, x := range c.cfg.FPRTargets {
		tpr, _, thr := metrics.TPRAtFPR(roc, x)
		c.put(sc.name, metrics.NETPR.AtFPR(x), "", len(c.eval), tpr)
		c.put(sc.name, metrics.NETPRThreshold.AtFPR(x), "", len(c.eval), thr)
	}
	// Fixed operating points: each tau of operating_points.
	for _, tau := range c.cfg.OperatingPoints {
		if !prob {
			break // fixed thresholds are probabilities: not with ne_score
		}
		pred := make([]bool, len(c.eval))
		for i, p := range sc.ne {
			pred[i] = p >= tau
		}
		ids := map[string]metrics.ID{"tp": metrics.NETP.AtTau(tau), "tn": metrics.NETN.AtTau(tau), "fp": metrics.NEFP.AtTau(tau), "fn": metrics.NEFN.AtTau(tau),
			"sensitivity": metrics.NESensitivity.AtTau(tau), "specificity": metrics.NESpecificity.AtTau(tau), "fpr": metrics.NEFPR.AtTau(tau),
			"precision": metrics.NEPrecision.AtTau(tau), "npv": metrics.NENPV.AtTau(tau), "f1": metrics.NEF1.AtTau(tau), "mcc": metrics.NEMCC.AtTau(tau),
			"balanced_accuracy": metrics.NEBalancedAccuracy.AtTau(tau)}
		c.addConfusion(sc, "tau"+metrics.FormatParam(tau), "", pred, nil, ids, true)
	}

	if c.has(HeldOut) {
		c.neHeldOut(sc, sys)
	}
	if prob {
		c.neCalibration(sc)
	}
	// ROC and PR need only a score to rank by (ne_prob or ne_score); the
	// reliability and decision curves, which need probabilities, are
	// left out inside for ne_score.
	c.curvesNE(sc)
}

// neHeldOut computes the held-out FPR budgets of one system: thresholds
// from each fold's tune rows. A fold whose tune rows lack a class has no
// threshold (the FPR or the TPR cannot be estimated): its eval rows stay
// out of the held-out confusion, which is pooled over the other folds
// (docs/statistics.md). The confusion counts are then left out: they no
// longer add up to the eval population (a hard consistency check). A budget that no
// observed probability meets, with both classes present, keeps the
// chooser's answer: nothing is screened in.
func (c *computer) neHeldOut(sc *sysCalc, sys *dataset.System) {
	out := c.foldsWithoutFPRThreshold()
	var keep *engine.Rows
	if len(out) > 0 {
		keep = engine.SelectRows(len(c.eval), func(i int) bool { return !out[c.fold[i]] })
	}
	for _, x := range c.cfg.FPRTargets {
		thr := map[int]float64{}
		for _, f := range c.folds {
			ty, tp := c.tuneData(sys, f)
			t, ok := metrics.ChooseFPRThreshold(ty, tp, x)
			thr[f] = t
			c.recordFPR(sc.name, f, x, t, ok, !out[f], ty, tp)
		}
		hp := make([]bool, len(c.eval))
		for i, p := range sc.ne {
			hp[i] = p >= thr[c.fold[i]]
		}
		xs := metrics.FormatParam(x)
		ids := map[string]metrics.ID{"sensitivity": metrics.NEHeldoutTPR.AtFPR(x), "fpr": metrics.NEHeldoutFPR.AtFPR(x),
			"specificity": metrics.NEHeldoutSpecificity.AtFPR(x), "precision": metrics.NEHeldoutPrecision.AtFPR(x), "npv": metrics.NEHeldoutNPV.AtFPR(x),
			"f1": metrics.NEHeldoutF1.AtFPR(x), "mcc": metrics.NEHeldoutMCC.AtFPR(x), "balanced_accuracy": metrics.NEHeldoutBalancedAccuracy.AtFPR(x)}
		if keep == nil {
			ids["tp"], ids["tn"], ids["fp"], ids["fn"] = metrics.NEHeldoutTP.AtFPR(x), metrics.NEHeldoutTN.AtFPR(x), metrics.NEHeldoutFP.AtFPR(x), metrics.NEHeldoutFN.AtFPR(x)
		}
		c.addConfusion(sc, "fpr"+xs, "", hp, keep, ids, true)
		// Eval TPR/FPR per fold for the thresholds table.
		for ti := range c.rep.Thresholds {
			t := &c.rep.Thresholds[ti]
			if t.System != sc.name || out[t.Fold] {
				continue
			}
			for pi := range t.FPR {
				if float64(t.FPR[pi].Budget) != x {
					continue
				}
				var cm metrics.Confusion
				for i := range c.eval {
					if c.fold[i] == t.Fold {
						cm = cm.Add(confOne(hp[i], c.y[i]))
					}
				}
				t.FPR[pi].EvalTPR, t.FPR[pi].EvalFPR = Num(cm.Sensitivity()), Num(cm.FPR())
			}
		}
	}
}

// neCalibration computes the calibration fit, Spiegelhalter's test and the
// NE gate's curves of one system.
func (c *computer) neCalibration(sc *sysCalc) {
	a, b := metrics.CalibrationFit(c.y, sc.ne)
	c.put(sc.name, metrics.NECalibrationIntercept.ID(), "", len(c.eval), a)
	c.put(sc.name, metrics.NECalibrationSlope.ID(), "", len(c.eval), b)
	z, pz := metrics.SpiegelhalterZ(c.y, sc.ne)
	c.put(sc.name, metrics.NESpiegelhalterZ.ID(), "", len(c.eval), z)
	c.put(sc.name, metrics.NESpiegelhalterP.ID(), "", len(c.eval), pz)
}

// neScore is the NE-gate score of a row: its NEScore (ne_prob or
// ne_score), or its NEProb for a row made without NEScore.
func neScore(r *dataset.Row) float64 {
	if r.HasNEScore {
		return r.NEScore
	}
	return r.NEProb
}

func confOne(pred, truth bool) metrics.Confusion {
	switch {
	case pred && truth:
		return metrics.Confusion{TP: 1}
	case pred:
		return metrics.Confusion{FP: 1}
	case truth:
		return metrics.Confusion{FN: 1}
	}
	return metrics.Confusion{TN: 1}
}

// tuneData returns the labels and NE probabilities of fold f's tune rows
// (or, for a fold without tune rows, the other folds' eval rows). It is the
// only door through which threshold choosers see data.
func (c *computer) tuneData(sys *dataset.System, f int) ([]bool, []float64) {
	qs := c.tuneOf[f]
	y := make([]bool, len(qs))
	p := make([]float64, len(qs))
	for k, qi := range qs {
		y[k] = c.ds.Queries[qi].HasEvidence()
		p[k] = neScore(&sys.Rows[qi])
	}
	return y, p
}

// tuneClasses counts the rows thresholds of fold f are chosen from (its
// tune rows, or the cross-fitted eval rows of the other folds) with and
// without evidence. Gold is the same for every system (a checked input rule), so the
// counts, and whether a threshold can be chosen at all, are too.
func (c *computer) tuneClasses(f int) (pos, neg int) {
	for _, qi := range c.tuneOf[f] {
		if c.ds.Queries[qi].HasEvidence() {
			pos++
		} else {
			neg++
		}
	}
	return pos, neg
}

// tuneRowsText names the rows fold f's thresholds are chosen from.
func (c *computer) tuneRowsText(f int) string {
	n := len(c.tuneOf[f])
	if c.crossFit[f] {
		return plural(n, "eval row") + " of the other folds it is cross-fitted on"
	}
	return "its " + plural(n, "tune row")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// thresholdGap says which thresholds of fold f cannot be chosen, and why
// ("" when every threshold can be): the FPR-budget thresholds need both
// classes, tau_neg a positive row, tau_pos (an alert precision) a negative
// row and tau_neg.
func (c *computer) thresholdGap(f int) string {
	pos, neg := c.tuneClasses(f)
	switch {
	case pos+neg == 0:
		return "no threshold can be chosen: no tune rows, and no other fold to cross-fit from"
	case pos == 0:
		return "no threshold can be chosen: " + c.tuneRowsText(f) + " have no query with evidence"
	case neg == 0:
		return "the FPR-budget thresholds and tau_pos cannot be chosen: " + c.tuneRowsText(f) + " have no query without evidence"
	}
	return ""
}

// foldsWithoutFPRThreshold returns the folds whose rows cannot give an
// FPR-budget threshold (no rows, or one class: the FPR or the TPR of a
// threshold cannot be estimated).
func (c *computer) foldsWithoutFPRThreshold() map[int]bool {
	out := map[int]bool{}
	for _, f := range c.folds {
		if pos, neg := c.tuneClasses(f); pos == 0 || neg == 0 {
			out[f] = true
		}
	}
	return out
}

// thresholdsFor returns (creating) the thresholds record of (system, fold).
// Its source is "tune", "cross-fitted" or "none" (no rows to choose from),
// followed by ": " and the reason when a threshold cannot be chosen.
func (c *computer) thresholdsFor(system string, f int) *Thresholds {
	for i := range c.rep.Thresholds {
		if t := &c.rep.Thresholds[i]; t.System == system && t.Fold == f {
			return t
		}
	}
	src := "tune"
	switch {
	case len(c.tuneOf[f]) == 0:
		src = "none"
	case c.crossFit[f]:
		src = "cross-fitted"
	}
	if why := c.thresholdGap(f); why != "" {
		src += ": " + why
	}
	c.rep.Thresholds = append(c.rep.Thresholds, Thresholds{System: system, Fold: f, Source: src, TuneRows: len(c.tuneOf[f]), FPR: []FPRPoint{}, TauNeg: NaN, TauPos: NaN})
	return &c.rep.Thresholds[len(c.rep.Thresholds)-1]
}

// recordFPR records an FPR-budget threshold of fold f. When no threshold
// can be chosen (chosen false) its tune TPR and FPR are undefined, not the
// 0 of "nothing screened in".
func (c *computer) recordFPR(system string, f int, budget, t float64, ok, chosen bool, ty []bool, tp []float64) {
	th := c.thresholdsFor(system, f)
	pt := FPRPoint{Budget: Num(budget), Threshold: Num(t), Met: ok, TuneTPR: NaN, TuneFPR: NaN, EvalTPR: NaN, EvalFPR: NaN}
	if chosen {
		cm := metrics.ConfusionAt(ty, tp, t)
		pt.TuneTPR, pt.TuneFPR = Num(cm.Sensitivity()), Num(cm.FPR())
	}
	th.FPR = append(th.FPR, pt)
}

// addECE registers an ECE as a sum statistic: with per-bin sums of p and y,
// ECE = Σ_b |Σ_b y − Σ_b p| / N.
func (c *computer) addECE(sc *sysCalc, id metrics.ID, bins int, binOf []int) {
	var cols []int
	for b := 0; b < bins; b++ {
		b := b
		cols = append(cols, sc.tab.Col(string(id)+"|p"+strconv.Itoa(b), func(i int) float64 {
			if binOf[i] == b {
				return sc.ne[i]
			}
			return 0
		}))
		cols = append(cols, sc.tab.Col(string(id)+"|y"+strconv.Itoa(b), func(i int) float64 {
			if binOf[i] == b {
				return b2f(c.y[i])
			}
			return 0
		}))
	}
	one := sc.tab.Col("one", func(int) float64 { return 1 })
	cols = append(cols, one)
	f := func(s []float64) float64 {
		n := s[len(s)-1]
		if n == 0 {
			return nan
		}
		var e float64
		for b := 0; b+1 < len(s); b += 2 {
			e += math.Abs(s[b+1] - s[b])
		}
		return e / n
	}
	sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, ""}, pop: metrics.AllQueries, cols: cols, f: f, nCol: one, perQ: -1, boot: true})
}

// uniformBin assigns equal-width bins: k/M <= p < (k+1)/M, p = 1 in the last.
func uniformBin(m int, p []float64) []int {
	out := make([]int, len(p))
	for i, v := range p {
		b := int(math.Floor(v * float64(m)))
		// guard the floating edge so that p = k/M falls in bin k exactly
		for b > 0 && v < float64(b)/float64(m) {
			b--
		}
		for b < m-1 && v >= float64(b+1)/float64(m) {
			b++
		}
		if b >= m {
			b = m - 1
		}
		if b < 0 {
			b = 0
		}
		out[i] = b
	}
	return out
}
