package figures

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/report"
)

// build returns every static figure the Report has data for, in a fixed
// order.
func build(r *report.Report) []*figure {
	ix := newIndex(r)
	keys := systemKeys(r)
	var figs []*figure
	add := func(f *figure) {
		if f != nil {
			figs = append(figs, f)
		}
	}
	for i := range r.Curves.ROC {
		add(rocFigure(r, &r.Curves.ROC[i], keys))
	}
	add(rocOverlay(r))
	for i := range r.Curves.PR {
		add(prFigure(r, &r.Curves.PR[i], keys))
	}
	add(prOverlay(r))
	for i := range r.Curves.Reliability {
		add(reliabilityFigure(r, &r.Curves.Reliability[i], keys))
	}
	for i := range r.Curves.Decision {
		add(decisionFigure(r, &r.Curves.Decision[i], keys))
	}
	for _, s := range systemOrder(r, false) {
		add(criteriaAUROC(r, ix, s, keys))
		add(criteriaRanking(r, ix, s, keys))
	}
	for _, s := range systemOrder(r, false) {
		for _, g := range []histGroup{histAll, histState, histEvidence} {
			add(dynkHist(r, s, g, keys))
		}
	}
	for _, s := range systemOrder(r, false) {
		add(rankAtK(r, ix, s, true, keys))
		add(rankAtK(r, ix, s, false, keys))
	}
	for _, s := range systemOrder(r, false) {
		add(difficultyFigure(r, ix, s, keys))
	}
	for _, s := range systemOrder(r, false) {
		add(gammaSweep(r, s, keys))
	}
	for _, s := range systemOrder(r, false) {
		for _, m := range gridMetrics {
			add(gateGrid(r, s, m, keys))
		}
	}
	for _, s := range systemOrder(r, false) {
		add(perQueryHeat(r, s, keys))
	}
	add(systemsFigure(r, ix))
	return figs
}

// unitPlot is the frame of ROC and PR figures: both axes [0, 1].
func unitPlot(title, xl, yl string) *plot.Plot {
	p := newPlot(title, xl, yl)
	unitRange(&p.X, 0, 1, 0.2)
	unitRange(&p.Y, 0, 1, 0.2)
	return p
}

// mustLine builds a line plotter; the points are finite by construction.
func mustLine(xy plotter.XYs, sty draw.LineStyle) *plotter.Line {
	l, err := plotter.NewLine(xy)
	if err != nil {
		panic("figures: " + err.Error()) // programmer error: NaN reached a line
	}
	l.LineStyle = sty
	return l
}

func mustPolygon(rings []plotter.XYs, fill any) *plotter.Polygon {
	xys := make([]plotter.XYer, len(rings))
	for i := range rings {
		xys[i] = rings[i]
	}
	pg, err := plotter.NewPolygon(xys...)
	if err != nil {
		panic("figures: " + err.Error())
	}
	pg.LineStyle.Width = 0
	return pg
}

// rocFigure is one system's ROC: the 95% bootstrap band, one faint line
// per fold, the full-sample curve, the chance diagonal, and the held-out
// operating points marked and tagged.
func rocFigure(r *report.Report, c *report.ROCCurve, keys map[string]string) *figure {
	full := segments(c.FPR, c.TPR)
	if len(full) == 0 {
		return nil
	}
	label := systemLabel(r, c.System)
	p := unitPlot("ROC: "+label, "False positive rate (fraction of negatives)", "True positive rate (fraction of positives)")
	leg := newLegend()
	parts := map[string]any{}

	diag := mustLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, draw.LineStyle{Color: grey, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}})
	p.Add(diag)

	col := seriesColor(0)
	addBandAndFolds(p, leg, parts, col, c.Grid, c.BandLow, c.BandHigh, c.Folds)
	var curves []*plotter.Line
	for _, seg := range full {
		seg = dropCollinear(seg)
		l := mustLine(seg, draw.LineStyle{Color: col, Width: vg.Points(1.3)})
		p.Add(l)
		curves = append(curves, l)
	}
	parts["curve"] = curves
	parts["grid_curve"] = segments(c.Grid, c.GridTPR)
	auc := "AUROC " + fmt3(num(c.AUROC))
	leg.Add("Full sample ("+auc+")", legendLine{curves[0].LineStyle})
	leg.Add("Chance", legendLine{diag.LineStyle})

	var pts plotter.XYs
	var names []string
	for i, op := range c.Points {
		if !op.FPR.Valid() || !op.TPR.Valid() {
			continue
		}
		xy := plotter.XY{X: float64(op.FPR), Y: float64(op.TPR)}
		pts = append(pts, xy)
		names = append(names, op.Label)
		g := draw.GlyphStyle{Color: black, Radius: vg.Points(2.6), Shape: seriesGlyph(i)}
		s, _ := plotter.NewScatter(plotter.XYs{xy})
		s.GlyphStyle = g
		p.Add(s)
		leg.Add(op.Label+"\n(held out: FPR "+trimFloat(xy.X, 3)+", TPR "+trimFloat(xy.Y, 3)+")", legendGlyph{g})
	}
	if len(pts) > 0 {
		short := make([]string, len(names))
		for i := range names {
			short[i] = shortOpLabel(names[i])
		}
		p.Add(&tags{XYs: pts, Texts: short, Style: textStyle(sizeTag), Avoid: curveXYs(curves)})
		parts["points"] = pts
		parts["point_labels"] = names
	}
	return &figure{name: "roc_" + keys[c.System], w: figW + 0.6*vg.Inch, h: figH + 0.3*vg.Inch, parts: parts,
		draw: func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

func curveXYs(ls []*plotter.Line) []plotter.XYs {
	out := make([]plotter.XYs, len(ls))
	for i, l := range ls {
		out[i] = l.XYs
	}
	return out
}

// shortOpLabel is the tag written beside an operating point: the label's
// last word (the FPR budget of "FPR budget 0.05").
func shortOpLabel(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[i+1:]
		}
	}
	return s
}

// rocOverlay draws the full-sample ROC of every system on one plot.
func rocOverlay(r *report.Report) *figure {
	if len(r.Curves.ROC) < 2 {
		return nil
	}
	p := unitPlot("ROC: all systems", "False positive rate (fraction of negatives)", "True positive rate (fraction of positives)")
	leg := newLegend()
	diag := mustLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, draw.LineStyle{Color: grey, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}})
	p.Add(diag)
	var lines []*plotter.Line
	for i := range r.Curves.ROC {
		c := &r.Curves.ROC[i]
		sty := lineStyle(i, 1.2)
		first := true
		for _, seg := range segments(c.FPR, c.TPR) {
			seg = dropCollinear(seg)
			l := mustLine(seg, sty)
			p.Add(l)
			lines = append(lines, l)
			if first {
				leg.Add(systemLabel(r, c.System)+"\n(AUROC "+fmt3(num(c.AUROC))+")", legendLine{sty})
				first = false
			}
		}
	}
	leg.Add("Chance", legendLine{diag.LineStyle})
	return &figure{name: "roc_overlay", w: figW + 0.6*vg.Inch, h: figH + 0.3*vg.Inch, parts: map[string]any{"curves": lines},
		draw: func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// prFigure is one system's precision-recall curve: band, folds, the
// full-sample step curve and the positive-rate baseline.
func prFigure(r *report.Report, c *report.PRCurve, keys map[string]string) *figure {
	full := segments(c.Recall, c.Precision)
	if len(full) == 0 {
		return nil
	}
	label := systemLabel(r, c.System)
	p := unitPlot("Precision-recall: "+label, "Recall (fraction of positives found)", "Precision (fraction of flagged that are positive)")
	leg := newLegend()
	parts := map[string]any{}
	col := seriesColor(0)
	addBandAndFolds(p, leg, parts, col, c.Grid, c.BandLow, c.BandHigh, c.Folds)
	var curves []*plotter.Line
	for _, seg := range full {
		st := dropCollinear(postSteps(seg))
		l := mustLine(st, draw.LineStyle{Color: col, Width: vg.Points(1.3)})
		p.Add(l)
		curves = append(curves, l)
	}
	parts["curve"] = curves
	leg.Add("Full sample (AP "+fmt3(num(c.AP))+")", legendLine{curves[0].LineStyle})
	if c.PositiveRate.Valid() {
		pr := float64(c.PositiveRate)
		l := mustLine(plotter.XYs{{X: 0, Y: pr}, {X: 1, Y: pr}}, draw.LineStyle{Color: grey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}})
		p.Add(l)
		leg.Add("Positive rate "+fmt3(pr)+"\n(random classifier)", legendLine{l.LineStyle})
		parts["baseline"] = pr
	}
	return &figure{name: "pr_" + keys[c.System], w: figW + 0.6*vg.Inch, h: figH + 0.3*vg.Inch, parts: parts,
		draw: func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// prOverlay draws every system's precision-recall curve on one plot.
func prOverlay(r *report.Report) *figure {
	if len(r.Curves.PR) < 2 {
		return nil
	}
	p := unitPlot("Precision-recall: all systems", "Recall (fraction of positives found)", "Precision (fraction of flagged that are positive)")
	leg := newLegend()
	for i := range r.Curves.PR {
		c := &r.Curves.PR[i]
		sty := lineStyle(i, 1.2)
		first := true
		for _, seg := range segments(c.Recall, c.Precision) {
			st := dropCollinear(postSteps(seg))
			p.Add(mustLine(st, sty))
			if first {
				leg.Add(systemLabel(r, c.System)+"\n(AP "+fmt3(num(c.AP))+")", legendLine{sty})
				first = false
			}
		}
	}
	if pr := r.Curves.PR[0].PositiveRate; pr.Valid() {
		l := mustLine(plotter.XYs{{X: 0, Y: float64(pr)}, {X: 1, Y: float64(pr)}}, draw.LineStyle{Color: grey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}})
		p.Add(l)
		leg.Add("Positive rate "+fmt3(float64(pr)), legendLine{l.LineStyle})
	}
	return &figure{name: "pr_overlay", w: figW + 0.6*vg.Inch, h: figH + 0.3*vg.Inch,
		draw: func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// reliabilityFigure is the reliability diagram: observed frequency against
// mean predicted probability per bin with Wilson 95% intervals and the
// diagonal of perfect calibration, over a histogram of bin counts.
func reliabilityFigure(r *report.Report, rel *report.Reliability, keys map[string]string) *figure {
	if len(rel.Bins) == 0 {
		return nil
	}
	label := systemLabel(r, rel.System)
	top := newPlot("Reliability: "+label, "", "Observed frequency of evidence")
	unitRange(&top.X, 0, 1, 0.2)
	unitRange(&top.Y, 0, 1, 0.2)
	leg := newLegend()
	diag := mustLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, draw.LineStyle{Color: grey, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}})
	top.Add(diag)
	col := seriesColor(0)
	d := &dots{Glyph: draw.GlyphStyle{Color: col, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}},
		Err: draw.LineStyle{Color: col, Width: vg.Points(0.8)}}
	var line plotter.XYs
	for _, b := range rel.Bins {
		if b.Count == 0 || !b.MeanP.Valid() || !b.ObsFreq.Valid() {
			continue
		}
		d.X = append(d.X, float64(b.MeanP))
		d.Y = append(d.Y, float64(b.ObsFreq))
		d.Lo = append(d.Lo, num(b.WilsonLo))
		d.Hi = append(d.Hi, num(b.WilsonHi))
		line = append(line, plotter.XY{X: float64(b.MeanP), Y: float64(b.ObsFreq)})
	}
	if len(line) > 1 {
		top.Add(mustLine(line, draw.LineStyle{Color: col, Width: vg.Points(0.9)}))
	}
	top.Add(d)
	leg.Add("Bin (mean p,\nobserved frequency)", legendGlyph{d.Glyph})
	leg.Add("Wilson 95% interval", legendLine{d.Err})
	leg.Add("Perfect calibration", legendLine{diag.LineStyle})

	bottom := newPlot("", "Predicted probability of evidence (ne_prob)", "Queries (log)")
	unitRange(&bottom.X, 0, 1, 0.2)
	bottom.Y.Scale = plot.LogScale{}
	top.X.Tick.Marker = blankTicks{top.X.Tick.Marker}
	hb := &bars{Base: 1, Color: fade(grey, 0.6), Line: draw.LineStyle{Color: grey, Width: vg.Points(0.4)}}
	maxc := 1.0
	var counts []int
	for _, b := range rel.Bins {
		counts = append(counts, b.Count)
		if !b.Lo.Valid() || !b.Hi.Valid() {
			continue
		}
		lo, hi := float64(b.Lo), float64(b.Hi)
		hb.X = append(hb.X, (lo+hi)/2)
		hb.Width = math.Max(hb.Width, (hi-lo)*0.9)
		y := float64(b.Count)
		if b.Count == 0 {
			y = math.NaN()
		}
		hb.Y = append(hb.Y, y)
		maxc = math.Max(maxc, float64(b.Count))
	}
	bottom.Add(hb)
	bottom.Y.Min = 1
	decades := int(math.Ceil(math.Log10(maxc * 1.05)))
	bottom.Y.Max = math.Pow(10, float64(max(decades, 1)))
	bottom.Y.Tick.Marker = decadeTicks(max(decades, 1))
	leg.Add("Queries per bin", hb)
	return &figure{name: "reliability_" + keys[rel.System], w: figW + 0.6*vg.Inch, h: figH + 0.9*vg.Inch,
		parts: map[string]any{"points": d, "counts": counts, "bars": hb},
		draw:  func(cv draw.Canvas) { drawStack(cv, []*plot.Plot{top, bottom}, []float64{0.7, 0.3}, vg.Points(6), leg) }}
}

// decadeTicks labels powers of ten from 1 to 10^n, at most four labels.
func decadeTicks(n int) plot.ConstantTicks {
	step := (n + 3) / 4
	var ticks []plot.Tick
	for d := 0; d <= n; d++ {
		t := plot.Tick{Value: math.Pow(10, float64(d))}
		if d%step == 0 {
			t.Label = decadeLabel(d)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func decadeLabel(d int) string {
	switch {
	case d < 3:
		return strconv.Itoa(int(math.Pow(10, float64(d))))
	case d < 6:
		return strconv.Itoa(int(math.Pow(10, float64(d-3)))) + "k"
	}
	return strconv.Itoa(int(math.Pow(10, float64(d-6)))) + "M"
}

// decisionFigure is the decision curve: net benefit of acting on the
// model, of treating all, and of treating none, over threshold
// probabilities.
func decisionFigure(r *report.Report, d *report.DecisionCurve, keys map[string]string) *figure {
	model := segments(d.Threshold, d.Model)
	if len(model) == 0 {
		return nil
	}
	label := systemLabel(r, d.System)
	p := newPlot("Decision curve: "+label, "Threshold probability", "Net benefit (net true positives per query)")
	leg := newLegend()
	// The y range: from a little below zero to a little above the
	// largest net benefit (treat-all falls steeply; it is clipped).
	ymax := 0.0
	for _, s := range append(model, segments(d.Threshold, d.TreatAll)...) {
		for _, xy := range s {
			ymax = math.Max(ymax, xy.Y)
		}
	}
	if ymax <= 0 {
		ymax = 0.05
	}
	none := mustLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}, draw.LineStyle{Color: black, Width: vg.Points(0.8)})
	p.Add(none)
	all := draw.LineStyle{Color: grey, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
	for _, s := range segments(d.Threshold, d.TreatAll) {
		p.Add(mustLine(s, all))
	}
	ms := draw.LineStyle{Color: seriesColor(0), Width: vg.Points(1.3)}
	for _, s := range model {
		p.Add(mustLine(s, ms))
	}
	p.Y.Min, p.Y.Max = -0.25*ymax, 1.1*ymax
	unitRange(&p.X, 0, 1, 0.2)
	leg.Add(label, legendLine{ms})
	leg.Add("Treat all", legendLine{all})
	leg.Add("Treat none", legendLine{none.LineStyle})
	return &figure{name: "decision_curve_" + keys[d.System], w: figW + 0.6*vg.Inch, h: figH,
		parts: map[string]any{"model": model},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// addBandAndFolds draws the bootstrap band (a polygon, upper bound forward
// and lower bound back; split where a bound is undefined) and one faint line
// per fold, shared by the ROC and PR figures.
func addBandAndFolds(p *plot.Plot, leg *plot.Legend, parts map[string]any, col color.NRGBA, grid, low, high []report.Num, folds [][]report.Num) {
	if rings := band(grid, low, high); len(rings) > 0 {
		pg := mustPolygon(rings, nil)
		pg.Color = fade(col, 0.22)
		p.Add(pg)
		leg.Add("95% CI (bootstrap)", legendFill{pg.Color})
		parts["band"] = pg
	}
	var foldLines []*plotter.Line
	for _, f := range folds {
		for _, seg := range segments(grid, f) {
			l := mustLine(seg, draw.LineStyle{Color: fade(grey, 0.55), Width: vg.Points(0.5)})
			p.Add(l)
			foldLines = append(foldLines, l)
		}
	}
	if len(foldLines) > 0 {
		leg.Add("Per fold", legendLine{foldLines[0].LineStyle})
		parts["folds"] = foldLines
	}
}
