package plot

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/figures"
)

// This file holds the plotters of heat maps (viridis, cells, colour bar),
// of the difficulty cloud, and the log-axis ticks.

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

// colorAt is the colour of x, clamped to the range.
func (v *viridis) colorAt(x float64) color.NRGBA {
	t := 0.0
	if v.max > v.min {
		t = (x - v.min) / (v.max - v.min)
	}
	return viridisAt(t)
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
func colorBar(m *viridis, label string, lk look) *plot.Plot {
	p := newPlot("", "", label, lk)
	p.HideX()
	cb := &plotter.ColorBar{ColorMap: m, Vertical: true, Colors: 256}
	p.Add(cb)
	p.Y.Min, p.Y.Max = m.min, m.max
	return p
}

// drawHeatRow draws heat-map panels side by side under a title centred
// over them, then a colour bar and a legend column on the right.
func drawHeatRow(c draw.Canvas, title string, ps []*plot.Plot, cb *plot.Plot, leg *plot.Legend, lk look) {
	lw := legendWidth(leg)
	if lw > 0 {
		lw = max(lw, minLegW)
	}
	cbw := 0.8 * vg.Inch
	main := draw.Crop(c, 0, -(cbw + lw + 2*gutter), 0, 0)
	if title != "" {
		below := suptitle(main, title, lk)
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

// cloud draws points as filled circles of one colour; a point standing
// for N observations is drawn once with the opacity of N overplotted
// markers (figures.StackAlpha). X is already in axis space (log10 on a
// log axis).
type cloud struct {
	Points []figures.Weighted
	Color  color.NRGBA
	Alpha  float64
	Radius vg.Length
}

// Plot implements plot.Plotter.
func (s *cloud) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pt := range s.Points {
		g := draw.GlyphStyle{Color: fade(s.Color, figures.StackAlpha(s.Alpha, pt.N)), Radius: s.Radius, Shape: draw.CircleGlyph{}}
		c.DrawGlyph(g, vg.Point{X: trX(pt.X), Y: trY(pt.Y)})
	}
}

// DataRange implements plot.DataRanger.
func (s *cloud) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range s.Points {
		xmin, xmax = math.Min(xmin, pt.X), math.Max(xmax, pt.X)
		ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
	}
	return
}

// logTicks marks an axis in log10 units with the values they stand for:
// every power of ten labelled, and 2 and 5 times each power labelled too
// when the axis spans less than two decades (unlabelled minor ticks at 2
// to 9 times each power otherwise).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	e0, e1 := int(math.Floor(min)), int(math.Ceil(max))
	dense := max-min < 2
	var out []plot.Tick
	for e := e0; e <= e1; e++ {
		for m := 1; m <= 9; m++ {
			v := roundSig(float64(m) * math.Pow(10, float64(e)))
			lv := math.Log10(v)
			if lv < min-1e-12 || lv > max+1e-12 {
				continue
			}
			t := plot.Tick{Value: lv}
			if m == 1 || (dense && (m == 2 || m == 5)) {
				t.Label = numLabel(v)
			}
			out = append(out, t)
		}
	}
	return out
}

// roundSig rounds v to 12 significant digits (10^-2 computed as 0.01000…1
// prints as 0.01).
func roundSig(v float64) float64 {
	s := strconv.FormatFloat(v, 'g', 12, 64)
	x, _ := strconv.ParseFloat(s, 64)
	return x
}
