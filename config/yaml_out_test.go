package config

import (
	"bytes"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"paperbundle/internal/golden"
)

// roundTrip checks that c.YAML() reads back to c and writes the same bytes.
func roundTrip(t *testing.T, c *Config) []byte {
	t.Helper()
	out, err := c.YAML()
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	back, err := Parse(c.File, out, c.Dir)
	if err != nil {
		t.Fatalf("Parse(YAML()) failed: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip changed the Config\n got: %+v\nwant: %+v\n%s", back, c, out)
	}
	again, err := back.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("YAML is not stable:\n%s\n---\n%s", out, again)
	}
	return out
}

func TestYAMLRoundTrip(t *testing.T) {
	for _, name := range []string{"paper_spec.yaml", "paper_trec.yaml", "paper_anchors.yaml"} {
		t.Run(name, func(t *testing.T) {
			c, err := Parse("paper.yaml", mustRead(t, name), "/d")
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, c)
		})
	}

	t.Run("awkward strings and numbers", func(t *testing.T) {
		c := Default()
		c.File, c.Dir = "paper.yaml", "/d"
		c.Title = "Title with: colon, # hash, 'quotes', \"dq\", % and _ and\nnew line, trailing space "
		c.Version = "v10.0.1"
		c.Out = " lead space/out"
		c.Seed = 18446744073709551615
		labels := []string{"yes", "10", "null", "~", "- dash", "@at", "`tick", "<script>alert(1)</script>",
			"=cmd|' /C calc'!A0", "ünïcödé — ✓", "a\tb", "{x}", "[y]", "*star", "&amp", "!bang", "true", "0x1F", "1e3", ".inf", "multi\nline"}
		for i, l := range labels {
			c.Systems = append(c.Systems, System{Name: "s" + string(rune('a'+i)), Label: l, Input: "in put/" + l + ".csv"})
		}
		c.ReferenceSystem = "sb"
		c.Cutoffs = []int{1, 1000000}
		c.FPRTargets = []float64{1e-07, 0.1, 0.30000000000000004, 0.9999999999}
		c.DynamicK.Sweep = []float64{1}
		c.Gate = Gate{ScreenSensitivity: 1, AlertPrecision: 5e-324}
		c.Strata = Strata{Bands: []Band{{1, 1}, {2, 100}, {101, -1}}}
		c.Bundle = BundleOpts{CopyInputs: false}
		c.Targets = Targets{Bounds: map[string]Target{
			"ne.tpr@fpr=0.05":   {Min: f64(math.Copysign(0, -1)), Max: f64(1e300)},
			"clinical.a_b@10":   {Max: f64(-2)},
			"rank.ndcg@1000000": {Min: f64(1)},
		}}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, c)
	})
}

func TestYAMLGolden(t *testing.T) {
	c, err := Parse("paper.yaml", mustRead(t, "paper_trec.yaml"), "/d")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "config_trec.golden"), got)
}

func TestMarshalYAML(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{Strata{Auto: true}, "auto\n"},
		{Strata{Bands: LTRBands()}, "- [3, 10]\n- [11, 50]\n- [51, null]\n"},
		{Targets{Default: true}, "contract\n"},
		{Targets{}, "none\n"},
		{Targets{Bounds: map[string]Target{"rank.recall@10": {Min: f64(0.9)}, "ne.ece": {Max: f64(0.05)}}},
			"ne.ece: {max: 0.05}\nrank.recall@10: {min: 0.9}\n"},
	} {
		var buf bytes.Buffer
		enc := yamlEncoder(&buf)
		if err := enc.Encode(tc.v); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != tc.want {
			t.Errorf("Marshal(%+v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func yamlEncoder(w io.Writer) *yaml.Encoder {
	e := yaml.NewEncoder(w)
	e.SetIndent(2)
	return e
}
