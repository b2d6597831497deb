package compare

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
)

// claimsFixture is a two-system report. In v1 the full pipeline meets its
// screening-sensitivity target (0.9960 >= 0.995), is significantly better
// than the baseline on nDCG@10 (p_holm 0.02 < 0.05) and best on it; in v2
// it misses the target (0.9935), the difference is not significant
// (p_holm 0.111) and the baseline is best (0.82 > 0.80).
func claimsFixture(newer bool) *report.Report {
	v := map[bool]float64{false: 0.9960, true: 0.9935}[newer]
	full := map[bool]float64{false: 0.86, true: 0.80}[newer]
	met := !newer
	r := &report.Report{SchemaVersion: report.SchemaVersion, Version: "v1",
		Systems: []report.SystemInfo{{Name: "full", Label: "Full pipeline", Kind: report.Pipeline, Primary: true},
			{Name: "base", Label: "Retriever only", Kind: report.Pipeline}},
		Settings: report.Settings{HeadlineCutoff: 10, Cutoffs: []int{10}, Significance: report.SignificanceSettings{Alpha: 0.05, Correction: "holm"}},
	}
	if newer {
		r.Version = "v2"
	}
	bound := 0.995
	sens := metric("full", "clinical.screen_sensitivity", report.Whole, v, nan, nan)
	sens.Target, sens.TargetMet = &report.Target{Min: &bound}, &met
	r.Metrics = []report.Metric{
		sens,
		metric("full", "rank.ndcg@10", report.Whole, full, nan, nan),
		metric("base", "rank.ndcg@10", report.Whole, 0.81+0.01*map[bool]float64{false: 0, true: 1}[newer], nan, nan),
	}
	c := report.Comparison{System: "full", Reference: "base", ID: metrics.ID("rank.ndcg@10"), Test: "permutation",
		Diff: 0.05, P: 0.01, PHolm: 0.02}
	if newer {
		c.Diff, c.P, c.PHolm = -0.02, 0.037, 0.111
	}
	r.Comparisons = []report.Comparison{c}
	r.Reindex()
	return r
}

func TestClaims(t *testing.T) {
	c, err := Diff(claimsFixture(false), claimsFixture(true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		kind          ClaimKind
		system, ref   string
		metric        metrics.ID
		before, after string
	}
	want := []short{
		{ClaimTarget, "full", "", "clinical.screen_sensitivity", "met", "not met"},
		{ClaimSignificance, "full", "base", "rank.ndcg@10", "significantly better", "not significant"},
		{ClaimBest, "base", "full", "rank.ndcg@10", "full", "base"},
	}
	if len(c.Claims) != len(want) {
		t.Fatalf("%d claims, want %d: %+v", len(c.Claims), len(want), c.Claims)
	}
	for i, w := range want {
		g := c.Claims[i]
		if (short{g.Kind, g.System, g.Reference, g.Metric, g.Before, g.After}) != w {
			t.Errorf("claim %d = %+v, want %+v", i, g, w)
		}
	}
	sig := c.Claims[1].Text
	for _, s := range []string{"Full pipeline vs Retriever only", "p_holm 0.0200, p 0.0100", "p_holm 0.1110, p 0.0370", "paired permutation test"} {
		if !strings.Contains(sig, s) {
			t.Errorf("significance claim %q lacks %q", sig, s)
		}
	}
	if got := c.Claims[0].Text; !strings.Contains(got, "target ≥ 0.995 met in v1 (0.9960), not met in v2 (0.9935)") {
		t.Errorf("target claim %q", got)
	}

	// Every format lists the claims first; JSON as a top-level list.
	for _, f := range []string{FormatText, FormatMD, FormatHTML, FormatCSV} {
		var b bytes.Buffer
		if err := c.Write(&b, f, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		i, j := strings.Index(out, "Screening sensitivity target"), strings.Index(out, "Headline metrics")
		if f == FormatCSV {
			j = strings.Index(out, "\nboth,")
		}
		if i < 0 || (j >= 0 && j < i) {
			t.Errorf("%s: the claims are not listed first:\n%s", f, out)
		}
		if f != FormatCSV && !strings.Contains(out, "v1") {
			t.Errorf("%s: no column named by version", f)
		}
	}
	var b bytes.Buffer
	if err := c.Write(&b, FormatJSON, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Claims []map[string]any `json:"claims"`
	}
	if err := json.Unmarshal(b.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Claims) != 3 || js.Claims[1]["kind"] != "significance" || js.Claims[1]["reference"] != "base" ||
		js.Claims[1]["before"] != "significantly better" || js.Claims[1]["after"] != "not significant" || js.Claims[0]["metric"] != "clinical.screen_sensitivity" {
		t.Errorf("JSON claims = %v", js.Claims)
	}
	for _, k := range []string{"kind", "system", "reference", "metric", "before", "after"} {
		if _, ok := js.Claims[0][k]; !ok {
			t.Errorf("JSON claim lacks %q: %v", k, js.Claims[0])
		}
	}

	// The same report twice: no claim.
	same, err := Diff(claimsFixture(false), claimsFixture(false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(same.Claims) != 0 {
		t.Errorf("claims between equal reports: %+v", same.Claims)
	}
}

// TestBestTies: a best value that differs from the other system's in its
// last bits is a tie, not a new best system.
func TestBestTies(t *testing.T) {
	a, b := claimsFixture(false), claimsFixture(false)
	b.Version = "v2"
	for i := range a.Metrics {
		if a.Metrics[i].ID == "rank.ndcg@10" {
			a.Metrics[i].Value, b.Metrics[i].Value = 1, report.Num(1-1.1e-16*float64(i%2))
		}
	}
	a.Reindex()
	b.Reindex()
	c, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cl := range c.Claims {
		if cl.Kind == ClaimBest {
			t.Errorf("a tie within rounding made a best claim: %+v", cl)
		}
	}
}
