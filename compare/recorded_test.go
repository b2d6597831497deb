package compare

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"paperbundle/report"
)

// TestSettingsNotRecorded: a bundle of an older schema lacks settings
// (significance) and config.yaml keys (primary, comparisons) that a newer
// one records: they are "not recorded", never compared with a zero value
// ("significance.alpha: 0 -> 0.05"); and targets: default, the earlier
// spelling of contract, is no change.
func TestSettingsNotRecorded(t *testing.T) {
	newer := fixture(true)
	newer.Settings.Significance = report.SignificanceSettings{Alpha: 0.05, Correction: "holm"}
	js, err := fixture(false).JSON()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	delete(m["settings"].(map[string]any), "significance")
	js, _ = json.Marshal(m)
	older, err := report.Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	cfgA := "title: t\nseed: 7\ntargets: default\nsystems:\n  - {name: full, input: full.csv}\n"
	cfgB := "title: t\nseed: 8\ntargets: contract\nprimary: full\ncomparisons: primary\nsystems:\n  - {name: full, input: full.csv}\n"
	c, err := Diff(older, newer, Options{ConfigA: []byte(cfgA), ConfigB: []byte(cfgB)})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.Write(&b, FormatText, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"significance.alpha: 0 ->", `significance.correction: "" ->`, "targets:", "primary: added", "comparisons: added"} {
		if strings.Contains(out, bad) {
			t.Errorf("diff prints %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"significance.alpha: not recorded in A (B: 0.05)", "primary: not recorded in A", "comparisons: not recorded in A", "seed: 7 -> 8"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
}
