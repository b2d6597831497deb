package echarts_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"sort"
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
				t.Errorf("%s: height %d, title %q", c.ID, c.Height, c.Title)
			}
			var doc any
			if err := json.Unmarshal(c.Option, &doc); err != nil {
				t.Errorf("%s: option is not JSON: %v", c.ID, err)
				continue
			}
			walk(doc, c.ID, func(path string, v any) {
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
					t.Errorf("%s: option contains %q", c.ID, bad)
				}
			}
			m := doc.(map[string]any)
			if len(m["series"].([]any)) == 0 {
				t.Errorf("%s: no series", c.ID)
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
			cat = append(cat, string(s.ID))
		}
		for _, c := range options(t, r) {
			ech = append(ech, c.ID)
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
// threshold of ROC points, count and observed frequency per reliability
// bin, the exact K per histogram bar.
func TestTooltips(t *testing.T) {
	by := map[string]string{}
	for _, c := range options(t, figtest.Fixture()) {
		by[c.ID] = string(c.Option)
	}
	for _, tc := range []struct{ id, want string }{
		{"roc_sys_a", "threshold 0.7: FPR 0.100, TPR 0.700"},
		{"roc_sys_a", "FPR budget 0.05: held-out FPR 0.075, TPR 0.400"},
		{"reliability_sys_a", "bin [0.2, 0.4): 10 queries, observed frequency 0.200"},
		{"dynk_hist_sys_a", "All queries, K = 3: 12 queries"},
		{"gamma_sweep_sys_a", "gamma 0.8: mean K 2.60"},
		{"difficulty_sys_a", "difficulty 4, Recall@10 0.500: 2 queries"},
		{"difficulty_sys_a", "Spearman rho = -0.608, p = 0.062"},
		{"gate_grid_alert_precision_sys_a", "tau_neg 0.5, tau_pos 0.5: alert precision 0.600"},
	} {
		if !strings.Contains(by[tc.id], tc.want) {
			t.Errorf("chart %s: no %q", tc.id, tc.want)
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
				t.Errorf("%s: raw %q in the option", c.ID, raw)
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

// TestBadSpec: an invalid id or a NaN is an error, never an option.
func TestBadSpec(t *testing.T) {
	if _, err := echarts.Options([]figures.Spec{{ID: "Bad-ID", Panels: []figures.Panel{{}}}}); err == nil {
		t.Error("no error for an invalid id")
	}
	nan := figures.Spec{ID: "nan", Panels: []figures.Panel{{Elements: []figures.Element{
		&figures.Scatter{Points: []figures.Weighted{{X: math.NaN(), Y: 1, N: 1}}}}}}}
	if _, err := echarts.Options([]figures.Spec{nan}); err == nil {
		t.Error("no error for NaN")
	}
	dup := figures.Spec{ID: "a", Panels: []figures.Panel{{}}}
	if _, err := echarts.Options([]figures.Spec{dup, dup}); err == nil {
		t.Error("no error for a duplicate id")
	}
}

func BenchmarkOptionsDemo(b *testing.B) {
	specs := figures.Catalogue(figtest.Demo(b))
	b.ResetTimer()
	for b.Loop() {
		if _, err := echarts.Options(specs); err != nil {
			b.Fatal(err)
		}
	}
}
