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
	"strconv"
	"unicode/utf8"

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
	if len(s.Panels) == 1 {
		h += int(turnRoom(&s.Panels[0].X)) // turned category names
	}
	b := &builder{spec: s, base: charts.NewLine()}
	b.base.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: strconv.Itoa(h) + "px",
			BackgroundColor: "transparent"}),
		charts.WithTitleOpts(opts.Title{Title: s.Title, Subtitle: subtitle(s), Left: "center",
			TitleStyle: &opts.TextStyle{FontSize: 14}, SubtitleStyle: &opts.TextStyle{FontSize: 11}}),
		// A plain legend wraps onto more rows and shows every series; a
		// scrolling one pages through them and cuts names.
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "plain", Bottom: "0", Left: "center"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item"}),
		charts.WithColorsOpts(palette()),
		charts.WithAnimation(false),
		charts.WithGridOpts(grids(s)...),
	)
	for i := range s.Panels {
		b.panel(i)
	}
	if extra := 22 * (legendRows(b.base.MultiSeries) - 1); extra > 0 {
		// The legend wraps: the plot moves up and the chart grows by the
		// extra rows.
		h += extra
		b.base.Initialization.Height = strconv.Itoa(h) + "px"
		for k := range b.base.GridList {
			if g := &b.base.GridList[k]; g.Bottom != "" {
				if px, err := strconv.Atoi(g.Bottom); err == nil {
					g.Bottom = strconv.Itoa(px + extra)
				}
			}
		}
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
		// The colour scale reads the heat maps only: the rings of chosen
		// thresholds keep their own colour.
		var heat []int
		for i, ss := range b.base.MultiSeries {
			if ss.Type == types.ChartHeatMap {
				heat = append(heat, i)
			}
		}
		out := make([]visualMapJSON, len(vm))
		for i := range vm {
			out[i] = visualMapJSON{VisualMap: vm[i], Dimension: 2, SeriesIndex: heat} // [col, row, value, ...]
		}
		obj["visualMap"] = out
	}
	obj["title"] = titles(s, b.base.Title)
	delete(obj, "toolbox")       // empty
	js, err := json.Marshal(obj) // HTML-safe; fails on NaN
	if err != nil {
		return Chart{}, err
	}
	return Chart{ID: s.ID, ChartID: id, Title: s.Title, Option: js, Height: h}, nil
}

// legendWidth is the width in pixels a legend row may take: a chart beside
// another on a laptop screen.
const legendWidth = 520

// legendRows is the number of rows the plain legend takes at legendWidth,
// at about 7 pixels a character of a 12-pixel name plus 35 pixels of
// marker and gap per entry (one entry per distinct series name).
func legendRows(ss []charts.SingleSeries) int {
	seen := map[string]bool{}
	rows, w := 1, 0
	for _, x := range ss {
		if x.Name == "" || seen[x.Name] {
			continue
		}
		seen[x.Name] = true
		item := 7*utf8.RuneCountInString(x.Name) + 35
		if w > 0 && w+item > legendWidth {
			rows, w = rows+1, 0
		}
		w += item
	}
	return rows
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
	Dimension   int   `json:"dimension"`
	SeriesIndex []int `json:"seriesIndex,omitempty"`
}

// titles is the chart's title and, above each panel of a row of panels,
// the panel's own title ("Tune rows", "Eval rows"), as the static figure
// shows them.
func titles(s *figures.Spec, main opts.Title) []opts.Title {
	out := []opts.Title{main}
	if len(s.Panels) < 2 || s.Layout == figures.Stack {
		return out
	}
	gs := grids(s)
	for i, pn := range s.Panels {
		if pn.Title == "" || i >= len(gs) {
			continue
		}
		out = append(out, opts.Title{Title: pn.Title, Left: gs[i].Left, Top: "50",
			TitleStyle: &opts.TextStyle{FontSize: 12}})
	}
	return out
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

// subtitle is the spec's caption, its hint (this chart is the
// interactive one) and its notes.
func subtitle(s *figures.Spec) string {
	sub := s.Subtitle
	for _, n := range append([]string{s.Hint}, s.Notes...) {
		if n == "" {
			continue
		}
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
		bottom := 86 + int(turnRoom(&s.Panels[0].X))
		return []opts.Grid{{Left: pct(left), Right: pct(right), Top: "64", Bottom: strconv.Itoa(bottom)}}
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
