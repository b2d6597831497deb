package config

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestDefaultTargets(t *testing.T) {
	// Hand-copied from the metric contracts' targets (AUROC, AUPRC, ECE,
	// Brier, evidence recall, screening and alert targets) and from the lower
	// end of their "Good Range" column, as docs/configuration.md "targets"
	// lists them.
	type b struct {
		min, max float64 // NaN: no bound
	}
	nan := math.NaN()
	want := map[string]b{
		"ne.auroc":                    {0.85, nan},
		"ne.auprc":                    {0.55, nan},
		"ne.ece":                      {nan, 0.05},
		"ne.brier":                    {nan, 0.1},
		"ne.tpr@fpr=0.05":             {0.20, nan},
		"dynk.evidence_recall":        {0.70, nan},
		"clinical.screen_sensitivity": {0.995, nan},
		"clinical.screen_fn_per_1000": {nan, 5},
		"clinical.alert_precision":    {0.90, nan},
		"rank.ndcg@10":                {0.85, nan},
		"rank.recall@10":              {0.90, nan},
		"rank.mrr@10":                 {0.80, nan},
	}
	got := DefaultTargets()
	if len(got) != len(want) {
		t.Errorf("DefaultTargets has %d entries, want %d", len(got), len(want))
	}
	same := func(p *float64, x float64) bool {
		if math.IsNaN(x) {
			return p == nil
		}
		return p != nil && *p == x
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok || !same(g.Min, w.min) || !same(g.Max, w.max) {
			t.Errorf("DefaultTargets()[%q] = %v, want min %v max %v", id, g, w.min, w.max)
		}
		if !metricIDRe.MatchString(id) {
			t.Errorf("default target id %q does not match the id syntax", id)
		}
	}
}

func TestTargetFor(t *testing.T) {
	c := Default()
	if _, ok := c.TargetFor("ne.auroc"); ok {
		t.Error("Default() has a target: want targets: none")
	}
	c.Targets = Targets{Default: true} // targets: contract
	if tg, ok := c.TargetFor("ne.auroc"); !ok || tg.Min == nil || *tg.Min != 0.85 {
		t.Errorf("default TargetFor(ne.auroc) = %v, %v", tg, ok)
	}
	if _, ok := c.TargetFor("rank.map@10"); ok {
		t.Error("default TargetFor(rank.map@10) has a target")
	}
	// The returned Target is a copy.
	tg, _ := c.TargetFor("ne.auroc")
	*tg.Min = 0
	if tg2, _ := c.TargetFor("ne.auroc"); *tg2.Min != 0.85 {
		t.Error("TargetFor returns shared bounds")
	}

	c.Targets = Targets{Bounds: map[string]Target{"rank.map@10": {Max: f64(0.5)}}}
	if tg, ok := c.TargetFor("rank.map@10"); !ok || tg.Max == nil || *tg.Max != 0.5 || tg.Min != nil {
		t.Errorf("TargetFor(rank.map@10) = %v, %v", tg, ok)
	}
	if _, ok := c.TargetFor("ne.auroc"); ok {
		t.Error("an explicit table still gives default targets")
	}
	c.Targets = Targets{}
	if _, ok := c.TargetFor("ne.auroc"); ok {
		t.Error("targets: none gives a target")
	}
}

func TestTargetMet(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		t      Target
		v      float64
		met    bool
		wantOK bool
	}{
		{Target{Min: f64(0.85)}, 0.85, true, true}, // bounds are inclusive
		{Target{Min: f64(0.85)}, 0.8499, false, true},
		{Target{Max: f64(0.05)}, 0.05, true, true},
		{Target{Max: f64(0.05)}, 0.0501, false, true},
		{Target{Min: f64(0.2), Max: f64(0.35)}, 0.3, true, true},
		{Target{Min: f64(0.2), Max: f64(0.35)}, 0.4, false, true},
		{Target{Min: f64(0.2), Max: f64(0.35)}, 0.1, false, true},
		{Target{Min: f64(0.85)}, nan, false, false}, // undefined metric: null
		{Target{}, 0.5, false, false},
		{Target{Min: f64(0.5)}, math.Inf(1), true, true},
	} {
		met, ok := tc.t.Met(tc.v)
		if met != tc.met || ok != tc.wantOK {
			t.Errorf("%v.Met(%v) = %v, %v; want %v, %v", tc.t, tc.v, met, ok, tc.met, tc.wantOK)
		}
	}
}

func TestTargetString(t *testing.T) {
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{Min: f64(0.85)}, "≥ 0.85"},
		{Target{Max: f64(5)}, "≤ 5"},
		{Target{Min: f64(0.2), Max: f64(0.35)}, "[0.2, 0.35]"},
		{Target{}, ""},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// TestPairs: which pairs each comparisons mode compares, and the sign
// convention {system, reference} (difference = system − reference).
func TestPairs(t *testing.T) {
	three := []System{{Name: "full"}, {Name: "no_graph"}, {Name: "retriever"}}
	for _, tc := range []struct {
		name    string
		mode    Comparisons
		primary string
		ref     string
		sys     []System
		want    []Pair
	}{
		{"primary first", ComparePrimary, "full", "", three, []Pair{{0, 1}, {0, 2}}},
		{"primary named", ComparePrimary, "no_graph", "", three, []Pair{{1, 0}, {1, 2}}},
		{"empty mode is primary", "", "", "", three, []Pair{{0, 1}, {0, 2}}},
		{"reference last", CompareReference, "full", "retriever", three, []Pair{{0, 2}, {1, 2}}},
		{"reference first", CompareReference, "full", "full", three, []Pair{{1, 0}, {2, 0}}},
		{"ladder", CompareLadder, "full", "", three, []Pair{{1, 0}, {2, 1}}},
		{"all pairs", CompareAllPairs, "full", "", three, []Pair{{0, 1}, {0, 2}, {1, 2}}},
		{"one system", ComparePrimary, "full", "", three[:1], nil},
	} {
		c := &Config{Systems: tc.sys, Comparisons: tc.mode, Primary: tc.primary, ReferenceSystem: tc.ref}
		if got := c.Pairs(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Pairs() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestComparisonsKeys: the defaults, the resolution of primary and
// reference_system, and the errors of the comparison keys.
func TestComparisonsKeys(t *testing.T) {
	sys := "systems:\n  - {name: a, input: a.csv}\n  - {name: b, input: b.csv}\n  - {name: c, input: c.csv}\n"
	for _, tc := range []struct {
		yaml    string
		mode    Comparisons
		primary string
		ref     string
		err     string
	}{
		{"", ComparePrimary, "a", "", ""},
		{"primary: b\n", ComparePrimary, "b", "", ""},
		{"comparisons: reference\n", CompareReference, "a", "c", ""},
		{"comparisons: reference\nreference_system: b\n", CompareReference, "a", "b", ""},
		// Written before the comparisons key existed: reference_system
		// alone selects comparisons: reference.
		{"reference_system: b\n", CompareReference, "a", "b", ""},
		{"comparisons: ladder\n", CompareLadder, "a", "", ""},
		{"comparisons: ladder\nreference_system: b\n", "", "", "", "paper.yaml:6:19: reference_system: set with comparisons: ladder, expected reference_system only with comparisons: reference"},
		{"comparisons: best\n", "", "", "", `paper.yaml:5:14: comparisons: got "best", expected primary, reference, ladder or all_pairs`},
		{"primary: z\n", "", "", "", `paper.yaml:5:10: primary: got "z", expected the name of a system: a, b, c`},
		{"significance: {alpha: 1.5}\n", "", "", "", "significance.alpha: got 1.5"},
		{"significance: {correction: bonferroni}\n", "", "", "", `significance.correction: got "bonferroni", expected holm or none`},
	} {
		c, err := Parse("paper.yaml", []byte(sys+tc.yaml), "/p")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.yaml, err)
			continue
		}
		if c.Comparisons != tc.mode || c.Primary != tc.primary || c.ReferenceSystem != tc.ref {
			t.Errorf("%q: comparisons %q primary %q reference_system %q, want %q %q %q", tc.yaml, c.Comparisons, c.Primary, c.ReferenceSystem, tc.mode, tc.primary, tc.ref)
		}
		if c.Significance != (Significance{Alpha: 0.05, Correction: CorrectionHolm}) || !slices.Equal(c.OperatingPoints, []float64{0.5}) {
			t.Errorf("%q: significance %+v operating_points %v, want the defaults", tc.yaml, c.Significance, c.OperatingPoints)
		}
		if _, ok := c.TargetFor("rank.recall@10"); ok {
			t.Errorf("%q: a target without targets:, want none by default", tc.yaml)
		}
	}
	for _, spelling := range []string{"contract", "default"} {
		c, err := Parse("paper.yaml", []byte(sys+"targets: "+spelling+"\n"), "/p")
		if err != nil {
			t.Fatal(err)
		}
		if tg, ok := c.TargetFor("rank.recall@10"); !ok || tg.Min == nil || *tg.Min != 0.9 {
			t.Errorf("targets: %s: rank.recall@10 target %v, %v; want the contract's >= 0.9", spelling, tg, ok)
		}
	}
}

func TestResolvePath(t *testing.T) {
	abs := filepath.Join(string(filepath.Separator), "abs", "x.csv")
	for _, tc := range []struct {
		dir, p, want string
	}{
		{"/work/proj", "data/a.csv", filepath.Join("/work/proj", "data", "a.csv")},
		{"/work/proj", "../b.csv", filepath.Join("/work", "b.csv")},
		{"/work/proj", abs, abs},
		{"/work/proj", "", ""},
		{"", "data/a.csv", "data/a.csv"},
		{".", "data/a.csv", filepath.Join("data", "a.csv")},
	} {
		c := &Config{Dir: tc.dir}
		if got := c.ResolvePath(tc.p); got != tc.want {
			t.Errorf("Dir %q: ResolvePath(%q) = %q, want %q", tc.dir, tc.p, got, tc.want)
		}
	}
}

func TestBand(t *testing.T) {
	for _, tc := range []struct {
		b    Band
		str  string
		in   []int
		out  []int
		open bool
	}{
		{Band{4, 7}, "4-7", []int{4, 5, 7}, []int{3, 8}, false},
		{Band{51, -1}, "51+", []int{51, 1000}, []int{50}, true},
		{Band{1, 1}, "1-1", []int{1}, []int{0, 2}, false},
	} {
		if got := tc.b.String(); got != tc.str {
			t.Errorf("%v.String() = %q, want %q", tc.b, got, tc.str)
		}
		if tc.b.Open() != tc.open {
			t.Errorf("%v.Open() = %v", tc.b, tc.b.Open())
		}
		for _, n := range tc.in {
			if !tc.b.Contains(n) {
				t.Errorf("%v.Contains(%d) = false", tc.b, n)
			}
		}
		for _, n := range tc.out {
			if tc.b.Contains(n) {
				t.Errorf("%v.Contains(%d) = true", tc.b, n)
			}
		}
	}
	if got, want := LTRBands(), []Band{{3, 10}, {11, 50}, {51, -1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("LTRBands() = %v, want %v", got, want)
	}
}
