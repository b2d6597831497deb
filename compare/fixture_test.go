package compare

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/stats"
)

var nan = math.NaN()

// criteria are the fixture's criterion ids: each begins with a character
// a spreadsheet would run as a formula, so per_query_metrics.csv writes
// them with a leading '.
var criteria = []string{"-x", "=x", "+x", "@x"}

const nQueries = 40 // two queries per post, criteria in turn

// vectors are the per-query values of one system in one bundle.
type vectors struct {
	recall, mrr []float64 // recall NaN on the queries without gold
	prob        []float64 // NE probability
}

// gold reports whether query i has gold (every fifth query has none).
func gold(i int) bool { return i%5 != 0 }

// fixtureVectors: in A, recall@10 = (i mod 7)/10 and an uninformative
// probability; in B, recall@10 is 0.3 higher on every positive query, the
// probability ranks the positives first, and mrr moves +1/8 on the two
// queries of the first post only.
func fixtureVectors(newer bool) vectors {
	var v vectors
	for i := range nQueries {
		r, m := float64(i%7)/10, float64(i%4)/8
		p := 0.3 + 0.4*float64((i*7)%nQueries)/nQueries
		if newer {
			r += 0.3
			if i < 2 {
				m += 0.125
			}
			p = 0.2 + 0.01*float64(i%9)
			if gold(i) {
				p += 0.5
			}
		}
		if !gold(i) {
			r = nan
		}
		v.recall, v.mrr, v.prob = append(v.recall, r), append(v.mrr, m), append(v.prob, p)
	}
	return v
}

// selectedK is query i's selected K: i mod 4, one more in B.
func selectedK(i int, newer bool) int {
	if newer {
		return i%4 + 1
	}
	return i % 4
}

// mean is the mean of the defined values of x on the queries where keep
// is true (all when keep is nil).
func mean(x []float64, keep func(i int) bool) float64 {
	s, n := 0.0, 0
	for i, v := range x {
		if !math.IsNaN(v) && (keep == nil || keep(i)) {
			s += v
			n++
		}
	}
	return s / float64(n)
}

func metric(system string, id metrics.ID, slice report.Slice, v, lo, hi float64) report.Metric {
	m := report.Metric{System: system, ID: id, Slice: slice, N: nQueries, Value: report.Num(v), FoldMean: report.NaN, FoldStd: report.NaN}
	if !math.IsNaN(lo) {
		m.CI = &report.CI{Low: report.Num(lo), High: report.Num(hi), Method: "percentile", Unit: "post", Resamples: 1000}
	}
	return m
}

// fixture returns bundle A (v1) or B (v2): one system "full" with
// per-query rows (recall@10 and capped_recall@10 with identical values,
// mrr) and metrics whose values are the means of those rows.
func fixture(newer bool) *report.Report {
	v := fixtureVectors(newer)
	r := &report.Report{SchemaVersion: report.SchemaVersion, Version: "v1",
		Dataset: report.DatasetSummary{EvalQueries: nQueries, Posts: nQueries / 2, Criteria: criteria},
		Systems: []report.SystemInfo{{Name: "full", Label: "Full pipeline", Kind: report.Pipeline, Primary: true}},
		Settings: report.Settings{HeadlineCutoff: 10, Cutoffs: []int{1, 10}, Seed: 7, GammaSweep: []float64{0.9},
			Bootstrap:   report.BootstrapSettings{Resamples: 1000, Unit: "post", Method: "percentile", Confidence: 0.95},
			Calibration: report.CalibrationSettings{Bins: 10, Strategy: "uniform"},
			Conventions: report.Conventions{MAPDenominator: "gold", FoldStd: "sample"}},
		PerQueryColumns: []metrics.ID{"rank.recall@10", "rank.capped_recall@10", "rank.mrr", "dynk.k_mean"},
		PerQueryFields:  report.EvidenceFields{Label: true, Criteria: true, Candidates: true, Score: report.ScoreProb, State: true, SelectedK: true},
	}
	if newer {
		r.Version, r.Settings.Seed, r.Settings.Conventions.FoldStd = "v2", 8, "population"
	}
	for i := range nQueries {
		ng := 0
		if gold(i) {
			ng = 2
		}
		// Gate states: in A every third query is sent to NEG, the rest are
		// UNCERTAIN; in B the positive queries are POS, the others NEG.
		state := dataset.StateUncertain
		switch {
		case newer && gold(i):
			state = dataset.StatePOS
		case newer || i%3 == 0:
			state = dataset.StateNEG
		}
		k := selectedK(i, newer)
		r.PerQuery = append(r.PerQuery, report.Evidence{System: "full", Query: fmt.Sprintf("q%02d", i), Post: fmt.Sprintf("p%02d", i/2),
			Criterion: criteria[i%4], Label: gold(i), NGold: ng, NCand: 10, Difficulty: report.NaN, Score: report.Num(v.prob[i]), State: state, SelectedK: k,
		}.WithValues(report.Num(v.recall[i]), report.Num(v.recall[i]), report.Num(v.mrr[i]), report.Num(k)))
	}
	rec := mean(v.recall, nil)
	// The classifier metrics are the statistics of the probabilities and
	// labels above (the kernels are tested against scikit-learn in stats).
	var ys []bool
	for i := range nQueries {
		ys = append(ys, gold(i))
	}
	scored := stats.NewScored(ys, v.prob)
	// Recall's intervals are disjoint between A and B, capped recall's
	// overlap: only a CI-overlap rule would judge them differently.
	recLo, capLo := rec-0.1, rec-0.25
	r.Metrics = []report.Metric{
		metric("full", "rank.mrr", report.Whole, mean(v.mrr, nil), nan, nan),
		metric("full", "rank.recall@10", report.Whole, rec, recLo, recLo+0.2),
		metric("full", "rank.capped_recall@10", report.Whole, rec, capLo, capLo+0.5),
		metric("full", "rank.hit@10", report.Whole, map[bool]float64{false: 0.6, true: 0.8}[newer], 0.5, 0.9),
		metric("full", "ne.auroc", report.Whole, scored.AUROC(nil), nan, nan),
		metric("full", "ne.auprc", report.Whole, scored.AP(nil), nan, nan),
		metric("full", "rank.spearman_difficulty_p@1", report.Whole, map[bool]float64{false: 0.03, true: 0.2}[newer], nan, nan),
		metric("full", "ne.ece", report.Whole, map[bool]float64{false: 0.1, true: 0.1}[newer], nan, nan), // unchanged: not tested
		metric("full", "ne.sensitivity@tau=0.5", report.Whole, map[bool]float64{false: 0.5, true: 1}[newer], nan, nan),
		// Screening sensitivity, by hand: 32 positive queries; in A, 11 of
		// them (multiples of 3 that are not multiples of 15) are NEG, so
		// 21/32; in B none, so 1.
		metric("full", "clinical.screen_sensitivity", report.Whole, map[bool]float64{false: 21.0 / 32, true: 1}[newer], nan, nan),
		// Mean selected K: (0+1+2+3)/4 = 1.5 in A, one more in B.
		metric("full", "dynk.k_mean", report.Whole, map[bool]float64{false: 1.5, true: 2.5}[newer], nan, nan),
		metric("full", "rank.mrr", report.EvidenceSlice(true), mean(v.mrr, gold), nan, nan),
		metric("full", "ne.calibration_slope", report.Whole, map[bool]float64{false: 0.9, true: 1.1}[newer], nan, nan),
	}
	for k, c := range criteria {
		keep := func(i int) bool { return i%4 == k }
		r.Metrics = append(r.Metrics, metric("full", "rank.recall@10", report.CriterionSlice(c), mean(v.recall, keep), nan, nan))
	}
	r.Reindex()
	return r
}

// throughCSV returns r with its per-query rows written to
// per_query_metrics.csv and read back, as a bundle on disk holds them.
func throughCSV(t *testing.T, r *report.Report) *report.Report {
	t.Helper()
	var b bytes.Buffer
	if err := r.WritePerQueryCSV(&b); err != nil {
		t.Fatal(err)
	}
	for _, c := range criteria {
		if r.PerQueryFields.Criteria && !strings.Contains(b.String(), ",'"+c+",") {
			t.Fatalf("per_query_metrics.csv does not escape criterion %q", c)
		}
	}
	c := *r
	if err := c.ReadPerQueryCSV("per_query_metrics.csv", &b); err != nil {
		t.Fatal(err)
	}
	return &c
}

func fixtureDiff(t *testing.T) *Changes {
	t.Helper()
	a, b := throughCSV(t, fixture(false)), throughCSV(t, fixture(true))
	cfgA := "title: t\nversion: v1\nseed: 7\nsystems:\n  - {name: full, input: full.csv}\ncontract: {fold_std: sample}\n"
	cfgB := "title: t\nversion: v2\nseed: 8\nsystems:\n  - {name: full, input: full2.csv}\ncontract: {fold_std: population}\n"
	c, err := Diff(a, b, Options{A: Side{Folder: "results/v1"}, B: Side{Folder: "results/v2"}, Permutations: 2000, Resamples: 500,
		ConfigA: []byte(cfgA), ConfigB: []byte(cfgB), InputsA: map[string]string{"full.csv": "aa"}, InputsB: map[string]string{"full2.csv": "bb"}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type key struct {
	id    metrics.ID
	slice report.Slice
}

func rowsByKey(c *Changes) map[key]Row {
	out := map[key]Row{}
	for _, r := range c.Rows {
		out[key{r.ID, r.Slice}] = r
	}
	return out
}
