package echarts

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"paperbundle/figures"
)

// This file holds the panels: the builder that adds each panel's axes and
// series to one chart, and the rounding of coordinates.

// builder adds the axes and series of each panel to one base chart.
type builder struct {
	spec  *figures.Spec
	base  *charts.Line
	zoom  bool
	extra []*seriesExtra // parallel to base.MultiSeries
}

// add appends a series of the given type (types.ChartLine, ...) on the
// axes of panel i.
func (b *builder) add(typ, name string, i int, data any, x *seriesExtra, o ...charts.SeriesOpts) {
	s := charts.SingleSeries{Name: name, Type: typ, Data: data}
	s.ConfigureSeriesOpts(o...)
	s.XAxisIndex, s.YAxisIndex = i, i
	if x != nil {
		s.Stack = x.stack
		if x.step != "" {
			s.Step = x.step
		}
	}
	b.base.MultiSeries = append(b.base.MultiSeries, s)
	b.extra = append(b.extra, x)
}

// panel adds panel i: its two axes and its elements as series.
func (b *builder) panel(i int) {
	pn := &b.spec.Panels[i]
	hasBand, cats := false, []string(nil)
	var ks []int
	for _, e := range pn.Elements {
		switch e := e.(type) {
		case *figures.Band:
			hasBand = true
		case *figures.Histogram:
			ks = union(ks, e.K)
		}
	}
	xa := pn.X
	xa.Log = xa.Log || b.cutoffLog(pn)
	x := xAxis(&xa, i)
	y := yAxis(&pn.Y, i)
	if ks != nil {
		for _, k := range ks {
			cats = append(cats, strconv.Itoa(k))
		}
		x = opts.XAxis{Type: "category", Data: cats, Name: pn.X.Label, NameLocation: "middle", NameGap: 28, GridIndex: i}
	}
	for _, e := range pn.Elements {
		if h, ok := e.(*figures.HeatMap); ok {
			x = opts.XAxis{Type: "category", Data: h.Cols, Name: pn.X.Label, NameLocation: "middle", NameGap: 28, GridIndex: i}
			y = opts.YAxis{Type: "category", Data: h.Rows, Name: pn.Y.Label, NameLocation: "middle", NameGap: 46, GridIndex: i}
			b.zoom = b.zoom || pn.X.IndexTicks
		}
	}
	if hasBand {
		x.SplitLine, y.SplitLine = noSplit(), noSplit()
	}
	if i == 0 {
		b.base.SetGlobalOptions(charts.WithXAxisOpts(x, 0), charts.WithYAxisOpts(y, 0))
		b.base.SetXAxis(x.Data) // Validate copies it into the first x axis
	} else {
		b.base.ExtendXAxis(x)
		b.base.ExtendYAxis(y)
	}
	nbars := 0
	for _, e := range pn.Elements {
		if _, ok := e.(*figures.Bars); ok {
			nbars++
		}
	}
	for _, e := range pn.Elements {
		switch e := e.(type) {
		case *figures.Line:
			b.line(i, e, pn)
		case *figures.Band:
			b.band(i, e, pn)
		case *figures.Points:
			// The colour scale reads the heat maps only (visualMap
			// seriesIndex), so markers keep their colour over a heat map.
			b.points(i, e, pn)
		case *figures.Bars:
			b.bars(i, e, len(pn.X.Categories), nbars == 1, pn)
		case *figures.Histogram:
			b.hist(i, e, ks)
		case *figures.Counts:
			b.counts(i, e, pn)
		case *figures.HeatMap:
			b.heat(i, e)
		case *figures.Scatter:
			b.scatter(i, e, pn)
		case *figures.Text:
			b.text(i, e, pn)
		}
	}
}

func noSplit() *opts.SplitLine { return &opts.SplitLine{Show: opts.Bool(false)} }

// xAxis and yAxis translate a spec axis.
func xAxis(a *figures.Axis, grid int) opts.XAxis {
	x := opts.XAxis{Type: "value", Name: a.Label, NameLocation: "middle", NameGap: 28, GridIndex: grid}
	switch {
	case len(a.Categories) > 0:
		x.Type, x.Data = "category", a.Categories
	case a.Log:
		x.Type = "log"
	}
	if a.Fixed && len(a.Categories) == 0 {
		if a.Log {
			x.Min, x.Max = axisEnd(a.Min, a, math.Floor), axisEnd(a.Max, a, math.Ceil)
		} else {
			n := fixedAxis(a)
			x.Min, x.Max = n.min, n.max
			x.AxisLabel = n.endLabels(x.AxisLabel)
		}
	}
	if a.HideTickLabels {
		x.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
	}
	if room := turnRoom(a); room > 0 {
		// Every name shown, turned so that none overlaps the next; the
		// axis title moves below them.
		x.AxisLabel = &opts.AxisLabel{Interval: "0", Rotate: 30}
		x.NameGap += int(room)
	}
	return x
}

// turnRoom is the height in pixels that the category names of an x axis
// take once turned by 30°, or 0 when they are left level: when, at about
// 7 pixels a character of echarts' 12-pixel labels and two characters of
// gap, they would not fit side by side in 520 pixels (a chart on a laptop
// screen), echarts would drop every other name to avoid an overlap. A name
// of n characters turned by 30° is n·7·sin 30° high (names over 40
// characters count as 40).
func turnRoom(a *figures.Axis) float64 {
	if len(a.Categories) == 0 || a.IndexTicks || a.HideTickLabels {
		return 0
	}
	longest, total := 0, 0
	for _, c := range a.Categories {
		n := utf8.RuneCountInString(c)
		longest = max(longest, n)
		total += n + 2
	}
	if 7*total <= 520 {
		return 0
	}
	return math.Round(7 * float64(min(longest, 40)) * 0.5)
}

func yAxis(a *figures.Axis, grid int) opts.YAxis {
	y := opts.YAxis{Type: "value", Name: a.Label, NameLocation: "middle", NameGap: 46, GridIndex: grid}
	switch {
	case len(a.Categories) > 0:
		y.Type, y.Data = "category", a.Categories
	case a.Log:
		y.Type = "log"
	}
	if a.Fixed && len(a.Categories) == 0 {
		if a.Log {
			y.Min, y.Max = axisEnd(a.Min, a, math.Floor), axisEnd(a.Max, a, math.Ceil)
		} else {
			n := fixedAxis(a)
			y.Min, y.Max = n.min, n.max
			y.AxisLabel = n.endLabels(y.AxisLabel)
		}
	}
	if a.HideTickLabels {
		y.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
	}
	return y
}

// cutoffLog reports whether the x axis of a Recall@K or Precision@K
// panel is drawn on a log scale: when its cutoffs span more than a
// factor of 20 (K = 5 ... 1000 would otherwise crowd into the first few
// percent of the axis), the rule of the static figures.
func (b *builder) cutoffLog(pn *figures.Panel) bool {
	switch b.spec.Kind.Family() {
	case figures.KindRecallAtK, figures.KindPrecisionAtK:
	default:
		return false
	}
	if len(pn.X.Categories) > 0 {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range pn.Elements {
		switch e := e.(type) {
		case *figures.Line:
			for _, seg := range e.Segments {
				for _, p := range seg {
					lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
				}
			}
		case *figures.Points:
			for _, p := range e.Points {
				lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
			}
		}
	}
	return figures.LogCutoffs(lo, hi)
}

// axisEnd rounds an axis end for the screen: to the power of ten beyond
// it on a log axis, else to the axis' coordinate step.
func axisEnd(v float64, a *figures.Axis, round func(float64) float64) float64 {
	if a.Log && v > 0 {
		// 1, 2 or 5 times a power of ten, outward.
		e := math.Floor(math.Log10(v))
		ms := []float64{1, 2, 5, 10}
		if round(0.5) == 0 { // down
			for k := len(ms) - 1; k >= 0; k-- {
				if m := ms[k] * math.Pow(10, e); m <= v*(1+1e-9) {
					return clean(m)
				}
			}
		}
		for _, m := range ms {
			if x := m * math.Pow(10, e); x >= v*(1-1e-9) {
				return clean(x)
			}
		}
	}
	return quantOf(a).r(v)
}

// quant rounds the coordinates of one axis: on a fixed linear range to a
// power of ten at most 1/2000 of the range (a tenth of a pixel on a
// 200-pixel axis), else to four significant digits (log axes, and ranges
// the chart fits to the data).
type quant struct {
	dec int // decimals; -1: four significant digits
}

func quantOf(a *figures.Axis) quant {
	if a.Fixed && !a.Log && a.Max > a.Min && len(a.Categories) == 0 {
		return quant{max(0, -int(math.Floor(math.Log10((a.Max-a.Min)/2000))))}
	}
	return quant{-1}
}

func (q quant) r(v float64) float64 {
	if q.dec >= 0 {
		p := math.Pow(10, float64(q.dec))
		return math.Round(v*p) / p
	}
	return sig4(v)
}

// sig4 rounds to four significant digits.
func sig4(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return r
}
