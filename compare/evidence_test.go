package compare

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/report/paired"
)

// classifierDataset is a classifier-only table (query_id, post_id, fold,
// label and a score, no candidates): 400 queries, two per post, five
// folds. shift moves the positives' scores up (a better classifier);
// prob says whether the score is ne_prob (a probability) or ne_score.
func classifierDataset(shift float64, prob bool) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(5, 6))
	noise := rand.New(rand.NewPCG(11, 12))
	ds := &dataset.Dataset{HasPosts: true, HasFolds: true, HasNEScore: true, HasNEProb: prob}
	var rows []dataset.Row
	for i := range 400 {
		y := rng.Float64() < 0.35
		base := rng.NormFloat64() - 0.3
		if y {
			base += 1.1 + shift
		}
		s := base + 0.5*noise.NormFloat64()
		ds.Queries = append(ds.Queries, dataset.Query{ID: fmt.Sprintf("q%03d", i), Post: fmt.Sprintf("p%03d", i/2), Fold: (i / 2) % 5, Split: dataset.SplitEval, Label: y})
		r := dataset.Row{NEScore: 3 * s, HasNEScore: true}
		if prob {
			p := math.Round(1e4/(1+math.Exp(-s))) / 1e4
			r.NEProb, r.HasNEProb, r.NEScore = p, true, p
		}
		rows = append(rows, r)
	}
	ds.Systems = []dataset.System{{Name: "clf", Label: "Classifier", Rows: rows}}
	return ds
}

func classifierReport(t *testing.T, version string, shift float64, prob bool) *report.Report {
	t.Helper()
	cfg := config.Default()
	cfg.Systems = []config.System{{Name: "clf", Label: "Classifier", Input: "clf.csv"}}
	cfg.Bootstrap.Resamples = 200
	cfg.FPRTargets = []float64{0.05, 0.1}
	r, err := report.Compute(context.Background(), cfg, classifierDataset(shift, prob), report.Options{Version: version, Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return throughCSV(t, r)
}

// TestClassifierOnlyDiff: between two classifier-only bundles (a
// probability, then a score that is not one), every changed ne.* row is
// tested from the per-query evidence (its labels come from the table's
// label column, not from gold it does not have): DeLong for AUROC, the
// permutation test for the Brier score, the paired bootstrap for the
// rest; none is untested. A p-value, a threshold or a fitted parameter is
// listed.
func TestClassifierOnlyDiff(t *testing.T) {
	t.Parallel()
	for _, prob := range []bool{true, false} {
		a, b := classifierReport(t, "v1", 0, prob), classifierReport(t, "v2", 0.8, prob)
		c, err := Diff(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Mode != ModePaired {
			t.Fatalf("prob %t: mode %s (%s)", prob, c.Mode, c.Why)
		}
		tested := 0
		for _, r := range c.Rows {
			if !strings.HasPrefix(string(r.ID), "ne.") || r.Verdict == Unchanged || r.Verdict == Listed {
				continue
			}
			tested++
			want := TestBootstrap
			switch metrics.TestOf(r.ID) {
			case metrics.TestDeLong:
				want = TestDeLong
			case metrics.TestMean:
				want = TestPermutation
			}
			if r.Test != want || r.Verdict == Untested || r.Pairs == 0 {
				t.Errorf("prob %t: %s %s: %s %s (%s), want %s", prob, r.ID, r.Slice, r.Test, r.Verdict, r.Reason, want)
			}
		}
		if tested < 10 {
			t.Errorf("prob %t: %d ne.* rows tested, want the classifier's metrics", prob, tested)
		}
		auroc := rowsByKey(c)[key{"ne.auroc", report.Whole}]
		if auroc.Test != TestDeLong || auroc.Verdict != Significant || auroc.Pairs != 400 {
			t.Errorf("prob %t: auroc %s %s on %d pairs", prob, auroc.Test, auroc.Verdict, auroc.Pairs)
		}
	}
}

// TestEvidenceReproduces: every value a paired test resamples, recomputed
// from the per-query evidence at unit weights (paired.Recompute), is the
// bundle's value: the tests test the bundle's statistic. This replaces a
// run-time guard that turned a disagreement into an untested row.
func TestEvidenceReproduces(t *testing.T) {
	t.Parallel()
	for _, r := range []*report.Report{classifierReport(t, "v1", 0, true), classifierReport(t, "v1", 0, false)} {
		rows := map[string][]int{}
		for i, q := range r.PerQuery {
			rows[q.System] = append(rows[q.System], i)
		}
		checked := 0
		for _, m := range r.Metrics {
			k := metrics.TestOf(m.ID)
			if m.Slice != report.Whole || !m.Value.Valid() || k == metrics.TestBootstrap || k == metrics.TestListed {
				continue
			}
			got, reason := paired.Recompute(m.ID, r.PairedSide(m.ID, m.System, rows[m.System]))
			if reason != "" {
				continue // what the evidence does not hold (hit@10 in the fixture)
			}
			checked++
			if v := float64(m.Value); math.Abs(got-v) > 1e-9*max(1, math.Abs(v)) {
				t.Errorf("%s %s: recomputed %v, bundle %v", m.System, m.ID, got, v)
			}
		}
		if checked < 5 {
			t.Errorf("%d metrics recomputed", checked)
		}
	}
}
