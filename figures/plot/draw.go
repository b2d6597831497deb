package plot

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/figures"
)

// This file turns a figures.Spec into a drawable figure: the paper size of
// its kind, one gonum plot per panel, the legend, and the layout.

// build returns the figure of a spec.
func build(s *figures.Spec, lk look, pw vg.Length) (f *figure, err error) {
	if len(s.Panels) == 0 {
		return nil, fmt.Errorf("no panel")
	}
	defer func() {
		if e := recover(); e != nil { // a malformed spec (NaN in a line)
			f, err = nil, fmt.Errorf("%v", e)
		}
	}()
	w, h := size(s)
	if lk.paper {
		h, w = paperHeight(s, pw, w, h), pw
	}
	var cmap *viridis
	if s.Scale != nil {
		cmap = newViridis(s.Scale.Min, s.Scale.Max)
	}
	leg := legend(s, lk)
	// A title fits 70% of the width, and beside a legend column, over
	// the plot that the column leaves (a wide legend would push a
	// centred title past the left edge).
	avail := w * 0.7
	if lw := legendWidth(leg); lw > 0 && !lk.paper {
		avail = min(avail, w-max(lw, minLegW)-gutter)
	}
	ps := make([]*plot.Plot, len(s.Panels))
	for i := range s.Panels {
		title := s.Panels[i].Title
		if i == 0 && s.Layout != figures.Row && !lk.paper {
			title = s.Title
		}
		ps[i] = panelPlot(&s.Panels[i], fitTitle(clipLines(title, maxTitle), avail, lk), cmap, lk)
		rotateCategories(ps[i], &s.Panels[i], w, lk)
	}
	fitYLabels(ps, s, h, lk)
	figTitle := clipLines(s.Title, maxTitle)
	var below, inside []legendEntry
	if lk.paper {
		// The caption says what the figure is; the legend goes in rows
		// in one row under the plot, or, for a ROC or precision-recall
		// curve that would need more than one row there, inside the plot
		// in a corner no curve crosses.
		figTitle = ""
		leg = newLegend(lk)
		es := legendEntries(s)
		// A box taller than about a third of the figure would hide the
		// curves it labels (a system's ROC with its operating points
		// has nine entries): then the legend goes under the plot too.
		boxH := vg.Length(len(es))*lk.legend*1.3 + vg.Points(6)
		if curveLike(s) && len(s.Panels) == 1 && legendRowsHeight(es, w, lk) > legendRowsHeight(es[:min(1, len(es))], w, lk) && boxH <= 0.36*h {
			inside = es
		} else {
			below = es
			h += legendRowsHeight(below, w, lk)
		}
	}
	var paint func(c draw.Canvas)
	switch {
	case s.Scale != nil:
		cb := colorBar(cmap, s.Scale.Label, lk)
		if s.Scale.Step > 0 {
			unitRange(&cb.Y, s.Scale.Min, s.Scale.Max, s.Scale.Step)
		}
		// A row of panels (a gate grid, one panel when there are no
		// tune rows) has the figure's title above its panel titles; a
		// single heat map has it as its own.
		title := ""
		if s.Layout == figures.Row {
			title = figTitle
		}
		paint = func(c draw.Canvas) { drawHeatRow(c, title, ps, cb, leg, lk) }
	case s.Layout == figures.Stack:
		paint = func(c draw.Canvas) { drawStack(c, ps, s.Weights, vg.Points(6), leg) }
	case s.Layout == figures.Row:
		paint = func(c draw.Canvas) { drawRow(suptitle(c, figTitle, lk), ps, leg) }
	default:
		paint = func(c draw.Canvas) { drawWithLegend(c, ps[0], leg) }
	}
	if len(below) > 0 {
		inner := paint
		paint = func(c draw.Canvas) { inner(drawLegendRows(c, below, lk)) }
	}
	if len(inside) > 0 {
		inner := paint
		paint = func(c draw.Canvas) {
			inner(c)
			drawLegendInside(ps[0].DataCanvas(c), ps[0], &s.Panels[0], inside, lk)
		}
	}
	return &figure{name: s.ID.String(), w: w, h: h, draw: paint, clampLines: lk.paper}, nil
}

// maxLabel and maxTitle are the longest category, legend and title lines
// a figure draws, in runes: a longer user label (the figure files keep
// the data; tables and the HTML report show it whole) would leave the
// plotting area no room at all.
const (
	maxLabel = 40
	maxTitle = 90
)

// clipLines cuts every line of s to n runes, marking a cut with "…".
func clipLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if r := []rune(l); len(r) > n {
			lines[i] = string(r[:n-1]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// fitTitle breaks a title that is wider than avail after its last ": "
// (before the system label), so a long label never runs off the page.
func fitTitle(title string, avail vg.Length, lk look) string {
	if textStyle(lk.title).Width(title) <= avail {
		return title
	}
	if i := strings.LastIndex(title, ": "); i > 0 {
		return title[:i+1] + "\n" + title[i+2:]
	}
	return title
}

// fitYLabels breaks the y-axis label of a panel that is longer than the
// panel is high before its parenthesis (or at its middle space), so it
// never runs off the page: "Precision (fraction of flagged that are
// positive)" beside a short paper-column precision-recall curve. A panel
// is the figure's height h, or its share of it in a stack, less about the
// room of a title or of the x axis' tick labels and name.
func fitYLabels(ps []*plot.Plot, s *figures.Spec, h vg.Length, lk look) {
	var tot float64
	for _, x := range s.Weights {
		tot += x
	}
	for i, p := range ps {
		share := 1.0
		if s.Layout == figures.Stack && i < len(s.Weights) && tot > 0 {
			share = s.Weights[i] / tot
		}
		avail := h*vg.Length(share) - 3*lk.label
		l := p.Y.Label.Text
		if strings.Contains(l, "\n") || p.Y.Label.TextStyle.Width(l) <= avail {
			continue
		}
		cut := strings.LastIndex(l, " (")
		if cut <= 0 {
			cut = middleSpace(l)
		}
		if cut > 0 {
			p.Y.Label.Text = l[:cut] + "\n" + l[cut+1:]
		}
	}
}

// middleSpace is the index of the space nearest the middle of s (-1: none).
func middleSpace(s string) int {
	best := -1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' && (best < 0 || abs(i-len(s)/2) < abs(best-len(s)/2)) {
			best = i
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// size is the paper size of a figure: tuned per kind, taller for long
// category lists.
func size(s *figures.Spec) (w, h vg.Length) {
	switch s.Kind.Family() {
	case figures.KindROC, figures.KindROCOverlay, figures.KindPR, figures.KindPROverlay, figures.KindROCPair:
		return figW + 0.6*vg.Inch, figH + 0.3*vg.Inch
	case figures.KindReliability:
		return figW + 0.6*vg.Inch, figH + 0.9*vg.Inch
	case figures.KindDecision:
		return figW + 0.6*vg.Inch, figH
	case figures.KindCriteriaAUROC, figures.KindCriteriaRanking:
		return figW + 0.4*vg.Inch, figH
	case figures.KindRecallAtK, figures.KindPrecisionAtK:
		return figW + 0.3*vg.Inch, figH
	case figures.KindGammaSweep:
		return figW, figH
	case figures.KindGateGrid:
		return wideW, wideH + 0.2*vg.Inch
	case figures.KindPerQueryHeatmap:
		h = wideH
		if n := len(s.Panels[0].Y.Categories); n > 12 {
			h += vg.Length(n-12) * 0.15 * vg.Inch
		}
		return wideW, h
	case figures.KindSystems:
		h = figH
		if n := len(s.Panels[0].Y.Categories); n > 8 {
			h += vg.Length(n-8) * 0.22 * vg.Inch
		}
		return wideW, h
	}
	return figW + 0.5*vg.Inch, figH
}

// space maps data to axis coordinates: log10 on a log x axis (the axis is
// linear in log10 and labelled in data units: gonum's log scale would
// centre the axis name at the linear midpoint). A log y axis keeps data
// units and gonum's log scale.
type space struct{ xlog, ylog bool }

func (sp space) x(v float64) float64 {
	if sp.xlog {
		return math.Log10(v)
	}
	return v
}

func (sp space) y(v float64) float64 {
	if sp.ylog {
		return math.Log10(v)
	}
	return v
}

func (sp space) xy(p figures.XY) plotter.XY { return plotter.XY{X: sp.x(p.X), Y: sp.y(p.Y)} }

// addLine draws a line's segments; the points of a primary line are added
// to avoid (the tags keep clear of them), which it returns.
func addLine(p *plot.Plot, sp space, e *figures.Line, avoid []plotter.XYs) []plotter.XYs {
	ls := lineOf(e.Style)
	for _, seg := range e.Segments {
		xy := make(plotter.XYs, len(seg))
		for i, pt := range seg {
			xy[i] = sp.xy(pt)
		}
		if e.Steps {
			xy = postSteps(xy)
		}
		l := mustLine(dropCollinear(xy), ls)
		p.Add(l)
		if e.Style.Role == figures.Primary {
			avoid = append(avoid, l.XYs)
		}
	}
	return avoid
}

// addBand fills a band's runs, each a ring along its upper then (back)
// along its lower edge, as one polygon.
func addBand(p *plot.Plot, sp space, e *figures.Band) {
	var rings []plotter.XYs
	for _, run := range e.Runs {
		ring := make(plotter.XYs, 0, 2*len(run.X))
		for k := range run.X {
			ring = append(ring, plotter.XY{X: sp.x(run.X[k]), Y: sp.y(run.Hi[k])})
		}
		for k := len(run.X) - 1; k >= 0; k-- {
			ring = append(ring, plotter.XY{X: sp.x(run.X[k]), Y: sp.y(run.Lo[k])})
		}
		rings = append(rings, ring)
	}
	if len(rings) > 0 {
		pg := mustPolygon(rings)
		pg.Color = fillOf(e.Style)
		p.Add(pg)
	}
}

// textOf places a Text element's labels above or to the right of their
// points.
func textOf(sp space, e *figures.Text, lk look) *textAt {
	t := &textAt{Style: textStyle(lk.tag)}
	t.Style.Color = colorOf(e.Style)
	if e.Anchor == figures.Above {
		t.Style.XAlign = draw.XCenter
		t.DY = vg.Points(2)
	} else {
		t.Style.YAlign = draw.YCenter
	}
	for i, at := range e.At {
		t.XYs = append(t.XYs, sp.xy(at))
		t.Texts = append(t.Texts, e.Texts[i])
	}
	return t
}

// panelPlot draws one panel's elements in order, then its axes.
func panelPlot(pn *figures.Panel, title string, cmap *viridis, lk look) *plot.Plot {
	p := newPlot(title, pn.X.Label, pn.Y.Label, lk)
	sp := space{xlog: pn.X.Log}
	var avoid []plotter.XYs
	tg := &tags{Style: textStyle(lk.tag)}
	nbars, ihist, nhist := 0, 0, 0
	for _, e := range pn.Elements {
		switch e.(type) {
		case *figures.Bars:
			nbars++
		case *figures.Histogram:
			nhist++
		}
	}
	ibars := 0
	for _, e := range pn.Elements {
		switch e := e.(type) {
		case *figures.Line:
			avoid = addLine(p, sp, e, avoid)
		case *figures.Band:
			addBand(p, sp, e)
		case *figures.Points:
			addPoints(p, sp, e, tg)
		case *figures.Bars:
			p.Add(barsOf(e, ibars, nbars))
			ibars++
		case *figures.Histogram:
			p.Add(histOf(e, ihist, nhist))
			ihist++
		case *figures.Counts:
			b := barOf(e.Style)
			if pn.Y.Log {
				b.Base = pn.Y.Min
			}
			for _, bin := range e.Bins {
				b.X = append(b.X, sp.x((bin.Lo+bin.Hi)/2))
				b.Y = append(b.Y, sp.y(float64(bin.Count)))
				b.Widths = append(b.Widths, (bin.Hi-bin.Lo)*0.9)
			}
			p.Add(b)
		case *figures.HeatMap:
			addHeat(p, e, cmap)
		case *figures.Scatter:
			cl := &cloud{Color: colorOf(e.Style), Alpha: e.Alpha, Radius: vg.Points(1.6)}
			for _, pt := range e.Points {
				cl.Points = append(cl.Points, figures.Weighted{X: sp.x(pt.X), Y: sp.y(pt.Y), N: pt.N})
			}
			p.Add(cl)
		case *figures.Text:
			p.Add(textOf(sp, e, lk))
		}
	}
	if len(tg.XYs) > 0 {
		tg.Avoid = avoid
		p.Add(tg)
	}
	setAxis(&p.X, &pn.X, sp.x, logTicks{})
	if pn.Y.Log {
		p.Y.Scale = plot.LogScale{}
	}
	setAxis(&p.Y, &pn.Y, sp.y, plot.LogTicks{})
	return p
}

// addPoints adds markers: with whiskers as a dot-and-whisker plotter,
// else as a scatter; tags are collected for one tags plotter per panel.
func addPoints(p *plot.Plot, sp space, e *figures.Points, tg *tags) {
	g := glyphOf(e.Style)
	hasErr := e.Horizontal
	for _, pt := range e.Points {
		hasErr = hasErr || pt.Err != nil
	}
	if hasErr {
		d := &dots{Horizontal: e.Horizontal, Glyph: g, Err: draw.LineStyle{Color: g.Color, Width: vg.Points(0.8)}}
		if e.Style.Role == figures.Series {
			d.Err.Width = vg.Points(1)
		}
		for _, pt := range e.Points {
			d.X, d.Y = append(d.X, sp.x(pt.X)), append(d.Y, sp.y(pt.Y))
			lo, hi := math.NaN(), math.NaN()
			if pt.Err != nil {
				lo, hi = pt.Err.Lo, pt.Err.Hi
				if e.Horizontal {
					lo, hi = sp.x(lo), sp.x(hi)
				} else {
					lo, hi = sp.y(lo), sp.y(hi)
				}
			}
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
		}
		p.Add(d)
	} else if len(e.Points) > 0 {
		xy := make(plotter.XYs, len(e.Points))
		for i, pt := range e.Points {
			xy[i] = sp.xy(figures.XY{X: pt.X, Y: pt.Y})
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			panic(err)
		}
		s.GlyphStyle = g
		p.Add(s)
	}
	for _, pt := range e.Points {
		if pt.Tag != "" {
			tg.XYs = append(tg.XYs, sp.xy(figures.XY{X: pt.X, Y: pt.Y}))
			tg.Texts = append(tg.Texts, pt.Tag)
		}
	}
}

// barsOf places series g of n grouped bar series: one series is 0.65
// wide; several share 0.72 of each category, 0.02 apart.
func barsOf(e *figures.Bars, g, n int) *bars {
	w, off := 0.65, 0.0
	if n > 1 {
		w = 0.72 / float64(n)
		off = (float64(g) - float64(n-1)/2) * (w + 0.02)
	}
	b := barOf(e.Style)
	b.Width = w
	b.Err = draw.LineStyle{Color: black, Width: vg.Points(0.8)}
	b.Lo, b.Hi = []float64{}, []float64{}
	for _, bar := range e.Bars {
		b.X = append(b.X, float64(bar.Cat)+off)
		b.Y = append(b.Y, bar.Value)
		lo, hi := math.NaN(), math.NaN()
		if bar.Err != nil {
			lo, hi = bar.Err.Lo, bar.Err.Hi
		}
		b.Lo, b.Hi = append(b.Lo, lo), append(b.Hi, hi)
	}
	return b
}

// histOf places histogram g of n side by side at each K.
func histOf(e *figures.Histogram, g, n int) *bars {
	w := 0.8 / float64(n)
	b := barOf(e.Style)
	b.Width = w * 0.95
	for j, k := range e.K {
		b.X = append(b.X, float64(k)-0.4+w*(float64(g)+0.5))
		b.Y = append(b.Y, float64(e.Count[j]))
	}
	return b
}

// addHeat adds a heat map: vector cells at numeric positions, or a raster
// image of the grid (posts x criteria) with cells of whole pixels.
func addHeat(p *plot.Plot, e *figures.HeatMap, cmap *viridis) {
	if cmap == nil {
		cmap = newViridis(0, 1)
	}
	if e.ColAt != nil && e.RowAt != nil {
		h := &cells{Map: cmap, NaN: nanGrey, W: figures.MinStep(e.ColAt), H: figures.MinStep(e.RowAt)}
		for _, cl := range e.Cells {
			h.X = append(h.X, e.ColAt[cl.Col])
			h.Y = append(h.Y, e.RowAt[cl.Row])
			v := cl.Value
			if cl.Undefined {
				v = math.NaN()
			}
			h.Z = append(h.Z, v)
		}
		p.Add(h)
		return
	}
	// The raster is at most 1,800 px wide: past 1,800 columns (posts),
	// neighbouring columns share a pixel column, so its memory does not
	// grow with the number of posts (figures caps the rows).
	nc, nr := len(e.Cols), len(e.Rows)
	sx := max(1, 1800/max(nc, 1))
	sy := 24
	W := min(nc*sx, 1800)
	img := image.NewNRGBA(image.Rect(0, 0, W, nr*sy))
	for i := range img.Pix {
		img.Pix[i] = 0xff // white: no cell
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for _, c := range e.Cells {
		cl := nanGrey
		if !c.Undefined {
			cl = cmap.colorAt(c.Value)
		}
		px := [4]uint8{cl.R, cl.G, cl.B, cl.A}
		row := nr - 1 - c.Row // image rows run top-down
		x0 := c.Col * W / max(nc, 1)
		x1 := min(w, max(x0+1, (c.Col+1)*W/max(nc, 1)))
		for y := max(0, row*sy); y < min(h, (row+1)*sy); y++ {
			line := img.Pix[y*img.Stride:]
			for x := x0; x < x1; x++ {
				copy(line[4*x:4*x+4], px[:])
			}
		}
	}
	p.Add(plotter.NewImage(img, -0.5, -0.5, float64(nc)-0.5, float64(nr)-0.5))
}

// setAxis applies a spec axis after the data are added: range, ticks,
// log ticks, category names, hidden labels.
func setAxis(a *plot.Axis, ax *figures.Axis, tr func(float64) float64, logTicker plot.Ticker) {
	if ax.Fixed {
		a.Min, a.Max = tr(ax.Min), tr(ax.Max)
	}
	switch {
	case len(ax.Ticks) > 0:
		ticks := make(plot.ConstantTicks, len(ax.Ticks))
		for i, t := range ax.Ticks {
			ticks[i] = plot.Tick{Value: tr(t.Value), Label: t.Label}
		}
		a.Tick.Marker = ticks
	case ax.IndexTicks:
		n := len(ax.Categories)
		ticks := plot.ConstantTicks{{Value: 0, Label: "1"}}
		step := niceStep(n)
		for k := step; k <= n; k += step {
			ticks = append(ticks, plot.Tick{Value: float64(k - 1), Label: strconv.Itoa(k)})
		}
		a.Tick.Marker = ticks
		a.Tick.Length = vg.Points(2)
	case len(ax.Categories) > 0:
		ticks := make(plot.ConstantTicks, len(ax.Categories))
		for i, n := range ax.Categories {
			ticks[i] = plot.Tick{Value: float64(i), Label: clipLines(n, maxLabel)}
		}
		a.Tick.Marker = ticks
	case ax.Step > 0 && ax.Fixed:
		unitRange(a, ax.Min, ax.Max, ax.Step)
	case ax.Log:
		a.Tick.Marker = logTicker
	}
	if ax.HideTickLabels {
		a.Tick.Marker = blankTicks{a.Tick.Marker}
	}
}

// legend builds the legend of a spec.
func legend(s *figures.Spec, lk look) *plot.Legend {
	l := newLegend(lk)
	if s.Kind == figures.KindDifficulty {
		l.Padding = vg.Points(6) // two-line entries: keep them apart
	}
	for _, e := range s.Legend {
		l.Add(clipLines(e.Text, maxLabel), thumbnails(e.Keys)...)
	}
	return l
}

// thumbnails draw the keys of a legend entry, in order.
func thumbnails(keys []figures.Key) []plot.Thumbnailer {
	var th []plot.Thumbnailer
	for _, k := range keys {
		switch k.Mark {
		case figures.MarkLine:
			th = append(th, legendLine{lineOf(k.Style)})
		case figures.MarkMarker:
			th = append(th, legendGlyph{glyphOf(k.Style)})
		case figures.MarkFill:
			th = append(th, legendFill{fillOf(k.Style)})
		case figures.MarkBar:
			th = append(th, barOf(k.Style))
		}
	}
	return th
}

// --- roles to styles ---------------------------------------------------

// colorOf is the colour of a role.
func colorOf(st figures.Style) color.NRGBA {
	switch st.Role {
	case figures.Primary:
		return seriesColor(0)
	case figures.Confidence:
		return seriesColor(st.Series)
	case figures.Series:
		return seriesColor(st.Series)
	case figures.Summary:
		return seriesColor(1)
	case figures.Fold, figures.Diagonal, figures.Reference, figures.NA, figures.Count:
		return grey
	case figures.Undefined:
		return nanGrey
	case figures.Blank, figures.Chosen:
		return color.NRGBA{0xff, 0xff, 0xff, 0xff}
	}
	return black
}

// lineOf is the line style of a role.
func lineOf(st figures.Style) draw.LineStyle {
	pt := func(def float64) vg.Length {
		if st.Width > 0 {
			return vg.Points(st.Width)
		}
		return vg.Points(def)
	}
	dash := func(a, b float64) []vg.Length { return []vg.Length{vg.Points(a), vg.Points(b)} }
	switch st.Role {
	case figures.Primary:
		return draw.LineStyle{Color: colorOf(st), Width: pt(1.3)}
	case figures.Series:
		return draw.LineStyle{Color: colorOf(st), Width: pt(1.2), Dashes: seriesDash(st.Series)}
	case figures.Total:
		return draw.LineStyle{Color: black, Width: pt(1.6)}
	case figures.Fold:
		return draw.LineStyle{Color: fade(grey, 0.55), Width: pt(0.5)}
	case figures.Diagonal:
		return draw.LineStyle{Color: grey, Width: pt(0.6), Dashes: dash(2, 2)}
	case figures.Reference:
		return draw.LineStyle{Color: grey, Width: pt(0.8), Dashes: dash(3, 2)}
	case figures.Summary:
		return draw.LineStyle{Color: colorOf(st), Width: pt(1), Dashes: dash(4, 2)}
	}
	return draw.LineStyle{Color: colorOf(st), Width: pt(0.8)}
}

// glyphOf is the marker of a role.
func glyphOf(st figures.Style) draw.GlyphStyle {
	r := func(def float64) vg.Length {
		if st.Size > 0 {
			return vg.Points(st.Size)
		}
		return vg.Points(def)
	}
	col := colorOf(st)
	if st.Opacity > 0 {
		col = fade(col, st.Opacity)
	}
	switch st.Role {
	case figures.Operating:
		return draw.GlyphStyle{Color: black, Radius: r(2.6), Shape: seriesGlyph(st.Series)}
	case figures.Chosen:
		return draw.GlyphStyle{Color: col, Radius: r(2.6), Shape: haloRing{}}
	case figures.Series, figures.Total:
		return draw.GlyphStyle{Color: col, Radius: r(2), Shape: seriesGlyph(st.Series)}
	}
	return draw.GlyphStyle{Color: col, Radius: r(2.2), Shape: draw.CircleGlyph{}}
}

// fillOf is the fill colour of a role.
func fillOf(st figures.Style) color.Color {
	if st.Role == figures.Confidence {
		return fade(seriesColor(st.Series), 0.22)
	}
	return colorOf(st)
}

// barOf is an empty bars plotter in the style of a role.
func barOf(st figures.Style) *bars {
	if st.Role == figures.Count {
		return &bars{Color: fade(grey, 0.6), Line: draw.LineStyle{Color: grey, Width: vg.Points(0.4)}}
	}
	b := &bars{Color: colorOf(st)}
	if st.Opacity > 0 {
		b.Color = fade(colorOf(st), st.Opacity)
	}
	if st.Outline {
		b.Line = draw.LineStyle{Color: black, Width: vg.Points(0.3)}
	}
	return b
}

// --- geometry ------------------------------------------------------------

// mustLine builds a line plotter; the points are finite by construction.
func mustLine(xy plotter.XYs, sty draw.LineStyle) *plotter.Line {
	l, err := plotter.NewLine(xy)
	if err != nil {
		panic("plot: " + err.Error()) // a malformed spec: NaN reached a line
	}
	l.LineStyle = sty
	return l
}

func mustPolygon(rings []plotter.XYs) *plotter.Polygon {
	xys := make([]plotter.XYer, len(rings))
	for i := range rings {
		xys[i] = rings[i]
	}
	pg, err := plotter.NewPolygon(xys...)
	if err != nil {
		panic("plot: " + err.Error())
	}
	pg.LineStyle.Width = 0
	return pg
}

// dropCollinear removes the interior points of straight horizontal or
// vertical runs; the drawn polyline is unchanged.
func dropCollinear(xy plotter.XYs) plotter.XYs {
	if len(xy) <= 2 {
		return xy
	}
	out := plotter.XYs{xy[0]}
	for i := 1; i < len(xy)-1; i++ {
		a, b, c := xy[i-1], xy[i], xy[i+1]
		if (a.X == b.X && b.X == c.X) || (a.Y == b.Y && b.Y == c.Y) {
			continue
		}
		out = append(out, b)
	}
	return append(out, xy[len(xy)-1])
}

// postSteps turns points into the vertices of a "steps-post" line: from
// each point horizontally to the next point's x, then vertically.
func postSteps(xy plotter.XYs) plotter.XYs {
	if len(xy) < 2 {
		return xy
	}
	out := make(plotter.XYs, 0, 2*len(xy))
	for i := 0; i < len(xy)-1; i++ {
		out = append(out, xy[i], plotter.XY{X: xy[i+1].X, Y: xy[i].Y})
	}
	return append(out, xy[len(xy)-1])
}

// blankTicks keeps tick positions but drops their labels (a shared axis).
type blankTicks struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (b blankTicks) Ticks(min, max float64) []plot.Tick {
	t := b.Ticker.Ticks(min, max)
	out := make([]plot.Tick, len(t))
	for i := range t {
		out[i] = plot.Tick{Value: t[i].Value}
	}
	return out
}
