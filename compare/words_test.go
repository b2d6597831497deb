package compare

import (
	"regexp"
	"strings"
	"testing"

	"paperbundle/report"
)

// TestWordsOfTheKind: the writers speak bundle B's words (a classifier's
// classifiers and cases), and leave the user's text as written: a system
// label "gold post system" stays in every format, while the column
// head, the basis line, the claims and the dataset changes say
// classifier and cases.
func TestWordsOfTheKind(t *testing.T) {
	a, b := throughCSV(t, fixture(false)), throughCSV(t, fixture(true))
	for _, r := range []*report.Report{a, b} {
		r.Settings.InputKind = report.KindClassifier
		r.Systems[0].Label = "gold post system"
	}
	b.Dataset.PositiveQueries = a.Dataset.PositiveQueries + 1
	c, err := Diff(a, b, Options{Permutations: 200, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	banned := regexp.MustCompile(`(?i)\b(systems?|quer(y|ies)|posts?|gold|criterion)\b`)
	for _, f := range []string{FormatText, FormatMD, FormatHTML} {
		var w strings.Builder
		if err := c.Write(&w, f, WriteOptions{All: true, Primary: "full"}); err != nil {
			t.Fatal(err)
		}
		out := w.String()
		for _, want := range []string{"gold post system", "classifier", "the same eval cases", "positive cases: "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", f, want, out)
			}
		}
		// The user's label aside, no evidence-retrieval word is left.
		for _, line := range strings.Split(strings.ReplaceAll(out, "gold post system", ""), "\n") {
			if m := banned.FindString(line); m != "" && !strings.Contains(line, "rank.") {
				t.Errorf("%s says %q: %s", f, m, line)
			}
		}
	}
	// Evidence retrieval keeps its own words.
	e := fixtureDiff(t)
	var w strings.Builder
	if err := e.Write(&w, FormatText, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.String(), "  metric ") || !regexp.MustCompile(`\bsystem\b`).MatchString(w.String()) {
		t.Errorf("evidence diff lost its system column:\n%s", w.String())
	}
}
