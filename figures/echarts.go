package figures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"paperbundle/report"
)

// Chart is one interactive chart for report.html: a <div> and a <script>
// that draws into it with the global echarts object the page has already
// loaded (the library is inlined by the HTML renderer; nothing is fetched).
type Chart struct {
	ID      string        // element id: letters, digits and '_', unique in the page
	Title   string        // plain text; escape it when writing HTML
	Figure  string        // file stem of the static figure with the same data
	Note    string        // what was left out (undefined points), or ""
	Snippet template.HTML // the <div> and <script>, safe to place as is
}

// ECharts returns the interactive charts of the Report, in the order of the
// static figures. They are built with go-echarts option types; the option
// object is written with HTML-safe JSON escaping (so a label "</script>"
// cannot end the script) and its string tooltips are echarts templates,
// which HTML-encode every value they insert. No NaN reaches a chart:
// undefined points are left out and counted in Note.
func ECharts(r *report.Report) ([]Chart, error) {
	e := &ebuild{r: r, ix: newIndex(r), keys: systemKeys(r), ids: newNamer()}
	for i := range r.Curves.ROC {
		e.roc(&r.Curves.ROC[i])
	}
	e.rocOverlay()
	for i := range r.Curves.PR {
		e.pr(&r.Curves.PR[i])
	}
	for i := range r.Curves.Reliability {
		e.reliability(&r.Curves.Reliability[i])
	}
	for i := range r.Curves.Decision {
		e.decision(&r.Curves.Decision[i])
	}
	for _, s := range systemOrder(r, false) {
		e.criteria(s, "ne.auroc", "AUROC by criterion", "criteria_auroc_")
		e.criteriaRanking(s)
	}
	for _, s := range systemOrder(r, false) {
		for _, g := range []histGroup{histAll, histState, histEvidence} {
			e.hist(s, g)
		}
	}
	for _, s := range systemOrder(r, false) {
		e.rankAtK(s, true)
		e.rankAtK(s, false)
	}
	for _, s := range systemOrder(r, false) {
		e.difficulty(s)
	}
	for _, s := range systemOrder(r, false) {
		e.sweep(s)
	}
	for _, s := range systemOrder(r, false) {
		for _, gm := range gridMetrics {
			e.grid(s, gm)
		}
	}
	if names := systemOrder(r, false); len(names) > 0 {
		e.perQuery(names[0])
	}
	e.systems()
	if e.err != nil {
		return nil, e.err
	}
	return e.out, nil
}

type ebuild struct {
	r    *report.Report
	ix   *index
	keys map[string]string
	ids  *namer
	out  []Chart
	err  error
}

// chartID derives a unique element id from a figure name.
func (e *ebuild) chartID(fig string) string {
	return e.ids.unique("pb_" + strings.ReplaceAll(fig, "-", "_"))
}

// okabeHex is the Okabe-Ito palette as CSS colours.
func okabeHex() opts.Colors {
	var out opts.Colors
	for _, c := range okabeIto {
		out = append(out, fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))
	}
	return out
}

// defaultGrid is the plot area of most charts (room for axis names and
// the legend below).
var defaultGrid = opts.Grid{Left: "70", Right: "40", Top: "64", Bottom: "86"}

// base returns the options every chart shares; grid is the plot area.
func base(id, title, sub string, height int, grid opts.Grid) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: strconv.Itoa(height) + "px"}),
		charts.WithTitleOpts(opts.Title{Title: title, Subtitle: sub, Left: "center",
			TitleStyle: &opts.TextStyle{FontSize: 14}, SubtitleStyle: &opts.TextStyle{FontSize: 11}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Bottom: "0"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithColorsOpts(okabeHex()),
		charts.WithAnimation(false),
		charts.WithGridOpts(grid),
	}
}

func valueX(name string, min, max any) opts.XAxis {
	return opts.XAxis{Type: "value", Name: name, NameLocation: "middle", NameGap: 28, Min: min, Max: max}
}

// unitX and unitY are [0, 1] axes without grid lines (see bandSeries).
func unitX(name string) opts.XAxis {
	a := valueX(name, 0, 1)
	a.SplitLine = noSplit
	return a
}

func unitY(name string) opts.YAxis {
	a := valueY(name, 0, 1)
	a.SplitLine = noSplit
	return a
}

func valueY(name string, min, max any) opts.YAxis {
	return opts.YAxis{Type: "value", Name: name, NameLocation: "middle", NameGap: 46, Min: min, Max: max}
}

// tip is a series tooltip from an echarts string template; echarts
// HTML-encodes the values it substitutes.
func tip(tpl string) charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr(tpl)})
}

// lineOpts styles a series' line, and its symbols and legend icon in the
// same colour unless an item style is set afterwards.
func lineOpts(color string, width float32, dash string, opacity float32) charts.SeriesOpts {
	return func(s *charts.SingleSeries) {
		s.LineStyle = &opts.LineStyle{Color: color, Width: width, Type: dash, Opacity: opts.Float(opacity)}
		if s.ItemStyle == nil {
			s.ItemStyle = &opts.ItemStyle{Color: color}
		}
	}
}

// noSplit hides an axis' grid lines (charts with a band, whose white
// mask would cut them).
var noSplit = &opts.SplitLine{Show: opts.Bool(false)}

// drawAtOnce turns off progressive rendering (a page screenshot or print
// would catch a half-drawn heat map).
func drawAtOnce() charts.SeriesOpts {
	return func(s *charts.SingleSeries) { s.Progressive = opts.Int(0) }
}

func noSymbol() charts.SeriesOpts {
	return charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Symbol: "none"})
}

// r5 rounds a plotting coordinate to five decimals (sub-pixel at any
// screen size) to keep the page small; tooltips carry the exact values.
func r5(x float64) float64 { return math.Round(x*1e5) / 1e5 }

// renderable is what every go-echarts chart provides.
type renderable interface {
	Validate()
	JSON() map[string]interface{}
}

// emit renders a chart into its snippet and appends it.
func (e *ebuild) emit(id, fig, title, note string, height int, c renderable) {
	if e.err != nil {
		return
	}
	c.Validate()
	js, err := json.Marshal(c.JSON()) // HTML-safe: <, >, & and U+2028/9 are escaped
	if err != nil {
		e.err = fmt.Errorf("figures: chart %s: %w", id, err)
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<div class="pb-chart" id="%s" style="width:100%%;height:%dpx"></div>`+"\n", id, height)
	fmt.Fprintf(&b, `<script>(function(){var c=echarts.init(document.getElementById("%s"),null,{renderer:"canvas"});c.setOption(%s);window.addEventListener("resize",function(){c.resize();});})();</script>`, id, js)
	e.out = append(e.out, Chart{ID: id, Title: title, Figure: fig, Note: note, Snippet: template.HTML(b.String())})
}

// leftOut is the note of a chart that had n undefined points.
func leftOut(n int) string {
	if n == 0 {
		return ""
	}
	if n == 1 {
		return "1 undefined point left out"
	}
	return strconv.Itoa(n) + " undefined points left out"
}

// lineData turns defined points into line data named by name(i); it
// returns the number of undefined points skipped.
func lineData(x, y []report.Num, name func(i int) string) ([]opts.LineData, int) {
	var out []opts.LineData
	skipped := 0
	for i := 0; i < min(len(x), len(y)); i++ {
		if !x[i].Valid() || !y[i].Valid() {
			skipped++
			continue
		}
		d := opts.LineData{Value: []float64{r5(float64(x[i])), r5(float64(y[i]))}}
		if name != nil {
			d.Name = name(i)
		}
		out = append(out, d)
	}
	return out, skipped
}

// keepCorners drops the interior points of straight runs, keeping names.
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
func thin(d []opts.LineData, eps float64) []opts.LineData {
	if len(d) <= 2 {
		return d
	}
	xy := func(i int) (float64, float64) { v := d[i].Value.([]float64); return v[0], v[1] }
	out := []opts.LineData{d[0]}
	lx, ly := xy(0)
	for i := 1; i < len(d)-1; i++ {
		x, y := xy(i)
		if math.Abs(x-lx) < eps && math.Abs(y-ly) < eps {
			continue
		}
		out = append(out, d[i])
		lx, ly = x, y
	}
	return append(out, d[len(d)-1])
}

// thinNote says how many points of a curve are drawn.
func thinNote(kept, all int) string {
	if kept == all {
		return ""
	}
	return "curve drawn through " + strconv.Itoa(kept) + " of " + strconv.Itoa(all) + " points (the others lie within a pixel)"
}

// joinNotes joins non-empty notes with "; ".
func joinNotes(ns ...string) string {
	var out []string
	for _, n := range ns {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// thinEps is the thinning distance of interactive curves on unit axes.
const thinEps = 0.002

// bandSeries adds a confidence band as two filled areas under the upper
// and the lower bound: the upper in the band colour, the lower in opaque
// white on top of it, which leaves the band. Series drawn later (folds,
// curve) lie above both. It returns the number of undefined grid points.
func bandSeries(c *charts.Line, grid, lo, hi []report.Num, color string) int {
	var low, high []opts.LineData
	skipped := 0
	for k := 0; k < min(len(grid), len(lo), len(hi)); k++ {
		if !grid[k].Valid() || !lo[k].Valid() || !hi[k].Valid() {
			skipped++
			continue
		}
		x := r5(float64(grid[k]))
		low = append(low, opts.LineData{Value: []float64{x, r5(float64(lo[k]))}})
		high = append(high, opts.LineData{Value: []float64{x, r5(float64(hi[k]))}})
	}
	if len(low) == 0 {
		return skipped
	}
	c.AddSeries("95% CI (bootstrap)", keepCorners(high), noSymbol(), lineOpts(color, 0, "solid", 0),
		charts.WithAreaStyleOpts(opts.AreaStyle{Color: color, Opacity: opts.Float(0.25)}))
	c.AddSeries("95% CI (bootstrap)", keepCorners(low), noSymbol(), lineOpts(color, 0, "solid", 0),
		charts.WithAreaStyleOpts(opts.AreaStyle{Color: "#ffffff", Opacity: opts.Float(1)}))
	return skipped
}

func (e *ebuild) roc(c *report.ROCCurve) {
	data, skipped := lineData(c.FPR, c.TPR, func(i int) string {
		t := "+inf"
		if i < len(c.Thresholds) && c.Thresholds[i].Valid() {
			t = strconv.FormatFloat(float64(c.Thresholds[i]), 'g', 6, 64)
		}
		return "threshold " + t + ": FPR " + fmt3(num(c.FPR[i])) + ", TPR " + fmt3(num(c.TPR[i]))
	})
	if len(data) == 0 {
		return
	}
	fig := "roc_" + e.keys[c.System]
	id := e.chartID(fig)
	label := systemLabel(e.r, c.System)
	title := "ROC: " + label
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "AUROC "+fmt3(num(c.AUROC))+"; hover the curve for thresholds", 460, defaultGrid),
		charts.WithXAxisOpts(unitX("False positive rate")), charts.WithYAxisOpts(unitY("True positive rate")))...)
	blue := okabeHex()[0]
	skipped += bandSeries(ch, c.Grid, c.BandLow, c.BandHigh, blue)
	for _, f := range c.Folds {
		d, s := lineData(c.Grid, f, nil)
		skipped += s
		if len(d) > 0 {
			ch.AddSeries("Per fold", keepCorners(d), noSymbol(), lineOpts("#808080", 1, "solid", 0.5))
		}
	}
	drawn := thin(keepCorners(data), thinEps)
	ch.AddSeries("Full sample", drawn, tip("{a}<br/>{b}"),
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}), lineOpts(blue, 2, "solid", 1))
	ch.AddSeries("Chance", []opts.LineData{{Value: []float64{0, 0}}, {Value: []float64{1, 1}}}, noSymbol(), lineOpts("#808080", 1, "dashed", 1))
	var pts []opts.LineData
	for _, op := range c.Points {
		if !op.FPR.Valid() || !op.TPR.Valid() {
			skipped++
			continue
		}
		pts = append(pts, opts.LineData{Value: []float64{float64(op.FPR), float64(op.TPR)},
			Name: op.Label + ": held-out FPR " + fmt3(float64(op.FPR)) + ", TPR " + fmt3(float64(op.TPR))})
	}
	if len(pts) > 0 {
		ch.AddSeries("Held-out operating points", pts, tip("{b}"),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "diamond", SymbolSize: 10}),
			lineOpts("#000000", 0, "solid", 0), charts.WithItemStyleOpts(opts.ItemStyle{Color: "#000000"}))
	}
	e.emit(id, fig, title, joinNotes(leftOut(skipped), thinNote(len(drawn), len(data))), 460, ch)
}

func (e *ebuild) rocOverlay() {
	if len(e.r.Curves.ROC) < 2 {
		return
	}
	fig := "roc_overlay"
	id := e.chartID(fig)
	title := "ROC: all systems"
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "hover a curve for thresholds", 460, defaultGrid),
		charts.WithXAxisOpts(valueX("False positive rate", 0, 1)), charts.WithYAxisOpts(valueY("True positive rate", 0, 1)))...)
	skipped, kept, all := 0, 0, 0
	for i := range e.r.Curves.ROC {
		c := &e.r.Curves.ROC[i]
		data, s := lineData(c.FPR, c.TPR, func(j int) string {
			t := "+inf"
			if j < len(c.Thresholds) && c.Thresholds[j].Valid() {
				t = strconv.FormatFloat(float64(c.Thresholds[j]), 'g', 6, 64)
			}
			return "threshold " + t + ": FPR " + fmt3(num(c.FPR[j])) + ", TPR " + fmt3(num(c.TPR[j]))
		})
		skipped += s
		if len(data) == 0 {
			continue
		}
		drawn := thin(keepCorners(data), thinEps)
		kept += len(drawn)
		all += len(data)
		ch.AddSeries(systemLabel(e.r, c.System)+" (AUROC "+fmt3(num(c.AUROC))+")", drawn, tip("{a}<br/>{b}"),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}),
			lineOpts(okabeHex()[i%len(okabeIto)], 2, "solid", 1))
	}
	ch.AddSeries("Chance", []opts.LineData{{Value: []float64{0, 0}}, {Value: []float64{1, 1}}}, noSymbol(), lineOpts("#808080", 1, "dashed", 1))
	e.emit(id, fig, title, joinNotes(leftOut(skipped), thinNote(kept, all)), 460, ch)
}

func (e *ebuild) pr(c *report.PRCurve) {
	data, skipped := lineData(c.Recall, c.Precision, func(i int) string {
		t := "n/a"
		if i < len(c.Thresholds) && c.Thresholds[i].Valid() {
			t = strconv.FormatFloat(float64(c.Thresholds[i]), 'g', 6, 64)
		}
		return "threshold " + t + ": recall " + fmt3(num(c.Recall[i])) + ", precision " + fmt3(num(c.Precision[i]))
	})
	if len(data) == 0 {
		return
	}
	fig := "pr_" + e.keys[c.System]
	id := e.chartID(fig)
	title := "Precision-recall: " + systemLabel(e.r, c.System)
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "AP "+fmt3(num(c.AP))+"; hover the curve for thresholds", 460, defaultGrid),
		charts.WithXAxisOpts(unitX("Recall")), charts.WithYAxisOpts(unitY("Precision")))...)
	blue := okabeHex()[0]
	skipped += bandSeries(ch, c.Grid, c.BandLow, c.BandHigh, blue)
	for _, f := range c.Folds {
		d, s := lineData(c.Grid, f, nil)
		skipped += s
		if len(d) > 0 {
			ch.AddSeries("Per fold", keepCorners(d), noSymbol(), lineOpts("#808080", 1, "solid", 0.5))
		}
	}
	drawn := thin(keepCorners(data), thinEps)
	ch.AddSeries("Full sample", drawn, tip("{a}<br/>{b}"),
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3, Step: "end"}), lineOpts(blue, 2, "solid", 1))
	if c.PositiveRate.Valid() {
		pr := float64(c.PositiveRate)
		ch.AddSeries("Positive rate "+fmt3(pr), []opts.LineData{{Value: []float64{0, pr}}, {Value: []float64{1, pr}}}, noSymbol(), lineOpts("#808080", 1, "dashed", 1))
	}
	e.emit(id, fig, title, joinNotes(leftOut(skipped), thinNote(len(drawn), len(data))), 460, ch)
}

func (e *ebuild) reliability(rel *report.Reliability) {
	if len(rel.Bins) == 0 {
		return
	}
	fig := "reliability_" + e.keys[rel.System]
	id := e.chartID(fig)
	title := "Reliability: " + systemLabel(e.r, rel.System)
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "hover a bin for its count and observed frequency", 460, opts.Grid{Left: "70", Right: "90", Top: "64", Bottom: "86"}),
		charts.WithXAxisOpts(valueX("Predicted probability (ne_prob)", 0, 1)),
		charts.WithYAxisOpts(valueY("Observed frequency", 0, 1)))...)
	ch.ExtendYAxis(opts.YAxis{Type: "log", Name: "Queries per bin (log)", NameLocation: "middle", NameGap: 56, Min: 1, Position: "right"})
	blue := okabeHex()[0]
	var pts, counts []opts.LineData
	skipped := 0
	for _, b := range rel.Bins {
		rng := "[" + trimFloat(num(b.Lo), 4) + ", " + trimFloat(num(b.Hi), 4) + ")"
		name := "bin " + rng + ": " + strconv.Itoa(b.Count) + " queries, observed frequency " + fmt3(num(b.ObsFreq)) +
			" (Wilson 95% " + fmt3(num(b.WilsonLo)) + " to " + fmt3(num(b.WilsonHi)) + "), mean p " + fmt3(num(b.MeanP))
		if b.Lo.Valid() && b.Hi.Valid() && b.Count > 0 {
			counts = append(counts, opts.LineData{Value: []float64{r5((float64(b.Lo) + float64(b.Hi)) / 2), float64(b.Count)}, Name: name})
		}
		if b.Count == 0 || !b.MeanP.Valid() || !b.ObsFreq.Valid() {
			skipped++
			continue
		}
		pts = append(pts, opts.LineData{Value: []float64{r5(float64(b.MeanP)), r5(float64(b.ObsFreq))}, Name: name})
		if b.WilsonLo.Valid() && b.WilsonHi.Valid() {
			ch.AddSeries("Wilson 95% interval", []opts.LineData{{Value: []float64{r5(float64(b.MeanP)), r5(float64(b.WilsonLo))}},
				{Value: []float64{r5(float64(b.MeanP)), r5(float64(b.WilsonHi))}}}, noSymbol(), lineOpts(blue, 1.5, "solid", 1))
		}
	}
	ch.AddSeries("Perfect calibration", []opts.LineData{{Value: []float64{0, 0}}, {Value: []float64{1, 1}}}, noSymbol(), lineOpts("#808080", 1, "dashed", 1))
	ch.AddSeries("Bins", pts, tip("{b}"), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 8}), lineOpts(blue, 1.5, "solid", 1))
	bars := charts.NewBar()
	var bd []opts.BarData
	for _, c := range counts {
		bd = append(bd, opts.BarData{Value: c.Value, Name: c.Name})
	}
	bars.AddSeries("Queries per bin", bd, tip("{b}"), charts.WithBarChartOpts(opts.BarChart{YAxisIndex: 1, BarWidth: "40%"}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#bdbdbd", Opacity: opts.Float(0.6)}))
	ch.Overlap(bars)
	e.emit(id, fig, title, leftOut(skipped), 460, ch)
}

func (e *ebuild) decision(d *report.DecisionCurve) {
	model, skipped := lineData(d.Threshold, d.Model, func(i int) string {
		return "threshold " + fmt3(num(d.Threshold[i])) + ": net benefit " + strconv.FormatFloat(num(d.Model[i]), 'f', 4, 64)
	})
	if len(model) == 0 {
		return
	}
	all, s2 := lineData(d.Threshold, d.TreatAll, func(i int) string {
		return "threshold " + fmt3(num(d.Threshold[i])) + ": net benefit " + strconv.FormatFloat(num(d.TreatAll[i]), 'f', 4, 64)
	})
	skipped += s2
	ymax := 0.0
	for _, s := range append(append([]opts.LineData{}, model...), all...) {
		ymax = math.Max(ymax, s.Value.([]float64)[1])
	}
	if ymax <= 0 {
		ymax = 0.05
	}
	fig := "decision_curve_" + e.keys[d.System]
	id := e.chartID(fig)
	label := systemLabel(e.r, d.System)
	title := "Decision curve: " + label
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "treat-all falls below the axis at high thresholds", 420, defaultGrid),
		charts.WithXAxisOpts(valueX("Threshold probability", 0, 1)),
		charts.WithYAxisOpts(valueY("Net benefit", -roundUp(0.25*ymax), roundUp(1.1*ymax))))...)
	ch.AddSeries(label, model, tip("{a}<br/>{b}"), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}), lineOpts(okabeHex()[0], 2, "solid", 1))
	ch.AddSeries("Treat all", all, tip("{a}<br/>{b}"), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 3}), lineOpts("#808080", 1.5, "dashed", 1))
	ch.AddSeries("Treat none", []opts.LineData{{Value: []float64{0, 0}}, {Value: []float64{1, 0}}}, noSymbol(), lineOpts("#000000", 1, "solid", 1))
	e.emit(id, fig, title, leftOut(skipped), 420, ch)
}

// roundUp rounds x > 0 up to two significant digits (an axis end).
func roundUp(x float64) float64 {
	if x <= 0 {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Ceil(x/p) * p
}

// ciText is "v (95% CI lo to hi)".
func ciText(v, lo, hi float64) string {
	s := fmt3(v)
	if !math.IsNaN(lo) && !math.IsNaN(hi) {
		s += " (95% CI " + fmt3(lo) + " to " + fmt3(hi) + ")"
	}
	return s
}

func (e *ebuild) criteria(system, id, what, prefix string) {
	v, lo, hi, ok := criteriaValues(e.r, e.ix, system, id)
	if !ok {
		return
	}
	fig := prefix + e.keys[system]
	cid := e.chartID(fig)
	title := what + ": " + systemLabel(e.r, system)
	ch := charts.NewBar()
	ch.SetGlobalOptions(append(base(cid, title, "bars: point estimate; whiskers: 95% bootstrap CI", 420, defaultGrid),
		charts.WithYAxisOpts(valueY("AUROC", 0, 1)))...)
	ch.SetXAxis(e.r.Dataset.Criteria)
	var bd []opts.BarData
	skipped := 0
	for i, c := range e.r.Dataset.Criteria {
		if math.IsNaN(v[i]) {
			skipped++
			bd = append(bd, opts.BarData{Value: "-", Name: c + ": n/a"})
			continue
		}
		bd = append(bd, opts.BarData{Value: r5(v[i]), Name: c + ": " + ciText(v[i], lo[i], hi[i])})
	}
	ch.AddSeries("AUROC", bd, tip("{a}, criterion {b}"))
	// Whiskers: one two-point line per criterion, sharing one legend entry.
	lines := charts.NewLine()
	for i, c := range e.r.Dataset.Criteria {
		if math.IsNaN(lo[i]) || math.IsNaN(hi[i]) || math.IsNaN(v[i]) {
			continue
		}
		lines.AddSeries("95% CI (bootstrap)", []opts.LineData{{Value: []any{c, r5(lo[i])}}, {Value: []any{c, r5(hi[i])}}},
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "rect", SymbolSize: []int{10, 2}}),
			lineOpts("#000000", 1.5, "solid", 1), charts.WithItemStyleOpts(opts.ItemStyle{Color: "#000000"}))
	}
	ch.Overlap(lines)
	e.emit(cid, fig, title, leftOut(skipped), 420, ch)
}

func (e *ebuild) criteriaRanking(system string) {
	rv, rlo, rhi, ok1 := criteriaValues(e.r, e.ix, system, "rank.recall@10")
	nv, nlo, nhi, ok2 := criteriaValues(e.r, e.ix, system, "rank.ndcg@10")
	if !ok1 && !ok2 {
		return
	}
	fig := "criteria_ranking_" + e.keys[system]
	cid := e.chartID(fig)
	title := "Ranking by criterion: " + systemLabel(e.r, system)
	ch := charts.NewBar()
	ch.SetGlobalOptions(append(base(cid, title, "hover a bar for its 95% bootstrap CI", 420, defaultGrid),
		charts.WithYAxisOpts(valueY("Mean over positive queries", 0, 1)))...)
	ch.SetXAxis(e.r.Dataset.Criteria)
	skipped := 0
	series := func(v, lo, hi []float64) []opts.BarData {
		var bd []opts.BarData
		for i, c := range e.r.Dataset.Criteria {
			if math.IsNaN(v[i]) {
				skipped++
				bd = append(bd, opts.BarData{Value: "-", Name: c + ": n/a"})
				continue
			}
			bd = append(bd, opts.BarData{Value: r5(v[i]), Name: c + ": " + ciText(v[i], lo[i], hi[i])})
		}
		return bd
	}
	ch.AddSeries("Recall@10", series(rv, rlo, rhi), tip("{a}, criterion {b}"))
	ch.AddSeries("nDCG@10", series(nv, nlo, nhi), tip("{a}, criterion {b}"), charts.WithItemStyleOpts(opts.ItemStyle{Color: okabeHex()[3]}))
	e.emit(cid, fig, title, leftOut(skipped), 420, ch)
}

func (e *ebuild) hist(system string, g histGroup) {
	var hs []*report.Histogram
	for i := range e.r.Curves.DynKHist {
		h := &e.r.Curves.DynKHist[i]
		if h.System == system && g.match(h.Group) && len(h.K) > 0 {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return
	}
	kset := map[int]bool{}
	for _, h := range hs {
		for _, k := range h.K {
			kset[k] = true
		}
	}
	var ks []int
	for k := range kset {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	cats := make([]string, len(ks))
	pos := map[int]int{}
	for i, k := range ks {
		cats[i] = strconv.Itoa(k)
		pos[k] = i
	}
	fig := g.file() + e.keys[system]
	id := e.chartID(fig)
	title := g.title() + ": " + systemLabel(e.r, system)
	ch := charts.NewBar()
	ch.SetGlobalOptions(append(base(id, title, "hover a bar for its exact K and count", 400, defaultGrid),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "Sentences selected per query (K)", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(valueY("Queries", 0, nil)))...)
	ch.SetXAxis(cats)
	for _, h := range hs {
		bd := make([]opts.BarData, len(ks))
		for i, k := range ks {
			bd[i] = opts.BarData{Value: 0, Name: "K = " + strconv.Itoa(k) + ": 0 queries"}
		}
		n := 0
		for j, k := range h.K {
			bd[pos[k]] = opts.BarData{Value: h.Count[j], Name: "K = " + strconv.Itoa(k) + ": " + strconv.Itoa(h.Count[j]) + " queries"}
			n += h.Count[j]
		}
		ch.AddSeries(groupLabel(h.Group)+" (n = "+groupInt(n)+")", bd, tip("{a}<br/>{b}"))
	}
	e.emit(id, fig, title, "", 400, ch)
}

func (e *ebuild) rankAtK(system string, recall bool) {
	what, prefix := "Precision@K", "precision_at_k_"
	if recall {
		what, prefix = "Recall@K", "recall_at_k_"
	}
	type series struct {
		name string
		d    []opts.LineData
	}
	var ss []*series
	find := map[string]*series{}
	skipped := 0
	for _, pt := range e.r.Curves.RankAtK {
		if pt.System != system {
			continue
		}
		v := pt.Precision
		if recall {
			v = pt.Recall
		}
		s := find[pt.Stratum]
		if s == nil {
			s = &series{name: pt.Stratum}
			find[pt.Stratum] = s
			ss = append(ss, s)
		}
		if !v.Valid() {
			skipped++
			continue
		}
		s.d = append(s.d, opts.LineData{Value: []float64{float64(pt.K), r5(float64(v))},
			Name: "K = " + strconv.Itoa(pt.K) + ": " + what[:len(what)-2] + " " + fmt3(float64(v))})
	}
	found := false
	for _, s := range ss {
		found = found || len(s.d) > 0
	}
	if !found {
		return
	}
	fig := prefix + e.keys[system]
	id := e.chartID(fig)
	title := what + " by n_pos stratum: " + systemLabel(e.r, system)
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "", 400, defaultGrid),
		charts.WithXAxisOpts(valueX("Cutoff K", 0, nil)), charts.WithYAxisOpts(valueY(what, 0, 1)))...)
	for _, s := range ss {
		if len(s.d) == 0 {
			continue
		}
		sort.SliceStable(s.d, func(a, b int) bool { return s.d[a].Value.([]float64)[0] < s.d[b].Value.([]float64)[0] })
		name := "n_pos " + s.name
		if s.name == "all" {
			name = "All positives"
		}
		ch.AddSeries(name, s.d, tip("{a}<br/>{b}"), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 6}))
	}
	e.emit(id, fig, title, leftOut(skipped), 400, ch)
}

func (e *ebuild) sweep(system string) {
	var d []opts.LineData
	skipped := 0
	for _, s := range e.r.Curves.GammaSweep {
		if s.System != system {
			continue
		}
		if !s.MeanK.Valid() || !s.EvidenceRecall.Valid() || !s.Gamma.Valid() {
			skipped++
			continue
		}
		d = append(d, opts.LineData{Value: []float64{r5(float64(s.MeanK)), r5(float64(s.EvidenceRecall)), num(s.Gamma)},
			Name: "gamma " + trimFloat(num(s.Gamma), 3) + ": mean K " + strconv.FormatFloat(float64(s.MeanK), 'f', 2, 64) +
				", evidence recall " + fmt3(float64(s.EvidenceRecall)) + ", evidence precision " + fmt3(num(s.EvidencePrecision)) +
				", workload " + strconv.FormatFloat(num(s.WorkloadPer1000), 'f', 0, 64) + " per 1,000 queries"})
	}
	if len(d) == 0 {
		return
	}
	fig := "gamma_sweep_" + e.keys[system]
	id := e.chartID(fig)
	title := "Dynamic-K gamma sweep: " + systemLabel(e.r, system)
	ch := charts.NewLine()
	ch.SetGlobalOptions(append(base(id, title, "", 400, defaultGrid),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "Mean selected K", NameLocation: "middle", NameGap: 28, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "Evidence recall", NameLocation: "middle", NameGap: 46, Scale: opts.Bool(true)}))...)
	// Each point is labelled with its gamma, the third value dimension.
	ch.AddSeries("Sweep point", d, tip("{b}"),
		charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), Symbol: "circle", SymbolSize: 8}),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "bottom", Formatter: "gamma {@[2]}", FontSize: 10}))
	e.emit(id, fig, title, leftOut(skipped), 400, ch)
}

func (e *ebuild) grid(system string, gm gridMetric) {
	for _, on := range []string{"tune", "eval"} {
		var cells []*report.GridCell
		for i := range e.r.Curves.GateGrid {
			c := &e.r.Curves.GateGrid[i]
			if c.System == system && c.On == on {
				cells = append(cells, c)
			}
		}
		if len(cells) == 0 {
			continue
		}
		xs, ys := map[float64]bool{}, map[float64]bool{}
		skipped := 0
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range cells {
			if c.TauNeg.Valid() && c.TauPos.Valid() {
				xs[float64(c.TauNeg)], ys[float64(c.TauPos)] = true, true
			}
			if v := gm.get(c); v.Valid() {
				lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
			}
		}
		xv, yv := sortedKeys(xs), sortedKeys(ys)
		xi, yi := map[float64]int{}, map[float64]int{}
		var xc, yc []string
		for i, x := range xv {
			xi[x] = i
			xc = append(xc, trimFloat(x, 4))
		}
		for i, y := range yv {
			yi[y] = i
			yc = append(yc, trimFloat(y, 4))
		}
		var hd []opts.HeatMapData
		for _, c := range cells {
			v := gm.get(c)
			if !c.TauNeg.Valid() || !c.TauPos.Valid() || !v.Valid() {
				skipped++
				continue
			}
			hd = append(hd, opts.HeatMapData{Value: []any{xi[float64(c.TauNeg)], yi[float64(c.TauPos)], r5(float64(v))},
				Name: "tau_neg " + trimFloat(float64(c.TauNeg), 4) + ", tau_pos " + trimFloat(float64(c.TauPos), 4) + ": " +
					strings.ToLower(gm.title) + " " + gridValue(gm, float64(v))})
		}
		if len(hd) == 0 {
			continue
		}
		if gm.unitRange {
			lo, hi = 0, 1
		}
		if hi <= lo {
			hi = lo + 1
		}
		fig := "gate_grid_" + gm.key + "_" + e.keys[system]
		id := e.chartID(fig + "_" + on)
		title := gm.title + " (" + on + " rows): " + systemLabel(e.r, system)
		ch := charts.NewHeatMap()
		ch.SetGlobalOptions(append(base(id, title, "blank cells: tau_pos < tau_neg, or undefined", 440, opts.Grid{Left: "70", Right: "110", Top: "64", Bottom: "86"}),
			charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "Screening threshold tau_neg", NameLocation: "middle", NameGap: 28, Data: xc}),
			charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: "Alert threshold tau_pos", NameLocation: "middle", NameGap: 46, Data: yc}),
			charts.WithVisualMapOpts(opts.VisualMap{Type: "continuous", Calculable: opts.Bool(true), Min: float32(lo), Max: float32(hi),
				Right: "0", Top: "center", InRange: &opts.VisualMapInRange{Color: viridisHex()}}))...)
		ch.SetXAxis(xc)
		ch.AddSeries(gm.title, hd, tip("{b}"), drawAtOnce())
		e.emit(id, fig, title, leftOut(skipped), 440, ch)
	}
}

func gridValue(gm gridMetric, v float64) string {
	if gm.unitRange {
		return fmt3(v)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func viridisHex() []string {
	var out []string
	for _, c := range viridisAnchors {
		out = append(out, fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))
	}
	return out
}

func sortedKeys(m map[float64]bool) []float64 {
	var out []float64
	for k := range m {
		out = append(out, k)
	}
	sort.Float64s(out)
	return out
}

// perQuery is the posts x criteria heat map of one system (the primary
// one: the page would grow by about 0.7 MB per system).
func (e *ebuild) perQuery(system string) {
	col := heatColumn(e.r)
	if col < 0 || len(e.r.Dataset.Criteria) == 0 {
		return
	}
	ci := map[string]int{}
	for i, c := range e.r.Dataset.Criteria {
		ci[c] = i
	}
	pi := map[string]int{}
	var posts []string
	var hd []opts.HeatMapData
	skipped := 0
	for i := range e.r.PerQuery {
		q := &e.r.PerQuery[i]
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
		if col >= len(q.Values) || !q.Values[col].Valid() {
			skipped++
			continue
		}
		v := float64(q.Values[col])
		hd = append(hd, opts.HeatMapData{Value: []any{p, c, math.Round(v*1000) / 1000}, Name: q.Post + " " + q.Criterion + ": " + fmt3(v)})
	}
	if len(hd) == 0 {
		return
	}
	metric := e.r.PerQueryColumns[col]
	fig := "per_query_heatmap_" + e.keys[system]
	id := e.chartID(fig)
	title := "Per query " + metric + ": " + systemLabel(e.r, system)
	idx := make([]string, len(posts))
	for i := range idx {
		idx[i] = strconv.Itoa(i + 1)
	}
	ch := charts.NewHeatMap()
	ch.SetGlobalOptions(append(base(id, title, "posts in input order; blank: undefined; scroll to zoom", 420, opts.Grid{Left: "70", Right: "110", Top: "64", Bottom: "96"}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Name: "Post", NameLocation: "middle", NameGap: 28, Data: idx}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Name: "Criterion", NameLocation: "middle", NameGap: 46, Data: e.r.Dataset.Criteria}),
		charts.WithVisualMapOpts(opts.VisualMap{Type: "continuous", Calculable: opts.Bool(true), Min: 0, Max: 1,
			Right: "0", Top: "center", InRange: &opts.VisualMapInRange{Color: viridisHex()}}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "slider", XAxisIndex: []int{0}}))...)
	ch.SetXAxis(idx)
	ch.AddSeries(metric, hd, tip("{b}"), drawAtOnce())
	e.emit(id, fig, title, leftOut(skipped), 420, ch)
}

// difficulty is the scatter of recall@K against difficulty on a log axis:
// one dot per distinct (difficulty, recall) pair, its tooltip giving the
// number of queries there.
func (e *ebuild) difficulty(system string) {
	d, ok := difficultyData(e.r, e.ix, system)
	if !ok {
		return
	}
	fig := "difficulty_" + e.keys[system]
	id := e.chartID(fig)
	label := systemLabel(e.r, system)
	what := "Recall@" + strconv.Itoa(d.K)
	title := what + " against difficulty: " + label
	sub := "positive queries (n = " + groupInt(d.Drawn+d.Zero) + "); Spearman rho = " + fmt3(d.Rho)
	if !math.IsNaN(d.Rho) {
		sub += ", p " + fmtP(d.P)
	}
	lo, hi := d.Points[0].X, d.Points[0].X
	for _, pt := range d.Points {
		lo, hi = math.Min(lo, pt.X), math.Max(hi, pt.X)
	}
	ch := charts.NewScatter()
	ch.SetGlobalOptions(append(base(id, title, sub, 440, defaultGrid),
		charts.WithXAxisOpts(opts.XAxis{Type: "log", Name: "Difficulty n_neg / n_pos (negatives per positive, log scale)", NameLocation: "middle", NameGap: 28,
			Min: logFloor(lo), Max: logCeil(hi)}),
		charts.WithYAxisOpts(valueY(what+" of the query", 0, 1)))...)
	var sd []opts.ScatterData
	for _, pt := range d.Points {
		sd = append(sd, opts.ScatterData{Value: []float64{r5(pt.X), r5(pt.Y)},
			Name: "difficulty " + trimFloat(pt.X, 3) + ", " + what + " " + fmt3(pt.Y) + ": " + queries(pt.N)})
	}
	ch.AddSeries("Positive queries (one dot per distinct pair)", sd, tip("{b}"), drawAtOnce(),
		charts.WithScatterChartOpts(opts.ScatterChart{Symbol: "circle", SymbolSize: 6}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: okabeHex()[0], Opacity: opts.Float(0.45)}))
	note := leftOut(d.Undef)
	if d.Zero > 0 {
		note = joinNotes(note, queries(d.Zero)+" at difficulty 0 left out (log axis)")
	}
	e.emit(id, fig, title, note, 440, ch)
}

// logFloor and logCeil are the powers of ten around x > 0: the ends of a
// log axis.
func logFloor(x float64) float64 { return math.Pow(10, math.Floor(math.Log10(x))) }
func logCeil(x float64) float64  { return math.Pow(10, math.Ceil(math.Log10(x))) }

func (e *ebuild) systems() {
	names := systemOrder(e.r, true)
	if len(names) == 0 {
		return
	}
	specs := []struct{ id, title string }{{"rank.ndcg@10", "nDCG@10"}, {"ne.auroc", "AUROC"}}
	var labels []string
	for _, n := range names {
		labels = append(labels, systemLabel(e.r, n))
	}
	rev := make([]string, len(labels))
	for i, l := range labels {
		rev[len(labels)-1-i] = l
	}
	fig := "systems"
	id := e.chartID(fig)
	title := "Systems and baselines"
	ch := charts.NewScatter()
	ch.SetGlobalOptions(append(base(id, title, "dots: point estimate; whiskers: 95% bootstrap CI", 80+36*len(names), opts.Grid{Left: "210", Right: "40", Top: "64", Bottom: "86"}),
		charts.WithXAxisOpts(valueX("Value", 0, 1)),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: rev}))...)
	skipped := 0
	found := false
	lines := charts.NewLine()
	for si, sp := range specs {
		var d []opts.ScatterData
		for i, n := range names {
			v, lo, hi := e.ix.value(n, sp.id, "")
			if math.IsNaN(v) {
				skipped++
				continue
			}
			found = true
			d = append(d, opts.ScatterData{Value: []any{r5(v), labels[i]}, Name: labels[i] + ": " + sp.title + " " + ciText(v, lo, hi)})
			if !math.IsNaN(lo) && !math.IsNaN(hi) {
				lines.AddSeries(sp.title, []opts.LineData{{Value: []any{r5(lo), labels[i]}}, {Value: []any{r5(hi), labels[i]}}},
					noSymbol(), lineOpts(okabeHex()[si], 2, "solid", 1))
			}
		}
		ch.AddSeries(sp.title, d, tip("{b}"), charts.WithItemStyleOpts(opts.ItemStyle{Color: okabeHex()[si]}),
			charts.WithScatterChartOpts(opts.ScatterChart{Symbol: []string{"circle", "triangle"}[si], SymbolSize: 10}))
	}
	if !found {
		return
	}
	ch.Overlap(lines)
	e.emit(id, fig, title, leftOut(skipped), 80+36*len(names), ch)
}
