package report

import (
	"context"
	"math"
	"slices"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
)

// TestPerQueryColumnsAreMeans: every metric computed as a mean of
// per-query values has a column of per_query_metrics.csv (hit@K and capped
// recall@K among them, which it used to lack), and the registry compares
// each by the permutation test of those values (metrics.TestMean): a mean
// added to the registry without its test kind fails here.
func TestPerQueryColumnsAreMeans(t *testing.T) {
	t.Parallel()
	r, err := Compute(context.Background(), handConfig(0), handDataset(), Options{Version: "v1", Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range r.PerQueryColumns {
		if metrics.TestOf(id) != metrics.TestMean {
			t.Errorf("column %s: test kind %s, want mean", id, metrics.TestOf(id))
		}
	}
	for _, id := range []metrics.ID{metrics.RankHit.At(1), metrics.RankCappedRecall.At(2), metrics.RankRecall.At(2), metrics.RankMRR.ID(), metrics.NEBrier.ID()} {
		if !slices.Contains(r.PerQueryColumns, id) {
			t.Errorf("no column %s in %v", id, r.PerQueryColumns)
		}
	}
	want := EvidenceFields{Label: true, Criteria: true, Candidates: true, Score: ScoreProb, State: r.Has(ClinicalGate), SelectedK: r.Has(DynamicK)}
	if r.PerQueryFields != want {
		t.Errorf("fields %+v, want %+v", r.PerQueryFields, want)
	}
}

// TestEvidenceValuesAreTheMeans: each metric column of the per-query rows
// holds the values whose mean over the defined ones is the system's
// metric on the whole population, for every system (the second gives its
// own selected sets), read after Compute has run the bootstrap and the
// comparisons, which share the values with the rows.
func TestEvidenceValuesAreTheMeans(t *testing.T) {
	t.Parallel()
	ds := handDataset()
	sel := dataset.System{Name: "sel", Label: "Selected", Rows: make([]dataset.Row, len(ds.Queries))}
	for i, r := range ds.Systems[0].Rows {
		r.Scores = slices.Clone(r.Scores)
		r.Scores[0] /= 2 // another ranking, so that the systems' values differ
		r.Selected, r.HasSelected = r.Candidates[:1], true
		sel.Rows[i] = r
	}
	ds.Systems = append(ds.Systems, sel)
	cfg := handConfig(50)
	cfg.Systems = append(cfg.Systems, config.System{Name: "sel", Label: "Selected", Input: "y.csv"})
	r, err := Compute(context.Background(), cfg, ds, Options{Version: "v1", Tool: "test", FreeRows: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Comparisons) == 0 {
		t.Fatal("no comparisons: the test wants the values the comparisons read")
	}
	checked := 0
	for _, system := range []string{"sys", "sel"} {
		for j, id := range r.PerQueryColumns {
			m, ok := r.Metric(system, id, Whole)
			if !ok {
				continue
			}
			sum, n := 0.0, 0
			for i := range r.PerQuery {
				q := &r.PerQuery[i]
				if v := q.Value(j); q.System == system && v.Valid() {
					sum, n = sum+float64(v), n+1
				}
			}
			if n == 0 {
				if m.Value.Valid() {
					t.Errorf("%s %s: no defined per-query value, metric %v", system, id, m.Value)
				}
				continue
			}
			if got := sum / float64(n); math.Abs(got-float64(m.Value)) > 1e-12 || n != m.N {
				t.Errorf("%s %s: per-query mean %v over %d, metric %v over %d", system, id, got, n, m.Value, m.N)
			}
			checked++
		}
	}
	if checked < len(r.PerQueryColumns) {
		t.Errorf("only %d of %d columns checked", checked, 2*len(r.PerQueryColumns))
	}
}

// TestEvidenceValueOutside: a column the evidence does not have is
// undefined, as is every column of evidence without values.
func TestEvidenceValueOutside(t *testing.T) {
	t.Parallel()
	e := Evidence{}.WithValues(0.5, NaN)
	for j, want := range []Num{NaN, 0.5, NaN, NaN} {
		if got := e.Value(j - 1); got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
			t.Errorf("Value(%d) = %v, want %v", j-1, got, want)
		}
	}
	var none Evidence
	if none.Value(0).Valid() {
		t.Errorf("evidence without values: Value(0) = %v, want NaN", none.Value(0))
	}
}

// TestKeepPerQShares: a per-query vector equal bit for bit to one kept
// already (NaN where it has NaN) is kept as that one; a vector that
// differs in one value, or only in the sign of a zero (printed "-0" in
// per_query_metrics.csv), is kept as itself.
func TestKeepPerQShares(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	sc := &sysCalc{perQ: map[metrics.ID][]float64{}}
	a := []float64{0.5, nan, 1, 0}
	sc.keepPerQ("rank.recall@1", a)
	for _, c := range []struct {
		id    metrics.ID
		v     []float64
		share bool
	}{
		{"rank.hit@1", []float64{0.5, nan, 1, 0}, true},
		{"rank.mrr", []float64{0.5, nan, 1, math.Copysign(0, -1)}, false},
		{"rank.map", []float64{0.5, nan, 0.75, 0}, false},
		{"rank.ndcg", []float64{0.5, nan, 1}, false},
	} {
		sc.keepPerQ(c.id, c.v)
		if got := &sc.perQ[c.id][0] == &a[0]; got != c.share {
			t.Errorf("%s %v: shares the first vector %v, want %v", c.id, c.v, got, c.share)
		}
		if !sameBits(sc.perQ[c.id], c.v) {
			t.Errorf("%s: kept %v, want %v", c.id, sc.perQ[c.id], c.v)
		}
	}
}
