package paper

import (
	"math"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// builder holds what every table builder reads.
type builder struct {
	r   *report.Report
	opt Options
}

// primary is the primary system's name.
func (b builder) primary() string {
	for _, s := range b.r.Systems {
		if s.Primary {
			return s.Name
		}
	}
	if len(b.r.Systems) > 0 {
		return b.r.Systems[0].Name
	}
	return ""
}

// label is a system's display label, escaped.
func (b builder) label(sys string) string { return breakable(clip(b.r.Label(sys), maxText)) }

// value is the cell of a metric: its value and, per the uncertainty
// option, its CI or fold std under it. ok is false when the metric was
// not computed.
func (b builder) value(sys string, id metrics.ID, slice report.Slice) (cell, bool) {
	m, ok := b.r.Metric(sys, id, slice)
	if !ok {
		return cell{v: math.NaN()}, false
	}
	d, _ := metrics.Lookup(id)
	dec := decimalsOf(d, b.opt)
	c := cell{v: float64(m.Value), dec: dec}
	if !m.Value.Valid() {
		c.v = math.NaN()
		return c, true
	}
	switch b.opt.Uncertainty {
	case CI, CIRow:
		if m.CI != nil && m.CI.Low.Valid() && m.CI.High.Valid() {
			c.unc = "[" + num(float64(m.CI.Low), dec) + ", " + num(float64(m.CI.High), dec) + "]"
		}
	case Std:
		if m.FoldStd.Valid() {
			c.unc = `\ensuremath{\pm}` + num(float64(m.FoldStd), dec)
		}
	}
	return c, true
}

// uncertaintyNote says what the small text under a value is, for the
// table's note (the interval method, resamples and seed are in
// \pbmethods, not in every table).
func (b builder) uncertaintyNote() string {
	st := b.r.Settings
	switch b.opt.Uncertainty {
	case CI, CIRow:
		if st.Bootstrap.Resamples == 0 {
			return ""
		}
		return "Under each value: its " + tables.LatexText(st.Bootstrap.Level()) + " confidence interval."
	case Std:
		return "Under each value: the standard deviation over the " + strconv.Itoa(len(b.r.Dataset.Folds)) +
			" folds (" + string(st.Conventions.FoldStd) + ")."
	}
	return ""
}

// population names a population with its n for a caption.
func (b builder) population(p metrics.Population) string {
	d := b.r.Dataset
	switch p {
	case metrics.AllQueries:
		return "all " + count(d.EvalQueries) + " eval queries"
	case metrics.PositivesOnly:
		return "the " + count(d.PositiveQueries) + " eval queries with evidence"
	}
	return string(p)
}

// present reports whether a capability of the report applies (the
// Report decides; a table never guesses from its values).
func (b builder) present(x report.Capability) bool { return b.r.Has(x) }

// head is a column header: a metric's title with K replaced by a cutoff.
func head(id metrics.ID) string { return tables.LatexText(tables.Title(id)) }

// addValues appends to rw a cell per metric id of sys on the whole
// population, and reports whether any of them has a value.
func (b builder) addValues(rw *row, sys string, ids []metrics.ID) bool {
	any := false
	for _, id := range ids {
		c, ok := b.value(sys, id, report.Whole)
		any = any || ok
		rw.cells = append(rw.cells, c)
	}
	return any
}

// rankingTable is ranking.tex: the primary system's ranking metrics as
// rows, the cutoffs as columns.
func (b builder) rankingTable() (*table, bool) {
	if !b.present(report.Ranking) {
		return nil, false
	}
	sys := b.primary()
	cut := b.r.Settings.Cutoffs
	t := &table{name: "ranking"}
	t.cols = append(t.cols, col{head: "Metric"})
	for _, k := range cut {
		t.cols = append(t.cols, col{head: "$K=" + strconv.Itoa(k) + "$", num: true})
	}
	for _, d := range metrics.Defs() {
		if d.Family() != "rank" || d.Param != metrics.ParamK || !d.Shows(metrics.TableRanking) {
			continue
		}
		var ids []metrics.ID
		for _, k := range cut {
			ids = append(ids, d.ID(float64(k)))
		}
		rw := row{cells: []cell{rawCell(tables.LatexText(strings.ReplaceAll(d.Title, "@K", "")))}}
		if b.addValues(&rw, sys, ids) {
			t.rows = append(t.rows, rw)
		}
	}
	t.caption = "Ranking quality of " + b.label(sys) + " at each cutoff $K$, over " + b.population(metrics.PositivesOnly) + "."
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 0
}

// rankingSystemsTable is ranking_systems.tex: the systems paper.ranking_systems
// chooses (default: every system, no baselines) at the headline cutoff,
// with the results matrix's significance markers.
func (b builder) rankingSystemsTable() (*table, bool) {
	if !b.present(report.Ranking) {
		return nil, false
	}
	h := b.r.Settings.HeadlineCutoff
	ids := []metrics.ID{metrics.RankRecall.At(h), metrics.RankPrecision.At(h), metrics.RankNDCG.At(h),
		metrics.RankMAP.At(h), metrics.RankMRR.ID(), metrics.RankHit.At(h)}
	mx := b.matrix(b.opt.RankingSystems, ids)
	if len(mx.Columns) == 0 || len(mx.Rows) < 2 {
		return nil, false
	}
	t := b.matrixTable("ranking_systems", mx, b.opt.RankingSystems)
	t.caption = "Ranking quality of " + b.systemsText(mx) + " at $K=" + strconv.Itoa(h) + "$, over " + b.population(metrics.PositivesOnly) + "."
	return t, true
}

// perCriterionTable is per_criterion.tex: the primary system, criteria as
// rows.
func (b builder) perCriterionTable() (*table, bool) {
	if !b.present(report.PerCriterion) {
		return nil, false
	}
	sys := b.primary()
	h := b.r.Settings.HeadlineCutoff
	ids := []metrics.ID{metrics.NEAUROC.ID(), metrics.RankRecall.At(h), metrics.RankNDCG.At(h)}
	t := &table{name: "per_criterion"}
	t.cols = []col{{head: "Criterion"}, {head: "$n$", num: true}, {head: "$n_{\\mathrm{pos}}$", num: true}}
	for _, id := range ids {
		t.cols = append(t.cols, col{head: head(id), num: true, best: metrics.Higher})
	}
	for _, cr := range b.r.Dataset.Criteria {
		sl := report.CriterionSlice(cr)
		n, ok1 := b.value(sys, metrics.DataN.ID(), sl)
		np, _ := b.value(sys, metrics.DataNPos.ID(), sl)
		n.unc, np.unc, n.dec, np.dec = "", "", 0, 0
		rw := row{cells: []cell{textCell(cr), n, np}}
		for _, id := range ids {
			c, _ := b.value(sys, id, sl)
			rw.cells = append(rw.cells, c)
		}
		if ok1 {
			t.rows = append(t.rows, rw)
		}
	}
	t.caption = "Per criterion, " + b.label(sys) + ": AUROC over the criterion's eval queries ($n$), ranking at $K=" + strconv.Itoa(h) +
		"$ over its queries with evidence ($n_{\\mathrm{pos}}$)."
	t.note = "Bold: the best criterion per column."
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 0
}

// strataTable is strata.tex in the layout of the stratified-analysis
// tables: Stratum, # Queries, Recall@K, Precision@K, for the primary system at the
// headline cutoff.
func (b builder) strataTable() (*table, bool) {
	if !b.present(report.Strata) {
		return nil, false
	}
	sys := b.primary()
	h := b.r.Settings.HeadlineCutoff
	var slices []report.Slice
	for _, m := range b.r.Metrics {
		if m.System == sys && m.ID == metrics.DataN.ID() && m.Slice.Kind() == report.SliceStratum {
			slices = append(slices, m.Slice)
		}
	}
	names := []string{"Low", "Medium", "High"}
	t := &table{name: "strata", cols: []col{{head: "Stratum"}, {head: `\# Queries`, num: true},
		{head: head(metrics.RankRecall.At(h)), num: true}, {head: head(metrics.RankPrecision.At(h)), num: true}}}
	for i, sl := range slices {
		band := sl.Value()
		name := band
		if len(slices) == 3 {
			name = names[i] + " (" + band + ")"
		}
		n, _ := b.value(sys, metrics.DataN.ID(), sl)
		n.unc, n.dec = "", 0
		rc, _ := b.value(sys, metrics.RankRecall.At(h), sl)
		pc, _ := b.value(sys, metrics.RankPrecision.At(h), sl)
		t.rows = append(t.rows, row{cells: []cell{textCell(name), n, rc, pc}})
	}
	t.caption = "Stratified by the number of evidence sentences $n_{\\mathrm{pos}}$ of a query: " + b.label(sys) +
		" at $K=" + strconv.Itoa(h) + "$ over " + b.population(metrics.PositivesOnly) + "."
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 0
}

// primaryMetricsTable is primary_metrics.tex in the layout of the
// query-specific evaluation: Metric, K, Macro, Weighted (by n_pos), CI, CV; the
// adaptive K (1, 3, n_pos; 5, 10, 20, n_pos; 10, 20, 50,
// n_pos by n_pos band). The CV column shows only when the report holds the
// per-query distribution of the metric.
func (b builder) primaryMetricsTable() (*table, bool) {
	if !b.present(report.Ranking) {
		return nil, false
	}
	sys := b.primary()
	t := &table{name: "primary_metrics", cols: []col{{head: "Metric"}, {head: "$K$"}, {head: "Macro", num: true},
		{head: "Weighted", num: true}, {head: "CI"}, {head: "CV", num: true}}}
	for _, a := range []struct {
		name            string
		macro, weighted metrics.Base
	}{{"recall", metrics.RankAdaptiveRecall, metrics.RankAdaptiveRecallWeighted}, {"precision", metrics.RankAdaptivePrecision, metrics.RankAdaptivePrecisionWeighted}} {
		base, id := a.name, a.macro.ID()
		m, ok := b.r.Metric(sys, id, report.Whole)
		if !ok {
			continue
		}
		mac, _ := b.value(sys, id, report.Whole)
		mac.unc = ""
		w, _ := b.value(sys, a.weighted.ID(), report.Whole)
		w.unc = ""
		ci := ""
		if m.CI != nil && m.CI.Low.Valid() && m.CI.High.Valid() {
			ci = "[" + num(float64(m.CI.Low), b.opt.Decimals) + ", " + num(float64(m.CI.High), b.opt.Decimals) + "]"
		}
		cv := cell{v: math.NaN(), dec: 2}
		for _, d := range b.r.Distributions {
			if d.System == sys && d.ID == id && d.Slice == report.Whole && d.CV.Valid() {
				cv.v = float64(d.CV)
			}
		}
		t.rows = append(t.rows, row{cells: []cell{rawCell(strings.ToUpper(base[:1]) + base[1:]), rawCell("adaptive"), mac, w, rawCell(ci), cv}})
	}
	pct := strconv.FormatFloat(100*b.r.Settings.Bootstrap.Confidence, 'g', -1, 64)
	t.cols[4].head = pct + `\,\% CI`
	t.caption = "Primary metrics of " + b.label(sys) + " at the adaptive $K$, over " + b.population(metrics.PositivesOnly) + "."
	t.note = "Adaptive $K$ by $n_{\\mathrm{pos}}$: 1, 3, $n_{\\mathrm{pos}}$ below 10; 5, 10, 20, $n_{\\mathrm{pos}}$ below 50; else 10, 20, 50, $n_{\\mathrm{pos}}$." +
		" Macro: the mean over queries; weighted: by $n_{\\mathrm{pos}}$; CI: of the macro mean; CV: the coefficient of variation over queries."
	return t, len(t.rows) > 0
}

// calibrationTable is calibration.tex: every system's calibration.
func (b builder) calibrationTable() (*table, bool) {
	if !b.present(report.Calibration) {
		return nil, false
	}
	ids := []metrics.ID{metrics.NEECE.ID(), metrics.NEECEEqualMass.ID(), metrics.NEBrier.ID(), metrics.NECalibrationSlope.ID(), metrics.NECalibrationIntercept.ID()}
	t := &table{name: "calibration", cols: []col{{head: "System"}}}
	for _, id := range ids {
		d, _ := metrics.Lookup(id)
		t.cols = append(t.cols, col{head: header(tables.Title(id)), num: true, best: d.Direction})
	}
	for _, s := range b.r.Systems {
		if s.Kind != report.Pipeline {
			continue
		}
		rw := row{cells: []cell{labelCell(b.r.Label(s.Name))}}
		if b.addValues(&rw, s.Name, ids) {
			t.rows = append(t.rows, rw)
		}
	}
	cs := b.r.Settings.Calibration
	t.caption = "Calibration of the NE probability of every system over " + b.population(metrics.AllQueries) + "."
	t.note = "ECE with " + strconv.Itoa(cs.Bins) + " equal-width and with " + strconv.Itoa(cs.Bins) +
		" equal-mass bins; calibration slope and intercept of a logistic recalibration (1 and 0 when calibrated). Bold: the best system per column."
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 0
}

// clinicalGateTable is clinical_gate.tex: the primary system's gate
// thresholds chosen on each fold's tune rows, with the fold's screening
// sensitivity, alert precision and workload, and the pooled values.
func (b builder) clinicalGateTable() (*table, bool) {
	if !b.present(report.ClinicalGate) {
		return nil, false
	}
	sys := b.primary()
	ids := []metrics.ID{metrics.ClinicalScreenSensitivity.ID(), metrics.ClinicalAlertPrecision.ID(), metrics.ClinicalWorkloadPer1000.ID()}
	t := &table{name: "clinical_gate", cols: []col{{head: "Fold"}, {head: `$\tau_{\mathrm{neg}}$`, num: true}, {head: `$\tau_{\mathrm{pos}}$`, num: true}}}
	for _, h := range []string{stack("Screening", "sensitivity"), stack("Alert", "precision"), stack("Workload", "/ 1,000")} {
		t.cols = append(t.cols, col{head: h, num: true})
	}
	ms := make([]report.Metric, len(ids))
	for i, id := range ids {
		ms[i], _ = b.r.Metric(sys, id, report.Whole)
	}
	for fi, f := range b.r.Dataset.Folds {
		rw := row{cells: []cell{rawCell(strconv.Itoa(f.Fold))}}
		tn, tp := math.NaN(), math.NaN()
		for _, th := range b.r.Thresholds {
			if th.System == sys && th.Fold == f.Fold {
				tn, tp = float64(th.TauNeg), float64(th.TauPos)
			}
		}
		rw.cells = append(rw.cells, cell{v: tn, dec: 4}, cell{v: tp, dec: 4})
		for i, m := range ms {
			c := cell{v: math.NaN(), dec: b.opt.Decimals}
			if ids[i] == metrics.ClinicalWorkloadPer1000.ID() {
				c.dec = 1
			}
			if fi < len(m.Folds) && m.Folds[fi].Valid() {
				c.v = float64(m.Folds[fi])
			}
			rw.cells = append(rw.cells, c)
		}
		t.rows = append(t.rows, rw)
	}
	pooled := row{cells: []cell{rawCell("Pooled"), {v: math.NaN(), none: true}, {v: math.NaN(), none: true}}, rule: true}
	for _, id := range ids {
		c, _ := b.value(sys, id, report.Whole)
		if id == metrics.ClinicalWorkloadPer1000.ID() {
			c.dec = 1
			c.unc = ""
		}
		pooled.cells = append(pooled.cells, c)
	}
	t.rows = append(t.rows, pooled)
	g := b.r.Settings.Gate
	origin := b.r.ThresholdOrigin() // never tune rows where the input has none
	if origin == "" || origin == "chosen on tune rows only" {
		origin = "chosen on the fold's tune rows"
	}
	t.caption = "Three-state clinical gate of " + b.label(sys) + ": per fold, the thresholds " + origin + " and what they give on its eval rows, then pooled over " +
		b.population(metrics.AllQueries) + "."
	t.note = "Targets: screening sensitivity at least " + tables.FormatNum(g.ScreenSensitivity, -1) + ", alert precision at least " +
		tables.FormatNum(g.AlertPrecision, -1) + "."
	// The workload is the sentences read: a classifier-only table has
	// none, and no column to explain.
	if _, ok := b.r.Metric(sys, metrics.ClinicalWorkloadPer1000.ID(), report.Whole); ok {
		t.note += " Workload: sentences a reviewer reads per 1,000 queries."
	}
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 1
}

// dynamicKTable is dynamic_k.tex: the primary system's gamma sweep.
func (b builder) dynamicKTable() (*table, bool) {
	if !b.present(report.DynamicK) {
		return nil, false
	}
	sys := b.primary()
	bases := []metrics.Base{metrics.DynKMeanK, metrics.DynKEvidenceRecall, metrics.DynKEvidencePrecision, metrics.DynKWorkloadPer1000}
	heads := []string{"Mean $K$", stack("Evidence", "recall"), stack("Evidence", "precision"), stack("Workload", "/ 1,000")}
	t := &table{name: "dynamic_k", cols: []col{{head: `$\gamma$`}}}
	for _, h := range heads {
		t.cols = append(t.cols, col{head: h, num: true})
	}
	for _, g := range b.r.Settings.GammaSweep {
		rw := row{cells: []cell{rawCell(tables.FormatNum(g, -1))}}
		if strings.Contains(strconv.FormatFloat(g, 'g', -1, 64), ".") {
			rw.cells[0] = rawCell(strconv.FormatFloat(g, 'g', -1, 64))
		}
		any := false
		for _, base := range bases {
			c, ok := b.value(sys, base.AtGamma(g), report.Whole)
			if base == metrics.DynKMeanK || base == metrics.DynKWorkloadPer1000 {
				c.dec = 2
				if base == metrics.DynKWorkloadPer1000 {
					c.dec = 1
				}
				c.unc = ""
			}
			any = any || ok
			rw.cells = append(rw.cells, c)
		}
		if any {
			t.rows = append(t.rows, rw)
		}
	}
	t.caption = "Dynamic-$K$ evidence selection of " + b.label(sys) + " over the cumulative-probability target $\\gamma$, over " +
		b.population(metrics.PositivesOnly) + "."
	t.note = "Mean $K$: sentences selected per query; evidence recall and precision of the selected sentences; workload: sentences read per 1,000 queries."
	t.uncText = b.uncertaintyNote()
	return t, len(t.rows) > 0
}
