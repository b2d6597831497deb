package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
)

// shape describes a synthetic input: which columns it has.
type shape struct {
	systems    int
	folds      int
	posts      int  // eval posts per fold
	criteria   int  // 0: no criterion_id column
	tune       bool // tune rows (as many posts as eval, per fold)
	candidates bool // candidate lists with scores
	nodeProbs  bool
	neProb     bool
	posts2     bool // post_id given (else each query is its own post)
}

// shapeDataset builds a dataset of the given shape. Values are drawn from
// a seeded PCG, so the dataset is the same on every run; system s ranks
// the gold candidate lower and separates the classes less the larger s.
func shapeDataset(sh shape) *dataset.Dataset {
	rng := rand.New(rand.NewPCG(7, uint64(sh.systems*100+sh.folds)))
	ds := &dataset.Dataset{HasCriteria: sh.criteria > 0, HasPosts: sh.posts2, HasNEProb: sh.neProb, HasFolds: sh.folds > 1}
	crits := []string{""}
	if sh.criteria > 0 {
		crits = crits[:0]
		for c := 1; c <= sh.criteria; c++ {
			crits = append(crits, fmt.Sprintf("A.%d", c))
		}
	}
	type qrow struct {
		q    dataset.Query
		rows []dataset.Row
	}
	var all []qrow
	for f := 0; f < sh.folds; f++ {
		for _, split := range []dataset.Split{dataset.SplitEval, dataset.SplitTune} {
			if split == dataset.SplitTune && !sh.tune {
				continue
			}
			for p := 0; p < sh.posts; p++ {
				post := fmt.Sprintf("%s%d-%03d", split, f, p)
				for _, cr := range crits {
					id := post
					if cr != "" {
						id += "/" + cr
					}
					if !sh.posts2 {
						post = id
					}
					pos := rng.Float64() < 0.4
					q := dataset.Query{ID: id, Post: post, Criterion: cr, Fold: f, Split: split}
					if pos {
						q.Gold, q.GoldRels = []string{"s0"}, []int{1}
					}
					u := rng.Float64()
					qr := qrow{q: q}
					for s := 0; s < sh.systems; s++ {
						var r dataset.Row
						if sh.candidates {
							cands := []string{"s0", "s1", "s2", "s3", "s4"}
							score := map[string]float64{}
							for j, c := range cands {
								score[c] = rng.Float64()
								if j == 0 && pos {
									score[c] += 0.6 - 0.3*float64(s)
								}
							}
							sort.SliceStable(cands, func(a, b int) bool { return score[cands[a]] > score[cands[b]] })
							for _, c := range cands {
								r.Candidates = append(r.Candidates, c)
								r.Scores = append(r.Scores, score[c])
								rel := 0
								if pos && c == "s0" {
									rel = 1
								}
								r.Rel = append(r.Rel, rel)
								if sh.nodeProbs {
									r.NodeProbs = append(r.NodeProbs, math.Exp(3*score[c]))
								}
							}
						}
						if sh.neProb {
							r.HasNEProb = true
							r.NEProb = 0.6 * u
							if pos {
								r.NEProb = math.Min(1, 0.6*u+0.4/float64(s+1))
							}
							r.NEProb = math.Round(r.NEProb*100) / 100
						}
						qr.rows = append(qr.rows, r)
					}
					all = append(all, qr)
				}
			}
		}
	}
	ds.Systems = make([]dataset.System, sh.systems)
	for s := range ds.Systems {
		ds.Systems[s].Name = fmt.Sprintf("s%d", s+1)
		ds.Systems[s].Label = ds.Systems[s].Name
	}
	for _, qr := range all {
		ds.Queries = append(ds.Queries, qr.q)
		for s := range ds.Systems {
			ds.Systems[s].Rows = append(ds.Systems[s].Rows, qr.rows[s])
		}
	}
	return ds
}

func shapeConfig(ds *dataset.Dataset) *config.Config {
	cfg := config.Default()
	for _, s := range ds.Systems {
		cfg.Systems = append(cfg.Systems, config.System{Name: s.Name, Label: s.Label, Input: s.Name + ".csv"})
	}
	cfg.Primary = cfg.Systems[0].Name
	cfg.Bootstrap.Resamples = 200
	cfg.Cutoffs = []int{1, 3, 10}
	return cfg
}

// TestCapabilityMatrix: for each input shape, which capabilities are
// present, and which metric families exist (a metric that does not apply
// is absent, not null and never 0).
func TestCapabilityMatrix(t *testing.T) {
	allCaps := AllCapabilities
	for _, tc := range []struct {
		name     string
		sh       shape
		present  []Capability
		families []string // families of the pipelines' whole-population metrics
	}{
		{"demo-like full", shape{systems: 2, folds: 2, posts: 30, criteria: 2, tune: true, candidates: true, nodeProbs: true, neProb: true, posts2: true},
			allCaps, []string{"clinical", "dynk", "e2e", "multilabel", "ne", "rank"}},
		{"classifier only, ne_prob", shape{systems: 2, folds: 2, posts: 40, tune: true, neProb: true},
			[]Capability{NEGate, Calibration, FixedTau, HeldOut, ClinicalGate, Folds, Comparisons}, []string{"clinical", "ne"}},
		{"classifier only, one fold without tune rows", shape{systems: 1, folds: 1, posts: 60, neProb: true},
			[]Capability{NEGate, Calibration, FixedTau}, []string{"ne"}},
		{"TREC-like ranking only", shape{systems: 2, folds: 1, posts: 40, candidates: true},
			[]Capability{Ranking, Strata, Comparisons}, []string{"rank"}},
		{"ranking and ne_prob, no node_probs", shape{systems: 2, folds: 3, posts: 20, criteria: 2, candidates: true, neProb: true, posts2: true},
			[]Capability{Ranking, Strata, NEGate, Calibration, FixedTau, HeldOut, ClinicalGate, PerCriterion, Folds, Comparisons},
			[]string{"clinical", "ne", "rank"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := shapeDataset(tc.sh)
			r, err := Compute(context.Background(), shapeConfig(ds), ds, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := r.HardCheckError(); err != nil {
				t.Fatalf("hard checks: %v", err)
			}
			checkCapabilities(t, r, tc.present)
			fam := checkFamilies(t, r, tc.families)
			checkFollowCapabilities(t, r, fam, tc.sh.systems)
			checkCapabilitiesRoundTrip(t, r)
		})
	}
}

// checkCapabilities: r has the capabilities present and no other, and
// says why each other is absent.
func checkCapabilities(t *testing.T, r *Report, present []Capability) {
	t.Helper()
	for _, x := range AllCapabilities {
		want := slices.Contains(present, x)
		if r.Has(x) != want {
			t.Errorf("capability %s present %v, want %v (reason %q)", x, r.Has(x), want, r.Capabilities.Reason(x))
		}
		if !r.Has(x) && r.Capabilities.Reason(x) == "" {
			t.Errorf("capability %s absent without a reason", x)
		}
	}
	if got := len(r.Capabilities.Present) + len(r.Capabilities.Absent); got != len(AllCapabilities) {
		t.Errorf("%d capabilities recorded, want %d", got, len(AllCapabilities))
	}
}

// checkFamilies: the families of the pipelines' whole-population metrics
// are want; it returns them as a set.
func checkFamilies(t *testing.T, r *Report, want []string) map[string]bool {
	t.Helper()
	fam := map[string]bool{}
	for _, m := range r.Metrics {
		if isBaseline(m.System) || m.Slice != "" {
			continue
		}
		fam[metrics.MustDef(m.ID).Family()] = true
	}
	var got []string
	for f := range fam {
		got = append(got, f)
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("metric families %v, want %v", got, want)
	}
	return fam
}

// checkFollowCapabilities: held-out operating points, workload, baselines,
// per-criterion slices and comparisons follow their capabilities;
// comparisons are only of metrics of the families fam.
func checkFollowCapabilities(t *testing.T, r *Report, fam map[string]bool, systems int) {
	t.Helper()
	has := func(id metrics.ID) bool { _, ok := r.Metric("s1", id, ""); return ok }
	if has("ne.heldout_tpr@fpr=0.05") != r.Has(HeldOut) {
		t.Errorf("ne.heldout_tpr@fpr=0.05 present %v, held-out capability %v", !r.Has(HeldOut), r.Has(HeldOut))
	}
	if has("clinical.workload_per_1000") != r.Has(EndToEnd) {
		t.Errorf("clinical.workload_per_1000 present %v, end-to-end capability %v", !r.Has(EndToEnd), r.Has(EndToEnd))
	}
	if has("ne.f1@tau=0.5") != r.Has(FixedTau) {
		t.Errorf("ne.f1@tau=0.5 present %v, fixed-tau capability %v", !r.Has(FixedTau), r.Has(FixedTau))
	}
	if (len(r.SystemsOf(Baseline)) > 0) != r.Has(Ranking) {
		t.Errorf("baselines %v with ranking %v", r.SystemsOf(Baseline), r.Has(Ranking))
	}
	for _, m := range r.Metrics {
		if m.Slice.Kind() == SliceCriterion && !r.Has(PerCriterion) {
			t.Errorf("%s %s [%s] without the per-criterion capability", m.System, m.ID, m.Slice)
			break
		}
	}
	// Comparisons only of metrics that exist for both systems.
	if len(r.Comparisons) > 0 != r.Has(Comparisons) && systems > 1 {
		t.Errorf("%d comparisons, capability %v", len(r.Comparisons), r.Has(Comparisons))
	}
	for _, c := range r.Comparisons {
		if !fam[metrics.MustDef(c.ID).Family()] {
			t.Errorf("comparison of %s, a family that does not apply", c.ID)
		}
	}
}

// checkCapabilitiesRoundTrip: with one fold there are no folds, fold_mean
// or fold_std in metrics_master.json, and the JSON reads back to the same
// capabilities and the same bytes.
func checkCapabilitiesRoundTrip(t *testing.T, r *Report) {
	t.Helper()
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"fold_mean"`); (n > 0) != r.Has(Folds) {
		t.Errorf("%d fold_mean fields, folds capability %v", n, r.Has(Folds))
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range AllCapabilities {
		if back.Has(x) != r.Has(x) || back.Capabilities.Reason(x) != r.Capabilities.Reason(x) {
			t.Errorf("capability %s does not round-trip", x)
		}
	}
	b2, err := back.JSON()
	if err != nil || string(b2) != string(b) {
		t.Errorf("metrics_master.json does not round-trip byte for byte (err %v)", err)
	}
}

// TestSingleFoldJSON: with one fold a metric carries no per-fold fields at
// all (not "n/a" in every row), and decodes with an undefined fold mean.
func TestSingleFoldJSON(t *testing.T) {
	ds := shapeDataset(shape{systems: 1, folds: 1, posts: 30, candidates: true, neProb: true, tune: true})
	r, err := Compute(context.Background(), shapeConfig(ds), ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Has(Folds) || r.Capabilities.Reason(Folds) != "the inputs have 1 fold: no value per fold, no fold mean or std" {
		t.Errorf("folds capability %v, reason %q", r.Has(Folds), r.Capabilities.Reason(Folds))
	}
	m, ok := r.Metric("s1", "ne.auroc", "")
	if !ok {
		t.Fatal("no ne.auroc")
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"folds"`, `"fold_mean"`, `"fold_std"`} {
		if strings.Contains(string(b), key) {
			t.Errorf("single-fold metric has %s: %s", key, b)
		}
	}
	var back Metric
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Folds != nil || back.FoldMean.Valid() || back.FoldStd.Valid() {
		t.Errorf("decoded folds %v mean %v std %v, want none", back.Folds, back.FoldMean, back.FoldStd)
	}
	// With tune rows, one fold still has held-out thresholds and a gate.
	if !r.Has(HeldOut) || !r.Has(ClinicalGate) {
		t.Errorf("one fold with tune rows: held-out %v, gate %v; want both", r.Has(HeldOut), r.Has(ClinicalGate))
	}
}

// TestDecodeSchema1: a metrics_master.json of schema_version 1 (the
// previous version of a bundle) is read: its sections become the
// capabilities, its metrics are kept, its old-shape comparisons are not.
func TestDecodeSchema1(t *testing.T) {
	old := `{"schema_version": 1, "version": "v1", "sections": [{"id": "ranking", "present": true}, {"id": "ne_gate", "present": false, "reason": "no ne_prob"}],
 "metrics": [{"system": "a", "id": "rank.mrr", "slice": "", "population": "positives_only", "n": 3, "value": 0.5, "ci": null, "folds": [0.4, 0.6], "fold_mean": 0.5, "fold_std": 0.1, "direction": "higher", "variant": "", "target": null, "target_met": null}],
 "comparisons": [{"system": "a", "reference": "b", "id": "rank.mrr", "n": 3, "diff": 0.1, "ci": null, "p_permutation": 0.2, "p_holm": 0.4, "cohens_d": 0.1, "d_z": 0.2}]}`
	r, err := Decode([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Has(Ranking) || r.Has(NEGate) || r.Capabilities.Reason(NEGate) != "no ne_prob" {
		t.Errorf("capabilities %+v", r.Capabilities)
	}
	if m, ok := r.Metric("a", "rank.mrr", ""); !ok || m.Value != 0.5 || m.FoldStd != 0.1 || len(m.Folds) != 2 {
		t.Errorf("rank.mrr = %+v, %v", m, ok)
	}
	if len(r.Comparisons) != 0 {
		t.Errorf("%d comparisons of the old shape read", len(r.Comparisons))
	}
	if _, err := Decode([]byte(`{"schema_version": 3}`)); err == nil || !strings.Contains(err.Error(), "schema_version 3") {
		t.Errorf("schema 3: %v", err)
	}
}

// TestHeadlineIDs: the applicable headline metrics of each input shape, at
// the headline cutoff (10, among the cutoffs [1, 3, 10]), and the primary
// system. A classifier-only table has the classifier's headline set
// (AUROC, AUPRC, Brier, ECE, then sensitivity and specificity at the first
// operating point, 0.5), not the clinical gate's metrics.
func TestHeadlineIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		sh   shape
		want []metrics.ID
	}{
		{"full", shape{systems: 2, folds: 2, posts: 30, criteria: 2, tune: true, candidates: true, nodeProbs: true, neProb: true, posts2: true},
			[]metrics.ID{"ne.auroc", "ne.auprc", "ne.ece", "rank.recall@10", "rank.ndcg@10", "dynk.evidence_recall", "clinical.screen_sensitivity", "clinical.alert_precision"}},
		{"classifier", shape{systems: 1, folds: 2, posts: 40, tune: true, neProb: true},
			[]metrics.ID{"ne.auroc", "ne.auprc", "ne.brier", "ne.ece", "ne.sensitivity@tau=0.5", "ne.specificity@tau=0.5"}},
		{"ranking", shape{systems: 2, folds: 1, posts: 40, candidates: true}, []metrics.ID{"rank.recall@10", "rank.ndcg@10"}},
	} {
		ds := shapeDataset(tc.sh)
		r, err := Compute(context.Background(), shapeConfig(ds), ds, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := r.HeadlineIDs()
		a, b := slices.Clone(got), slices.Clone(tc.want)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Errorf("%s: HeadlineIDs %v, want %v", tc.name, got, tc.want)
		}
		if r.Primary() != "s1" {
			t.Errorf("%s: primary %q", tc.name, r.Primary())
		}
	}
}
