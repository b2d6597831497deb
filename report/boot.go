package report

import (
	"context"
	"math"
	"slices"
	"sort"

	"paperbundle/config"
	"paperbundle/internal/par"
	"paperbundle/metrics"
	"paperbundle/report/engine"
	"paperbundle/stats"
)

// rocGrid is the fixed FPR (and recall) grid of the bands: 201 points.
func rocGrid() []float64 {
	g := make([]float64, 201)
	for i := range g {
		g[i] = float64(i) / 200
	}
	return g
}

// put records a metric without a bootstrap interval or folds.
func (c *computer) put(system string, id metrics.ID, slice Slice, n int, v float64) {
	c.emit(system, id, slice, "", n, v, nil, nil)
}

func (c *computer) emit(system string, id metrics.ID, slice Slice, pop metrics.Population, n int, v float64, folds []float64, ci *CI) {
	d := metrics.MustDef(id)
	if pop == "" {
		pop = d.Population
	}
	m := Metric{System: system, ID: id, Slice: slice, Population: pop, N: n, Value: Num(v), CI: ci,
		Folds: []Num{}, FoldMean: NaN, FoldStd: NaN, Direction: d.Direction, Variant: d.Variant}
	if !c.has(Folds) {
		// One fold: no value per fold, no fold mean or std (absent).
		m.Folds = nil
	} else if len(folds) > 0 {
		m.Folds = Nums(folds)
		s := metrics.Summarize(folds)
		m.FoldMean = Num(s.Mean)
		m.FoldStd = Num(metrics.FoldStd(folds, c.cfg.Contract.FoldStd != config.FoldStdPopulation))
	}
	if t, ok := c.cfg.TargetFor(string(id)); ok && slice == "" && !isBaseline(system) {
		m.Target = &Target{Min: t.Min, Max: t.Max}
		if m.Value.Valid() {
			met := (t.Min == nil || v >= *t.Min) && (t.Max == nil || v <= *t.Max)
			m.TargetMet = &met
		}
	}
	c.rep.index[metricKey{system, id, slice}] = len(c.rep.Metrics)
	c.rep.Metrics = append(c.rep.Metrics, m)
}

func isBaseline(s string) bool { return len(s) > 9 && s[:9] == "baseline:" }

// sysBoot is the bootstrap result of one system: its columns of the
// replicates every system shares.
type sysBoot struct {
	reps  *stats.Replicates // of every system; nil without a bootstrap
	jack  *stats.Replicates
	off   int               // the system's first column in reps and jack
	col   map[metricKey]int // metric -> replicate column (from off)
	rocLo int               // first column of the ROC grid band (-1 none)
	prLo  int
}

// column returns the replicates of the system's statistic j.
func (sb *sysBoot) column(j int) []float64 { return sb.reps.Column(sb.off + j) }

// jackColumn returns the jackknife values of the system's statistic j.
func (sb *sysBoot) jackColumn(j int) []float64 { return sb.jack.Column(sb.off + j) }

// scoredRun is the statistics of one scored row subset of one system
// (AUROC, AUPRC, the ROC and PR bands, TPR at the FPR budgets), read from
// one weighted pass per replicate.
type scoredRun struct {
	rows    []int
	k       *stats.Grouped
	auroc   int // column, -1 none
	auprc   int
	roc, pr int // first band column, -1 none
	tpr     int // first column of the in-sample TPR at FPR targets, -1 none
}

// sysPlan is what the replicate function evaluates for one system.
type sysPlan struct {
	off    int        // first replicate column
	cols   int        // first column of the system's sums in the shared matrix
	sums   []*sumStat // bootstrapped sum statistics, columns of the shared matrix
	scored []*scoredRun
}

// bootstrapAll evaluates every statistic of every system on the full
// sample, per fold and on B resamples, and emits the metrics. Every system
// reads the same resamples (docs/statistics.md: one set of group multiplicities per
// replicate, drawn once): the per-group column sums of every system form
// one matrix, and each replicate is one weighted pass over its rows plus
// one pass over each scored row subset.
func (c *computer) bootstrapAll(ctx context.Context) error {
	B := c.cfg.Bootstrap.Resamples
	conf := c.cfg.Bootstrap.Confidence
	grid := rocGrid()
	c.boots = make([]*sysBoot, len(c.sys))
	var plans []*sysPlan
	var keepAll [][]int // per system: its columns that enter the matrix
	nStat, nCol := 0, 0
	for si, sc := range c.sys {
		sb := &sysBoot{col: map[metricKey]int{}, rocLo: -1, prLo: -1, off: nStat}
		c.boots[si] = sb
		if B <= 0 {
			continue
		}
		sp, keep, n := c.plan(sc, sb, nStat, nCol, grid)
		keepAll = append(keepAll, keep)
		nStat += n
		nCol += len(keep)
		plans = append(plans, sp)
	}
	if B > 0 && nStat > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.checkBootstrapMemory(nStat); err != nil {
			return err
		}
		reps, jack := c.replicates(ctx, plans, keepAll, nStat, nCol, grid)
		if err := ctx.Err(); err != nil {
			return err // the batches after the interrupt were skipped
		}
		for _, sb := range c.boots {
			sb.reps, sb.jack = reps, jack
		}
		c.pct = engine.Percentiles(ctx, reps, conf, c.opt.Workers)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	groupPart := make([]int, c.nGroups) // each group's index in c.folds
	for g := range groupPart {
		groupPart[g] = slices.Index(c.folds, c.groupFold[g])
	}
	for si, sc := range c.sys {
		c.emitSystem(sc, c.boots[si], groupPart, grid, conf)
	}
	return nil
}

// plan lays out the bootstrap of system sc, whose replicate columns start
// at off and whose matrix columns start at cols: it returns what the
// replicate function evaluates for it, the columns of its table that
// enter the shared matrix (keep), and its number of replicate columns,
// which sb.col indexes from off.
func (c *computer) plan(sc *sysCalc, sb *sysBoot, off, cols int, grid []float64) (sp *sysPlan, keep []int, n int) {
	sp = &sysPlan{off: off, cols: cols}
	for _, st := range sc.stats {
		if st.boot {
			sb.col[st.key] = n
			n++
		}
	}
	n = c.planScored(sc, sb, sp, n, grid)
	// Only the columns that bootstrapped statistics read enter the
	// matrix; the statistics read them through a remap.
	used := map[int]int{}
	for _, st := range sc.stats {
		if !st.boot {
			continue
		}
		cp := *st
		cp.cols = make([]int, len(st.cols))
		for q, j := range st.cols {
			nj, ok := used[j]
			if !ok {
				nj = len(keep)
				used[j] = nj
				keep = append(keep, j)
			}
			cp.cols[q] = nj
		}
		sp.sums = append(sp.sums, &cp)
	}
	return sp, keep, n
}

// planScored adds the scored statistics of sc (AUROC, AUPRC, their bands
// and the TPR at the FPR targets) to its plan, from replicate column n on,
// and returns the next free column. Scored statistics sharing a row subset
// share one weighted pass; the passes' sorted samples are made on all
// cores.
func (c *computer) planScored(sc *sysCalc, sb *sysBoot, sp *sysPlan, n int, grid []float64) int {
	bySubset := map[Slice]*scoredRun{}
	var first []*scoredStat // the statistic that makes each pass
	for _, s := range sc.scored {
		if bySubset[s.key.slice] == nil {
			run := &scoredRun{rows: s.rows, auroc: -1, auprc: -1, roc: -1, pr: -1, tpr: -1}
			bySubset[s.key.slice] = run
			sp.scored = append(sp.scored, run)
			first = append(first, s)
		}
	}
	par.Jobs(c.opt.Workers, len(first), func() func(int) {
		return func(j int) {
			s := first[j]
			y := make([]bool, len(s.rows))
			p := make([]float64, len(s.rows))
			g := make([]int32, len(s.rows))
			for k, i := range s.rows {
				y[k], p[k], g[k] = s.y[i], s.p[i], c.group[i]
			}
			sp.scored[j].k = stats.NewScored(y, p).Grouped(g, c.nGroups)
		}
	})
	for _, s := range sc.scored {
		run := bySubset[s.key.slice]
		sb.col[s.key] = n
		if s.kind == "auroc" {
			run.auroc = n
		} else {
			run.auprc = n
		}
		n++
		if s.band && s.kind == "auroc" {
			sb.rocLo, run.roc = n, n
			n += len(grid)
		}
		if s.band && s.kind == "auprc" {
			sb.prLo, run.pr = n, n
			n += len(grid)
		}
		if s.band && s.kind == "auroc" && len(c.cfg.FPRTargets) > 0 {
			// ne.tpr@fpr=X (in-sample, on the eval rows) from the same pass.
			run.tpr = n
			for _, x := range c.cfg.FPRTargets {
				sb.col[metricKey{sc.name, metrics.NETPR.AtFPR(x), ""}] = n
				n++
			}
		}
	}
	return n
}

// emitSystem emits the metrics of system sc: each statistic's value on
// the full sample and per fold (groupPart: each group's index in c.folds)
// with its interval from the replicates of sb; then the intervals of the
// metrics emitted before the bootstrap, and the ROC and PR bands.
func (c *computer) emitSystem(sc *sysCalc, sb *sysBoot, groupPart []int, grid []float64, conf float64) {
	total, foldSums := sc.tab.FoldSums(groupPart, len(c.folds), c.opt.Workers)
	scratch := scratchFor(sc.stats)
	// Emit sum statistics.
	for _, st := range sc.stats {
		v := st.eval(total, scratch)
		var folds []float64
		if len(c.folds) > 1 && st.key.slice == "" {
			for fi := range c.folds {
				folds = append(folds, st.eval(foldSums[fi], scratch))
			}
		}
		c.emit(st.key.system, st.key.id, st.key.slice, st.pop, int(total[st.nCol]), v, folds, c.ci(sb, st.key, v))
		if st.den != nil {
			d := 0.0
			for _, j := range st.den {
				d += total[j]
			}
			// The columns count queries, posts or sentences: their sums
			// are whole numbers.
			n := int(d)
			c.rep.Metrics[len(c.rep.Metrics)-1].Denominator = &n
		}
	}
	// The scored statistics' values (a sort each, per fold too) on
	// all cores; emitted in order.
	vals, foldVals := c.scoredValues(sc.scored)
	for k, s := range sc.scored {
		v := vals[k]
		c.emit(s.key.system, s.key.id, s.key.slice, "", len(s.rows), v, foldVals[k], c.ci(sb, s.key, v))
	}
	// Metrics emitted before the bootstrap whose replicates it made.
	for k := range sb.col {
		if i, ok := c.rep.index[k]; ok && c.rep.Metrics[i].CI == nil {
			c.rep.Metrics[i].CI = c.ci(sb, k, float64(c.rep.Metrics[i].Value))
		}
	}
	c.bands(sc, sb, grid, conf)
}

// scoredValues computes the value of each scored statistic on its rows
// and, for a whole-population one, on each fold's rows, one statistic per
// job.
func (c *computer) scoredValues(scored []*scoredStat) (vals []float64, folds [][]float64) {
	vals, folds = make([]float64, len(scored)), make([][]float64, len(scored))
	par.Jobs(c.opt.Workers, len(scored), func() func(int) {
		return func(k int) {
			s := scored[k]
			vals[k] = s.value(s.rows)
			if len(c.folds) > 1 && s.key.slice == "" {
				for _, f := range c.folds {
					var rows []int
					for _, i := range s.rows {
						if c.fold[i] == f {
							rows = append(rows, i)
						}
					}
					folds[k] = append(folds[k], s.value(rows))
				}
			}
		}
	})
	return vals, folds
}

// replicates runs the bootstrap of every system at once: the group
// multiplicities of each replicate are drawn once; the column sums of all
// systems come from one weighted pass over the rows of the shared
// groups x columns matrix (summed in group order, so each sum is the same
// floating-point number as a system's own pass would give); then each
// system's statistics and scored passes.
func (c *computer) replicates(ctx context.Context, plans []*sysPlan, keepAll [][]int, nStat, C int, grid []float64) (reps, jack *stats.Replicates) {
	G := c.nGroups
	cols := make([][]float64, 0, C)
	for k := range plans {
		tab := c.sys[k].tab
		for _, j := range keepAll[k] {
			cols = append(cols, tab.Cols()[j])
		}
	}
	M := engine.NewSumMatrix(G, cols, !c.opt.NoAVX2)
	fpr := c.cfg.FPRTargets
	const batch = engine.Batch
	newF := func() func(b0 int, cnt []int32, out []float64) {
		acc := make([]float64, C)
		var all []*sumStat
		for _, sp := range plans {
			all = append(all, sp.sums...)
		}
		scr := scratchFor(all)
		sums := M.Scratch(batch)
		evals := make([][]*stats.Eval, len(plans))
		for k, sp := range plans {
			for _, r := range sp.scored {
				evals[k] = append(evals[k], r.k.NewEval())
			}
		}
		return func(b0 int, cnt []int32, out []float64) {
			if ctx.Err() != nil {
				return // interrupted: the caller discards the replicates
			}
			R := len(cnt) / G
			M.Weigh(cnt, sums)
			for r := range R {
				M.Sums(sums, r, acc)
				o := out[r*nStat : (r+1)*nStat]
				for _, sp := range plans {
					o := o[sp.off:]
					a := acc[sp.cols:]
					for j, st := range sp.sums {
						o[j] = st.eval(a, scr)
					}
				}
			}
			// System by system, so that a system's scored samples stay
			// in the cache across the replicates of the batch.
			for k, sp := range plans {
				for q, run := range sp.scored {
					e := evals[k][q]
					for r := range R {
						o := out[r*nStat+sp.off : (r+1)*nStat]
						e.Load(cnt[r*G : (r+1)*G])
						if run.auroc >= 0 {
							o[run.auroc] = e.AUROC()
						}
						if run.auprc >= 0 {
							o[run.auprc] = e.AP()
						}
						if run.roc >= 0 {
							e.TPRAtGrid(grid, o[run.roc:run.roc+len(grid)])
						}
						if run.pr >= 0 {
							e.PrecisionAtRecallGrid(grid, o[run.pr:run.pr+len(grid)])
						}
						if run.tpr >= 0 {
							e.TPRAtFPR(fpr, o[run.tpr:run.tpr+len(fpr)])
						}
					}
				}
			}
		}
	}
	plan := stats.Plan{Group: c.group, NGroups: G, B: c.cfg.Bootstrap.Resamples, Seed: c.cfg.Seed, Workers: c.opt.Workers}
	reps = stats.RunCountBatches(plan, nStat, batch, newF)
	if c.cfg.Bootstrap.Method == config.MethodBCa {
		jack = plan.JackknifeCounts(nStat, func(g int, cnt []int32, out []float64) { newF()(g, cnt, out) })
	}
	return reps, jack
}

// ci returns the interval of a metric from its replicates.
func (c *computer) ci(sb *sysBoot, key metricKey, theta float64) *CI {
	j, ok := sb.col[key]
	if !ok || sb.reps == nil {
		return nil
	}
	var iv stats.Interval
	if c.cfg.Bootstrap.Method == config.MethodBCa && sb.jack != nil {
		iv = stats.BCa(sb.column(j), theta, sb.jackColumn(j), c.cfg.Bootstrap.Confidence)
	} else {
		p := c.pct[sb.off+j]
		iv.Low, iv.High, iv.Dropped = p.Lo, p.Hi, p.Dropped
		iv.Method = stats.MethodPercentile
	}
	return &CI{Low: Num(iv.Low), High: Num(iv.High), Method: iv.Method, Unit: c.cfg.Bootstrap.Unit, Resamples: sb.reps.B, Undefined: iv.Dropped}
}

// bands fills the ROC and PR band of the system's curves.
func (c *computer) bands(sc *sysCalc, sb *sysBoot, grid []float64, conf float64) {
	band := func(lo int, set func(k int, l, h float64)) {
		for k := range grid {
			p := c.pct[sb.off+lo+k]
			set(k, p.Lo, p.Hi)
		}
	}
	for i := range c.rep.Curves.ROC {
		r := &c.rep.Curves.ROC[i]
		if r.System != sc.name || sb.rocLo < 0 {
			continue
		}
		r.BandLow, r.BandHigh = make([]Num, len(grid)), make([]Num, len(grid))
		band(sb.rocLo, func(k int, l, h float64) { r.BandLow[k], r.BandHigh[k] = Num(l), Num(h) })
	}
	for i := range c.rep.Curves.PR {
		r := &c.rep.Curves.PR[i]
		if r.System != sc.name || sb.prLo < 0 {
			continue
		}
		r.BandLow, r.BandHigh = make([]Num, len(grid)), make([]Num, len(grid))
		band(sb.prLo, func(k int, l, h float64) { r.BandLow[k], r.BandHigh[k] = Num(l), Num(h) })
	}
}

// curvesNE records the full-sample ROC, PR, reliability and decision curves.
func (c *computer) curvesNE(sc *sysCalc) {
	grid := rocGrid()
	all := stats.NewScored(c.y, sc.ne)
	ones := make([]int32, len(c.eval))
	for i := range ones {
		ones[i] = 1
	}
	roc := metrics.ROC(c.y, sc.ne)
	rc := ROCCurve{System: sc.name, FPR: Nums(roc.FPR), TPR: Nums(roc.TPR), Thresholds: Nums(roc.Thresholds),
		Grid: Nums(grid), AUROC: Num(metrics.AUROC(c.y, sc.ne)), Folds: [][]Num{}, Points: []OpPoint{}, BandLow: []Num{}, BandHigh: []Num{}}
	g := make([]float64, len(grid))
	all.TPRAtGrid(ones, grid, g)
	rc.GridTPR = Nums(g)
	pr := metrics.PR(c.y, sc.ne)
	pc := PRCurve{System: sc.name, Recall: Nums(pr.Recall), Precision: Nums(pr.Precision), Thresholds: Nums(pr.Thresholds),
		Grid: Nums(grid), AP: Num(metrics.AveragePrecision(c.y, sc.ne)), Folds: [][]Num{}, BandLow: []Num{}, BandHigh: []Num{},
		PositiveRate: c.rep.Dataset.PositiveRate}
	gp := make([]float64, len(grid))
	all.PrecisionAtRecallGrid(ones, grid, gp)
	pc.GridPrecision = Nums(gp)
	if len(c.folds) > 1 {
		for _, f := range c.folds {
			var y []bool
			var p []float64
			for i := range c.eval {
				if c.fold[i] == f {
					y, p = append(y, c.y[i]), append(p, sc.ne[i])
				}
			}
			k := stats.NewScored(y, p)
			w := ones[:len(y)]
			t := make([]float64, len(grid))
			k.TPRAtGrid(w, grid, t)
			rc.Folds = append(rc.Folds, Nums(t))
			t2 := make([]float64, len(grid))
			k.PrecisionAtRecallGrid(w, grid, t2)
			pc.Folds = append(pc.Folds, Nums(t2))
		}
	}
	c.rep.Curves.ROC = append(c.rep.Curves.ROC, rc)
	c.rep.Curves.PR = append(c.rep.Curves.PR, pc)
	if !c.ds.HasNEProb {
		return // reliability and decision curves need probabilities
	}
	bins := metrics.Reliability(c.y, sc.ne, c.cfg.Calibration.Bins, string(c.cfg.Calibration.Strategy))
	rel := Reliability{System: sc.name, Strategy: c.cfg.Calibration.Strategy}
	conf := c.cfg.Bootstrap.Confidence
	for _, b := range bins {
		if conf != 0.95 && b.Count > 0 {
			// The bins' intervals at the level of every other interval of
			// the report (metrics.Reliability's are at 95%).
			b.WilsonLo, b.WilsonHi = metrics.Wilson(int(math.Round(b.ObsFreq*float64(b.Count))), b.Count, math.Sqrt2*math.Erfinv(conf))
		}
		rel.Bins = append(rel.Bins, Bin{Lo: Num(b.Lo), Hi: Num(b.Hi), Count: b.Count, MeanP: Num(b.MeanP), ObsFreq: Num(b.ObsFreq), WilsonLo: Num(b.WilsonLo), WilsonHi: Num(b.WilsonHi)})
	}
	c.rep.Curves.Reliability = append(c.rep.Curves.Reliability, rel)
	var ts []float64
	for k := 1; k < 100; k++ {
		ts = append(ts, float64(k)/100)
	}
	model, treat := metrics.NetBenefit(c.y, sc.ne, ts)
	c.rep.Curves.Decision = append(c.rep.Curves.Decision, DecisionCurve{System: sc.name, Threshold: Nums(ts), Model: Nums(model), TreatAll: Nums(treat)})
}

// opPoints marks the held-out operating points on each ROC curve.
func (c *computer) opPoints() {
	for i := range c.rep.Curves.ROC {
		r := &c.rep.Curves.ROC[i]
		for _, x := range c.cfg.FPRTargets {
			xs := metrics.FormatParam(x)
			tpr, ok1 := c.rep.Metric(r.System, metrics.NEHeldoutTPR.AtFPR(x), "")
			fpr, ok2 := c.rep.Metric(r.System, metrics.NEHeldoutFPR.AtFPR(x), "")
			if ok1 && ok2 && tpr.Value.Valid() && fpr.Value.Valid() {
				r.Points = append(r.Points, OpPoint{Label: "FPR budget " + xs, FPR: fpr.Value, TPR: tpr.Value})
			}
		}
	}
}

// rankAtK fills the Recall@K / Precision@K per stratum curves.
func (c *computer) rankAtK() {
	for _, s := range c.rep.Systems {
		if s.Kind != Pipeline {
			continue
		}
		strata := []Slice{Whole}
		for _, st := range c.strata {
			strata = append(strata, stratumSlice(st.label))
		}
		for _, sl := range strata {
			for _, k := range c.cfg.Cutoffs {
				ks := metrics.RankRecall.At(k)
				r, ok := c.rep.Metric(s.Name, ks, sl)
				p, ok2 := c.rep.Metric(s.Name, metrics.RankPrecision.At(k), sl)
				if !ok || !ok2 {
					continue
				}
				name := "all"
				if sl != Whole {
					name = sl.Value()
				}
				c.rep.Curves.RankAtK = append(c.rep.Curves.RankAtK, RankAtKPoint{System: s.Name, Stratum: name, K: k, Recall: r.Value, Precision: p.Value})
			}
		}
	}
}

// sweepCurves copies the gamma sweep metrics into curves.
func (c *computer) sweepCurves() {
	for _, s := range c.rep.Systems {
		if s.Kind != Pipeline {
			continue
		}
		for _, g := range c.cfg.DynamicK.Sweep {
			get := func(base metrics.Base) Num {
				if m, ok := c.rep.Metric(s.Name, base.AtGamma(g), ""); ok {
					return m.Value
				}
				return NaN
			}
			c.rep.Curves.GammaSweep = append(c.rep.Curves.GammaSweep, SweepPoint{System: s.Name, Gamma: Num(g),
				MeanK: get(metrics.DynKMeanK), EvidenceRecall: get(metrics.DynKEvidenceRecall), EvidencePrecision: get(metrics.DynKEvidencePrecision),
				WorkloadPer1000: get(metrics.DynKWorkloadPer1000)})
		}
	}
}

// finish derives what reads from emitted metrics, macro averages, and
// makes every slice non-nil.
func (c *computer) finish() {
	c.deLongCIs()
	c.opPoints()
	c.rankAtK()
	c.sweepCurves()
	c.macroCriteria()
	cv := &c.rep.Curves
	if cv.ROC == nil {
		cv.ROC = []ROCCurve{}
	}
	if cv.PR == nil {
		cv.PR = []PRCurve{}
	}
	if cv.Reliability == nil {
		cv.Reliability = []Reliability{}
	}
	if cv.DynKHist == nil {
		cv.DynKHist = []Histogram{}
	}
	if cv.GammaSweep == nil {
		cv.GammaSweep = []SweepPoint{}
	}
	if cv.GateGrid == nil {
		cv.GateGrid = []GridCell{}
	}
	if cv.Decision == nil {
		cv.Decision = []DecisionCurve{}
	}
	if cv.RankAtK == nil {
		cv.RankAtK = []RankAtKPoint{}
	}
	sort.SliceStable(c.rep.Thresholds, func(i, j int) bool {
		a, b := c.rep.Thresholds[i], c.rep.Thresholds[j]
		if a.System != b.System {
			return c.sysIndex(a.System) < c.sysIndex(b.System)
		}
		return a.Fold < b.Fold
	})
}

// deLongCIs gives every system's ne.auroc its DeLong interval beside the
// bootstrap one (pROC's ci.auc default), at the bootstrap's confidence.
// It treats queries as independent, as pROC does; the bootstrap interval
// resamples posts.
func (c *computer) deLongCIs() {
	conf := c.cfg.Bootstrap.Confidence
	for _, sc := range c.sys {
		if sc.ne == nil {
			continue
		}
		i, ok := c.rep.index[metricKey{sc.name, metrics.NEAUROC.ID(), ""}]
		if !ok {
			continue
		}
		_, lo, hi := stats.DeLongCI(c.y, sc.ne, conf)
		c.rep.Metrics[i].CIDeLong = &AnalyticCI{Low: Num(lo), High: Num(hi), Method: "delong", Confidence: conf}
	}
}

func (c *computer) sysIndex(name string) int {
	for i, s := range c.ds.Systems {
		if s.Name == name {
			return i
		}
	}
	return len(c.ds.Systems)
}

// macroCriteria adds the macro average across criteria of every
// per-criterion metric (slice "criterion=macro"); the micro average is the
// whole-population value.
func (c *computer) macroCriteria() {
	if len(c.criteria) == 0 {
		return
	}
	type acc struct {
		sum float64
		n   int
		ok  bool
	}
	var keys []metricKey
	seen := map[metricKey]*acc{}
	for _, m := range c.rep.Metrics {
		if m.Slice.Kind() != SliceCriterion || m.ID.Base().Family() == "data" {
			continue
		}
		k := metricKey{m.System, m.ID, CriterionSlice("macro")}
		a := seen[k]
		if a == nil {
			a = &acc{ok: true}
			seen[k] = a
			keys = append(keys, k)
		}
		if m.Value.Valid() {
			a.sum += float64(m.Value)
			a.n++
		} else {
			a.ok = false
		}
	}
	for _, k := range keys {
		a := seen[k]
		v := math.NaN()
		if a.ok && a.n > 0 {
			v = a.sum / float64(a.n)
		}
		c.emit(k.system, k.id, k.slice, "", a.n, v, nil, nil)
	}
}
