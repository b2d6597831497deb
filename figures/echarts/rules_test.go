package echarts_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/echarts"
	"paperbundle/figures/internal/figtest"
	"paperbundle/report"
)

// TestChartRules reads every chart's option JSON of the demo and of a
// report whose cutoffs run from 5 to 1000 (as a TREC run's do) and checks
// that the interactive chart says what the static figure says:
//
//   - the legend is plain (wraps and shows every series), never a scrolling
//     one that pages and cuts names;
//   - a fixed axis ends at round numbers (at most 3 significant digits), and
//     an end between two ticks shows no label (it would collide with the
//     tick label beside it);
//   - each panel of a row of panels has its title, and the gate grids'
//     chosen thresholds are drawn as rings;
//   - Recall@K and Precision@K over cutoffs spanning more than 20x are on
//     a log axis.
func TestChartRules(t *testing.T) {
	for _, c := range []struct {
		name string
		r    *report.Report
	}{
		{"demo", figtest.Demo(t)},
		{"cutoffs 5-1000", figtest.FixtureAt([]int{5, 10, 20, 30, 100, 1000})},
	} {
		t.Run(c.name, func(t *testing.T) {
			specs := figures.Catalogue(c.r)
			charts, err := echarts.Options(specs)
			if err != nil {
				t.Fatal(err)
			}
			if len(charts) != len(specs) {
				t.Fatalf("%d charts for %d specs", len(charts), len(specs))
			}
			for i := range charts {
				for _, f := range chartRules(&specs[i], charts[i].Option) {
					t.Errorf("%s: %s", charts[i].ChartID, f)
				}
			}
		})
	}
}

type axisJSON struct {
	Type      string   `json:"type"`
	Min       *float64 `json:"min"`
	Max       *float64 `json:"max"`
	AxisLabel *struct {
		Show         *bool `json:"show"`
		ShowMinLabel *bool `json:"showMinLabel"`
		ShowMaxLabel *bool `json:"showMaxLabel"`
	} `json:"axisLabel"`
}

type optionJSON struct {
	Title  json.RawMessage       `json:"title"` // one title or a list
	Legend struct{ Type string } `json:"legend"`
	XAxis  []axisJSON            `json:"xAxis"`
	YAxis  []axisJSON            `json:"yAxis"`
	Series []struct {
		Type      string `json:"type"`
		ItemStyle *struct {
			BorderWidth int `json:"borderWidth"`
		} `json:"itemStyle"`
	} `json:"series"`
}

// echartsStep is the tick step echarts 5 draws on a value axis from min
// to max: (max - min) / 5 rounded by its numberUtil.nice to 1, 2, 3, 5 or
// 10 times a power of ten (thresholds 1.5, 2.5, 4, 7); the ticks are the
// multiples of the step inside the range, plus both ends.
func echartsStep(min, max float64) float64 {
	raw := (max - min) / 5
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	f := raw / p
	for _, c := range []struct{ below, nice float64 }{{1.5, 1}, {2.5, 2}, {4, 3}, {7, 5}} {
		if f < c.below {
			return c.nice * p
		}
	}
	return 10 * p
}

// significant is the number of significant digits of v as JSON writes it.
func significant(v float64) int {
	if v == 0 {
		return 0
	}
	mant, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	return len(strings.Replace(mant, ".", "", 1))
}

func chartRules(s *figures.Spec, option []byte) []string {
	var o optionJSON
	if err := json.Unmarshal(option, &o); err != nil {
		return []string{err.Error()}
	}
	var out []string
	if o.Legend.Type == "scroll" {
		out = append(out, "a scrolling legend pages through the series and cuts their names")
	}
	axes := append(append([]axisJSON(nil), o.XAxis...), o.YAxis...)
	for _, a := range axes {
		for k, end := range []*float64{a.Min, a.Max} {
			if end == nil {
				continue
			}
			if n := significant(*end); n > 3 {
				out = append(out, "axis end "+strconv.FormatFloat(*end, 'g', -1, 64)+" has "+strconv.Itoa(n)+" significant digits")
			}
			if a.Type != "value" || a.Min == nil || a.Max == nil {
				continue
			}
			step := echartsStep(*a.Min, *a.Max)
			q := *end / step
			if math.Abs(q-math.Round(q)) < 1e-6 {
				continue
			}
			shown := a.AxisLabel == nil || a.AxisLabel.Show == nil || *a.AxisLabel.Show
			flag := (*bool)(nil)
			if a.AxisLabel != nil {
				flag = []*bool{a.AxisLabel.ShowMinLabel, a.AxisLabel.ShowMaxLabel}[k]
			}
			if shown && (flag == nil || *flag) {
				out = append(out, "axis end "+strconv.FormatFloat(*end, 'g', -1, 64)+" lies between ticks every "+
					strconv.FormatFloat(step, 'g', -1, 64)+" and keeps its label")
			}
		}
	}
	if len(s.Panels) > 1 && s.Layout == figures.Row {
		var ts []struct{ Text string }
		if json.Unmarshal(o.Title, &ts) != nil {
			var one struct{ Text string }
			_ = json.Unmarshal(o.Title, &one)
			ts = append(ts, one)
		}
		have := map[string]bool{}
		for _, tt := range ts {
			have[tt.Text] = true
		}
		for _, pn := range s.Panels {
			if pn.Title != "" && !have[pn.Title] {
				out = append(out, "panel title "+strconv.Quote(pn.Title)+" missing")
			}
		}
	}
	if s.Kind.Family() == figures.KindGateGrid {
		chosen := false
		for _, e := range s.Panels[0].Elements {
			if p, ok := e.(*figures.Points); ok && p.Style.Role == figures.Chosen && len(p.Points) > 0 {
				chosen = true
			}
		}
		rings := false
		for _, se := range o.Series {
			rings = rings || (se.Type == "scatter" && se.ItemStyle != nil && se.ItemStyle.BorderWidth > 0)
		}
		if chosen && !rings {
			out = append(out, "the chosen thresholds are not ringed")
		}
	}
	if f := s.Kind.Family(); (f == figures.KindRecallAtK || f == figures.KindPrecisionAtK) && len(o.XAxis) > 0 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, e := range s.Panels[0].Elements {
			if l, ok := e.(*figures.Line); ok {
				for _, seg := range l.Segments {
					for _, p := range seg {
						lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
					}
				}
			}
		}
		if lo > 0 && hi/lo > 20 && o.XAxis[0].Type != "log" {
			out = append(out, "cutoffs from "+strconv.FormatFloat(lo, 'g', -1, 64)+" to "+strconv.FormatFloat(hi, 'g', -1, 64)+" on a linear axis")
		}
	}
	return out
}
