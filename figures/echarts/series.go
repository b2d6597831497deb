package echarts

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"paperbundle/figures"
)

// This file holds the series: each element of a spec as echarts series.

func noSymbol() charts.SeriesOpts {
	return charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Symbol: "none"})
}

// lineStyle styles a series' line, and its symbols in the same colour.
func lineStyle(st figures.Style) charts.SeriesOpts {
	c, w, dash, op := look(st)
	return func(s *charts.SingleSeries) {
		s.LineStyle = &opts.LineStyle{Color: c, Width: w, Type: dash, Opacity: opts.Float(op)}
		s.ItemStyle = &opts.ItemStyle{Color: c}
	}
}

func encode(e *opts.Encode) charts.SeriesOpts {
	return func(s *charts.SingleSeries) { s.Encode = e }
}

// maxPoints is the most points a curve keeps on screen; a line with
// tooltips keeps all its points up to keepTips (the decision curve's 99
// thresholds), and is decimated beyond.
const (
	maxPoints = 600
	keepTips  = 400
)

// xy gives the data dimension of a point's x and y (0 and 1).
func xy(c figures.Coord) int {
	switch c {
	case figures.CoordX:
		return 0
	case figures.CoordY:
		return 1
	}
	return -1
}

func all(n int) []int {
	idx := make([]int, n)
	for j := range idx {
		idx[j] = j
	}
	return idx
}

// line adds a line: one series per segment, each point [x, y, tooltip
// values...]. A line without tooltips, and a line with tooltips longer
// than keepTips, is simplified (see decimate); tooltips become a table or
// item names (see tipTable).
func (b *builder) line(i int, e *figures.Line, pn *figures.Panel) {
	qx, qy := quantOf(&pn.X), quantOf(&pn.Y)
	g := newPixels(pn, e.Segments)
	var tips []figures.Tip
	for si, seg := range e.Segments {
		for j := range seg {
			var t figures.Tip
			if si < len(e.Tips) && j < len(e.Tips[si]) {
				t = e.Tips[si][j]
			}
			tips = append(tips, t)
		}
	}
	hasTips := e.Tips != nil
	var tt *tipTable
	if hasTips {
		tt = makeTipTable(tips, 2, xy)
	}
	base := 0
	for _, seg := range e.Segments {
		keep := all(len(seg))
		switch {
		case !hasTips:
			keep = decimate(seg, e.Steps, 0, g)
		case len(seg) > keepTips:
			keep = decimate(seg, e.Steps, tipGap, g)
		}
		d := make([][]any, 0, len(keep))
		for _, j := range keep {
			r := []any{qx.r(seg[j].X), qy.r(seg[j].Y)}
			switch {
			case tt != nil:
				r = append(r, tt.extra[base+j]...)
			case hasTips:
				r = append(r, tips[base+j].Text())
			}
			d = append(d, r)
		}
		base += len(seg)
		x := &seriesExtra{}
		if e.Steps {
			x.step = "end"
		}
		o := []charts.SeriesOpts{lineStyle(e.Style)}
		switch {
		case tt != nil:
			var enc *opts.Encode
			x.dims, enc = tt.dims(2)
			o = append(o, encode(enc))
		case hasTips:
			o = append(o, tip(), encode(&opts.Encode{X: 0, Y: 1, ItemName: 2}))
		default:
			o = append(o, noSymbol(), noTip())
		}
		if hasTips {
			o = append(o, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}))
		}
		b.add(types.ChartLine, e.Name, i, d, x, o...)
	}
}

// band adds a confidence band as two stacked lines: the lower bound
// (invisible) and the width hi - lo above it, filled down to the lower
// bound (no opaque mask, so the band reads on any background). The data
// are [y, x] with encode x: 1, y: 0, for echarts stacks the first value
// dimension; both series keep the same points, and the stack pairs them by
// index.
func (b *builder) band(i int, e *figures.Band, pn *figures.Panel) {
	c, _, _, _ := look(e.Style)
	qx, qy := quantOf(&pn.X), quantOf(&pn.Y)
	for _, run := range e.Runs {
		lo := make([]figures.XY, len(run.X))
		hi := make([]figures.XY, len(run.X))
		for k := range run.X {
			lo[k], hi[k] = figures.XY{X: run.X[k], Y: run.Lo[k]}, figures.XY{X: run.X[k], Y: run.Hi[k]}
		}
		g := newPixels(pn, [][]figures.XY{lo, hi})
		keep := union(decimate(lo, false, 0, g), decimate(hi, false, 0, g))
		dl := make([][]any, len(keep))
		dw := make([][]any, len(keep))
		for n, k := range keep {
			x, l, h := qx.r(run.X[k]), qy.r(run.Lo[k]), qy.r(run.Hi[k])
			dl[n], dw[n] = []any{l, x}, []any{qy.r(h - l), x}
		}
		stack := "band" + strconv.Itoa(len(b.base.MultiSeries))
		flat := func(s *charts.SingleSeries) { s.LineStyle = &opts.LineStyle{Width: 0, Opacity: opts.Float(0)} }
		yx := encode(&opts.Encode{X: 1, Y: 0})
		b.add(types.ChartLine, e.Name, i, dl, &seriesExtra{stack: stack, stackHow: "all"}, noSymbol(), noTip(), flat, yx,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: c}))
		b.add(types.ChartLine, e.Name, i, dw, &seriesExtra{stack: stack, stackHow: "all"}, noSymbol(), noTip(), flat, yx,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: c}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: c, Opacity: opts.Float(0.25)}))
	}
}

// union is the sorted distinct values of a and b.
func union(a, b []int) []int {
	set := map[int]bool{}
	for _, k := range append(append([]int{}, a...), b...) {
		set[k] = true
	}
	out := make([]int, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// whisker is an interval from A to B, each [x, y] (or [y, x] when the
// series encodes x from the second value).
type whisker [2][2]any

// whiskers adds intervals as one line series, broken between them (a "-"
// value is a gap for echarts). yx: the points are [y, x].
func (b *builder) whiskers(i int, name string, st figures.Style, ws []whisker, yx bool, o ...charts.SeriesOpts) {
	if len(ws) == 0 {
		return
	}
	var d [][]any
	for k, w := range ws {
		if k > 0 {
			d = append(d, []any{w[0][0], "-"})
		}
		d = append(d, []any{w[0][0], w[0][1]}, []any{w[1][0], w[1][1]})
	}
	o = append([]charts.SeriesOpts{noSymbol(), noTip(), lineStyle(st)}, o...)
	if yx {
		o = append(o, encode(&opts.Encode{X: 1, Y: 0}))
	}
	b.add(types.ChartLine, name, i, d, nil, o...)
}

// points adds markers as a scatter series (tags as labels from the third
// value), and their whiskers as one broken line.
func (b *builder) points(i int, e *figures.Points, pn *figures.Panel) {
	c, _, _, _ := look(e.Style)
	qx, qy := quantOf(&pn.X), quantOf(&pn.Y)
	tips := make([]figures.Tip, len(e.Points))
	for k, p := range e.Points {
		tips[k] = p.Tip
	}
	tt := makeTipTable(tips, 3, xy) // [x, y, tag, tooltip values...]
	var d []opts.ScatterData
	var ws []whisker
	tags := false
	for k, p := range e.Points {
		if tt != nil {
			d = append(d, opts.ScatterData{Value: append([]any{qx.r(p.X), qy.r(p.Y), p.Tag}, tt.extra[k]...)})
		} else {
			d = append(d, opts.ScatterData{Value: []any{qx.r(p.X), qy.r(p.Y), p.Tag}, Name: p.Tip.Text()})
		}
		tags = tags || p.Tag != ""
		switch {
		case p.Err == nil:
		case e.Horizontal: // [y, x]: the gap falls on x
			ws = append(ws, whisker{{qy.r(p.Y), qx.r(p.Err.Lo)}, {qy.r(p.Y), qx.r(p.Err.Hi)}})
		default:
			ws = append(ws, whisker{{qx.r(p.X), qy.r(p.Err.Lo)}, {qx.r(p.X), qy.r(p.Err.Hi)}})
		}
	}
	name := e.ErrName
	if name == "" {
		name = e.Name
	}
	b.whiskers(i, name, figures.Style{Role: e.Style.Role, Series: e.Style.Series, Width: 1.5}, ws, e.Horizontal)
	x := &seriesExtra{z: 3} // above the lines
	item, size := opts.ItemStyle{Color: c, Opacity: opts.Float(1)}, 9
	if e.Style.Role == figures.Chosen {
		size = 12
		// A ring: an empty circle in the neutral grey, which reads on
		// light and dark pages and over every colour of the heat map.
		item.BorderColor, item.BorderWidth = neutral, 3
	}
	o := []charts.SeriesOpts{tip(), charts.WithItemStyleOpts(item),
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: symbol(e.Style), SymbolSize: size})}
	if tt != nil {
		var enc *opts.Encode
		x.dims, enc = tt.dims(3)
		x.dims[2].Type = "ordinal" // the tag
		o[0] = encode(enc)
	}
	if tags {
		o = append(o, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "bottom", Formatter: "{@[2]}", FontSize: 10}))
	}
	b.add(types.ChartScatter, e.Name, i, d, x, o...)
}

// bars adds one bar series over the categories ("-" where undefined);
// whiskers when the series is alone (grouped bars carry their interval in
// the tooltip).
func (b *builder) bars(i int, e *figures.Bars, ncat int, whiskers bool, pn *figures.Panel) {
	c, _, _, op := look(e.Style)
	qy := quantOf(&pn.Y)
	d := make([]opts.BarData, ncat)
	for k := range d {
		d[k] = opts.BarData{Value: "-", Name: "n/a"}
	}
	var ws []whisker
	for _, bar := range e.Bars {
		if bar.Cat < 0 || bar.Cat >= ncat {
			continue
		}
		d[bar.Cat] = opts.BarData{Value: qy.r(bar.Value), Name: bar.Tip.Text()}
		if whiskers && bar.Err != nil {
			ws = append(ws, whisker{{bar.Cat, qy.r(bar.Err.Lo)}, {bar.Cat, qy.r(bar.Err.Hi)}})
		}
	}
	b.whiskers(i, "CI", figures.Style{Role: figures.Whisker, Width: 1.5}, ws, false,
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "rect", SymbolSize: []int{10, 2}}))
	b.add(types.ChartBar, e.Name, i, d, nil, tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(op)}))
}

// hist adds a histogram as bars over the K categories (0 where absent).
func (b *builder) hist(i int, e *figures.Histogram, ks []int) {
	c, _, _, _ := look(e.Style)
	pos := map[int]int{}
	d := make([]opts.BarData, len(ks))
	for j, k := range ks {
		pos[k] = j
		d[j] = opts.BarData{Value: 0, Name: figures.Tip{{Label: "K", Value: figures.Int(k)}, {Label: "queries", Value: figures.Int(0)}}.Text()}
	}
	for j, k := range e.K {
		d[pos[k]] = opts.BarData{Value: e.Count[j], Name: e.Tips[j].Text()}
	}
	b.add(types.ChartBar, e.Name, i, d, nil, tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c}))
}

// counts adds bars of counts at the bin centres of a value axis.
func (b *builder) counts(i int, e *figures.Counts, pn *figures.Panel) {
	qx := quantOf(&pn.X)
	var d []opts.BarData
	for _, bin := range e.Bins {
		d = append(d, opts.BarData{Value: []float64{qx.r((bin.Lo + bin.Hi) / 2), float64(bin.Count)}, Name: bin.Tip.Text()})
	}
	c, _, _, _ := look(e.Style)
	b.add(types.ChartBar, e.Name, i, d, nil, tip(), charts.WithBarChartOpts(opts.BarChart{BarWidth: "40%"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(0.6)}))
}

// heat adds a heat map over category axes; undefined cells are left out
// (blank), and counted in the spec's notes. Each cell is [col, row, value]
// (the visual map reads dimension 2); when a tooltip table names the
// column or the row, it is written as its label.
func (b *builder) heat(i int, e *figures.HeatMap) {
	var cells []figures.Cell
	var tips []figures.Tip
	for _, c := range e.Cells {
		if !c.Undefined {
			cells = append(cells, c)
			tips = append(tips, c.Tip)
		}
	}
	p := math.Pow(10, float64(e.Decimals))
	val := func(c figures.Cell) float64 { return math.Round(c.Value*p) / p }
	label := func(l []string, k int) string {
		if k >= 0 && k < len(l) {
			return l[k]
		}
		return ""
	}
	hasTips := len(cells) > 0 && cells[0].Tip != nil
	var tt *tipTable
	if hasTips {
		// A column or row is shown by its label, which must then name
		// one position only; the value is the cell's value at Decimals.
		uc, ur := unique(e.Cols) && len(e.Cols) > 0, unique(e.Rows) && len(e.Rows) > 0
		tt = makeTipTable(tips, 3, func(c figures.Coord) int {
			switch {
			case c == figures.CoordX && uc:
				return 0
			case c == figures.CoordY && ur:
				return 1
			case c == figures.CoordValue:
				return 2
			}
			return -1
		})
	}
	byLabel := [2]bool{}
	if tt != nil {
		for _, di := range tt.dim {
			if di < 2 {
				byLabel[di] = true
			}
		}
	}
	d := make([][]any, len(cells))
	for k, c := range cells {
		var col, row any = c.Col, c.Row
		if byLabel[0] {
			col = label(e.Cols, c.Col)
		}
		if byLabel[1] {
			row = label(e.Rows, c.Row)
		}
		d[k] = []any{col, row, val(c)}
		switch {
		case tt != nil:
			d[k] = append(d[k], tt.extra[k]...)
		case hasTips:
			d[k] = append(d[k], c.Tip.Text())
		}
	}
	o := []charts.SeriesOpts{func(s *charts.SingleSeries) { s.Progressive = opts.Int(0) }}
	var x *seriesExtra
	switch {
	case tt != nil:
		dims, enc := tt.dims(3)
		// echarts' tooltip heads the table with the item name, for a heat
		// map its column: the value says more, and its row goes when its
		// label is the series name.
		enc.ItemName = 2
		var show []int
		for k, di := range tt.dim {
			if di != 2 || !strings.EqualFold(tt.labels[k], e.Name) {
				show = append(show, di)
			}
		}
		enc.Tooltip = show
		x = &seriesExtra{dims: dims}
		o = append(o, encode(enc))
	case hasTips:
		o = append(o, tip(), encode(&opts.Encode{X: 0, Y: 1, ItemName: 3}))
	}
	b.add(types.ChartHeatMap, e.Name, i, d, x, o...)
}

func unique(l []string) bool {
	seen := map[string]bool{}
	for _, s := range l {
		if seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// scatter adds a cloud of translucent dots, one per distinct point, each
// [x, y, tooltip values...] (see tipTable).
func (b *builder) scatter(i int, e *figures.Scatter, pn *figures.Panel) {
	c, _, _, _ := look(e.Style)
	qx, qy := quantOf(&pn.X), quantOf(&pn.Y)
	tips := make([]figures.Tip, len(e.Points))
	for k, p := range e.Points {
		tips[k] = p.Tip
	}
	tt := makeTipTable(tips, 2, xy)
	d := make([][]any, len(e.Points))
	for k, p := range e.Points {
		d[k] = []any{qx.r(p.X), qy.r(p.Y)}
		if tt != nil {
			d[k] = append(d[k], tt.extra[k]...)
		} else {
			d[k] = append(d[k], p.Tip.Text())
		}
	}
	var x *seriesExtra
	o := []charts.SeriesOpts{tip(), encode(&opts.Encode{X: 0, Y: 1, ItemName: 2})}
	if tt != nil {
		dims, enc := tt.dims(2)
		x, o = &seriesExtra{dims: dims}, []charts.SeriesOpts{encode(enc)}
	}
	b.add(types.ChartScatter, e.Name, i, d, x, append(o,
		func(s *charts.SingleSeries) { s.Progressive = opts.Int(0) },
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "circle", SymbolSize: 6}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(0.75)}))...)
}

// text adds texts as labels of invisible points.
func (b *builder) text(i int, e *figures.Text, pn *figures.Panel) {
	if len(e.At) == 0 {
		return
	}
	qx, qy := quantOf(&pn.X), quantOf(&pn.Y)
	var d []opts.ScatterData
	for k, at := range e.At {
		d = append(d, opts.ScatterData{Value: []any{qx.r(at.X), qy.r(at.Y), e.Texts[k]}, Name: e.Texts[k]})
	}
	pos := "top"
	if e.Anchor == figures.Right {
		pos = "right"
	}
	b.add(types.ChartScatter, "n/a", i, d, nil, noTip(), charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "none", SymbolSize: 1}),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: pos, Formatter: "{@[2]}", FontSize: 10, Color: neutral}))
}
