package figures

import (
	"math"
	"strconv"

	"paperbundle/report"
)

// This file builds the curve figures: ROC and precision-recall (per
// system and overlaid), the reliability diagram and the decision curve.

const (
	fprLabel       = "False positive rate (fraction of negatives)"
	tprLabel       = "True positive rate (fraction of positives)"
	recallLabel    = "Recall (fraction of positives found)"
	precisionLabel = "Precision (fraction of flagged that are positive)"
)

func (c *cat) rocCurve(system string) *report.ROCCurve {
	for i := range c.r.Curves.ROC {
		if c.r.Curves.ROC[i].System == system {
			return &c.r.Curves.ROC[i]
		}
	}
	return nil
}

func (c *cat) prCurve(system string) *report.PRCurve {
	for i := range c.r.Curves.PR {
		if c.r.Curves.PR[i].System == system {
			return &c.r.Curves.PR[i]
		}
	}
	return nil
}

// thresholdValue is the ROC threshold of point i: the point before the
// first threshold (nothing flagged) is at +inf.
func thresholdValue(t []report.Num, i int) Value {
	if i < len(t) && t[i].Valid() {
		return Num(float64(t[i]), Shortest)
	}
	return TextValue("+inf")
}

// rocTip is the tooltip of point i of a ROC curve.
func rocTip(rc *report.ROCCurve, i int) Tip {
	return Tip{field("threshold", thresholdValue(rc.Thresholds, i)),
		atX("FPR", Num(num(rc.FPR[i]), 3)), atY("TPR", Num(num(rc.TPR[i]), 3))}
}

// prTip is the tooltip of point i of a precision-recall curve.
func prTip(pc *report.PRCurve, i int) Tip {
	t := TextValue("n/a")
	if i < len(pc.Thresholds) && pc.Thresholds[i].Valid() {
		t = Num(float64(pc.Thresholds[i]), Shortest)
	}
	return Tip{field("threshold", t), atX("recall", Num(num(pc.Recall[i]), 3)), atY("precision", Num(num(pc.Precision[i]), 3))}
}

func diagonal() *Line {
	return &Line{Name: "Chance", Style: Style{Role: Diagonal}, Segments: [][]XY{{{0, 0}, {1, 1}}}}
}

// bandAndFolds returns the bootstrap band and the per-fold lines on the
// grid, with their legend entries.
func (c *cat) bandAndFolds(grid, lo, hi []report.Num, folds [][]report.Num) (els []Element, leg []LegendEntry, skipped int) {
	if runs := bandRuns(grid, lo, hi); len(runs) > 0 {
		els = append(els, &Band{Name: ciName(c.r), Style: Style{Role: Confidence}, Runs: runs})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkFill, Style{Role: Confidence}}}, Text: ciName(c.r)})
		for _, run := range runs {
			skipped -= len(run.X)
		}
		skipped += min(len(grid), len(lo), len(hi))
	}
	n := 0
	for _, f := range folds {
		segs, _ := segments(grid, f, nil)
		if len(segs) > 0 {
			els = append(els, &Line{Name: "Per fold", Style: Style{Role: Fold}, Segments: segs})
			n++
		}
	}
	if n > 0 {
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Fold}}}, Text: "Per fold"})
	}
	return els, leg, skipped
}

// roc is one system's ROC: the bootstrap band, one faint line per fold,
// the full-sample curve, the chance diagonal, and the held-out operating
// points marked and tagged.
func (c *cat) roc(system string) (*Spec, string) {
	rc := c.rocCurve(system)
	if rc == nil {
		return nil, c.sectionReason(report.NEGate, "the report has no ROC curve for this system")
	}
	full, tips := segments(rc.FPR, rc.TPR, func(i int) Tip { return rocTip(rc, i) })
	if len(full) == 0 {
		return nil, "the ROC curve has no defined point (one class only)"
	}
	auc := "AUROC " + c.fmtv(num(rc.AUROC))
	p := Panel{X: unitAxis(fprLabel), Y: unitAxis(tprLabel)}
	p.Elements = append(p.Elements, diagonal())
	band, leg, skipped := c.bandAndFolds(rc.Grid, rc.BandLow, rc.BandHigh, rc.Folds)
	p.Elements = append(p.Elements, band...)
	p.Elements = append(p.Elements, &Line{Name: "Full sample", Style: Style{Role: Primary}, Segments: full, Tips: tips})
	leg = append(leg,
		LegendEntry{Keys: []Key{{MarkLine, Style{Role: Primary}}}, Text: "Full sample (" + auc + ")"},
		LegendEntry{Keys: []Key{{MarkLine, Style{Role: Diagonal}}}, Text: "Chance"})
	marked := 0
	for i, op := range rc.Points {
		if !op.FPR.Valid() || !op.TPR.Valid() {
			skipped++
			continue
		}
		x, y := float64(op.FPR), float64(op.TPR)
		st := Style{Role: Operating, Series: i}
		p.Elements = append(p.Elements, &Points{Name: op.Label, Style: st, Points: []Point{{X: x, Y: y,
			Tag: shortOpLabel(op.Label), Tip: Tip{atX("held-out FPR", Num(x, 3)), atY("held-out TPR", Num(y, 3))}}}})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkMarker, st}},
			Text: op.Label + "\n(held out: FPR " + TrimFloat(x, 3) + ", TPR " + TrimFloat(y, 3) + ")"})
		marked++
	}
	s := &Spec{Kind: KindROC, Subtitle: auc + "; band: " + ciName(c.r), Hint: "hover the curve for thresholds",
		Alt: "ROC curve of " + label(c.r, system) + " (" + auc + ") with its " + ciName(c.r) + " band, " +
			strconv.Itoa(len(rc.Folds)) + " per-fold curves and " + strconv.Itoa(marked) + " held-out operating points.",
		Panels: []Panel{p}, Legend: leg, Notes: leftOut(skipped)}
	return s, ""
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
func (c *cat) rocOverlay(string) (*Spec, string) {
	if len(c.r.Curves.ROC) < 2 {
		return nil, overlayReason(len(c.r.Curves.ROC), c.sectionReason(report.NEGate, "no system has a ROC curve"))
	}
	p := Panel{X: unitAxis(fprLabel), Y: unitAxis(tprLabel)}
	p.Elements = append(p.Elements, diagonal())
	var leg []LegendEntry
	for i := range c.r.Curves.ROC {
		rc := &c.r.Curves.ROC[i]
		segs, tips := segments(rc.FPR, rc.TPR, func(j int) Tip { return rocTip(rc, j) })
		if len(segs) == 0 {
			continue
		}
		st := Style{Role: Series, Series: i}
		lbl := label(c.r, rc.System)
		p.Elements = append(p.Elements, &Line{Name: lbl + " (AUROC " + c.fmtv(num(rc.AUROC)) + ")", Style: st, Segments: segs, Tips: tips})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, st}}, Text: lbl + "\n(AUROC " + c.fmtv(num(rc.AUROC)) + ")"})
	}
	leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Diagonal}}}, Text: "Chance"})
	return &Spec{Kind: KindROCOverlay, Subtitle: "full-sample curves", Hint: "hover a curve for thresholds",
		Alt:    "Full-sample ROC curves of " + strconv.Itoa(len(c.r.Curves.ROC)) + " systems on one plot, with the chance diagonal.",
		Panels: []Panel{p}, Legend: leg}, ""
}

func overlayReason(n int, none string) string {
	if n == 1 {
		return "a single system has a curve: the overlay would repeat its own figure"
	}
	return none
}

// pr is one system's precision-recall curve: band, folds, the
// full-sample step curve and the positive-rate baseline.
func (c *cat) pr(system string) (*Spec, string) {
	pc := c.prCurve(system)
	if pc == nil {
		return nil, c.sectionReason(report.NEGate, "the report has no precision-recall curve for this system")
	}
	full, tips := segments(pc.Recall, pc.Precision, func(i int) Tip { return prTip(pc, i) })
	if len(full) == 0 {
		return nil, "the precision-recall curve has no defined point (no positive query)"
	}
	ap := "AP " + c.fmtv(num(pc.AP))
	p := Panel{X: unitAxis(recallLabel), Y: unitAxis(precisionLabel)}
	band, leg, skipped := c.bandAndFolds(pc.Grid, pc.BandLow, pc.BandHigh, pc.Folds)
	p.Elements = append(p.Elements, band...)
	p.Elements = append(p.Elements, &Line{Name: "Full sample", Style: Style{Role: Primary}, Segments: full, Tips: tips, Steps: true})
	leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Primary}}}, Text: "Full sample (" + ap + ")"})
	if pc.PositiveRate.Valid() {
		pr := float64(pc.PositiveRate)
		p.Elements = append(p.Elements, &Line{Name: "Positive rate " + c.fmtv(pr), Style: Style{Role: Reference},
			Segments: [][]XY{{{0, pr}, {1, pr}}}})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Reference}}}, Text: "Positive rate " + c.fmtv(pr) + "\n(random classifier)"})
	}
	return &Spec{Kind: KindPR, Subtitle: ap + "; dashed: positive rate (a random classifier)", Hint: "hover the curve for thresholds",
		Alt: "Precision-recall curve of " + label(c.r, system) + " (" + ap + ") with its " + ciName(c.r) +
			" band, per-fold curves and the positive rate of a random classifier.",
		Panels: []Panel{p}, Legend: leg, Notes: leftOut(skipped)}, ""
}

// prOverlay draws every system's precision-recall curve on one plot.
func (c *cat) prOverlay(string) (*Spec, string) {
	if len(c.r.Curves.PR) < 2 {
		return nil, overlayReason(len(c.r.Curves.PR), c.sectionReason(report.NEGate, "no system has a precision-recall curve"))
	}
	p := Panel{X: unitAxis(recallLabel), Y: unitAxis(precisionLabel)}
	var leg []LegendEntry
	for i := range c.r.Curves.PR {
		pc := &c.r.Curves.PR[i]
		segs, tips := segments(pc.Recall, pc.Precision, func(j int) Tip { return prTip(pc, j) })
		if len(segs) == 0 {
			continue
		}
		st := Style{Role: Series, Series: i}
		lbl := label(c.r, pc.System)
		p.Elements = append(p.Elements, &Line{Name: lbl + " (AP " + c.fmtv(num(pc.AP)) + ")", Style: st, Segments: segs, Tips: tips, Steps: true})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, st}}, Text: lbl + "\n(AP " + c.fmtv(num(pc.AP)) + ")"})
	}
	if pr := c.r.Curves.PR[0].PositiveRate; pr.Valid() {
		p.Elements = append(p.Elements, &Line{Name: "Positive rate " + c.fmtv(float64(pr)), Style: Style{Role: Reference},
			Segments: [][]XY{{{0, float64(pr)}, {1, float64(pr)}}}})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Reference}}}, Text: "Positive rate " + c.fmtv(float64(pr))})
	}
	return &Spec{Kind: KindPROverlay, Subtitle: "full-sample curves", Hint: "hover a curve for thresholds",
		Alt:    "Full-sample precision-recall curves of " + strconv.Itoa(len(c.r.Curves.PR)) + " systems on one plot, with the positive rate.",
		Panels: []Panel{p}, Legend: leg}, ""
}

// reliability is the reliability diagram: observed frequency against mean
// predicted probability per bin with Wilson 95% intervals and the diagonal
// of perfect calibration, over the number of queries per bin (log scale).
func (c *cat) reliability(system string) (*Spec, string) {
	var rel *report.Reliability
	for i := range c.r.Curves.Reliability {
		if c.r.Curves.Reliability[i].System == system {
			rel = &c.r.Curves.Reliability[i]
		}
	}
	if rel == nil || len(rel.Bins) == 0 {
		return nil, c.sectionReason(report.Calibration, "the report has no reliability bins for this system")
	}
	wilson := "Wilson " + c.r.Settings.Bootstrap.Level()
	dots := &Points{Name: "Bins", ErrName: wilson + " interval", Style: Style{Role: Primary, Size: 2.2}}
	counts := &Counts{Name: c.say("Queries per bin"), Style: Style{Role: Count}}
	var line []XY
	skipped, maxc := 0, 1.0
	for _, b := range rel.Bins {
		tip := func(count, freq, meanP Coord) Tip {
			return Tip{field("bin", TextValue("["+TrimFloat(num(b.Lo), 4)+", "+TrimFloat(num(b.Hi), 4)+")")),
				{Label: "queries", Value: Int(b.Count), Is: count},
				{Label: "observed frequency", Value: Num(num(b.ObsFreq), 3), Is: freq},
				field(wilson+" low", Num(num(b.WilsonLo), 3)), field(wilson+" high", Num(num(b.WilsonHi), 3)),
				{Label: "mean p", Value: Num(num(b.MeanP), 3), Is: meanP}}
		}
		if b.Lo.Valid() && b.Hi.Valid() && b.Count > 0 {
			counts.Bins = append(counts.Bins, CountBin{Lo: float64(b.Lo), Hi: float64(b.Hi), Count: b.Count, Tip: tip(CoordY, NoCoord, NoCoord)})
			maxc = math.Max(maxc, float64(b.Count))
		}
		if b.Count == 0 || !b.MeanP.Valid() || !b.ObsFreq.Valid() {
			skipped++
			continue
		}
		x, y := float64(b.MeanP), float64(b.ObsFreq)
		dots.Points = append(dots.Points, Point{X: x, Y: y, Err: errOf(num(b.WilsonLo), num(b.WilsonHi)), Tip: tip(NoCoord, CoordY, CoordX)})
		line = append(line, XY{x, y})
	}
	top := Panel{X: unitAxis(""), Y: unitAxis("Observed frequency of evidence")}
	top.X.HideTickLabels = true
	top.Elements = append(top.Elements, &Line{Name: "Perfect calibration", Style: Style{Role: Diagonal}, Segments: [][]XY{{{0, 0}, {1, 1}}}})
	if len(line) > 1 {
		top.Elements = append(top.Elements, &Line{Name: "Bins", Style: Style{Role: Primary, Width: 0.9}, Segments: [][]XY{line}})
	}
	top.Elements = append(top.Elements, dots)
	decades := max(int(math.Ceil(math.Log10(maxc*1.05))), 1)
	bottom := Panel{X: unitAxis("Predicted probability of evidence"),
		Y: Axis{Label: "Queries (log)", Log: true, Fixed: true, Min: 1, Max: math.Pow(10, float64(decades)), Ticks: decadeTicks(decades)}}
	bottom.Elements = append(bottom.Elements, counts)
	leg := []LegendEntry{
		{Keys: []Key{{MarkMarker, dots.Style}}, Text: "Bin (mean p,\nobserved frequency)"},
		{Keys: []Key{{MarkLine, Style{Role: Primary, Width: 0.8}}}, Text: wilson + " interval"},
		{Keys: []Key{{MarkLine, Style{Role: Diagonal}}}, Text: "Perfect calibration"},
		{Keys: []Key{{MarkBar, counts.Style}}, Text: c.say("Queries per bin")},
	}
	return &Spec{Kind: KindReliability, Layout: Stack, Weights: []float64{0.7, 0.3},
		Hint: "hover a bin for its count and observed frequency",
		Alt: "Reliability diagram of " + label(c.r, system) + ": observed frequency of evidence against mean predicted probability in " +
			strconv.Itoa(len(dots.Points)) + " bins with " + wilson + " intervals, and the number of queries per bin beneath.",
		Panels: []Panel{top, bottom}, Legend: leg, Notes: leftOut(skipped)}, ""
}

// decadeTicks mark powers of ten from 1 to 10^n, at most four labelled.
func decadeTicks(n int) []Tick {
	step := (n + 3) / 4
	var ticks []Tick
	for d := 0; d <= n; d++ {
		t := Tick{Value: math.Pow(10, float64(d))}
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

// decision is the decision curve: net benefit of acting on the model, of
// treating all, and of treating none, over threshold probabilities.
func (c *cat) decision(system string) (*Spec, string) {
	var d *report.DecisionCurve
	for i := range c.r.Curves.Decision {
		if c.r.Curves.Decision[i].System == system {
			d = &c.r.Curves.Decision[i]
		}
	}
	if d == nil {
		return nil, c.sectionReason(report.NEGate, "the report has no decision curve for this system")
	}
	tip := func(v []report.Num) func(i int) Tip {
		return func(i int) Tip {
			return Tip{atX("threshold", Num(num(d.Threshold[i]), 3)), atY("net benefit", Num(num(v[i]), 4))}
		}
	}
	model, mt := segments(d.Threshold, d.Model, tip(d.Model))
	if len(model) == 0 {
		return nil, "the decision curve has no defined point"
	}
	all, at := segments(d.Threshold, d.TreatAll, tip(d.TreatAll))
	skipped := 2*len(d.Threshold) - countPoints(model) - countPoints(all)
	// The y range: from a little below zero to a little above the largest
	// net benefit (treat-all falls steeply; it is clipped).
	ymax := 0.0
	for _, s := range append(append([][]XY{}, model...), all...) {
		for _, xy := range s {
			ymax = math.Max(ymax, xy.Y)
		}
	}
	if ymax <= 0 {
		ymax = 0.05
	}
	lbl := label(c.r, system)
	p := Panel{X: unitAxis("Threshold probability"),
		Y: Axis{Label: "Net benefit (net true positives per query)", Fixed: true, Min: -0.25 * ymax, Max: 1.1 * ymax}}
	allStyle := Style{Role: Reference, Width: 1}
	p.Elements = append(p.Elements,
		&Line{Name: "Treat none", Style: Style{Role: Zero}, Segments: [][]XY{{{0, 0}, {1, 0}}}},
		&Line{Name: "Treat all", Style: allStyle, Segments: all, Tips: at},
		&Line{Name: lbl, Style: Style{Role: Primary}, Segments: model, Tips: mt})
	leg := []LegendEntry{
		{Keys: []Key{{MarkLine, Style{Role: Primary}}}, Text: lbl},
		{Keys: []Key{{MarkLine, allStyle}}, Text: "Treat all"},
		{Keys: []Key{{MarkLine, Style{Role: Zero}}}, Text: "Treat none"},
	}
	return &Spec{Kind: KindDecision, Subtitle: "net benefit; treat-all falls below the axis at high thresholds",
		Alt:    "Decision curve of " + lbl + ": net benefit of acting on the model, of treating all and of treating none over threshold probabilities.",
		Panels: []Panel{p}, Legend: leg, Notes: leftOut(skipped)}, ""
}
