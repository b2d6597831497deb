package figures

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/metrics"
	"paperbundle/report"
)

// viridisAnchors are eleven evenly spaced colours of the viridis colour
// map (perceptually uniform, readable with every common colour-vision
// deficiency and in greyscale); colours in between are interpolated.
var viridisAnchors = []color.NRGBA{
	{0x44, 0x01, 0x54, 0xff}, {0x48, 0x24, 0x75, 0xff}, {0x41, 0x44, 0x87, 0xff},
	{0x35, 0x5f, 0x8d, 0xff}, {0x2a, 0x78, 0x8e, 0xff}, {0x21, 0x91, 0x8c, 0xff},
	{0x22, 0xa8, 0x84, 0xff}, {0x44, 0xbf, 0x70, 0xff}, {0x7a, 0xd1, 0x51, 0xff},
	{0xbd, 0xdf, 0x26, 0xff}, {0xfd, 0xe7, 0x25, 0xff},
}

// viridisAt returns the colour at t in [0, 1].
func viridisAt(t float64) color.NRGBA {
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(viridisAnchors)-1)
	i := int(math.Floor(f))
	if i >= len(viridisAnchors)-1 {
		return viridisAnchors[len(viridisAnchors)-1]
	}
	a, b := viridisAnchors[i], viridisAnchors[i+1]
	w := f - float64(i)
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-w) + float64(y)*w)) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// viridis is a palette.ColorMap over [min, max].
type viridis struct{ min, max, alpha float64 }

func newViridis(min, max float64) *viridis { return &viridis{min: min, max: max, alpha: 1} }

// At implements palette.ColorMap.
func (v *viridis) At(x float64) (color.Color, error) {
	if math.IsNaN(x) || x < v.min || x > v.max {
		return nil, palette.ErrOverflow
	}
	t := 0.0
	if v.max > v.min {
		t = (x - v.min) / (v.max - v.min)
	}
	return viridisAt(t), nil
}

// Max implements palette.ColorMap.
func (v *viridis) Max() float64 { return v.max }

// SetMax implements palette.ColorMap.
func (v *viridis) SetMax(x float64) { v.max = x }

// Min implements palette.ColorMap.
func (v *viridis) Min() float64 { return v.min }

// SetMin implements palette.ColorMap.
func (v *viridis) SetMin(x float64) { v.min = x }

// Alpha implements palette.ColorMap.
func (v *viridis) Alpha() float64 { return v.alpha }

// SetAlpha implements palette.ColorMap.
func (v *viridis) SetAlpha(a float64) { v.alpha = a }

// Palette implements palette.ColorMap.
func (v *viridis) Palette(n int) palette.Palette {
	cs := make([]color.Color, n)
	for i := range cs {
		cs[i] = viridisAt(float64(i) / math.Max(1, float64(n-1)))
	}
	return plainPalette(cs)
}

type plainPalette []color.Color

// Colors implements palette.Palette.
func (p plainPalette) Colors() []color.Color { return p }

// cells draws a heat map of rectangular cells centred at (X, Y) with size
// W x H in data units. Undefined values are drawn in NaN colour (or not at
// all when NaN is nil). Unlike plotter.HeatMap it never drops edge cells.
type cells struct {
	X, Y, Z []float64
	W, H    float64
	Map     *viridis
	NaN     color.Color
}

// Plot implements plot.Plotter.
func (h *cells) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range h.X {
		var col color.Color = h.NaN
		if !math.IsNaN(h.Z[i]) {
			col, _ = h.Map.At(math.Max(h.Map.min, math.Min(h.Map.max, h.Z[i])))
		}
		if col == nil {
			continue
		}
		// Cells overlap by a hair so that anti-aliasing leaves no seams.
		e := vg.Points(0.25)
		x0, x1 := trX(h.X[i]-h.W/2)-e, trX(h.X[i]+h.W/2)+e
		y0, y1 := trY(h.Y[i]-h.H/2)-e, trY(h.Y[i]+h.H/2)+e
		c.FillPolygon(col, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}))
	}
}

// DataRange implements plot.DataRanger.
func (h *cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range h.X {
		xmin, xmax = math.Min(xmin, h.X[i]-h.W/2), math.Max(xmax, h.X[i]+h.W/2)
		ymin, ymax = math.Min(ymin, h.Y[i]-h.H/2), math.Max(ymax, h.Y[i]+h.H/2)
	}
	return
}

// colorBar returns a narrow plot holding a vertical colour bar.
func colorBar(m *viridis, label string) *plot.Plot {
	p := newPlot("", "", label)
	p.HideX()
	cb := &plotter.ColorBar{ColorMap: m, Vertical: true, Colors: 256}
	p.Add(cb)
	p.Y.Min, p.Y.Max = m.min, m.max
	return p
}

// gridMetric is one quantity of the clinical threshold grid.
type gridMetric struct {
	key, title, unit string
	get              func(c *report.GridCell) report.Num
	unitRange        bool
	naNote           string
}

var gridMetrics = []gridMetric{
	{"screen_sensitivity", "Screening sensitivity", "Screening sensitivity (fraction of positives)",
		func(c *report.GridCell) report.Num { return c.ScreenSensitivity }, true, "n/a (no positive)"},
	{"alert_precision", "Alert precision", "Alert precision (fraction of alerts)",
		func(c *report.GridCell) report.Num { return c.AlertPrecision }, true, "n/a (no alert)"},
	{"workload", "Review workload", "Workload (sentences per 1,000 queries)",
		func(c *report.GridCell) report.Num { return c.WorkloadPer1000 }, false, "n/a"},
}

// gateGrid draws one quantity of the threshold grid over tau_neg x tau_pos,
// on tune rows and on eval rows side by side with one colour scale; the
// per-fold chosen thresholds are marked.
func gateGrid(r *report.Report, system string, gm gridMetric, keys map[string]string) *figure {
	sets := map[string][]*report.GridCell{}
	for i := range r.Curves.GateGrid {
		c := &r.Curves.GateGrid[i]
		if c.System == system && c.TauNeg.Valid() && c.TauPos.Valid() {
			sets[c.On] = append(sets[c.On], c)
		}
	}
	var ons []string
	for _, on := range []string{"tune", "eval"} {
		if len(sets[on]) > 0 {
			ons = append(ons, on)
		}
	}
	if len(ons) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, on := range ons {
		for _, c := range sets[on] {
			if v := gm.get(c); v.Valid() {
				lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
			}
		}
	}
	if gm.unitRange {
		lo, hi = 0, 1
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = lo + 1
	}
	cmap := newViridis(lo, hi)
	var chosen plotter.XYs
	for _, t := range r.Thresholds {
		if t.System == system && t.TauNeg.Valid() && t.TauPos.Valid() {
			chosen = append(chosen, plotter.XY{X: float64(t.TauNeg), Y: float64(t.TauPos)})
		}
	}
	label := systemLabel(r, system)
	leg := newLegend()
	var ps []*plot.Plot
	parts := map[string]any{}
	hasNaN := false
	mark := draw.GlyphStyle{Color: color.White, Radius: vg.Points(2.6), Shape: haloRing{}}
	for k, on := range ons {
		cs := sets[on]
		h := &cells{Map: cmap, NaN: nanGrey}
		xs, ys := map[float64]bool{}, map[float64]bool{}
		for _, c := range cs {
			h.X = append(h.X, float64(c.TauNeg))
			h.Y = append(h.Y, float64(c.TauPos))
			v := gm.get(c)
			h.Z = append(h.Z, num(v))
			if !v.Valid() {
				hasNaN = true
			}
			xs[float64(c.TauNeg)] = true
			ys[float64(c.TauPos)] = true
		}
		h.W, h.H = minStep(xs), minStep(ys)
		title := "Tune rows"
		if on == "eval" {
			title = "Eval rows"
		}
		p := newPlot(title, "Screening threshold tau_neg", "Alert threshold tau_pos")
		p.Add(h)
		if len(chosen) > 0 {
			s, _ := plotter.NewScatter(chosen)
			s.GlyphStyle = mark
			p.Add(s)
		}
		unitRange(&p.X, 0, 1, 0.2)
		unitRange(&p.Y, 0, 1, 0.2)
		p.X.Min, p.X.Max = -h.W/2, 1+h.W/2
		p.Y.Min, p.Y.Max = -h.H/2, 1+h.H/2
		if k > 0 {
			p.Y.Label.Text = ""
		}
		ps = append(ps, p)
		parts[on] = h
	}
	title := gm.title + ": " + label
	cb := colorBar(cmap, gm.unit)
	if gm.unitRange {
		unitRange(&cb.Y, 0, 1, 0.2)
	}
	if len(chosen) > 0 {
		leg.Add("Chosen per fold\n(on tune rows)", legendGlyph{mark})
	}
	if hasNaN {
		leg.Add(gm.naNote, legendFill{nanGrey})
	}
	leg.Add("Not evaluated\n(tau_pos < tau_neg)", legendFill{color.White})
	return &figure{name: "gate_grid_" + gm.key + "_" + keys[system], w: wideW, h: wideH + 0.2*vg.Inch, parts: parts,
		draw: func(c draw.Canvas) { drawHeatRow(c, title, ps, cb, leg) }}
}

// drawHeatRow draws heat-map panels side by side under a title centred
// over them, then a colour bar and a legend column on the right.
func drawHeatRow(c draw.Canvas, title string, ps []*plot.Plot, cb *plot.Plot, leg *plot.Legend) {
	lw := legendWidth(leg)
	if lw > 0 {
		lw = max(lw, minLegW)
	}
	cbw := 0.8 * vg.Inch
	main := draw.Crop(c, 0, -(cbw + lw + 2*gutter), 0, 0)
	if title != "" {
		below := suptitle(main, title)
		c.Max.Y = below.Max.Y
		main = below
	}
	t := draw.Tiles{Rows: 1, Cols: len(ps), PadX: vg.Points(12)}
	cs := plot.Align([][]*plot.Plot{ps}, t, main)
	for i, p := range ps {
		p.Draw(cs[0][i])
	}
	dc := ps[0].DataCanvas(cs[0][0])
	cbc := draw.Crop(c, main.Max.X-c.Min.X+gutter, -(lw + gutter), 0, 0)
	cbc.Min.Y, cbc.Max.Y = dc.Min.Y, dc.Max.Y
	// the colour bar's own axis takes the left part; keep the bar narrow
	cb.Draw(draw.Crop(cbc, 0, -(cbw - 0.7*vg.Inch), 0, 0))
	if lw > 0 {
		lc := draw.Crop(c, c.Max.X-c.Min.X-lw, 0, 0, 0)
		lc.Max.Y = dc.Max.Y
		leg.Draw(lc)
	}
}

// minStep is the smallest gap between sorted distinct values (1 if fewer
// than two).
func minStep(set map[float64]bool) float64 {
	var v []float64
	for x := range set {
		v = append(v, x)
	}
	sort.Float64s(v)
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
func gammaSweep(r *report.Report, system string, keys map[string]string) *figure {
	var pts plotter.XYs
	var texts []string
	for _, s := range r.Curves.GammaSweep {
		if s.System != system || !s.MeanK.Valid() || !s.EvidenceRecall.Valid() {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(s.MeanK), Y: float64(s.EvidenceRecall)})
		texts = append(texts, "gamma "+trimFloat(num(s.Gamma), 3))
	}
	if len(pts) == 0 {
		return nil
	}
	label := systemLabel(r, system)
	p := newPlot("Dynamic-K gamma sweep: "+label, "Mean selected K (sentences per query)", "Evidence recall (positive queries)")
	leg := newLegend()
	col := seriesColor(0)
	sty := draw.LineStyle{Color: col, Width: vg.Points(1.1)}
	if len(pts) > 1 {
		p.Add(mustLine(pts, sty))
	}
	s, _ := plotter.NewScatter(pts)
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.4), Shape: draw.CircleGlyph{}}
	p.Add(s)
	p.Add(&tags{XYs: pts, Texts: texts, Style: textStyle(sizeTag), Avoid: []plotter.XYs{pts}})
	leg.Add("Sweep point", legendLine{sty}, legendGlyph{s.GlyphStyle})
	// Give the points room: pad the x range by 10% each side.
	xmin, xmax := p.X.Min, p.X.Max
	pad := math.Max(0.1*(xmax-xmin), 0.25)
	p.X.Min, p.X.Max = math.Max(0, xmin-pad), xmax+pad
	// The y range: the points with 15% room, at least 0.1 wide, within [0, 1].
	ylo, yhi := p.Y.Min, p.Y.Max
	span := math.Max(yhi-ylo, 0.1)
	mid := (ylo + yhi) / 2
	p.Y.Min = math.Max(0, mid-0.65*span)
	p.Y.Max = math.Min(1, mid+0.65*span)
	return &figure{name: "gamma_sweep_" + keys[system], w: figW, h: figH,
		parts: map[string]any{"points": pts, "labels": texts},
		draw:  func(c draw.Canvas) { drawWithLegend(c, p, leg) }}
}

// heatColumn picks the per-query metric of the posts x criteria heat map:
// the first of a preference list that the Report has, defined for all
// queries when possible.
func heatColumn(r *report.Report) int {
	for _, want := range []string{"dynk.evidence_recall_all", "rank.recall@10", "rank.mrr"} {
		for j, c := range r.PerQueryColumns {
			if c == want {
				return j
			}
		}
	}
	if len(r.PerQueryColumns) > 0 {
		return 0
	}
	return -1
}

// perQueryHeat draws one system's per-query metric as a posts x criteria
// heat map (posts in input order along x, criteria along y); queries
// without a defined value are grey.
func perQueryHeat(r *report.Report, system string, keys map[string]string) *figure {
	col := heatColumn(r)
	if col < 0 {
		return nil
	}
	crit := r.Dataset.Criteria
	ci := map[string]int{}
	for i, c := range crit {
		ci[c] = i
	}
	var posts []string
	pi := map[string]int{}
	type cell struct {
		p, c int
		v    float64
	}
	var cs []cell
	for i := range r.PerQuery {
		q := &r.PerQuery[i]
		if q.System != system {
			continue
		}
		c, ok := ci[q.Criterion]
		if !ok {
			continue
		}
		p, ok := pi[q.Post]
		if !ok {
			p = len(posts)
			pi[q.Post] = p
			posts = append(posts, q.Post)
		}
		v := math.NaN()
		if col < len(q.Values) {
			v = num(q.Values[col])
		}
		cs = append(cs, cell{p, c, v})
	}
	if len(cs) == 0 || len(crit) == 0 {
		return nil
	}
	// Raster: each post sx pixels wide, each criterion sy pixels high.
	sx := max(1, 1800/len(posts))
	sy := 24
	img := image.NewNRGBA(image.Rect(0, 0, len(posts)*sx, len(crit)*sy))
	for i := range img.Pix {
		img.Pix[i] = 0xff // white: no query for this (post, criterion)
	}
	cmap := newViridis(0, 1)
	nan := 0
	for _, c := range cs {
		var cl color.Color = nanGrey
		if !math.IsNaN(c.v) {
			cl = viridisAt(c.v)
		} else {
			nan++
		}
		row := len(crit) - 1 - c.c // image rows run top-down
		for y := row * sy; y < (row+1)*sy; y++ {
			for x := c.p * sx; x < (c.p+1)*sx; x++ {
				img.Set(x, y, cl)
			}
		}
	}
	id := r.PerQueryColumns[col]
	title := id
	if d, ok := metrics.Lookup(id); ok && d.Title != "" {
		title = d.Title
	}
	label := systemLabel(r, system)
	p := newPlot(title+", per query: "+label, fmt.Sprintf("Post (%d posts, input order)", len(posts)), "Criterion")
	p.Add(plotter.NewImage(img, -0.5, -0.5, float64(len(posts))-0.5, float64(len(crit))-0.5))
	nominalTicks(&p.Y, crit)
	p.X.Min, p.X.Max = -0.5, float64(len(posts))-0.5
	ticks := []plot.Tick{{Value: 0, Label: "1"}}
	step := niceStep(len(posts))
	for k := step; k <= len(posts); k += step {
		ticks = append(ticks, plot.Tick{Value: float64(k - 1), Label: strconv.Itoa(k)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = vg.Points(2)
	cb := colorBar(cmap, title)
	unitRange(&cb.Y, 0, 1, 0.2)
	leg := newLegend()
	if nan > 0 {
		leg.Add("n/a\n("+strconv.Itoa(nan)+" queries)", legendFill{nanGrey})
	}
	h := wideH
	if n := len(crit); n > 12 {
		h += vg.Length(n-12) * 0.15 * vg.Inch
	}
	return &figure{name: "per_query_heatmap_" + keys[system], w: wideW, h: h,
		parts: map[string]any{"posts": posts, "cells": len(cs), "metric": id},
		draw:  func(c draw.Canvas) { drawHeatRow(c, "", []*plot.Plot{p}, cb, leg) }}
}

// niceStep returns a tick step of 1, 2 or 5 times a power of ten giving at
// most about eight ticks over n positions.
func niceStep(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if n/(m*p) <= 8 {
				return m * p
			}
		}
	}
}
