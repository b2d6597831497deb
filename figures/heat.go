package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// This file builds the heat maps (threshold grids, per-query values) and
// the gamma sweep.

// gridMetric is one quantity of the clinical threshold grid.
type gridMetric struct {
	kind        Kind
	title, unit string
	get         func(c *report.GridCell) report.Num
	unitRange   bool
	naNote      string
}

var gridMetrics = []gridMetric{
	{KindGateGridSensitivity, "Screening sensitivity", "Screening sensitivity (fraction of positives)",
		func(c *report.GridCell) report.Num { return c.ScreenSensitivity }, true, "n/a (no positive)"},
	{KindGateGridAlertPrecision, "Alert precision", "Alert precision (fraction of alerts)",
		func(c *report.GridCell) report.Num { return c.AlertPrecision }, true, "n/a (no alert)"},
	{KindGateGridWorkload, "Review workload", "Workload (sentences per 1,000 queries)",
		func(c *report.GridCell) report.Num { return c.WorkloadPer1000 }, false, "n/a"},
}

// value is a grid value for a tooltip: three decimals on [0, 1], else one.
func (gm gridMetric) value(v float64) Value {
	if gm.unitRange {
		return Num(v, 3)
	}
	return Num(v, 1)
}

// gateGrid draws one quantity of the threshold grid over tau_neg x
// tau_pos, on tune rows and on eval rows side by side with one colour
// scale; the per-fold chosen thresholds are ringed.
func (c *cat) gateGrid(system string, gm gridMetric) (*Spec, string) {
	sets := map[string][]*report.GridCell{}
	for i := range c.r.Curves.GateGrid {
		g := &c.r.Curves.GateGrid[i]
		if g.System == system && g.TauNeg.Valid() && g.TauPos.Valid() {
			sets[g.On] = append(sets[g.On], g)
		}
	}
	var ons []string
	for _, on := range []string{"tune", "eval"} {
		if len(sets[on]) > 0 {
			ons = append(ons, on)
		}
	}
	if len(ons) == 0 {
		return nil, c.sectionReason(report.ClinicalGate, "the system has no derived gate (no ne_prob)")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, on := range ons {
		for _, g := range sets[on] {
			if v := gm.get(g); v.Valid() {
				lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
			}
		}
	}
	if math.IsInf(lo, 0) && !gm.unitRange {
		// The review workload counts the sentences read: without
		// candidate lists (a classifier-only table) it is undefined in
		// every cell, and an all-grey map says nothing.
		return nil, "the inputs have no candidate lists, so there is nothing to review"
	}
	if gm.unitRange || math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = lo + 1
	}
	scale := &ColorScale{Min: lo, Max: hi, Label: gm.unit}
	if gm.unitRange {
		scale.Step = 0.2
	}
	chosen := &Points{Name: "Chosen per fold", Style: Style{Role: Chosen, Size: 2.6}}
	for _, t := range c.r.Thresholds {
		if t.System == system && t.TauNeg.Valid() && t.TauPos.Valid() {
			chosen.Points = append(chosen.Points, Point{X: float64(t.TauNeg), Y: float64(t.TauPos),
				Tip: Tip{field("fold", Int(t.Fold)), atX("tau_neg", Num(float64(t.TauNeg), Shortest)), atY("tau_pos", Num(float64(t.TauPos), Shortest))}})
		}
	}
	var panels []Panel
	undefined := 0
	for k, on := range ons {
		h := gridHeat(sets[on], gm)
		for _, cl := range h.Cells {
			if cl.Undefined {
				undefined++
			}
		}
		w, hh := MinStep(h.ColAt), MinStep(h.RowAt)
		p := Panel{Title: map[string]string{"tune": "Tune rows", "eval": "Eval rows"}[on],
			X: Axis{Label: "Screening threshold tau_neg", Fixed: true, Min: -w / 2, Max: 1 + w/2, Ticks: stepTicks(0, 1, 0.2)},
			Y: Axis{Label: "Alert threshold tau_pos", Fixed: true, Min: -hh / 2, Max: 1 + hh/2, Ticks: stepTicks(0, 1, 0.2)}}
		if k > 0 {
			p.Y.Label = ""
		}
		p.Elements = append(p.Elements, h)
		if len(chosen.Points) > 0 {
			p.Elements = append(p.Elements, chosen)
		}
		panels = append(panels, p)
	}
	var leg []LegendEntry
	if len(chosen.Points) > 0 {
		leg = append(leg, LegendEntry{Keys: []Key{{MarkMarker, chosen.Style}}, Text: "Chosen per fold\n(" + chosenWhere(c.r) + ")"})
	}
	if undefined > 0 {
		leg = append(leg, LegendEntry{Keys: []Key{{MarkFill, Style{Role: Undefined}}}, Text: gm.naNote})
	}
	leg = append(leg, LegendEntry{Keys: []Key{{MarkFill, Style{Role: Blank}}}, Text: "Not evaluated\n(tau_pos < tau_neg)"})
	return &Spec{Kind: gm.kind, Layout: Row, Scale: scale,
		Subtitle: "rings: thresholds chosen per fold " + chosenWhere(c.r) + "; blank: tau_pos < tau_neg",
		Alt: "Heat maps of " + strings.ToLower(gm.title) + " of " + label(c.r, system) + " over the grid of screening threshold tau_neg and alert threshold tau_pos, on " +
			strings.Join(ons, " and ") + " rows, with the per-fold chosen thresholds ringed.",
		Panels: panels, Legend: leg, Notes: undefinedCells(undefined, gm.naNote)}, ""
}

func undefinedCells(n int, why string) []string {
	if n == 0 {
		return nil
	}
	return []string{strconv.Itoa(n) + " cells undefined, grey: " + why}
}

// gridHeat is the heat map of one set of grid cells, columns and rows at
// the distinct thresholds.
func gridHeat(cells []*report.GridCell, gm gridMetric) *HeatMap {
	xs, ys := map[float64]bool{}, map[float64]bool{}
	for _, g := range cells {
		xs[float64(g.TauNeg)], ys[float64(g.TauPos)] = true, true
	}
	h := &HeatMap{Name: gm.title, ColAt: sortedKeys(xs), RowAt: sortedKeys(ys), Decimals: 3}
	if !gm.unitRange {
		h.Decimals = 1
	}
	xi, yi := map[float64]int{}, map[float64]int{}
	for i, x := range h.ColAt {
		xi[x] = i
		h.Cols = append(h.Cols, TrimFloat(x, 4))
	}
	for i, y := range h.RowAt {
		yi[y] = i
		h.Rows = append(h.Rows, TrimFloat(y, 4))
	}
	for _, g := range cells {
		v := gm.get(g)
		cl := Cell{Col: xi[float64(g.TauNeg)], Row: yi[float64(g.TauPos)], Undefined: !v.Valid()}
		what := TextValue(gm.naNote)
		if v.Valid() {
			cl.Value = float64(v)
			what = gm.value(float64(v))
		}
		cl.Tip = Tip{atX("tau_neg", Num(float64(g.TauNeg), Shortest)), atY("tau_pos", Num(float64(g.TauPos), Shortest)),
			atValue(strings.ToLower(gm.title), what)}
		h.Cells = append(h.Cells, cl)
	}
	return h
}

func sortedKeys(m map[float64]bool) []float64 {
	out := make([]float64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Float64s(out)
	return out
}

// MinStep is the smallest gap between sorted distinct values (1 if fewer
// than two).
func MinStep(v []float64) float64 {
	step := math.Inf(1)
	for i := 1; i < len(v); i++ {
		step = math.Min(step, v[i]-v[i-1])
	}
	if math.IsInf(step, 0) {
		return 1
	}
	return step
}

// gammaSweep draws mean selected K against evidence recall, one point per
// gamma of the sweep, each tagged with its gamma.
func (c *cat) gammaSweep(system string) (*Spec, string) {
	pts := &Points{Name: "Sweep point", Style: Style{Role: Primary, Size: 2.4}}
	var line []XY
	skipped := 0
	for _, s := range c.r.Curves.GammaSweep {
		if s.System != system {
			continue
		}
		if !s.MeanK.Valid() || !s.EvidenceRecall.Valid() || !s.Gamma.Valid() {
			skipped++
			continue
		}
		x, y, g := float64(s.MeanK), float64(s.EvidenceRecall), float64(s.Gamma)
		pts.Points = append(pts.Points, Point{X: x, Y: y, Tag: "γ = " + TrimFloat(g, 3),
			Tip: Tip{field("gamma", Num(g, Shortest)), atX("mean K", Num(x, 2)), atY("evidence recall", Num(y, 3)),
				field("evidence precision", Num(num(s.EvidencePrecision), 3)),
				field("workload per 1,000 queries", Num(num(s.WorkloadPer1000), 0))}})
		line = append(line, XY{x, y})
	}
	if len(pts.Points) == 0 {
		return nil, c.sectionReason(report.DynamicK, "the report has no gamma sweep for this system")
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range line {
		xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
		ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
	}
	// Room for the tags: the x range padded by 10% each side; the y range
	// the points with 15% room, at least 0.1 wide, within [0, 1].
	pad := math.Max(0.1*(xmax-xmin), 0.25)
	span := math.Max(ymax-ymin, 0.1)
	mid := (ymin + ymax) / 2
	p := Panel{
		X: Axis{Label: "Mean selected K (sentences per query)", Fixed: true, Min: math.Max(0, xmin-pad), Max: xmax + pad},
		Y: Axis{Label: "Evidence recall (positive queries)", Fixed: true, Min: math.Max(0, mid-0.65*span), Max: math.Min(1, mid+0.65*span)},
	}
	lineStyle := Style{Role: Primary, Width: 1.1}
	if len(line) > 1 {
		p.Elements = append(p.Elements, &Line{Name: "Sweep point", Style: lineStyle, Segments: [][]XY{line}})
	}
	p.Elements = append(p.Elements, pts)
	return &Spec{Kind: KindGammaSweep, Subtitle: "one point per γ", Hint: "hover a point for precision and workload",
		Alt:    "Line chart of evidence recall against mean selected K for " + strconv.Itoa(len(line)) + " values of gamma of the Dynamic-K sweep of " + label(c.r, system) + ".",
		Panels: []Panel{p}, Legend: []LegendEntry{{Keys: []Key{{MarkLine, lineStyle}, {MarkMarker, pts.Style}}, Text: "Sweep point"}},
		Notes: leftOut(skipped)}, ""
}

// heatColumn picks the per-query metric of the posts x criteria heat map:
// the first of a preference list that the Report has, defined for all
// queries when possible.
func (c *cat) heatColumn() int {
	want := []metrics.ID{metrics.DynKEvidenceRecallAll.ID(), metrics.RankMRR.ID()}
	if c.k > 0 {
		want = []metrics.ID{metrics.DynKEvidenceRecallAll.ID(), metrics.RankRecall.At(c.k), metrics.RankMRR.ID()}
	}
	for _, w := range want {
		for j, col := range c.r.PerQueryColumns {
			if col == w {
				return j
			}
		}
	}
	if len(c.r.PerQueryColumns) > 0 {
		return 0
	}
	return -1
}

// perQueryHeat draws one system's per-query metric as a posts x criteria
// heat map (posts in input order along x, criteria along y); queries
// without a defined value are grey.
func (c *cat) perQueryHeat(system string) (*Spec, string) {
	col := c.heatColumn()
	crit, notDrawn := c.criteria()
	if col < 0 {
		return nil, "the report has no per-query values"
	}
	if len(crit) == 0 {
		return nil, c.sectionReason(report.PerPost, "the inputs have no criterion_id column")
	}
	ci := map[string]int{}
	for i, cr := range crit {
		ci[cr] = i
	}
	id := c.r.PerQueryColumns[col]
	title := string(id)
	if d, ok := metrics.Lookup(id); ok && d.Title != "" {
		title = d.Title
	}
	h := &HeatMap{Name: title, Rows: crit, Decimals: 3}
	pi := map[string]int{}
	undefined := 0
	for i := range c.r.PerQuery {
		q := &c.r.PerQuery[i]
		if q.System != system {
			continue
		}
		r, ok := ci[q.Criterion]
		if !ok {
			continue
		}
		p, ok := pi[q.Post]
		if !ok {
			p = len(h.Cols)
			pi[q.Post] = p
			h.Cols = append(h.Cols, q.Post)
		}
		cl := Cell{Col: p, Row: r, Undefined: true}
		if v := q.Value(col); v.Valid() {
			cl.Value, cl.Undefined = float64(v), false
		} else {
			undefined++
		}
		h.Cells = append(h.Cells, cl)
	}
	if len(h.Cells) == 0 {
		return nil, "the system has no per-query rows"
	}
	p := Panel{
		X: Axis{Label: "Post (" + strconv.Itoa(len(h.Cols)) + " posts, input order)", Categories: h.Cols, IndexTicks: true,
			Fixed: true, Min: -0.5, Max: float64(len(h.Cols)) - 0.5},
		Y:        Axis{Label: "Criterion", Categories: crit, Fixed: true, Min: -0.6, Max: float64(len(crit)) - 0.4},
		Elements: []Element{h},
	}
	var leg []LegendEntry
	if undefined > 0 {
		leg = append(leg, LegendEntry{Keys: []Key{{MarkFill, Style{Role: Undefined}}}, Text: "n/a\n(" + c.say(queries(undefined)) + ")"})
	}
	return &Spec{Kind: KindPerQueryHeatmap, Title: title + ", per query: " + label(c.r, system), Scale: &ColorScale{Min: 0, Max: 1, Label: title, Step: 0.2},
		Subtitle: "posts in input order; grey: undefined; blank: no query",
		Alt: "Heat map of " + title + " (" + string(id) + ") of " + label(c.r, system) + " for each of " + queries(len(h.Cells)) +
			", posts along x in input order and " + strconv.Itoa(len(crit)) + " criteria along y.",
		Panels: []Panel{p}, Legend: leg, Notes: append(undefinedCells(undefined, "the metric is undefined for the query"), notDrawn...)}, ""
}

// chosenWhere says where the folds' thresholds were chosen: on their tune
// rows, or (a fold without tune rows) cross-fitted on the other folds'
// eval rows.
func chosenWhere(r *report.Report) string {
	tune, cross := r.ThresholdSources()
	switch {
	case cross && tune:
		return "on tune rows or cross-fitted"
	case cross:
		return "cross-fitted on the other folds"
	}
	return "on tune rows"
}
