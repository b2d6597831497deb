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
// element; tooltips are echarts string templates, which HTML-encode the
// values they insert. No NaN reaches an option: specs hold defined values
// only, and encoding/json refuses NaN, so a malformed spec is an error.
package echarts

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"paperbundle/figures"
)

// Chart is the interactive form of one figure.
type Chart struct {
	ID      string // the figure id (figures.FigureID): the static figure with the same data
	ChartID string // element id for the page: "pb_" + ID (letters, digits, '_'), unique
	Title   string // plain text; escape it when writing HTML
	Option  []byte // the echarts option object, HTML-safe JSON
	Height  int    // pixels
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
		id := "pb_" + string(s.ID)
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
	h := height(s)
	b := &builder{spec: s, base: charts.NewLine()}
	b.base.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: strconv.Itoa(h) + "px"}),
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
	js, err := json.Marshal(b.base.JSON()) // HTML-safe; fails on NaN
	if err != nil {
		return Chart{}, err
	}
	return Chart{ID: string(s.ID), ChartID: id, Title: s.Title, Option: js, Height: h}, nil
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
	switch s.Kind {
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
	spec *figures.Spec
	base *charts.Line
	zoom bool
}

// on places a series on panel i's axes.
func on(i int) charts.SeriesOpts {
	return func(s *charts.SingleSeries) { s.XAxisIndex, s.YAxisIndex = i, i }
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
			b.band(i, e)
		case *figures.Points:
			if b.spec.Scale == nil { // a visual map would recolour the markers
				b.points(i, e)
			}
		case *figures.Bars:
			b.bars(i, e, len(pn.X.Categories), nbars == 1)
		case *figures.Histogram:
			b.hist(i, e, ks)
		case *figures.Counts:
			b.counts(i, e)
		case *figures.HeatMap:
			b.heat(i, e)
		case *figures.Scatter:
			b.scatter(i, e)
		case *figures.Text:
			b.text(i, e)
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
		x.Min, x.Max = axisEnd(a.Min, a.Log, math.Floor), axisEnd(a.Max, a.Log, math.Ceil)
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
		y.Min, y.Max = axisEnd(a.Min, a.Log, math.Floor), axisEnd(a.Max, a.Log, math.Ceil)
	}
	if a.HideTickLabels {
		y.AxisLabel = &opts.AxisLabel{Show: opts.Bool(false)}
	}
	return y
}

// axisEnd rounds an axis end for the screen: to the power of ten beyond
// it on a log axis, else to five decimals.
func axisEnd(v float64, log bool, round func(float64) float64) float64 {
	if log && v > 0 {
		return math.Pow(10, round(math.Log10(v)))
	}
	return r5(v)
}

// r5 rounds a plotting coordinate to five decimals (sub-pixel at any
// screen size) to keep the page small; tooltips carry the exact values.
func r5(x float64) float64 { return math.Round(x*1e5) / 1e5 }

// tip shows each item's name (its tooltip text) under the series name.
func tip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}<br/>{b}")})
}

// noTip gives a series without item names (bands, folds, whiskers) a
// tooltip of its name only.
func noTip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}")})
}

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

// thinEps is the thinning distance of long lines, as a fraction of the
// axis span.
const thinEps = 0.002

func (b *builder) line(i int, e *figures.Line, pn *figures.Panel) {
	epsX, epsY := span(&pn.X)*thinEps, span(&pn.Y)*thinEps
	for si, seg := range e.Segments {
		d := make([]opts.LineData, len(seg))
		for j, p := range seg {
			d[j] = opts.LineData{Value: []float64{r5(p.X), r5(p.Y)}}
			if si < len(e.Tips) && j < len(e.Tips[si]) {
				d[j].Name = e.Tips[si][j]
			}
		}
		d = keepCorners(d)
		if len(d) > 400 {
			d = thin(d, epsX, epsY)
		}
		o := []charts.SeriesOpts{on(i), lineStyle(e.Style)}
		if e.Tips != nil {
			o = append(o, tip(), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}))
		} else {
			o = append(o, noSymbol(), noTip())
		}
		if e.Steps {
			o = append(o, func(s *charts.SingleSeries) { s.Step = "end" })
		}
		b.base.AddSeries(e.Name, d, o...)
	}
}

func span(a *figures.Axis) float64 {
	if a.Fixed && a.Max > a.Min && !a.Log {
		return a.Max - a.Min
	}
	return 1
}

// band adds a confidence band as two filled areas under the upper and the
// lower bound: the upper in the band colour, the lower in opaque white on
// top of it, which leaves the band (the panel has no grid lines).
func (b *builder) band(i int, e *figures.Band) {
	c, _, _, _ := look(e.Style)
	for _, run := range e.Runs {
		lo := make([]opts.LineData, len(run.X))
		hi := make([]opts.LineData, len(run.X))
		for k := range run.X {
			lo[k] = opts.LineData{Value: []float64{r5(run.X[k]), r5(run.Lo[k])}}
			hi[k] = opts.LineData{Value: []float64{r5(run.X[k]), r5(run.Hi[k])}}
		}
		flat := func(s *charts.SingleSeries) { s.LineStyle = &opts.LineStyle{Width: 0, Opacity: opts.Float(0)} }
		b.base.AddSeries(e.Name, keepCorners(hi), on(i), noSymbol(), noTip(), flat,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: c}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: c, Opacity: opts.Float(0.25)}))
		b.base.AddSeries(e.Name, keepCorners(lo), on(i), noSymbol(), noTip(), flat,
			charts.WithItemStyleOpts(opts.ItemStyle{Color: c}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: "#ffffff", Opacity: opts.Float(1)}))
	}
}

// points adds markers as a scatter series (tags as labels from the third
// value), and whiskers as two-point lines.
func (b *builder) points(i int, e *figures.Points) {
	c, _, _, _ := look(e.Style)
	sc := charts.NewScatter()
	var d []opts.ScatterData
	tags := false
	for _, p := range e.Points {
		d = append(d, opts.ScatterData{Value: []any{r5(p.X), r5(p.Y), p.Tag}, Name: p.Tip})
		tags = tags || p.Tag != ""
		if p.Err == nil {
			continue
		}
		w := []opts.LineData{{Value: []float64{r5(p.X), r5(p.Err.Lo)}}, {Value: []float64{r5(p.X), r5(p.Err.Hi)}}}
		if e.Horizontal {
			w = []opts.LineData{{Value: []float64{r5(p.Err.Lo), r5(p.Y)}}, {Value: []float64{r5(p.Err.Hi), r5(p.Y)}}}
		}
		name := e.ErrName
		if name == "" {
			name = e.Name
		}
		b.base.AddSeries(name, w, on(i), noSymbol(), noTip(), lineStyle(figures.Style{Role: e.Style.Role, Series: e.Style.Series, Width: 1.5}))
	}
	o := []charts.SeriesOpts{on(i), tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c}),
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: symbol(e.Style), SymbolSize: 9})}
	if tags {
		o = append(o, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "bottom", Formatter: "{@[2]}", FontSize: 10}))
	}
	sc.AddSeries(e.Name, d, o...)
	b.base.Overlap(sc)
}

// bars adds one bar series over the categories ("-" where undefined);
// whiskers when the series is alone (grouped bars carry their interval in
// the tooltip).
func (b *builder) bars(i int, e *figures.Bars, ncat int, whiskers bool) {
	c, _, _, op := look(e.Style)
	d := make([]opts.BarData, ncat)
	for k := range d {
		d[k] = opts.BarData{Value: "-", Name: "n/a"}
	}
	bc := charts.NewBar()
	for _, bar := range e.Bars {
		if bar.Cat < 0 || bar.Cat >= ncat {
			continue
		}
		d[bar.Cat] = opts.BarData{Value: r5(bar.Value), Name: bar.Tip}
		if whiskers && bar.Err != nil {
			b.base.AddSeries("CI", []opts.LineData{{Value: []any{bar.Cat, r5(bar.Err.Lo)}}, {Value: []any{bar.Cat, r5(bar.Err.Hi)}}},
				on(i), noTip(), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "rect", SymbolSize: []int{10, 2}}),
				lineStyle(figures.Style{Role: figures.Whisker, Width: 1.5}))
		}
	}
	bc.AddSeries(e.Name, d, on(i), tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(op)}))
	b.base.Overlap(bc)
}

// hist adds a histogram as bars over the K categories (0 where absent).
func (b *builder) hist(i int, e *figures.Histogram, ks []int) {
	c, _, _, _ := look(e.Style)
	pos := map[int]int{}
	d := make([]opts.BarData, len(ks))
	for j, k := range ks {
		pos[k] = j
		d[j] = opts.BarData{Value: 0, Name: "K = " + strconv.Itoa(k) + ": 0 queries"}
	}
	for j, k := range e.K {
		d[pos[k]] = opts.BarData{Value: e.Count[j], Name: e.Tips[j]}
	}
	bc := charts.NewBar()
	bc.AddSeries(e.Name, d, on(i), tip(), charts.WithItemStyleOpts(opts.ItemStyle{Color: c}))
	b.base.Overlap(bc)
}

// counts adds bars of counts at the bin centres of a value axis.
func (b *builder) counts(i int, e *figures.Counts) {
	var d []opts.BarData
	for _, bin := range e.Bins {
		d = append(d, opts.BarData{Value: []float64{r5((bin.Lo + bin.Hi) / 2), float64(bin.Count)}, Name: bin.Tip})
	}
	bc := charts.NewBar()
	bc.AddSeries(e.Name, d, on(i), tip(), charts.WithBarChartOpts(opts.BarChart{BarWidth: "40%"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#bdbdbd", Opacity: opts.Float(0.8)}))
	b.base.Overlap(bc)
}

// heat adds a heat map over category axes; undefined cells are left out
// (blank), and counted in the spec's notes.
func (b *builder) heat(i int, e *figures.HeatMap) {
	hm := charts.NewHeatMap()
	var d []opts.HeatMapData
	for _, c := range e.Cells {
		if c.Undefined {
			continue
		}
		v := math.Round(c.Value*math.Pow(10, float64(e.Decimals))) / math.Pow(10, float64(e.Decimals))
		d = append(d, opts.HeatMapData{Value: []any{c.Col, c.Row, v}, Name: c.Tip})
	}
	o := []charts.SeriesOpts{on(i), func(s *charts.SingleSeries) { s.Progressive = opts.Int(0) }}
	if len(e.Cells) > 0 && e.Cells[0].Tip != "" {
		o = append(o, tip())
	}
	hm.AddSeries(e.Name, d, o...)
	b.base.Overlap(hm)
}

// scatter adds a cloud of translucent dots, one per distinct point.
func (b *builder) scatter(i int, e *figures.Scatter) {
	c, _, _, _ := look(e.Style)
	var d []opts.ScatterData
	for _, p := range e.Points {
		d = append(d, opts.ScatterData{Value: []float64{r5(p.X), r5(p.Y)}, Name: p.Tip})
	}
	sc := charts.NewScatter()
	sc.AddSeries(e.Name, d, on(i), tip(), func(s *charts.SingleSeries) { s.Progressive = opts.Int(0) },
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "circle", SymbolSize: 6}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: c, Opacity: opts.Float(0.45)}))
	b.base.Overlap(sc)
}

// text adds texts as labels of invisible points.
func (b *builder) text(i int, e *figures.Text) {
	if len(e.At) == 0 {
		return
	}
	var d []opts.ScatterData
	for k, at := range e.At {
		d = append(d, opts.ScatterData{Value: []any{r5(at.X), r5(at.Y), e.Texts[k]}, Name: e.Texts[k]})
	}
	pos := "top"
	if e.Anchor == figures.Right {
		pos = "right"
	}
	sc := charts.NewScatter()
	sc.AddSeries("n/a", d, on(i), noTip(), charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "none", SymbolSize: 1}),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: pos, Formatter: "{@[2]}", FontSize: 10, Color: "#808080"}))
	b.base.Overlap(sc)
}

// --- look ----------------------------------------------------------------

// okabeIto is the colour-blind-safe palette of the static figures.
var okabeIto = []string{"#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7", "#56b4e9", "#000000", "#f0e442"}

func palette() opts.Colors {
	out := make(opts.Colors, len(okabeIto))
	copy(out, okabeIto)
	return out
}

// viridisAnchors are eleven evenly spaced colours of viridis, as in the
// static heat maps.
var viridisAnchors = []string{"#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
	"#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725"}

func viridis() []string { return append([]string(nil), viridisAnchors...) }

// look is the colour, line width (px), dash type and opacity of a role.
func look(st figures.Style) (color string, width float32, dash string, opacity float32) {
	color, width, dash, opacity = "#000000", 1, "solid", 1
	switch st.Role {
	case figures.Primary, figures.Confidence:
		color, width = okabeIto[0], 2
	case figures.Series:
		color, width = okabeIto[st.Series%len(okabeIto)], 2
		if st.Series%6 != 0 {
			dash = []string{"solid", "dashed", "dotted", "dashed", "dashed", "dashed"}[st.Series%6]
		}
	case figures.Total:
		width = 2.5
	case figures.Fold:
		color, opacity = "#808080", 0.5
	case figures.Diagonal, figures.Reference:
		color, dash = "#808080", "dashed"
	case figures.Summary:
		color, dash = okabeIto[1], "dashed"
	case figures.NA, figures.Count, figures.Undefined:
		color = "#808080"
	case figures.Blank, figures.Chosen:
		color = "#ffffff"
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

// keepCorners drops the interior points of straight runs.
func keepCorners(d []opts.LineData) []opts.LineData {
	if len(d) <= 2 {
		return d
	}
	xy := func(i int) (float64, float64) { v := d[i].Value.([]float64); return v[0], v[1] }
	out := []opts.LineData{d[0]}
	for i := 1; i < len(d)-1; i++ {
		ax, ay := xy(i - 1)
		bx, by := xy(i)
		cx, cy := xy(i + 1)
		if (ax == bx && bx == cx) || (ay == by && by == cy) {
			continue
		}
		out = append(out, d[i])
	}
	return append(out, d[len(d)-1])
}

// thin keeps the first and last point and every point at least eps away
// (in either coordinate) from the last point kept: on a chart a few
// hundred pixels wide the dropped points lie within a pixel of the line.
func thin(d []opts.LineData, epsX, epsY float64) []opts.LineData {
	if len(d) <= 2 {
		return d
	}
	xy := func(i int) (float64, float64) { v := d[i].Value.([]float64); return v[0], v[1] }
	out := []opts.LineData{d[0]}
	lx, ly := xy(0)
	for i := 1; i < len(d)-1; i++ {
		x, y := xy(i)
		if math.Abs(x-lx) < epsX && math.Abs(y-ly) < epsY {
			continue
		}
		out = append(out, d[i])
		lx, ly = x, y
	}
	return append(out, d[len(d)-1])
}
