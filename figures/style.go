package figures

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

// Paper sizes of the figures.
var (
	figW     = 5 * vg.Inch   // one panel
	figH     = 3.5 * vg.Inch // one panel
	wideW    = 6.5 * vg.Inch // two panels side by side
	wideH    = 3.2 * vg.Inch
	legendW  = 1.55 * vg.Inch // the legend column of a one-panel figure
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
	draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{},
}

func seriesGlyph(i int) draw.GlyphDrawer { return glyphs[i%len(glyphs)] }

// textStyle is the house text style at size pt.
func textStyle(pt vg.Length) text.Style {
	return text.Style{
		Color:   black,
		Font:    font.From(plot.DefaultFont, pt),
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a plot in the house style with the given axis labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = sizeTitle
	p.Title.Padding = vg.Points(4)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = sizeLabel
		a.Tick.Label.Font.Size = sizeTick
		a.Label.Padding = vg.Points(3)
		a.Padding = vg.Points(2)
		a.Tick.Length = vg.Points(3)
		a.Width = vg.Points(0.6)
		a.Tick.Width = vg.Points(0.6)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	g := plotter.NewGrid()
	g.Vertical.Color = gridGrey
	g.Horizontal.Color = gridGrey
	g.Vertical.Width = vg.Points(0.4)
	g.Horizontal.Width = vg.Points(0.4)
	p.Add(g)
	return p
}

// newLegend returns an empty legend in the house style.
func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = textStyle(sizeLegend)
	l.Left = true
	l.Top = true
	l.ThumbnailWidth = vg.Points(16)
	l.Padding = vg.Points(2.5)
	return &l
}

// unitRange fixes an axis to [lo, hi] with ticks every step.
func unitRange(a *plot.Axis, lo, hi, step float64) {
	a.Min, a.Max = lo, hi
	var ticks []plot.Tick
	n := int(math.Round((hi - lo) / step))
	for i := 0; i <= n; i++ {
		v := lo + float64(i)*step
		ticks = append(ticks, plot.Tick{Value: v, Label: trimFloat(v, 2)})
	}
	a.Tick.Marker = plot.ConstantTicks(ticks)
}

// intTicks marks the given integer positions.
func intTicks(a *plot.Axis, vals []int, label func(int) string) {
	var ticks []plot.Tick
	for _, v := range vals {
		ticks = append(ticks, plot.Tick{Value: float64(v), Label: label(v)})
	}
	a.Tick.Marker = plot.ConstantTicks(ticks)
}

// nominalTicks labels positions 0..n-1 with names.
func nominalTicks(a *plot.Axis, names []string) {
	var ticks []plot.Tick
	for i, n := range names {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: n})
	}
	a.Tick.Marker = plot.ConstantTicks(ticks)
	a.Min, a.Max = -0.6, float64(len(names))-0.4
}

// lineStyle is a data line of series i.
func lineStyle(i int, width float64) draw.LineStyle {
	return draw.LineStyle{Color: seriesColor(i), Width: vg.Points(width), Dashes: seriesDash(i)}
}

// --- layout -----------------------------------------------------------

// panel is one plot of a figure with the legend entries it owns.
type panel struct {
	p   *plot.Plot
	leg *plot.Legend // may be nil
}

// legendWidth returns the width the legend needs.
func legendWidth(l *plot.Legend) vg.Length {
	if l == nil {
		return 0
	}
	var dc draw.Canvas
	r := l.Rectangle(dc)
	return r.Max.X - r.Min.X + legendMu
}

// drawWithLegend draws p in c with the legend l in a column on its right,
// top-aligned with the data area.
func drawWithLegend(c draw.Canvas, p *plot.Plot, l *plot.Legend) {
	if l == nil {
		p.Draw(c)
		return
	}
	w := legendWidth(l)
	if w < minLegW {
		w = minLegW
	}
	pc := draw.Crop(c, 0, -w-gutter, 0, 0)
	p.Draw(pc)
	dc := p.DataCanvas(pc)
	lc := draw.Crop(c, c.Max.X-c.Min.X-w, 0, 0, 0)
	lc.Max.Y = dc.Max.Y
	l.Draw(lc)
}

// drawRow draws plots side by side with their data areas aligned, and an
// optional shared legend in a column on the right.
func drawRow(c draw.Canvas, ps []*plot.Plot, l *plot.Legend) {
	w := legendWidth(l)
	if l != nil && w < minLegW {
		w = minLegW
	}
	pc := c
	if l != nil {
		pc = draw.Crop(c, 0, -w-gutter, 0, 0)
	}
	t := draw.Tiles{Rows: 1, Cols: len(ps), PadX: vg.Points(14)}
	cs := plot.Align([][]*plot.Plot{ps}, t, pc)
	for i, p := range ps {
		p.Draw(cs[0][i])
	}
	if l != nil {
		dc := ps[len(ps)-1].DataCanvas(cs[0][len(ps)-1])
		lc := draw.Crop(c, c.Max.X-c.Min.X-w, 0, 0, 0)
		lc.Max.Y = dc.Max.Y
		l.Draw(lc)
	}
}

// drawStack draws plots one above the other, with heights proportional to
// weights, their data areas sharing left and right edges, and an optional
// legend beside the top plot.
func drawStack(c draw.Canvas, ps []*plot.Plot, weights []float64, gap vg.Length, l *plot.Legend) {
	w := legendWidth(l)
	if l != nil && w < minLegW {
		w = minLegW
	}
	pc := c
	if l != nil {
		pc = draw.Crop(c, 0, -w-gutter, 0, 0)
	}
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
	if l != nil {
		dc := ps[0].DataCanvas(cs[0])
		lc := draw.Crop(c, c.Max.X-c.Min.X-w, 0, 0, 0)
		lc.Max.Y = dc.Max.Y
		l.Draw(lc)
	}
}

// --- custom plotters ----------------------------------------------------

// bars draws vertical bars centred at X with a width in data units, from
// Base to Y, with optional error whiskers [Lo, Hi]. NaN heights draw
// nothing (the caller marks them "n/a").
type bars struct {
	X, Y   []float64
	Lo, Hi []float64 // nil: no whiskers; NaN entries: no whisker
	Width  float64
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
		x0, x1 := trX(x-b.Width/2), trX(x+b.Width/2)
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
		xmin = math.Min(xmin, x-b.Width/2)
		xmax = math.Max(xmax, x+b.Width/2)
		for _, v := range []float64{b.Y[i], at(b.Lo, i), at(b.Hi, i)} {
			if !math.IsNaN(v) {
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
	}
	return
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

// Thumbnail implements plot.Thumbnailer.
func (d *dots) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(d.Glyph, c.Center())
}

// tags writes short texts beside points: to the right of each point (to
// the left near the right edge), pushed apart vertically so that no two
// overlap; a displaced tag gets a thin leader line to its point.
type tags struct {
	XYs   plotter.XYs
	Texts []string
	Style text.Style
}

// Plot implements plot.Plotter.
func (t *tags) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	type item struct {
		x, y, want vg.Length
		w, h       vg.Length
		s          string
		right      bool
	}
	var items []item
	off := vg.Points(4)
	for i, xy := range t.XYs {
		s := t.Texts[i]
		w, h := t.Style.Width(s), t.Style.Height(s)
		x, y := trX(xy.X), trY(xy.Y)
		right := x+off+w <= c.Max.X
		items = append(items, item{x: x, y: y, want: y - h/2, w: w, h: h, s: s, right: right})
	}
	// Resolve overlaps separately on each side: sort by wanted position
	// from the top, push each tag below the previous one, then shift the
	// whole column up if it fell off the bottom.
	for _, side := range []bool{true, false} {
		var idx []int
		for i, it := range items {
			if it.right == side {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return items[idx[a]].want > items[idx[b]].want })
		pos := make([]vg.Length, len(idx))
		for k, i := range idx {
			pos[k] = min(items[i].want, c.Max.Y-items[i].h)
			if k > 0 && pos[k] > pos[k-1]-items[i].h {
				pos[k] = pos[k-1] - items[i].h
			}
		}
		if n := len(idx); n > 0 && pos[n-1] < c.Min.Y {
			shift := c.Min.Y - pos[n-1]
			for k := range pos {
				pos[k] += shift
			}
		}
		for k, i := range idx {
			items[i].want = pos[k]
		}
	}
	lead := draw.LineStyle{Color: grey, Width: vg.Points(0.4)}
	for _, it := range items {
		tx := it.x + off
		sty := t.Style
		sty.XAlign = draw.XLeft
		if !it.right {
			tx = it.x - off
			sty.XAlign = draw.XRight
		}
		sty.YAlign = draw.YBottom
		if d := (it.want + it.h/2) - it.y; d > it.h/2 || d < -it.h/2 {
			c.StrokeLine2(lead, it.x, it.y, tx, it.want+it.h/2)
		}
		c.FillText(sty, vg.Point{X: tx, Y: it.want}, it.s)
	}
}

// GlyphBoxes implements plot.GlyphBoxer so that tags near the edges are
// not clipped: the plot is padded to make room for them.
func (t *tags) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	var out []plot.GlyphBox
	for i, xy := range t.XYs {
		w, h := t.Style.Width(t.Texts[i]), t.Style.Height(t.Texts[i])
		out = append(out, plot.GlyphBox{
			X: p.X.Norm(xy.X), Y: p.Y.Norm(xy.Y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -w - vg.Points(4), Y: -h / 2}, Max: vg.Point{X: w + vg.Points(4), Y: h / 2}},
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

// legendFill is a legend thumbnail for a filled area.
type legendFill struct{ color.Color }

// Thumbnail implements plot.Thumbnailer.
func (l legendFill) Thumbnail(c *draw.Canvas) {
	h := (c.Max.Y - c.Min.Y) * 0.35
	y := c.Center().Y
	c.FillPolygon(l.Color, []vg.Point{{X: c.Min.X, Y: y - h}, {X: c.Min.X, Y: y + h}, {X: c.Max.X, Y: y + h}, {X: c.Max.X, Y: y - h}})
}

// legendGlyph is a legend thumbnail for a marker.
type legendGlyph struct{ draw.GlyphStyle }

// Thumbnail implements plot.Thumbnailer.
func (l legendGlyph) Thumbnail(c *draw.Canvas) { c.DrawGlyph(l.GlyphStyle, c.Center()) }
