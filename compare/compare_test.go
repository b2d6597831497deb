package compare

import (
	"strings"
	"testing"

	"paperbundle/report"
	"paperbundle/report/paired"
)

// TestFormulaCriteriaPaired: criteria whose ids begin with -, =, + or @
// (written to per_query_metrics.csv with a leading ') get the paired
// permutation test on their queries, never CI overlap.
func TestFormulaCriteriaPaired(t *testing.T) {
	c := fixtureDiff(t)
	if c.Mode != ModePaired {
		t.Fatalf("mode %s (%s), want paired", c.Mode, c.Why)
	}
	rows := rowsByKey(c)
	for _, crit := range criteria {
		r, ok := rows[key{"rank.recall@10", report.CriterionSlice(crit)}]
		if !ok {
			t.Fatalf("no row for criterion %q", crit)
		}
		// Eight of the criterion's ten queries have gold (every fifth has
		// none); all eight move by +0.3.
		if r.Test != TestPermutation || r.Pairs != 8 || r.Verdict != Significant {
			t.Errorf("criterion %q: test %q, %d pairs, verdict %s (%s); want the permutation test on 8 pairs, significant", crit, r.Test, r.Pairs, r.Verdict, r.Reason)
		}
	}
}

// TestIdenticalVectorsSameVerdict: two metrics with the same per-query
// values get the same test, the same p-value and the same verdict,
// although their intervals (disjoint for one, overlapping for the other)
// would be judged differently by CI overlap.
func TestIdenticalVectorsSameVerdict(t *testing.T) {
	rows := rowsByKey(fixtureDiff(t))
	a, b := rows[key{"rank.recall@10", report.Whole}], rows[key{"rank.capped_recall@10", report.Whole}]
	if a.Test != TestPermutation || a.Test != b.Test || a.P != b.P || a.Verdict != b.Verdict || a.Pairs != b.Pairs {
		t.Errorf("recall@10: %s p=%v %s; capped_recall@10: %s p=%v %s", a.Test, a.P, a.Verdict, b.Test, b.P, b.Verdict)
	}
	// All 32 positive queries move by +0.3; they fall in 16 posts (two
	// queries a post, every fifth query without gold leaves a post with
	// one). Only the identity and the all-flipped sign vector reach the
	// observed |sum|, so the exact p is 2/2^16 ≈ 3e-5; with 2,000 random
	// flips p = (1 + hits)/(1 + 2000), at least 1/2001.
	if !(a.P < 0.002) || a.Verdict != Significant {
		t.Errorf("recall@10 p = %v, want < 0.002 and significant", a.P)
	}
}

// TestTestsByMetric: the test of each metric comes from the metric alone.
func TestTestsByMetric(t *testing.T) {
	rows := rowsByKey(fixtureDiff(t))
	mrr := rows[key{"rank.mrr", report.Whole}]
	// Only one post's difference is not 0: every sign flip gives the
	// observed |statistic|, so p = (1 + 2000)/(1 + 2000) = 1.
	if mrr.Test != TestPermutation || mrr.P != 1 || mrr.Verdict != NotSignificant {
		t.Errorf("mrr: %s p=%v %s, want permutation p=1 no", mrr.Test, mrr.P, mrr.Verdict)
	}
	auroc := rows[key{"ne.auroc", report.Whole}]
	if auroc.Test != TestDeLong || auroc.Verdict != Significant || auroc.Pairs != nQueries {
		t.Errorf("auroc: %s p=%v %s (%s) on %d pairs, want DeLong, significant, %d pairs", auroc.Test, auroc.P, auroc.Verdict, auroc.Reason, auroc.Pairs, nQueries)
	}
	auprc := rows[key{"ne.auprc", report.Whole}]
	if auprc.Test != TestBootstrap || !(auprc.P > 0 && auprc.P <= 1) {
		t.Errorf("auprc: %s p=%v (%s), want the paired bootstrap", auprc.Test, auprc.P, auprc.Reason)
	}
	// Sensitivity at tau = 0.5: in A, the probabilities 0.3 + 0.4·((7i mod
	// 40)/40) reach 0.5 on half the queries; in B every positive query's is
	// at least 0.7, sensitivity 1: the bootstrap finds it.
	sens := rows[key{"ne.sensitivity@tau=0.5", report.Whole}]
	if sens.Test != TestBootstrap || sens.Verdict != Significant || sens.Pairs != nQueries {
		t.Errorf("sensitivity@tau=0.5: %s p=%v %s (%s)", sens.Test, sens.P, sens.Verdict, sens.Reason)
	}
	screen := rows[key{"clinical.screen_sensitivity", report.Whole}]
	if screen.Test != TestBootstrap || screen.Verdict != Significant || screen.Pairs != nQueries {
		t.Errorf("screen sensitivity: %s p=%v %s (%s) on %d pairs", screen.Test, screen.P, screen.Verdict, screen.Reason, screen.Pairs)
	}
	// Every query's selected K is one higher: all 20 posts move the same
	// way, exact p = 2/2^20; with 2,000 flips p = 1/2001.
	if k := rows[key{"dynk.k_mean", report.Whole}]; k.Test != TestPermutation || k.Verdict != Significant || k.Pairs != nQueries {
		t.Errorf("k_mean: %s p=%v %s (%s)", k.Test, k.P, k.Verdict, k.Reason)
	}
	// The queries with gold are a slice both bundles agree on: mrr moves
	// on post 0's query 1 only (query 0 has no gold), one group, p = 1.
	if m := rows[key{"rank.mrr", report.EvidenceSlice(true)}]; m.Test != TestPermutation || m.P != 1 || m.Pairs != 32 {
		t.Errorf("mrr on has_evidence=1: %s p=%v on %d (%s)", m.Test, m.P, m.Pairs, m.Reason)
	}
	slope := rows[key{"ne.calibration_slope", report.Whole}]
	if slope.Verdict != Listed || slope.Reason != "a fitted calibration parameter" || slope.Delta.Valid() {
		t.Errorf("calibration slope: %s (%s), want listed as a fitted calibration parameter", slope.Verdict, slope.Reason)
	}
	// hit@10 is a mean of per-query values, but the rows do not hold
	// them: it is untested (not judged on its intervals in paired mode).
	hit := rows[key{"rank.hit@10", report.Whole}]
	if hit.Test != TestNone || hit.Verdict != Untested || !strings.Contains(hit.Reason, "no per-query values") {
		t.Errorf("hit@10: %s %s (%s), want untested for lack of per-query values", hit.Test, hit.Verdict, hit.Reason)
	}
	// A p-value is listed, never subtracted.
	p := rows[key{"rank.spearman_difficulty_p@1", report.Whole}]
	if p.Verdict != Listed || p.Delta.Valid() || p.Test != TestNone {
		t.Errorf("spearman p: %s delta %v test %q, want listed without a delta", p.Verdict, p.Delta, p.Test)
	}
	if ece := rows[key{"ne.ece", report.Whole}]; ece.Verdict != Unchanged || ece.Test != TestNone {
		t.Errorf("ece: %s %s, want unchanged, no test", ece.Verdict, ece.Test)
	}
}

// TestHeadlineFirst: headline rows (registry flag, headline cutoff, whole
// population) come first, then the rest in the report's order (a metric
// id's slices together, where the id first appears).
func TestHeadlineFirst(t *testing.T) {
	c := fixtureDiff(t)
	var got []string
	for _, r := range c.Rows {
		got = append(got, string(r.ID)+"|"+string(r.Slice))
	}
	want := []string{"ne.auroc|", "ne.auprc|", "ne.ece|", "rank.recall@10|", "clinical.screen_sensitivity|",
		"rank.mrr|", "rank.mrr|has_evidence=1", "rank.recall@10|criterion=-x", "rank.recall@10|criterion==x", "rank.recall@10|criterion=+x", "rank.recall@10|criterion=@x",
		"rank.capped_recall@10|", "rank.hit@10|", "rank.spearman_difficulty_p@1|", "ne.sensitivity@tau=0.5|", "dynk.k_mean|", "ne.calibration_slope|"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
	for i, r := range c.Rows {
		if r.Headline != (i < 5) {
			t.Errorf("row %d %s: headline %t", i, r.ID, r.Headline)
		}
	}
}

// TestCIOverlapWhenQueriesDiffer: bundles with other eval queries are
// compared on CI overlap, and the basis line says why.
func TestCIOverlapWhenQueriesDiffer(t *testing.T) {
	a, b := fixture(false), fixture(true)
	b.PerQuery[0].Query = "other"
	c, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeCIOverlap || !strings.Contains(c.BasisLine(), "CI overlap, because the bundles do not hold the same eval queries") {
		t.Fatalf("mode %s: %s", c.Mode, c.BasisLine())
	}
	rows := rowsByKey(c)
	if r := rows[key{"rank.recall@10", report.Whole}]; r.Test != TestCIOverlap || r.Verdict != Significant {
		t.Errorf("recall@10: %s %s, want CIs disjoint", r.Test, r.Verdict)
	}
	if r := rows[key{"rank.capped_recall@10", report.Whole}]; r.Test != TestCIOverlap || r.Verdict != NotSignificant {
		t.Errorf("capped_recall@10: %s %s, want CIs overlap", r.Test, r.Verdict)
	}
	if r := rows[key{"rank.mrr", report.Whole}]; r.Verdict != Untested || r.Reason != "no CI" {
		t.Errorf("mrr without intervals: %s (%s), want untested, no CI", r.Verdict, r.Reason)
	}
	// Without per-query rows at all, the same.
	a.PerQuery = nil
	if c, _ := Diff(a, b, Options{}); c.Mode != ModeCIOverlap || c.Why != "bundle A holds no per-query rows" {
		t.Errorf("no rows in A: mode %s (%s)", c.Mode, c.Why)
	}
}

// TestSettingsOnce: each configuration change is listed once, under its
// config.yaml name, whether it comes from the settings or config.yaml.
func TestSettingsOnce(t *testing.T) {
	c := fixtureDiff(t)
	var got []string
	for _, s := range c.Settings {
		got = append(got, s.Text())
	}
	want := []string{"contract.fold_std: sample -> population", "seed: 7 -> 8", "systems[0].input: full.csv -> full2.csv"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("settings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(c.Inputs, "|") != "full.csv: removed|full2.csv: added" {
		t.Errorf("inputs %q", c.Inputs)
	}
}

// TestBootstrapP: the paired bootstrap's p of two identical score vectors
// is 1 (every replicate's difference is 0).
func TestBootstrapP(t *testing.T) {
	a := fixture(false)
	pa := newPerQuery(a)
	tt := &tester{c: &Changes{}, a: pa, b: pa, opt: paired.Options{Resamples: 200}}
	ia, ib, _ := tt.pairs("full", report.Whole)
	g, ng := tt.groups(ib)
	r := paired.Compare("ne.auprc", paired.Pairs{X: a.PairedSide("ne.auprc", "full", ib), Y: a.PairedSide("ne.auprc", "full", ia), Group: g, NGroups: ng}, tt.opt)
	if r.P != 1 || r.N != nQueries || r.Reason != "" {
		t.Errorf("identical scores: p=%v on %d (%s), want 1 on %d", r.P, r.N, r.Reason, nQueries)
	}
}
