package echarts_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/echarts"
	"paperbundle/figures/internal/figtest"
	"paperbundle/figures/plot"
	"paperbundle/report"
)

func options(t testing.TB, r *report.Report) []echarts.Chart {
	t.Helper()
	cs, err := echarts.Options(figures.Catalogue(r))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// demoBundle is the metrics of the demo bundle, when it has been built
// ("make paper").
const demoBundle = "../../results/paper_bundle/v1/metrics_master.json"

// demoReport decodes the demo bundle's report, or skips the test.
func demoReport(t testing.TB) *report.Report {
	t.Helper()
	data, err := os.ReadFile(demoBundle)
	if err != nil {
		t.Skipf("no demo bundle: %v", err)
	}
	r, err := report.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// walk calls f on every value of a decoded JSON document with its path.
func walk(v any, path string, f func(path string, v any)) {
	f(path, v)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(v[k], path+"."+k, f)
		}
	case []any:
		for i, x := range v {
			walk(x, fmt.Sprintf("%s[%d]", path, i), f)
		}
	}
}

// TestOptionsValid: every chart has its own id of [A-Za-z0-9_], an option
// that parses as JSON without NaN or infinity anywhere (as a number or as
// a string), and no reference to a remote host.
func TestOptionsValid(t *testing.T) {
	for _, r := range []*report.Report{figtest.Fixture(), figtest.FixtureAt([]int{1, 3, 5, 20})} {
		cs := options(t, r)
		valid := regexp.MustCompile(`^[A-Za-z0-9_]+$`)
		seen := map[string]bool{}
		for _, c := range cs {
			if !valid.MatchString(c.ChartID) || seen[c.ChartID] {
				t.Errorf("chart id %q invalid or used twice", c.ChartID)
			}
			seen[c.ChartID] = true
			if c.Height <= 0 || c.Title == "" {
				t.Errorf("%s: height %d, title %q", c.ID.String(), c.Height, c.Title)
			}
			var doc any
			if err := json.Unmarshal(c.Option, &doc); err != nil {
				t.Errorf("%s: option is not JSON: %v", c.ID.String(), err)
				continue
			}
			walk(doc, c.ID.String(), func(path string, v any) {
				switch v := v.(type) {
				case float64:
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s: %v", path, v)
					}
				case string:
					if v == "NaN" || strings.Contains(v, "Infinity") {
						t.Errorf("%s: %q", path, v)
					}
				}
			})
			for _, bad := range []string{"NaN", "Infinity", "http://", "https://"} {
				if bytes.Contains(c.Option, []byte(bad)) {
					t.Errorf("%s: option contains %q", c.ID.String(), bad)
				}
			}
			m := doc.(map[string]any)
			series, _ := m["series"].([]any)
			if len(series) == 0 {
				t.Errorf("%s: no series", c.ID.String())
			}
			for i, s := range series {
				if d, _ := s.(map[string]any)["data"].([]any); len(d) == 0 {
					t.Errorf("%s: series %d has no data", c.ID.String(), i)
				}
			}
			if c.ChartID != "pb_"+c.ID.String() {
				t.Errorf("%s: chart id %q", c.ID.String(), c.ChartID)
			}
		}
	}
}

// TestEveryBackendEveryFigure: the figures drawn by plot, the charts of
// echarts and the catalogue are the same set of ids, in the same order.
func TestEveryBackendEveryFigure(t *testing.T) {
	for _, r := range []*report.Report{figtest.Fixture(), figtest.FixtureAt([]int{1, 3, 5, 20})} {
		specs := figures.Catalogue(r)
		var cat, ech, stat []string
		for _, s := range specs {
			cat = append(cat, s.ID.String())
		}
		for _, c := range options(t, r) {
			ech = append(ech, c.ID.String())
		}
		files, err := plot.Render(specs, plot.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if id, ok := strings.CutSuffix(strings.TrimPrefix(f.Name, plot.Dir), ".svg"); ok {
				stat = append(stat, id)
			}
		}
		if strings.Join(cat, " ") != strings.Join(ech, " ") || strings.Join(cat, " ") != strings.Join(stat, " ") {
			t.Errorf("catalogue\n%v\necharts\n%v\nplot\n%v", cat, ech, stat)
		}
	}
}

// TestTooltips: the tooltips the issue asks for reach the chart: the
// threshold of ROC and PR points, count and observed frequency per
// reliability bin, the exact K per histogram bar; and the others of
// docs/figures.md.
func TestTooltips(t *testing.T) {
	by := map[string]string{}
	for _, c := range options(t, figtest.Fixture()) {
		by[c.ID.String()] = strings.Join(tooltips(t, c.ID.String(), c.Option), "\n")
		if c.ID.String() == "difficulty_sys_a" && !strings.Contains(string(c.Option), "Spearman ρ = -0.608, p = 0.062") {
			t.Errorf("%s: no rho and p in the subtitle", c.ID.String())
		}
	}
	for _, tc := range []struct{ id, want string }{
		{"roc_sys_a", "Full sample: threshold 0.7; FPR 0.1; TPR 0.7"},
		{"roc_sys_a", "Full sample: threshold +inf; FPR 0; TPR 0"},
		{"roc_sys_a", "FPR budget 0.05: held-out FPR 0.075; held-out TPR 0.4"},
		{"roc_overlay", "(AUROC 0.800): threshold 0.7; FPR 0.1; TPR 0.7"},
		{"pr_sys_a", "Full sample: threshold 0.6; recall 0.7; precision 0.5"},
		{"pr_overlay", "threshold 0.6; recall 0.7; precision 0.5"},
		{"reliability_sys_a", "Bins: bin [0.2, 0.4); queries 10; observed frequency 0.2; Wilson 95% low 0.057; Wilson 95% high 0.51; mean p 0.3"},
		{"reliability_sys_a", "Queries per bin: bin [0.2, 0.4), queries 10, observed frequency 0.200, Wilson 95% low 0.057, Wilson 95% high 0.510"},
		{"decision_curve_sys_a", "threshold 0.3; net benefit 0.12"},
		{"dynk_hist_sys_a", "All queries (n = 40): K 3, queries 12"},
		{"gamma_sweep_sys_a", "Sweep point: gamma 0.8; mean K 2.6; evidence recall 0.7; evidence precision 0.4; workload per 1,000 queries 2600"},
		{"difficulty_sys_a", "Positive queries: difficulty 4; Recall@10 0.5; queries 2"},
		{"gate_grid_alert_precision_sys_a", "Alert precision: 0.6; tau_neg 0.5; tau_pos 0.5"},
		{"criteria_auroc_sys_a", "AUROC: criterion A.1, AUROC 0.750, CI low 0.650, CI high 0.850"},
	} {
		if !strings.Contains(by[tc.id], tc.want) {
			t.Errorf("chart %s: no %q in\n%s", tc.id, tc.want, by[tc.id])
		}
	}
}

// TestEscaping: hostile labels reach the option JSON with '<', '>' and '&'
// escaped, so the option can sit in a <script type="application/json">
// element of the page.
func TestEscaping(t *testing.T) {
	r := figtest.Fixture()
	r.Systems[0].Label = `</script><script>alert(1)</script>`
	r.Dataset.Criteria[0] = `"><img src=x onerror=alert(1)>`
	for _, c := range options(t, r) {
		for _, raw := range []string{"<", ">", "&"} {
			if bytes.Contains(c.Option, []byte(raw)) {
				t.Errorf("%s: raw %q in the option", c.ID.String(), raw)
			}
		}
		var doc any
		if err := json.Unmarshal(c.Option, &doc); err != nil {
			t.Fatal(err)
		}
	}
	cs := options(t, r)
	if !bytes.Contains(cs[0].Option, []byte(`\u003c/script\u003e\u003cscript\u003ealert(1)`)) {
		t.Errorf("%s: the label is not there, escaped", cs[0].ID)
	}
}

// TestDeterminism: the same report gives the same option bytes, on one
// goroutine or several.
func TestDeterminism(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	a := options(t, figtest.Fixture())
	runtime.GOMAXPROCS(2)
	b := options(t, figtest.Fixture())
	runtime.GOMAXPROCS(prev)
	if len(a) != len(b) {
		t.Fatalf("%d charts, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].ChartID != b[i].ChartID || !bytes.Equal(a[i].Option, b[i].Option) {
			t.Errorf("chart %s differs between two builds", a[i].ID)
		}
	}
}

// TestBadSpec: an invalid id, a NaN or an infinity is an error, never an
// option.
func TestBadSpec(t *testing.T) {
	if _, err := echarts.Options([]figures.Spec{{ID: figures.FigureID{Kind: figures.KindROC, System: "Bad-ID"}, Panels: []figures.Panel{{}}}}); err == nil {
		t.Error("no error for an invalid id")
	}
	nan := figures.Spec{ID: figures.FigureID{Kind: figures.KindSystems}, Panels: []figures.Panel{{Elements: []figures.Element{
		&figures.Scatter{Points: []figures.Weighted{{X: math.NaN(), Y: 1, N: 1}}}}}}}
	if _, err := echarts.Options([]figures.Spec{nan}); err == nil {
		t.Error("no error for NaN")
	}
	// A NaN or an infinity inside a long line, which the simplification
	// would leave out, is an error too.
	long := make([]figures.XY, 1000)
	for i := range long {
		long[i] = figures.XY{X: float64(i) / 1000, Y: 0.5}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		seg := append([]figures.XY(nil), long...)
		seg[500].Y = bad
		sp := figures.Spec{ID: figures.FigureID{Kind: figures.KindROC, System: "bad"}, Panels: []figures.Panel{{X: figures.Axis{Fixed: true, Max: 1}, Y: figures.Axis{Fixed: true, Max: 1},
			Elements: []figures.Element{&figures.Line{Name: "l", Segments: [][]figures.XY{seg}}}}}}
		if _, err := echarts.Options([]figures.Spec{sp}); err == nil {
			t.Errorf("no error for %v in a long line", bad)
		}
	}
	dup := figures.Spec{ID: figures.FigureID{Kind: figures.KindSystems}, Panels: []figures.Panel{{}}}
	if _, err := echarts.Options([]figures.Spec{dup, dup}); err == nil {
		t.Error("no error for a duplicate id")
	}
}

// BenchmarkOptionsDemo builds the options of the demo report and reports
// their bytes (all charts, and without the per-query heat maps).
func BenchmarkOptionsDemo(b *testing.B) {
	specs := figures.Catalogue(figtest.Demo(b))
	b.ResetTimer()
	var cs []echarts.Chart
	for b.Loop() {
		var err error
		if cs, err = echarts.Options(specs); err != nil {
			b.Fatal(err)
		}
	}
	all, page := 0, 0
	for _, c := range cs {
		all += len(c.Option)
		if !strings.HasPrefix(c.ID.String(), "per_query_heatmap_") {
			page += len(c.Option)
		}
	}
	b.ReportMetric(float64(all), "option-bytes")
	b.ReportMetric(float64(page), "option-bytes-without-heatmaps")
}

// tooltips returns the tooltip of every item of a chart as echarts shows
// it, one string per item: the series name, then the lines of the
// tooltip, separated by "; ". It follows echarts 5's rules for the forms
// the options use: the template "{a}<br/>{b}" shows the item name (an
// object's name, or the value dimension encode.itemName names); no
// template and named dimensions show the item name, then each dimension of
// encode.tooltip as "displayName value". Series with the template "{a}"
// (name only) and series without any of these are left out.
func tooltips(t *testing.T, id string, option []byte) []string {
	t.Helper()
	var doc struct {
		Series []struct {
			Name    string `json:"name"`
			Data    []any  `json:"data"`
			Tooltip *struct {
				Formatter string `json:"formatter"`
			} `json:"tooltip"`
			Encode *struct {
				ItemName *int `json:"itemName"`
				Tooltip  []int
			} `json:"encode"`
			Dimensions []struct {
				Name, DisplayName, Type string
			} `json:"dimensions"`
		} `json:"series"`
	}
	if err := json.Unmarshal(option, &doc); err != nil {
		t.Fatal(err)
	}
	text := func(v any) string {
		switch v := v.(type) {
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case string:
			return v
		}
		return fmt.Sprint(v)
	}
	var out []string
	for si, s := range doc.Series {
		for di, item := range s.Data {
			row, _ := item.([]any)
			obj, _ := item.(map[string]any)
			if v, ok := obj["value"].([]any); ok {
				row = v // an item object whose value holds the dimensions
			}
			dim := func(k int) string {
				if k < 0 || k >= len(row) {
					t.Errorf("%s: series %d (%s), item %d: no dimension %d in %v", id, si, s.Name, di, k, item)
					return ""
				}
				return text(row[k])
			}
			name := ""
			switch {
			case obj != nil:
				name, _ = obj["name"].(string)
			case s.Encode != nil && s.Encode.ItemName != nil:
				name = dim(*s.Encode.ItemName)
			}
			switch {
			case s.Tooltip != nil && s.Tooltip.Formatter == "{a}":
			case s.Tooltip != nil && s.Tooltip.Formatter == "{a}<br/>{b}":
				if name == "" {
					t.Errorf("%s: series %d (%s), item %d: empty tooltip", id, si, s.Name, di)
				}
				out = append(out, s.Name+": "+name)
			case s.Tooltip != nil:
				t.Errorf("%s: series %d (%s): formatter %q", id, si, s.Name, s.Tooltip.Formatter)
			case len(s.Dimensions) > 0:
				lines := []string{}
				if name != "" {
					lines = append(lines, name)
				}
				if s.Encode == nil || len(s.Encode.Tooltip) == 0 {
					t.Errorf("%s: series %d (%s): dimensions without encode.tooltip", id, si, s.Name)
					continue
				}
				for _, k := range s.Encode.Tooltip {
					if k >= len(s.Dimensions) || s.Dimensions[k].DisplayName == "" {
						t.Errorf("%s: series %d (%s): tooltip dimension %d has no name", id, si, s.Name, k)
						continue
					}
					lines = append(lines, s.Dimensions[k].DisplayName+" "+dim(k))
				}
				out = append(out, s.Name+": "+strings.Join(lines, "; "))
			}
		}
	}
	return out
}

// TestTooltipsDemo: on the demo report (when its bundle has been built)
// every ROC and PR curve point shows its threshold, every reliability bin
// its count and observed frequency, and every histogram bar its exact K
// and count, equal to the bar.
func TestTooltipsDemo(t *testing.T) {
	r := demoReport(t)
	checked := map[string]int{}
	for _, c := range options(t, r) {
		tips := tooltips(t, c.ID.String(), c.Option)
		var doc struct {
			Series []struct {
				Name string
				Type string
				Data []any
			}
			XAxis []struct{ Data []string } `json:"xAxis"`
		}
		if err := json.Unmarshal(c.Option, &doc); err != nil {
			t.Fatal(err)
		}
		has := func(sub string) int {
			n := 0
			for _, tp := range tips {
				if strings.Contains(tp, sub) {
					n++
				}
			}
			return n
		}
		switch {
		case strings.HasPrefix(c.ID.String(), "roc_") || strings.HasPrefix(c.ID.String(), "pr_"):
			checked["curves"]++
			n := 0
			for _, s := range doc.Series {
				if s.Type == "line" && (s.Name == "Full sample" || strings.Contains(s.Name, "(AUROC ") || strings.Contains(s.Name, "(AP ")) {
					n += len(s.Data)
				}
			}
			if n == 0 || has(": threshold ") != n {
				t.Errorf("%s: %d curve points, %d tooltips with a threshold", c.ID.String(), n, has(": threshold "))
			}
		case strings.HasPrefix(c.ID.String(), "reliability_"):
			checked["reliability"]++
			if has(", queries ") < 2 || has(", observed frequency ") < 2 {
				t.Errorf("%s: bins without count and observed frequency: %q", c.ID.String(), tips)
			}
		case strings.HasPrefix(c.ID.String(), "dynk_hist"):
			re := regexp.MustCompile(`^K (\d+), queries ([\d,]+)$`)
			for _, s := range doc.Series {
				if s.Type != "bar" {
					continue
				}
				checked["histograms"]++
				for j, item := range s.Data {
					o := item.(map[string]any)
					m := re.FindStringSubmatch(o["name"].(string))
					v, _ := o["value"].(float64)
					if m == nil || m[1] != doc.XAxis[0].Data[j] || strings.ReplaceAll(m[2], ",", "") != strconv.Itoa(int(v)) {
						t.Errorf("%s: bar %d (K = %s, %v): tooltip %q", c.ID.String(), j, doc.XAxis[0].Data[j], v, o["name"])
					}
				}
			}
		}
	}
	if checked["curves"] == 0 || checked["reliability"] == 0 || checked["histograms"] == 0 {
		t.Errorf("checked %v", checked)
	}
	t.Logf("checked %v", checked)
}

// Budgets of the option bytes. The page embeds every chart but the
// per-query heat maps (the primary system's at most): about 1 MB in all.
const (
	fixtureBudget = 90_000    // the hand-built fixture, 33 charts
	demoBudget    = 1_000_000 // the demo report without per-query heat maps
	heatBudget    = 200_000   // one per-query heat map of the demo (1,477 x 10 cells)
)

// sizes logs the total option bytes and the largest charts.
func sizes(t *testing.T, cs []echarts.Chart) (total, heat int) {
	t.Helper()
	byID := append([]echarts.Chart(nil), cs...)
	sort.SliceStable(byID, func(i, j int) bool { return len(byID[i].Option) > len(byID[j].Option) })
	for _, c := range cs {
		if strings.HasPrefix(c.ID.String(), "per_query_heatmap_") {
			heat += len(c.Option)
			if len(c.Option) > heatBudget {
				t.Errorf("%s: %d bytes, budget %d", c.ID.String(), len(c.Option), heatBudget)
			}
			continue
		}
		total += len(c.Option)
	}
	t.Logf("%d charts: %d bytes, and %d in per-query heat maps", len(cs), total, heat)
	for _, c := range byID[:min(10, len(byID))] {
		t.Logf("  %-45s %7d", c.ID.String(), len(c.Option))
	}
	return total, heat
}

// TestSize: the options of the fixture and of the demo report (its
// bundle's metrics_master.json, when built; then the demo computed, with
// per-query data, unless -short) stay within their budgets.
func TestSize(t *testing.T) {
	t.Run("fixture", func(t *testing.T) {
		if n, h := sizes(t, options(t, figtest.Fixture())); n+h > fixtureBudget {
			t.Errorf("fixture: %d bytes, budget %d", n+h, fixtureBudget)
		}
	})
	t.Run("bundle", func(t *testing.T) {
		if n, _ := sizes(t, options(t, demoReport(t))); n > demoBudget {
			t.Errorf("demo bundle: %d bytes, budget %d", n, demoBudget)
		}
	})
	t.Run("computed", func(t *testing.T) {
		if testing.Short() {
			t.Skip("computes the demo report")
		}
		if n, _ := sizes(t, options(t, figtest.Demo(t))); n > demoBudget {
			t.Errorf("demo: %d bytes, budget %d", n, demoBudget)
		}
	})
}

// darkBackground is echarts 5's 'dark' theme background.
const darkBackground = "#100c2a"

// TestThemeNeutral: the options read in echarts' default and 'dark'
// themes: no black or dark-grey text or line colour (#000, #333, black,
// ...), no white, no background but a transparent one, and every colour
// that draws data (series, lines, markers, bands, labels) with at least
// 2.2:1 contrast on white and 3:1 on the dark theme's background. The
// heat maps' viridis scale (visualMap) is a data scale and exempt.
func TestThemeNeutral(t *testing.T) {
	hex := regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	dark := regexp.MustCompile(`(?i)^(#000|#000000|#111|#111111|#222|#222222|#333|#333333|#444|#444444|black)$`)
	for _, c := range options(t, figtest.Fixture()) {
		var doc map[string]any
		if err := json.Unmarshal(c.Option, &doc); err != nil {
			t.Fatal(err)
		}
		if bg, ok := doc["backgroundColor"]; ok && bg != "transparent" {
			t.Errorf("%s: backgroundColor %v", c.ID.String(), bg)
		}
		delete(doc, "visualMap")
		walk(doc, c.ID.String(), func(path string, v any) {
			s, ok := v.(string)
			key := path[strings.LastIndexAny(path, ".]")+1:]
			isColor := strings.Contains(strings.ToLower(key), "color") ||
				strings.Contains(path, ".color[") || strings.HasSuffix(path, ".color")
			if !ok || !isColor {
				return
			}
			switch {
			case strings.HasSuffix(path, "backgroundColor"):
				if s != "transparent" {
					t.Errorf("%s: %q", path, s)
				}
			case s == "transparent":
			case dark.MatchString(s):
				t.Errorf("%s: dark colour %q vanishes on a dark page", path, s)
			case !hex.MatchString(s):
				t.Errorf("%s: colour %q is not #rrggbb", path, s)
			default:
				if w, d := contrast(s, "#ffffff"), contrast(s, darkBackground); w < 2.2 || d < 3 {
					t.Errorf("%s: %s has contrast %.2f on white, %.2f on %s", path, s, w, d, darkBackground)
				}
			}
		})
	}
}

// contrast is the WCAG contrast ratio of two #rrggbb (or #rgb) colours.
func contrast(a, b string) float64 {
	lum := func(h string) float64 {
		h = strings.TrimPrefix(h, "#")
		if len(h) == 3 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		var l float64
		for i, w := range []float64{0.2126, 0.7152, 0.0722} {
			v, _ := strconv.ParseUint(h[2*i:2*i+2], 16, 8)
			c := float64(v) / 255
			if c <= 0.04045 {
				c /= 12.92
			} else {
				c = math.Pow((c+0.055)/1.055, 2.4)
			}
			l += w * c
		}
		return l
	}
	la, lb := lum(a), lum(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// TestLongCategoriesTurn: the criterion charts turn their category names
// by 30° and show every one when the names would not fit side by side,
// and leave short names level. The fixture's criteria are short; the long
// case renames them as a user's long criterion names would be.
func TestLongCategoriesTurn(t *testing.T) {
	turned := func(r *report.Report) map[string]bool {
		out := map[string]bool{}
		for _, c := range options(t, r) {
			var doc struct {
				XAxis []struct {
					Type      string `json:"type"`
					AxisLabel *struct {
						Rotate   float64 `json:"rotate"`
						Interval string  `json:"interval"`
					} `json:"axisLabel"`
				} `json:"xAxis"`
			}
			if err := json.Unmarshal(c.Option, &doc); err != nil {
				t.Fatal(err)
			}
			for _, x := range doc.XAxis {
				if x.Type == "category" && x.AxisLabel != nil && x.AxisLabel.Rotate == 30 && x.AxisLabel.Interval == "0" {
					out[c.ID.String()] = true
				}
			}
		}
		return out
	}
	r := figtest.Fixture()
	if got := turned(r); len(got) != 0 {
		t.Errorf("short criterion names turned in %v", got)
	}
	r = figtest.Fixture()
	for i, old := range r.Dataset.Criteria {
		name := fmt.Sprintf("Criterion %d: depressed mood most of the day", i+1)
		r.Dataset.Criteria[i] = name
		for j := range r.Metrics {
			if r.Metrics[j].Slice == report.Slice("criterion="+old) {
				r.Metrics[j].Slice = report.Slice("criterion=" + name)
			}
		}
	}
	got := turned(r)
	if len(got) == 0 {
		t.Fatal("long criterion names are not turned in any chart")
	}
	for id := range got {
		if !strings.HasPrefix(id, "criteria_") {
			t.Errorf("%s: turned, expected only the criterion charts", id)
		}
	}
}
