package plot

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/figures"
	"paperbundle/internal/numtext"
)

// The house style of every static figure: one font family (Liberation
// Sans, metric-compatible with Arial), four sizes, the Okabe-Ito palette,
// thin grey grid lines, legends in a column beside the data area so that
// they never cover data.
const (
	sizeTitle  = 10
	sizeLabel  = 9
	sizeTick   = 8
	sizeLegend = 8
	sizeTag    = 7
)

// look is the text sizes of one rendering, and whether it is drawn for
// the page of a paper (no figure title, legend in rows below the plot,
// every text at one size).
type look struct {
	title, label, tick, legend, tag vg.Length
	paper                           bool
}

// screen is the look of the figures/ folder (report, slides).
var screen = look{title: sizeTitle, label: sizeLabel, tick: sizeTick, legend: sizeLegend, tag: sizeTag}

// paperLook is the look of paper/figures/: every text at pt points.
func paperLook(pt float64) look {
	s := vg.Points(pt)
	return look{title: s, label: s, tick: s, legend: s, tag: s, paper: true}
}

// Paper sizes of the figures.
var (
	figW     = 5 * vg.Inch   // one panel
	figH     = 3.5 * vg.Inch // one panel
	wideW    = 6.5 * vg.Inch // two panels side by side
	wideH    = 3.2 * vg.Inch
	minLegW  = 0.6 * vg.Inch
	gutter   = 0.12 * vg.Inch
	legendMu = 0.06 * vg.Inch
)

// okabeIto is the colour-blind-safe palette of Okabe and Ito (2008), in the
// order series take it: blue, vermillion, bluish green, orange, reddish
// purple, sky blue, black, yellow (yellow last: weak on white).
var okabeIto = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xff},
	{0xD5, 0x5E, 0x00, 0xff},
	{0x00, 0x9E, 0x73, 0xff},
	{0xE6, 0x9F, 0x00, 0xff},
	{0xCC, 0x79, 0xA7, 0xff},
	{0x56, 0xB4, 0xE9, 0xff},
	{0x00, 0x00, 0x00, 0xff},
	{0xF0, 0xE4, 0x42, 0xff},
}

// seriesColor returns the i-th palette colour (cycling).
func seriesColor(i int) color.NRGBA { return okabeIto[i%len(okabeIto)] }

// fade returns c with alpha a in [0, 1].
func fade(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(math.Round(255 * a))
	return c
}

var (
	black    = color.NRGBA{0, 0, 0, 0xff}
	grey     = color.NRGBA{0x80, 0x80, 0x80, 0xff}
	gridGrey = color.NRGBA{0xe0, 0xe0, 0xe0, 0xff}
	nanGrey  = color.NRGBA{0xd9, 0xd9, 0xd9, 0xff}
)

// dashes are the line patterns that, with the colours, tell overlaid
// series apart in greyscale print.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(4), vg.Points(2)},
	{vg.Points(1), vg.Points(1.5)},
	{vg.Points(5), vg.Points(1.5), vg.Points(1), vg.Points(1.5)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(6), vg.Points(3)},
}

func seriesDash(i int) []vg.Length { return dashes[i%len(dashes)] }

// glyphs are the marker shapes of distinct point series.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{},
	draw.CrossGlyph{}, draw.RingGlyph{}, draw.PlusGlyph{}, draw.SquareGlyph{},
}

func seriesGlyph(i int) draw.GlyphDrawer { return glyphs[i%len(glyphs)] }

// sans is the house font: Liberation Sans, shipped with gonum/plot.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// textStyle is the house text style at size pt.
func textStyle(pt vg.Length) text.Style {
	return text.Style{
		Color:   black,
		Font:    font.From(sans, pt),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot in the house style with the given axis labels.
func newPlot(title, xlabel, ylabel string, lk look) *plot.Plot {
	p := plot.New()
	// No background of its own: the page is painted white once per
	// figure (paintPage), which in PNG is a memory fill instead of a
	// rasterised rectangle per panel.
	p.BackgroundColor = nil
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, lk.title)
	p.Title.Padding = vg.Points(4)
	p.Legend.TextStyle.Font = font.From(sans, lk.legend)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, lk.label)
		a.Tick.Label.Font = font.From(sans, lk.tick)
		a.Label.Padding = vg.Points(3)
		a.Padding = vg.Points(2)
		a.Tick.Length = vg.Points(3)
		a.Width = vg.Points(0.6)
		a.Tick.Width = vg.Points(0.6)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker = cleanTicks{plot.DefaultTicks{}}
	p.Y.Tick.Marker = cleanTicks{plot.DefaultTicks{}}
	g := plotter.NewGrid()
	g.Vertical.Color = gridGrey
	g.Horizontal.Color = gridGrey
	g.Vertical.Width = vg.Points(0.4)
	g.Horizontal.Width = vg.Points(0.4)
	p.Add(g)
	return p
}

// newLegend returns an empty legend in the house style.
func newLegend(lk look) *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = textStyle(lk.legend)
	l.Left = true
	l.Top = true
	l.ThumbnailWidth = vg.Points(16)
	l.Padding = vg.Points(2.5)
	return &l
}

// cleanTicks relabels another ticker's labelled ticks with the shortest
// form of their value (gonum's default writes 5000.00), grouping thousands
// of large integers.
type cleanTicks struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (c cleanTicks) Ticks(min, max float64) []plot.Tick {
	t := c.Ticker.Ticks(min, max)
	for i := range t {
		if t[i].Label != "" {
			t[i].Label = numLabel(t[i].Value)
		}
	}
	return t
}

// numLabel formats a tick value: six significant digits at most, and
// thousands separators for integers of five digits or more.
func numLabel(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) >= 10000 && math.Abs(v) < 1e15 {
		return numtext.Thousands(int64(v))
	}
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// unitRange fixes an axis to [lo, hi] with ticks every step.
func unitRange(a *plot.Axis, lo, hi, step float64) {
	a.Min, a.Max = lo, hi
	var ticks []plot.Tick
	n := int(math.Round((hi - lo) / step))
	for i := 0; i <= n; i++ {
		v := lo + float64(i)*step
		ticks = append(ticks, plot.Tick{Value: v, Label: figures.TrimFloat(v, 2)})
	}
	a.Tick.Marker = plot.ConstantTicks(ticks)
}

// --- layout -----------------------------------------------------------

// legendWidth returns the width the legend needs.
func legendWidth(l *plot.Legend) vg.Length {
	if legendEmpty(l) {
		return 0
	}
	var dc draw.Canvas
	r := l.Rectangle(dc)
	return r.Max.X - r.Min.X + legendMu
}

// drawWithLegend draws p in c with the legend l in a column on its right,
// top-aligned with the data area.
func drawWithLegend(c draw.Canvas, p *plot.Plot, l *plot.Legend) {
	l, w, pc := legendColumn(c, l)
	p.Draw(pc)
	if l != nil {
		drawLegendBeside(c, l, w, p.DataCanvas(pc))
	}
}

// legendColumn makes room for an optional legend in a column on the right
// of c: it returns the legend (nil when empty), the column's width (at
// least minLegW) and the canvas left for the plots.
func legendColumn(c draw.Canvas, l *plot.Legend) (*plot.Legend, vg.Length, draw.Canvas) {
	if legendEmpty(l) {
		return nil, 0, c
	}
	w := max(legendWidth(l), minLegW)
	return l, w, draw.Crop(c, 0, -w-gutter, 0, 0)
}

// drawLegendBeside draws l (nil: nothing) in the column of width w on the
// right of c, its top level with the top of the data area dc.
func drawLegendBeside(c draw.Canvas, l *plot.Legend, w vg.Length, dc draw.Canvas) {
	if l == nil {
		return
	}
	lc := draw.Crop(c, c.Max.X-c.Min.X-w, 0, 0, 0)
	lc.Max.Y = dc.Max.Y
	l.Draw(lc)
}

// drawRow draws plots side by side with their data areas aligned, and an
// optional shared legend in a column on the right. A margin on either side
// keeps a marker or a tick label at an end of the last axis (the systems
// chart's oracle at 1) off the page's edge.
func drawRow(c draw.Canvas, ps []*plot.Plot, l *plot.Legend) {
	l, w, pc := legendColumn(c, l)
	t := draw.Tiles{Rows: 1, Cols: len(ps), PadX: vg.Points(14), PadLeft: vg.Points(3), PadRight: vg.Points(3)}
	cs := plot.Align([][]*plot.Plot{ps}, t, pc)
	for i, p := range ps {
		p.Draw(cs[0][i])
	}
	drawLegendBeside(c, l, w, ps[len(ps)-1].DataCanvas(cs[0][len(ps)-1]))
}

// drawStack draws plots one above the other, with heights proportional to
// weights, their data areas sharing left and right edges, and an optional
// legend beside the top plot.
func drawStack(c draw.Canvas, ps []*plot.Plot, weights []float64, gap vg.Length, l *plot.Legend) {
	l, w, pc := legendColumn(c, l)
	var tot float64
	for _, x := range weights {
		tot += x
	}
	H := pc.Max.Y - pc.Min.Y - gap*vg.Length(len(ps)-1)
	cs := make([]draw.Canvas, len(ps))
	top := pc.Max.Y
	for i := range ps {
		h := H * vg.Length(weights[i]/tot)
		cs[i] = pc
		cs[i].Max.Y = top
		cs[i].Min.Y = top - h
		top -= h + gap
	}
	// Align the data areas horizontally: the widest left and right margins win.
	var left, right vg.Length
	for i, p := range ps {
		dc := p.DataCanvas(cs[i])
		left = max(left, dc.Min.X-cs[i].Min.X)
		right = max(right, cs[i].Max.X-dc.Max.X)
	}
	for i, p := range ps {
		dc := p.DataCanvas(cs[i])
		cs[i] = draw.Crop(cs[i], left-(dc.Min.X-cs[i].Min.X), -(right - (cs[i].Max.X - dc.Max.X)), 0, 0)
		p.Draw(cs[i])
	}
	drawLegendBeside(c, l, w, ps[0].DataCanvas(cs[0]))
}

// --- custom plotters ----------------------------------------------------

// bars draws vertical bars centred at X with a width in data units, from
// Base to Y, with optional error whiskers [Lo, Hi]. NaN heights draw
// nothing (the caller marks them "n/a").
type bars struct {
	X, Y   []float64
	Lo, Hi []float64 // nil: no whiskers; NaN entries: no whisker
	Width  float64
	Widths []float64 // per bar, when set (else Width)
	Base   float64
	Color  color.Color
	Line   draw.LineStyle
	Err    draw.LineStyle
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, x := range b.X {
		y := b.Y[i]
		if math.IsNaN(y) {
			continue
		}
		w := b.width(i)
		x0, x1 := trX(x-w/2), trX(x+w/2)
		y0, y1 := trY(b.Base), trY(y)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		if b.Color != nil {
			c.FillPolygon(b.Color, c.ClipPolygonXY(pts))
		}
		if b.Line.Width > 0 {
			c.StrokeLines(b.Line, c.ClipLinesXY(append(pts, pts[0]))...)
		}
	}
	b.whiskers(c, trX, trY)
}

func (b *bars) whiskers(c draw.Canvas, trX, trY func(float64) vg.Length) {
	if b.Lo == nil || b.Err.Width == 0 {
		return
	}
	cap := vg.Points(2.5)
	for i, x := range b.X {
		lo, hi := b.Lo[i], b.Hi[i]
		if math.IsNaN(lo) || math.IsNaN(hi) {
			continue
		}
		xx := trX(x)
		y0, y1 := trY(lo), trY(hi)
		c.StrokeLines(b.Err, c.ClipLinesXY([]vg.Point{{X: xx, Y: y0}, {X: xx, Y: y1}})...)
		c.StrokeLines(b.Err, c.ClipLinesXY([]vg.Point{{X: xx - cap, Y: y0}, {X: xx + cap, Y: y0}})...)
		c.StrokeLines(b.Err, c.ClipLinesXY([]vg.Point{{X: xx - cap, Y: y1}, {X: xx + cap, Y: y1}})...)
	}
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	ymin, ymax = b.Base, b.Base
	for i, x := range b.X {
		xmin = math.Min(xmin, x-b.width(i)/2)
		xmax = math.Max(xmax, x+b.width(i)/2)
		for _, v := range []float64{b.Y[i], at(b.Lo, i), at(b.Hi, i)} {
			if !math.IsNaN(v) {
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
	}
	return
}

func (b *bars) width(i int) float64 {
	if b.Widths != nil {
		return b.Widths[i]
	}
	return b.Width
}

// Thumbnail implements plot.Thumbnailer.
func (b *bars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	if b.Color != nil {
		c.FillPolygon(b.Color, pts)
	}
	if b.Line.Width > 0 {
		c.StrokeLines(b.Line, append(pts, pts[0]))
	}
}

func at(v []float64, i int) float64 {
	if v == nil {
		return math.NaN()
	}
	return v[i]
}

// dots draws points with horizontal or vertical whiskers (a dot-and-whisker
// chart); NaN values draw nothing.
type dots struct {
	X, Y       []float64
	Lo, Hi     []float64 // along the value axis
	Horizontal bool      // values on X, categories on Y
	Glyph      draw.GlyphStyle
	Err        draw.LineStyle
}

// Plot implements plot.Plotter.
func (d *dots) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cap := vg.Points(2.5)
	for i := range d.X {
		x, y := d.X[i], d.Y[i]
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		lo, hi := at(d.Lo, i), at(d.Hi, i)
		if !math.IsNaN(lo) && !math.IsNaN(hi) {
			if d.Horizontal {
				yy := trY(y)
				x0, x1 := trX(lo), trX(hi)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: x0, Y: yy}, {X: x1, Y: yy}})...)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: x0, Y: yy - cap}, {X: x0, Y: yy + cap}})...)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: x1, Y: yy - cap}, {X: x1, Y: yy + cap}})...)
			} else {
				xx := trX(x)
				y0, y1 := trY(lo), trY(hi)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: xx, Y: y0}, {X: xx, Y: y1}})...)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: xx - cap, Y: y0}, {X: xx + cap, Y: y0}})...)
				c.StrokeLines(d.Err, c.ClipLinesXY([]vg.Point{{X: xx - cap, Y: y1}, {X: xx + cap, Y: y1}})...)
			}
		}
		c.DrawGlyph(d.Glyph, vg.Point{X: trX(x), Y: trY(y)})
	}
}

// DataRange implements plot.DataRanger.
func (d *dots) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	upd := func(v float64, lo, hi *float64) {
		if !math.IsNaN(v) {
			*lo, *hi = math.Min(*lo, v), math.Max(*hi, v)
		}
	}
	for i := range d.X {
		upd(d.X[i], &xmin, &xmax)
		upd(d.Y[i], &ymin, &ymax)
		if d.Horizontal {
			upd(at(d.Lo, i), &xmin, &xmax)
			upd(at(d.Hi, i), &xmin, &xmax)
		} else {
			upd(at(d.Lo, i), &ymin, &ymax)
			upd(at(d.Hi, i), &ymin, &ymax)
		}
	}
	return
}

// GlyphBoxes implements plot.GlyphBoxer: the markers, so that a dot at
// an end of an axis (an oracle's 1.0) makes room for itself and is drawn
// whole.
func (d *dots) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var out []plot.GlyphBox
	for i := range d.X {
		if math.IsNaN(d.X[i]) || math.IsNaN(d.Y[i]) {
			continue
		}
		out = append(out, plot.GlyphBox{X: p.X.Norm(d.X[i]), Y: p.Y.Norm(d.Y[i]), Rectangle: d.Glyph.Rectangle()})
	}
	return out
}

// Thumbnail implements plot.Thumbnailer.
func (d *dots) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(d.Glyph, c.Center())
}

// tags writes short texts beside points. Each tag takes the first of a
// list of candidate places around its point (right, left, below, above,
// then the diagonals) that stays inside the data area and covers no other
// tag, no marked point and no segment of the Avoid polylines; when none
// is free it goes to the right.
type tags struct {
	XYs   plotter.XYs
	Texts []string
	Style text.Style
	Avoid []plotter.XYs
}

// tagOffset is the gap between a point and its tag.
const tagOffset = vg.Length(4)

// Plot implements plot.Plotter.
func (t *tags) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var segs [][2]vg.Point
	for _, line := range t.Avoid {
		for i := 1; i < len(line); i++ {
			segs = append(segs, [2]vg.Point{{X: trX(line[i-1].X), Y: trY(line[i-1].Y)}, {X: trX(line[i].X), Y: trY(line[i].Y)}})
		}
	}
	var taken []vg.Rectangle
	r := vg.Points(3)
	for _, xy := range t.XYs {
		x, y := trX(xy.X), trY(xy.Y)
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: x - r, Y: y - r}, Max: vg.Point{X: x + r, Y: y + r}})
	}
	for i, xy := range t.XYs {
		s := t.Texts[i]
		w, h := t.Style.Width(s), t.Style.Height(s)
		x, y := trX(xy.X), trY(xy.Y)
		o := tagOffset
		cands := []vg.Point{ // lower-left corners
			{X: x + o, Y: y - h/2}, {X: x - o - w, Y: y - h/2},
			{X: x - w/2, Y: y - o - h}, {X: x - w/2, Y: y + o},
			{X: x + o, Y: y - o - h}, {X: x + o, Y: y + o},
			{X: x - o - w, Y: y - o - h}, {X: x - o - w, Y: y + o},
		}
		pick := cands[0]
		found := false
		for _, cd := range cands {
			box := vg.Rectangle{Min: cd, Max: vg.Point{X: cd.X + w, Y: cd.Y + h}}
			if !inside(c.Rectangle, box) || overlapsAny(box, taken, i) || hitsAny(box, segs) {
				continue
			}
			pick, found = cd, true
			break
		}
		if !found {
			for _, cd := range cands {
				if inside(c.Rectangle, vg.Rectangle{Min: cd, Max: vg.Point{X: cd.X + w, Y: cd.Y + h}}) {
					pick = cd
					break
				}
			}
		}
		taken = append(taken, vg.Rectangle{Min: pick, Max: vg.Point{X: pick.X + w, Y: pick.Y + h}})
		sty := t.Style
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, pick, s)
	}
}

// inside reports whether b lies within a.
func inside(a, b vg.Rectangle) bool {
	return b.Min.X >= a.Min.X && b.Max.X <= a.Max.X && b.Min.Y >= a.Min.Y && b.Max.Y <= a.Max.Y
}

// overlapsAny reports whether b overlaps a rectangle of rs other than the
// own point's box rs[self].
func overlapsAny(b vg.Rectangle, rs []vg.Rectangle, self int) bool {
	for i, r := range rs {
		if i == self {
			continue
		}
		if b.Min.X < r.Max.X && r.Min.X < b.Max.X && b.Min.Y < r.Max.Y && r.Min.Y < b.Max.Y {
			return true
		}
	}
	return false
}

// hitsAny reports whether a segment crosses the rectangle (Liang-Barsky
// clipping).
func hitsAny(b vg.Rectangle, segs [][2]vg.Point) bool {
	for _, s := range segs {
		if segHitsRect(s[0], s[1], b) {
			return true
		}
	}
	return false
}

func segHitsRect(a, z vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(z.X-a.X), float64(z.Y-a.Y)
	clip := func(p, q float64) bool {
		if p == 0 {
			return q >= 0
		}
		t := q / p
		if p < 0 {
			if t > t1 {
				return false
			}
			t0 = math.Max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = math.Min(t1, t)
		}
		return true
	}
	return clip(-dx, float64(a.X-r.Min.X)) && clip(dx, float64(r.Max.X-a.X)) &&
		clip(-dy, float64(a.Y-r.Min.Y)) && clip(dy, float64(r.Max.Y-a.Y)) && t0 <= t1
}

// GlyphBoxes implements plot.GlyphBoxer: room for each tag to the right
// of its point, so that tags near the edges are not clipped.
func (t *tags) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var out []plot.GlyphBox
	for i, xy := range t.XYs {
		w, h := t.Style.Width(t.Texts[i]), t.Style.Height(t.Texts[i])
		out = append(out, plot.GlyphBox{
			X: p.X.Norm(xy.X), Y: p.Y.Norm(xy.Y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: 0, Y: -h / 2}, Max: vg.Point{X: w + tagOffset, Y: h / 2}},
		})
	}
	return out
}

// textAt writes texts at data positions with the given alignment.
type textAt struct {
	XYs   plotter.XYs
	Texts []string
	Style text.Style
	DY    vg.Length // vertical offset in canvas units
}

// Plot implements plot.Plotter.
func (t *textAt) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, xy := range t.XYs {
		c.FillText(t.Style, vg.Point{X: trX(xy.X), Y: trY(xy.Y) + t.DY}, t.Texts[i])
	}
}

// GlyphBoxes implements plot.GlyphBoxer.
func (t *textAt) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var out []plot.GlyphBox
	for i, xy := range t.XYs {
		r := t.Style.Rectangle(t.Texts[i])
		r.Min.Y += t.DY
		r.Max.Y += t.DY
		out = append(out, plot.GlyphBox{X: p.X.Norm(xy.X), Y: p.Y.Norm(xy.Y), Rectangle: r})
	}
	return out
}

// legendLine is a legend thumbnail for a line style.
type legendLine struct{ draw.LineStyle }

// Thumbnail implements plot.Thumbnailer.
func (l legendLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.LineStyle, c.Min.X, y, c.Max.X, y)
}

// legendFill is a legend thumbnail for a filled area, with a thin
// outline so that a white or pale fill stays visible.
type legendFill struct{ color.Color }

// Thumbnail implements plot.Thumbnailer.
func (l legendFill) Thumbnail(c *draw.Canvas) {
	h := min(c.Max.Y-c.Min.Y, vg.Points(9)) * 0.5
	y := c.Center().Y
	pts := []vg.Point{{X: c.Min.X, Y: y - h}, {X: c.Min.X, Y: y + h}, {X: c.Max.X, Y: y + h}, {X: c.Max.X, Y: y - h}}
	c.FillPolygon(l.Color, pts)
	c.StrokeLines(draw.LineStyle{Color: grey, Width: vg.Points(0.3)}, append(pts, pts[0]))
}

// haloRing is a ring marker drawn white on a black halo: visible on any
// heat-map colour and on white.
type haloRing struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (haloRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.SetLineStyle(draw.LineStyle{Color: black, Width: vg.Points(2)})
	c.Stroke(p)
	c.SetLineStyle(draw.LineStyle{Color: color.White, Width: vg.Points(0.9)})
	c.Stroke(p)
}

// suptitle writes a figure title centred at the top of c and returns the
// canvas below it.
func suptitle(c draw.Canvas, title string, lk look) draw.Canvas {
	if title == "" {
		return c
	}
	sty := textStyle(lk.title)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y}, title)
	return draw.Crop(c, 0, 0, 0, -(sty.Height(title) + vg.Points(4)))
}

// legendEmpty reports whether l has no entry.
func legendEmpty(l *plot.Legend) bool {
	if l == nil {
		return true
	}
	var dc draw.Canvas
	r := l.Rectangle(dc)
	return r.Max.X == r.Min.X
}

// legendGlyph is a legend thumbnail for a marker.
type legendGlyph struct{ draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (l legendGlyph) Thumbnail(c *draw.Canvas) { c.DrawGlyph(l.GlyphStyle, c.Center()) }
