// Package echarts turns the figure specs of package figures into
// interactive chart options for report.html with go-echarts v2. It sits at
// the end of the pipeline
//
//	*report.Report -> figures.Catalogue -> []figures.Spec -> echarts.Options -> option JSON
//
// and is the only package that imports go-echarts. It builds the option
// object only (Validate, then JSON): never go-echarts' page renderer, which
// loads remote assets and splices labels into code. The page passes each
// option to the echarts library as JSON data.
//
// Every spec gives one chart: each panel of the spec is a grid with its own
// axes. The option is written with Go's HTML-safe JSON encoding ('<', '>'
// and '&' become \u003c, \u003e, \u0026), so a label cannot end a script
// element; tooltips are echarts string templates or echarts' own tooltip
// over named data dimensions, both of which HTML-encode the values they
// insert. No NaN reaches an option: specs hold defined values only, and
// encoding/json refuses NaN, so a malformed spec is an error.
//
// The options are small (the page embeds about a hundred of them): data
// are arrays, not objects; coordinates are rounded to well below a pixel;
// long curves keep one point per pixel run; the tooltips of long series
// are tables over the point's data dimensions (see tipTable). They are
// theme-neutral: transparent background, no text or axis colour (the page
// chooses echarts' default or 'dark' theme), and series colours that read
// on a light and on a dark page.
package echarts

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"paperbundle/figures"
)

// Chart is the interactive form of one figure.
type Chart struct {
	ID      figures.FigureID // the figure: the static figure with the same data
	ChartID string           // element id for the page: "pb_" + ID.String() (letters, digits, '_'), unique
	Title   string           // plain text; escape it when writing HTML
	Option  []byte           // the echarts option object, HTML-safe JSON
	Height  int              // pixels
}

// Options returns one chart per spec, in spec order.
func Options(specs []figures.Spec) ([]Chart, error) {
	out := make([]Chart, 0, len(specs))
	seen := map[string]bool{}
	for i := range specs {
		s := &specs[i]
		if !s.ID.Valid() {
			return nil, fmt.Errorf("echarts: figure id %q outside [a-z0-9_]", s.ID)
		}
		id := "pb_" + s.ID.String()
		if seen[id] {
			return nil, fmt.Errorf("echarts: figure id %q used twice", s.ID)
		}
		seen[id] = true
		c, err := option(s, id)
		if err != nil {
			return nil, fmt.Errorf("echarts: %s: %w", s.ID, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// option builds the chart of one spec.
func option(s *figures.Spec, id string) (Chart, error) {
	if err := finite(s); err != nil {
		return Chart{}, err
	}
	h := height(s)
	b := &builder{spec: s, base: charts.NewLine()}
	b.base.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: strconv.Itoa(h) + "px",
			BackgroundColor: "transparent"}),
		charts.WithTitleOpts(opts.Title{Title: s.Title, Subtitle: subtitle(s), Left: "center",
			TitleStyle: &opts.TextStyle{FontSize: 14}, SubtitleStyle: &opts.TextStyle{FontSize: 11}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Bottom: "0"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithColorsOpts(palette()),
		charts.WithAnimation(false),
		charts.WithGridOpts(grids(s)...),
	)
	for i := range s.Panels {
		b.panel(i)
	}
	if s.Scale != nil {
		b.base.SetGlobalOptions(charts.WithVisualMapOpts(opts.VisualMap{Type: "continuous", Calculable: opts.Bool(true),
			Min: float32(s.Scale.Min), Max: float32(s.Scale.Max), Right: "0", Top: "center",
			InRange: &opts.VisualMapInRange{Color: viridis()}}))
	}
	if b.zoom {
		b.base.SetGlobalOptions(charts.WithDataZoomOpts(opts.DataZoom{Type: "slider", XAxisIndex: []int{0}}))
	}
	b.base.Validate()
	obj := b.base.JSON()
	// What go-echarts' types cannot say: the series' data dimensions and
	// stacking strategy, and the dimension a colour scale reads.
	series := make([]seriesJSON, len(b.base.MultiSeries))
	for i, ss := range b.base.MultiSeries {
		series[i] = seriesJSON{SingleSeries: ss}
		if x := b.extra[i]; x != nil {
			series[i].Dimensions, series[i].StackStrategy, series[i].Z = x.dims, x.stackHow, x.z
		}
	}
	obj["series"] = series
	if vm := b.base.VisualMapList; len(vm) > 0 {
		out := make([]visualMapJSON, len(vm))
		for i := range vm {
			out[i] = visualMapJSON{VisualMap: vm[i], Dimension: 2} // [col, row, value, ...]
		}
		obj["visualMap"] = out
	}
	delete(obj, "toolbox")       // empty
	js, err := json.Marshal(obj) // HTML-safe; fails on NaN
	if err != nil {
		return Chart{}, err
	}
	return Chart{ID: s.ID, ChartID: id, Title: s.Title, Option: js, Height: h}, nil
}

// seriesJSON is a go-echarts series with the fields it has no type for.
type seriesJSON struct {
	charts.SingleSeries
	Dimensions    []dimension `json:"dimensions,omitempty"`
	StackStrategy string      `json:"stackStrategy,omitempty"`
	Z             int         `json:"z,omitempty"`
}

// dimension names a data dimension of a series; echarts' tooltip lists
// the dimensions of encode.tooltip under their display names.
type dimension struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName,omitempty"`
	Type        string `json:"type,omitempty"`
}

type visualMapJSON struct {
	opts.VisualMap
	Dimension int `json:"dimension"`
}

// seriesExtra is what seriesJSON adds to a series, and the fields that
// go-echarts' With*ChartOpts would reset (they zero the axis indices, the
// stack and the step), set after them.
type seriesExtra struct {
	dims     []dimension
	stack    string // stack name
	stackHow string // stackStrategy
	step     string
	z        int // above other series
}

// finite checks every number of a spec that reaches the option: a NaN or
// an infinity is an error (the decimation of a line could otherwise drop
// it unseen, and encoding/json refuses it anyway).
func finite(s *figures.Spec) error {
	bad := func(v ...float64) bool {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return true
			}
		}
		return false
	}
	for pi := range s.Panels {
		pn := &s.Panels[pi]
		if bad(pn.X.Min, pn.X.Max, pn.Y.Min, pn.Y.Max) {
			return fmt.Errorf("panel %d: axis range not finite", pi)
		}
		for ei, e := range pn.Elements {
			ok := true
			switch e := e.(type) {
			case *figures.Line:
				for _, seg := range e.Segments {
					for _, p := range seg {
						ok = ok && !bad(p.X, p.Y)
					}
				}
			case *figures.Band:
				for _, r := range e.Runs {
					ok = ok && !bad(r.X...) && !bad(r.Lo...) && !bad(r.Hi...)
				}
			case *figures.Points:
				for _, p := range e.Points {
					ok = ok && !bad(p.X, p.Y) && (p.Err == nil || !bad(p.Err.Lo, p.Err.Hi))
				}
			case *figures.Bars:
				for _, b := range e.Bars {
					ok = ok && !bad(b.Value) && (b.Err == nil || !bad(b.Err.Lo, b.Err.Hi))
				}
			case *figures.Counts:
				for _, b := range e.Bins {
					ok = ok && !bad(b.Lo, b.Hi)
				}
			case *figures.HeatMap:
				for _, c := range e.Cells {
					ok = ok && (c.Undefined || !bad(c.Value))
				}
			case *figures.Scatter:
				for _, p := range e.Points {
					ok = ok && !bad(p.X, p.Y)
				}
			case *figures.Text:
				for _, p := range e.At {
					ok = ok && !bad(p.X, p.Y)
				}
			}
			if !ok {
				return fmt.Errorf("panel %d, element %d: a value is NaN or infinite", pi, ei)
			}
		}
	}
	if s.Scale != nil && bad(s.Scale.Min, s.Scale.Max) {
		return fmt.Errorf("colour scale not finite")
	}
	return nil
}

// subtitle is the spec's caption and notes.
func subtitle(s *figures.Spec) string {
	sub := s.Subtitle
	for _, n := range s.Notes {
		if sub != "" {
			sub += "; "
		}
		sub += n
	}
	return sub
}

// height is the chart height in pixels for a kind of figure.
func height(s *figures.Spec) int {
	switch s.Kind.Family() {
	case figures.KindROC, figures.KindROCOverlay, figures.KindPR, figures.KindPROverlay, figures.KindReliability:
		return 460
	case figures.KindDifficulty, figures.KindGateGrid:
		return 440
	case figures.KindSystems:
		return max(240, 80+36*len(s.Panels[0].Y.Categories))
	case figures.KindDynKHist, figures.KindDynKHistState, figures.KindDynKHistEvid, figures.KindRecallAtK,
		figures.KindPrecisionAtK, figures.KindGammaSweep:
		return 400
	}
	return 420
}

// grids places one grid per panel: side by side (Row), one above the
// other (Stack), or one (Single); room on the right for a colour scale.
func grids(s *figures.Spec) []opts.Grid {
	n := len(s.Panels)
	right := 4.0
	if s.Scale != nil {
		right = 14
	}
	left := 10.0
	if s.Kind == figures.KindSystems {
		left = 28
	}
	switch {
	case n == 1:
		return []opts.Grid{{Left: pct(left), Right: pct(right), Top: "64", Bottom: "86"}}
	case s.Layout == figures.Stack:
		var tot float64
		for _, w := range s.Weights {
			tot += w
		}
		out := make([]opts.Grid, n)
		top, avail := 14.0, 66.0
		for i := range out {
			w := 1.0 / float64(n)
			if i < len(s.Weights) && tot > 0 {
				w = s.Weights[i] / tot
			}
			h := avail*w - 3
			out[i] = opts.Grid{Left: pct(left), Right: pct(right), Top: pct(top), Height: pct(h)}
			top += avail * w
		}
		return out
	}
	out := make([]opts.Grid, n)
	avail := 100 - left - right
	w := avail / float64(n)
	for i := range out {
		out[i] = opts.Grid{Left: pct(left + float64(i)*w), Width: pct(w - 6), Top: "72", Bottom: "86"}
	}
	return out
}

func pct(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) + "%" }

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
			ks = mergeK(ks, e.K)
		}
	}
	x := xAxis(&pn.X, i)
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
			if b.spec.Scale == nil { // a visual map would recolour the markers
				b.points(i, e, pn)
			}
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

func mergeK(a, b []int) []int {
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
		x.Min, x.Max = axisEnd(a.Min, a, math.Floor), axisEnd(a.Max, a, math.Ceil)
	}
	if a.HideTickLabels {
		x.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
	}
	return x
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
		y.Min, y.Max = axisEnd(a.Min, a, math.Floor), axisEnd(a.Max, a, math.Ceil)
	}
	if a.HideTickLabels {
		y.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
	}
	return y
}

// axisEnd rounds an axis end for the screen: to the power of ten beyond
// it on a log axis, else to the axis' coordinate step.
func axisEnd(v float64, a *figures.Axis, round func(float64) float64) float64 {
	if a.Log && v > 0 {
		return math.Pow(10, round(math.Log10(v)))
	}
	return quantOf(a).r(v)
}

// --- numbers ---------------------------------------------------------------

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

// --- tooltips --------------------------------------------------------------

// Series with many points carry no per-point objects: each point is an
// array [x, y, ...]. echarts' string templates for tooltips know {a}
// (series), {b} (item name) and {c} only ({@[n]} works in labels, not in
// tooltips), so a point's tooltip (a figures.Tip: labelled, typed values)
// is either
//
//   - a table: when every tip of the series has the same labels (the
//     thresholds of a ROC curve: threshold, FPR, TPR), each field is a data
//     dimension named by its label, and echarts' default tooltip lists them
//     under the series name; a field that is one of the point's
//     coordinates (the FPR, the TPR, a cell's tau) shows that coordinate,
//     not a copy; or
//   - the tip written out (figures.Tip.Text), as a string dimension that
//     encode.itemName makes the item name, shown by the template
//     "{a}<br/>{b}".
//
// Items that are objects (bars, markers) have the tip written out as their
// name, shown by the same template.

// tip shows each item's name (its tooltip text) under the series name.
func tip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}<br/>{b}")})
}

// noTip gives a series without item tooltips (bands, folds, whiskers) a
// tooltip of its name only.
func noTip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}")})
}

// tipTable is the tooltips of a series as a table: one slot per field of
// the tips, each shown under its label from a data dimension.
type tipTable struct {
	labels []string
	dim    []int   // per slot: the data dimension shown (a coordinate, or nCoord+k)
	extra  [][]any // per row: the values of the slots that are no coordinate
	ordin  []bool  // per extra dimension: holds text
}

// tipData is a tooltip value as data: its text, or the number at its
// decimals (a value of the shortest form at four significant digits,
// which is finer than a reader needs and keeps the option small).
func tipData(v figures.Value) any {
	switch {
	case v.IsText():
		return v.Text
	case v.Dec < 0:
		return sig4(v.Num)
	}
	return v.Rounded()
}

// makeTipTable returns the table of the tips, or nil when the tips do not
// share their labels (or have none). coord gives the data dimension of a
// coordinate of the points, or -1 when the points do not hold it; a slot
// whose fields all are one coordinate shows that dimension.
func makeTipTable(tips []figures.Tip, nCoord int, coord func(figures.Coord) int) *tipTable {
	if len(tips) == 0 || len(tips[0]) == 0 {
		return nil
	}
	for _, t := range tips[1:] {
		if !t.SameLabels(tips[0]) {
			return nil
		}
	}
	n := len(tips[0])
	tt := &tipTable{labels: make([]string, n), dim: make([]int, n), extra: make([][]any, len(tips))}
	taken := map[int]bool{}
	for k := 0; k < n; k++ {
		tt.labels[k] = tips[0][k].Label
		if tt.labels[k] == "" {
			return nil
		}
		is := tips[0][k].Is
		for _, t := range tips {
			if t[k].Is != is {
				is = figures.NoCoord
			}
		}
		if c := coord(is); is != figures.NoCoord && c >= 0 && !taken[c] {
			tt.dim[k], taken[c] = c, true
			continue
		}
		tt.dim[k] = nCoord + len(tt.ordin)
		text := false
		for r, t := range tips {
			text = text || t[k].Value.IsText()
			tt.extra[r] = append(tt.extra[r], tipData(t[k].Value))
		}
		tt.ordin = append(tt.ordin, text)
	}
	return tt
}

// dims are the data dimensions of a series with nCoord coordinates and
// the table's extra values, named for the tooltip; encode shows the
// table's slots in order.
func (tt *tipTable) dims(nCoord int) ([]dimension, *opts.Encode) {
	d := make([]dimension, nCoord+len(tt.ordin))
	for i := range d {
		d[i].Name = "d" + strconv.Itoa(i)
		if i >= nCoord && tt.ordin[i-nCoord] {
			d[i].Type = "ordinal"
		}
	}
	show := make([]int, len(tt.dim))
	for k, di := range tt.dim {
		d[di].DisplayName = tt.labels[k]
		show[k] = di
	}
	return d, &opts.Encode{X: 0, Y: 1, Tooltip: show}
}

// --- series ----------------------------------------------------------------

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
	var pts []figures.XY
	var tips []figures.Tip
	for si, seg := range e.Segments {
		for j := range seg {
			var t figures.Tip
			if si < len(e.Tips) && j < len(e.Tips[si]) {
				t = e.Tips[si][j]
			}
			tips = append(tips, t)
		}
		pts = append(pts, seg...)
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
	o := []charts.SeriesOpts{tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(1)}),
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: symbol(e.Style), SymbolSize: 9})}
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

// --- decimation --------------------------------------------------------------

// pixels maps points onto a grid of nx x ny cells over a panel's axes (the
// fixed range, else the data's); log axes in decades.
type pixels struct {
	x0, x1, y0, y1 float64
	xlog, ylog     bool
	nx, ny         float64
}

// The finest grid: below a pixel on a chart 1000 pixels wide and a plot
// area 600 pixels high (the report's charts are smaller).
const cellsX, cellsY = 1000, 600

func newPixels(pn *figures.Panel, segs [][]figures.XY) pixels {
	g := pixels{xlog: pn.X.Log, ylog: pn.Y.Log, nx: cellsX, ny: cellsY}
	g.x0, g.x1, g.y0, g.y1 = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range segs {
		for _, p := range s {
			g.x0, g.x1 = math.Min(g.x0, tr(p.X, g.xlog)), math.Max(g.x1, tr(p.X, g.xlog))
			g.y0, g.y1 = math.Min(g.y0, tr(p.Y, g.ylog)), math.Max(g.y1, tr(p.Y, g.ylog))
		}
	}
	if pn.X.Fixed && pn.X.Max > pn.X.Min && (!g.xlog || pn.X.Min > 0) {
		g.x0, g.x1 = tr(pn.X.Min, g.xlog), tr(pn.X.Max, g.xlog)
	}
	if pn.Y.Fixed && pn.Y.Max > pn.Y.Min && (!g.ylog || pn.Y.Min > 0) {
		g.y0, g.y1 = tr(pn.Y.Min, g.ylog), tr(pn.Y.Max, g.ylog)
	}
	return g
}

func tr(v float64, log bool) float64 {
	if log && v > 0 {
		return math.Log10(v)
	}
	return v
}

// at is a point's position in cells.
func (g pixels) at(p figures.XY) [2]float64 {
	c := func(v, lo, hi, n float64, log bool) float64 {
		if !(hi > lo) {
			return 0
		}
		return (tr(v, log) - lo) / (hi - lo) * n
	}
	return [2]float64{c(p.X, g.x0, g.x1, g.nx, g.xlog), c(p.Y, g.y0, g.y1, g.ny, g.ylog)}
}

// decimate returns the indices of the points of a segment drawn on
// screen: the first and the last, and in between as few as keep the drawn
// line within tol cells of the full one (cells of the grid g; as steps
// when steps). It walks from the last kept point and extends the line to
// the next point while every point (and step corner) skipped stays within
// tol of it, at most window points at a time. A curve still longer than
// maxPoints is simplified again with twice the tolerance, and so on.
func decimate(seg []figures.XY, steps bool, gap float64, g pixels) []int {
	if len(seg) <= 2 {
		return all(len(seg))
	}
	px := make([][2]float64, len(seg))
	for j, p := range seg {
		px[j] = g.at(p)
	}
	tol := pixelTol
	for {
		out := simplify(px, steps, tol, gap)
		if len(out) <= maxPoints || tol > 64 {
			return out
		}
		tol *= 2
	}
}

// pixelTol is the largest distance, in cells, between a drawn line and
// the full one; window the most points one kept segment replaces; tipGap
// the longest kept segment, in cells, of a line with tooltips (so that a
// threshold is never far from the pointer).
const (
	tipGap   = 10
	pixelTol = 1.0
	window   = 256
)

func simplify(px [][2]float64, steps bool, tol, gap float64) []int {
	out := []int{0}
	a := 0
	for a < len(px)-1 {
		b := a + 1
		for b+1 < len(px) && b+1-a <= window && (gap == 0 || math.Hypot(px[b+1][0]-px[a][0], px[b+1][1]-px[a][1]) <= gap) &&
			within(px, a, b+1, steps, tol) {
			b++
		}
		out = append(out, b)
		a = b
	}
	return out
}

// within reports whether the line from point a to point b (a step when
// steps: across at a's height, then up or down) passes within tol of every
// point between them, and of every corner of their steps.
func within(px [][2]float64, a, b int, steps bool, tol float64) bool {
	if !steps {
		for k := a + 1; k < b; k++ {
			if segDist(px[k], px[a], px[b]) > tol {
				return false
			}
		}
		return true
	}
	// The simplified step: (xa, ya) -> (xb, ya) -> (xb, yb).
	corner := [2]float64{px[b][0], px[a][1]}
	for k := a + 1; k <= b; k++ {
		// the full line's corner before point k, and point k
		for _, v := range [][2]float64{{px[k][0], px[k-1][1]}, px[k]} {
			if math.Min(segDist(v, px[a], corner), segDist(v, corner, px[b])) > tol {
				return false
			}
		}
	}
	return true
}

// segDist is the distance from v to the segment p-q.
func segDist(v, p, q [2]float64) float64 {
	dx, dy := q[0]-p[0], q[1]-p[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((v[0]-p[0])*dx+(v[1]-p[1])*dy)/l))
	}
	return math.Hypot(v[0]-p[0]-t*dx, v[1]-p[1]-t*dy)
}

// --- look ----------------------------------------------------------------

// neutral is the colour of reference lines, folds, whiskers and tags: a
// mid grey that reads on a light page (3.9:1 on white) and on echarts'
// dark theme (4.8:1 on #100c2a).
const neutral = "#808080"

// seriesColors is the Okabe-Ito palette of the static figures, with two
// changes for a dark page: its black is the mid grey, and its yellow (1.3:1
// on white) a darker gold. Every colour has at least 2.2:1 on white and
// 3.6:1 on the dark theme's background.
var seriesColors = []string{"#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7", "#56b4e9", neutral, "#a89a00"}

func palette() opts.Colors {
	out := make(opts.Colors, len(seriesColors))
	copy(out, seriesColors)
	return out
}

// viridisAnchors are eleven evenly spaced colours of viridis, as in the
// static heat maps.
var viridisAnchors = []string{"#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
	"#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725"}

func viridis() []string { return append([]string(nil), viridisAnchors...) }

// look is the colour, line width (px), dash type and opacity of a role.
// The static figures' black (totals, whiskers, treat-none) is the neutral
// grey, and the operating points are vermillion: black vanishes on a dark
// page.
func look(st figures.Style) (color string, width float32, dash string, opacity float32) {
	color, width, dash, opacity = neutral, 1, "solid", 1
	switch st.Role {
	case figures.Primary, figures.Confidence:
		color, width = seriesColors[0], 2
	case figures.Series:
		color, width = seriesColors[st.Series%len(seriesColors)], 2
		if st.Series%6 != 0 {
			dash = []string{"solid", "dashed", "dotted", "dashed", "dashed", "dashed"}[st.Series%6]
		}
	case figures.Total:
		width = 2.5
	case figures.Fold:
		opacity = 0.5
	case figures.Diagonal, figures.Reference:
		dash = "dashed"
	case figures.Summary:
		color, dash = seriesColors[1], "dashed"
	case figures.Operating:
		color = seriesColors[1]
	case figures.Blank, figures.Chosen:
		color = "transparent"
	}
	if st.Width > 0 {
		width = float32(st.Width)
	}
	if st.Opacity > 0 {
		opacity = float32(st.Opacity)
	}
	return
}

// symbol is the echarts marker of a role.
func symbol(st figures.Style) string {
	switch st.Role {
	case figures.Operating:
		return "diamond"
	case figures.Series, figures.Total:
		return []string{"circle", "triangle", "rect", "triangle", "diamond", "emptyCircle", "pin", "roundRect"}[st.Series%8]
	}
	return "circle"
}
