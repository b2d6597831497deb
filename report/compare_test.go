package report

import (
	"context"
	"math"
	"slices"
	"testing"

	"paperbundle/config"
	"paperbundle/metrics"
)

// comparedReport computes three systems of the synthetic shape: s1 ranks
// the gold candidate highest and separates the classes best, s3 worst.
// Every positive query has one gold candidate among five, so at the
// headline cutoff 10 hit, recall and capped recall are 1 for every system
// (constant: not tests), and rank.mrr, rank.mrr@10, rank.map and
// rank.map@10 have the same per-query values (1 / rank of the gold).
func comparedReport(t *testing.T, edit func(*config.Config)) *Report {
	t.Helper()
	ds := shapeDataset(shape{systems: 3, folds: 2, posts: 40, criteria: 2, tune: true, candidates: true, nodeProbs: true, neProb: true, posts2: true})
	cfg := shapeConfig(ds)
	if edit != nil {
		edit(cfg)
	}
	r, err := Compute(context.Background(), cfg, ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func comparisonOf(r *Report, sys, ref string, id metrics.ID) (Comparison, bool) {
	for _, c := range r.Comparisons {
		if c.System == sys && c.Reference == ref && c.ID == id {
			return c, true
		}
	}
	return Comparison{}, false
}

// pairsOf lists the distinct (system, reference) pairs in order.
func pairsOf(r *Report) [][2]string {
	var out [][2]string
	for _, c := range r.Comparisons {
		p := [2]string{c.System, c.Reference}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// TestComparisonModes: which pairs each mode compares, in which direction
// (diff = system − reference), and the mode recorded in the report.
func TestComparisonModes(t *testing.T) {
	for _, tc := range []struct {
		mode    config.Comparisons
		primary string
		want    [][2]string
	}{
		{config.ComparePrimary, "s1", [][2]string{{"s1", "s2"}, {"s1", "s3"}}},
		{config.ComparePrimary, "s2", [][2]string{{"s2", "s1"}, {"s2", "s3"}}},
		{config.CompareReference, "s1", [][2]string{{"s1", "s3"}, {"s2", "s3"}}},
		{config.CompareLadder, "s1", [][2]string{{"s2", "s1"}, {"s3", "s2"}}},
		{config.CompareAllPairs, "s1", [][2]string{{"s1", "s2"}, {"s1", "s3"}, {"s2", "s3"}}},
	} {
		r := comparedReport(t, func(c *config.Config) {
			c.Comparisons, c.Primary = tc.mode, tc.primary
			if tc.mode == config.CompareReference {
				c.ReferenceSystem = "s3"
			}
		})
		if got := pairsOf(r); !slices.Equal(got, tc.want) {
			t.Errorf("%s (primary %s): pairs %v, want %v", tc.mode, tc.primary, got, tc.want)
		}
		if r.ComparisonMode != string(tc.mode) {
			t.Errorf("comparison_mode %q, want %q", r.ComparisonMode, tc.mode)
		}
		for _, s := range r.SystemsOf(Pipeline) {
			if info, _ := r.System(s); info.Primary != (s == tc.primary) {
				t.Errorf("%s: %s primary %v", tc.mode, s, info.Primary)
			}
		}
		for _, c := range r.Comparisons {
			a, _ := r.Metric(c.System, c.ID, "")
			b, _ := r.Metric(c.Reference, c.ID, "")
			if c.Diff != a.Value-b.Value {
				t.Errorf("%s %s vs %s: diff %v, want system − reference = %v", c.ID, c.System, c.Reference, c.Diff, a.Value-b.Value)
			}
		}
	}
}

// TestComparisonSigns: with s1 the primary, every difference on the
// ranking metrics is positive (s1 is better) and s1 wins more queries
// than it loses; for ne.brier (lower is better) a win is a smaller
// squared error, counted here from the inputs.
func TestComparisonSigns(t *testing.T) {
	r := comparedReport(t, nil)
	for _, id := range []metrics.ID{"rank.mrr", "rank.ndcg@10", "rank.map", "ne.auroc"} {
		c, ok := comparisonOf(r, "s1", "s3", id)
		if !ok {
			t.Fatalf("no comparison s1 vs s3 on %s", id)
		}
		if c.Diff <= 0 {
			t.Errorf("%s: diff %v, want > 0 (s1 is the better system)", id, c.Diff)
		}
		if c.Wins != nil && *c.Wins <= *c.Losses {
			t.Errorf("%s: %d wins, %d losses", id, *c.Wins, *c.Losses)
		}
	}
	ds := shapeDataset(shape{systems: 3, folds: 2, posts: 40, criteria: 2, tune: true, candidates: true, nodeProbs: true, neProb: true, posts2: true})
	var w, tie, l int
	for qi, q := range ds.Queries {
		if q.Split != 0 { // eval rows only
			continue
		}
		y := 0.0
		if len(q.Gold) > 0 {
			y = 1
		}
		e1 := math.Pow(ds.Systems[0].Rows[qi].NEProb-y, 2)
		e2 := math.Pow(ds.Systems[1].Rows[qi].NEProb-y, 2)
		switch {
		case e1 == e2:
			tie++
		case e1 < e2:
			w++
		default:
			l++
		}
	}
	c, ok := comparisonOf(r, "s1", "s2", "ne.brier")
	if !ok || c.Test != TestPermutation || c.Wins == nil {
		t.Fatalf("ne.brier s1 vs s2: %+v", c)
	}
	if *c.Wins != w || *c.Ties != tie || *c.Losses != l {
		t.Errorf("ne.brier wins/ties/losses %d/%d/%d, want %d/%d/%d (smaller squared error wins)", *c.Wins, *c.Ties, *c.Losses, w, tie, l)
	}
}

// TestComparisonTests: the test of each metric, and the fields that exist
// only for some tests.
func TestComparisonTests(t *testing.T) {
	r := comparedReport(t, nil)
	for _, tc := range []struct {
		id   metrics.ID
		test string
	}{
		{"rank.mrr", TestPermutation}, {"rank.mrr@10", TestPermutation}, {"rank.ndcg@10", TestPermutation}, {"rank.map@10", TestPermutation},
		{"dynk.evidence_recall", TestPermutation}, {"dynk.evidence_precision", TestPermutation}, {"ne.brier", TestPermutation},
		{"ne.auroc", TestDeLong}, {"ne.auprc", TestBootstrap}, {"ne.ece", TestBootstrap}, {"e2e.f1", TestBootstrap},
		{"clinical.screen_sensitivity", TestBootstrap},
	} {
		c, ok := comparisonOf(r, "s1", "s2", tc.id)
		if !ok {
			t.Errorf("%s: no comparison", tc.id)
			continue
		}
		if c.Test != tc.test || !c.P.Valid() || c.P <= 0 || c.P > 1 {
			t.Errorf("%s: test %q p %v, want %s with p in (0, 1]", tc.id, c.Test, c.P, tc.test)
		}
		perQuery := tc.test == TestPermutation
		if (c.Wins != nil) != perQuery || (c.CohensD != nil) != perQuery || (c.DZ != nil) != perQuery {
			t.Errorf("%s: wins %v d %v d_z %v, want them for per-query metrics only", tc.id, c.Wins, c.CohensD, c.DZ)
		}
		if (c.DeLongZ != nil) != (tc.id == "ne.auroc") {
			t.Errorf("%s: delong_z %v", tc.id, c.DeLongZ)
		}
		if perQuery && *c.Wins+*c.Ties+*c.Losses != c.N {
			t.Errorf("%s: %d+%d+%d != n %d", tc.id, *c.Wins, *c.Ties, *c.Losses, c.N)
		}
	}
}

// TestIdenticalVectorsIdenticalVerdicts: rank.mrr, rank.mrr@10, rank.map
// and rank.map@10 have the same per-query values here, so the same test,
// p-value, Holm p-value and counts, on every pair.
func TestIdenticalVectorsIdenticalVerdicts(t *testing.T) {
	r := comparedReport(t, func(c *config.Config) { c.Comparisons = config.CompareAllPairs })
	for _, p := range pairsOf(r) {
		base, ok := comparisonOf(r, p[0], p[1], "rank.mrr")
		if !ok {
			t.Fatalf("%v: no rank.mrr comparison", p)
		}
		for _, id := range []metrics.ID{"rank.mrr@10", "rank.map", "rank.map@10"} {
			c, ok := comparisonOf(r, p[0], p[1], id)
			if !ok {
				t.Fatalf("%v: no %s comparison", p, id)
			}
			if c.Test != base.Test || c.P != base.P || c.PHolm != base.PHolm || *c.Wins != *base.Wins || *c.Losses != *base.Losses || c.Diff != base.Diff {
				t.Errorf("%v %s: %s p %v p_holm %v diff %v, rank.mrr: %s p %v p_holm %v diff %v",
					p, id, c.Test, c.P, c.PHolm, c.Diff, base.Test, base.P, base.PHolm, base.Diff)
			}
		}
	}
}

// TestHolmFamilies: constant pairs are not tests (absent), and Holm's
// family is one metric id over the compared pairs: with two pairs the
// adjusted p-values are min(1, 2 p_(1)) and max(that, p_(2)) (Holm 1979).
// With correction: none, p_holm = p.
func TestHolmFamilies(t *testing.T) {
	r := comparedReport(t, nil)
	for _, id := range []metrics.ID{"rank.hit@10", "rank.recall@10", "rank.capped_recall@10"} {
		for _, c := range r.Comparisons {
			if c.ID == id {
				t.Errorf("%s %s vs %s: both sides constant (1 on every query), want no test", id, c.System, c.Reference)
			}
		}
	}
	for _, id := range []metrics.ID{"rank.mrr", "ne.auroc", "ne.auprc"} {
		var fam []Comparison
		for _, c := range r.Comparisons {
			if c.ID == id {
				fam = append(fam, c)
			}
		}
		if len(fam) != 2 {
			t.Fatalf("%s: family of %d, want 2 (s1 vs s2, s1 vs s3)", id, len(fam))
		}
		lo, hi := fam[0], fam[1]
		if hi.P < lo.P {
			lo, hi = hi, lo
		}
		wantLo := math.Min(1, 2*float64(lo.P))
		wantHi := math.Max(wantLo, float64(hi.P))
		if float64(lo.PHolm) != wantLo || float64(hi.PHolm) != wantHi {
			t.Errorf("%s: p %v, %v -> p_holm %v, %v; want %v, %v", id, lo.P, hi.P, lo.PHolm, hi.PHolm, wantLo, wantHi)
		}
	}
	r = comparedReport(t, func(c *config.Config) { c.Significance.Correction = config.CorrectionNone })
	for _, c := range r.Comparisons {
		if c.PHolm != c.P {
			t.Errorf("correction none: %s %s p %v p_holm %v", c.System, c.ID, c.P, c.PHolm)
		}
	}
}
