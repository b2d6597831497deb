package config

import (
	"strings"
	"testing"
)

// TestSampleInRange checks that every configuration SampleYAML writes is
// accepted by the loader: the samples are the documented ranges, ends
// included.
func TestSampleInRange(t *testing.T) {
	n := 0
	for _, k := range Keys() {
		if _, ok := k.Sample(0); ok {
			n++
		}
	}
	if n < 20 {
		t.Fatalf("Sample knows %d keys, want the ranges and enums of the key table (at least 20)", n)
	}
	sawCustom := false
	for seed := range uint64(200) {
		u := seed
		next := func() uint64 { // splitmix64
			u += 0x9E3779B97F4A7C15
			z := (u ^ u>>30) * 0xBF58476D1CE4E5B9
			z = (z ^ z>>27) * 0x94D049BB133111EB
			return z ^ z>>31
		}
		doc := "systems: [{name: a, input: a.csv}]\n" + SampleYAML(next)
		sawCustom = sawCustom || strings.Contains(doc, "column_width")
		if _, err := Parse("paper.yaml", []byte(doc), "/d"); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, doc)
		}
	}
	if !sawCustom {
		t.Error("no sample chose venue custom with its lengths")
	}
}
