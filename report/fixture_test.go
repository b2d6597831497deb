package report

import (
	"context"
	"math"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
)

// handDataset is a four-query dataset small enough to compute by hand:
//
//	fold 0 eval: q1 (post p1) gold {a}    ranked a,b,c   rel 1,0,0   ne 0.8
//	             q2 (post p2) gold {}     ranked a,b     rel 0,0     ne 0.3
//	fold 1 eval: q3 (post p3) gold {b,c}  ranked a,b,c,d rel 0,1,1,0 ne 0.6
//	             q4 (post p4) gold {}     ranked a,b     rel 0,0     ne 0.7
//
// plus tune rows: fold 0 tunes on p3/p4's twins, fold 1 on p1/p2's twins.
func handDataset() *dataset.Dataset {
	mk := func(id, post string, fold int, split dataset.Split, gold []string) dataset.Query {
		rels := make([]int, len(gold))
		for i := range rels {
			rels[i] = 1
		}
		return dataset.Query{ID: id, Post: post, Criterion: "A.1", Fold: fold, Split: split, Gold: gold, GoldRels: rels}
	}
	row := func(cands []string, scores []float64, rel []int, ne float64) dataset.Row {
		return dataset.Row{Candidates: cands, Scores: scores, Rel: rel, NEProb: ne, HasNEProb: true}
	}
	ds := &dataset.Dataset{
		Queries: []dataset.Query{
			mk("q1", "p1", 0, dataset.SplitEval, []string{"a"}),
			mk("q2", "p2", 0, dataset.SplitEval, nil),
			mk("t3", "p3", 0, dataset.SplitTune, []string{"b"}),
			mk("t4", "p4", 0, dataset.SplitTune, nil),
			mk("q3", "p3", 1, dataset.SplitEval, []string{"b", "c"}),
			mk("q4", "p4", 1, dataset.SplitEval, nil),
			mk("t1", "p1", 1, dataset.SplitTune, []string{"a"}),
			mk("t2", "p2", 1, dataset.SplitTune, nil),
		},
		HasCriteria: true, HasPosts: true, HasNEProb: true, HasFolds: true,
	}
	rows := []dataset.Row{
		row([]string{"a", "b", "c"}, []float64{0.9, 0.5, 0.1}, []int{1, 0, 0}, 0.8),
		row([]string{"a", "b"}, []float64{0.9, 0.5}, []int{0, 0}, 0.3),
		row([]string{"b", "a"}, []float64{0.9, 0.5}, []int{1, 0}, 0.65),
		row([]string{"a", "b"}, []float64{0.9, 0.5}, []int{0, 0}, 0.2),
		row([]string{"a", "b", "c", "d"}, []float64{0.9, 0.8, 0.1, 0.05}, []int{0, 1, 1, 0}, 0.6),
		row([]string{"a", "b"}, []float64{0.9, 0.5}, []int{0, 0}, 0.7),
		row([]string{"a", "b"}, []float64{0.9, 0.5}, []int{1, 0}, 0.75),
		row([]string{"a", "b"}, []float64{0.9, 0.5}, []int{0, 0}, 0.25),
	}
	ds.Systems = []dataset.System{{Name: "sys", Label: "System", Rows: rows}}
	return ds
}

func handConfig(resamples int) *config.Config {
	cfg := config.Default()
	cfg.Systems = []config.System{{Name: "sys", Label: "System", Input: "x.csv"}}
	cfg.Cutoffs = []int{1, 2}
	cfg.Bootstrap.Resamples = resamples
	return cfg
}

func TestComputeHand(t *testing.T) {
	const tol = 1e-12
	r, err := Compute(context.Background(), handConfig(0), handDataset(), Options{Version: "v1", Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want float64
		why  string
	}{
		// Positives {0.8, 0.6}, negatives {0.3, 0.7}: 3 of 4 pairs ordered.
		{"ne.auroc", 0.75, "3/4 concordant pairs"},
		// (0.2² + 0.3² + 0.4² + 0.7²) / 4
		{"ne.brier", 0.195, "mean squared error"},
		// tau 0.5 flags q1, q3, q4: TP 2, FP 1, TN 1, FN 0.
		{"ne.tp@tau=0.5", 2, ""}, {"ne.fp@tau=0.5", 1, ""}, {"ne.tn@tau=0.5", 1, ""}, {"ne.fn@tau=0.5", 0, ""},
		{"ne.precision@tau=0.5", 2.0 / 3, "TP/(TP+FP)"},
		{"ne.mcc@tau=0.5", 2 / math.Sqrt(12), "(2·1 − 1·0)/√(3·2·2·1)"},
		{"ne.npv@tau=0.5", 1, "TN/(TN+FN)"},
		// Ranking on q1 (rel 1,0,0; 1 gold) and q3 (rel 0,1,1,0; 2 gold).
		{"rank.recall@1", 0.5, "(1 + 0)/2"},
		{"rank.recall@2", 0.75, "(1 + 1/2)/2"},
		{"rank.precision@2", 0.5, "(1/2 + 1/2)/2"},
		{"rank.ndcg@2", (1 + (1/math.Log2(3))/(1+1/math.Log2(3))) / 2, "q3: (1/log2 3)/(1 + 1/log2 3)"},
		{"rank.mrr", 0.75, "(1 + 1/2)/2"},
		{"rank.map@2", (1 + 0.25) / 2, "q3: (1/2)/2"},
		// Whole ranking (trec_eval's map, ndcg, Rprec): q1 scores 1 on each.
		{"rank.map", (1 + 7.0/12) / 2, "q3: (1/2 + 2/3)/2"},
		{"rank.ndcg", (1 + (1/math.Log2(3)+0.5)/(1+1/math.Log2(3))) / 2, "q3: (1/log2 3 + 1/log2 4)/(1 + 1/log2 3)"},
		{"rank.r_precision", (1 + 0.5) / 2, "q3: R = 2, top 2 holds one gold"},
	}
	for _, tt := range tests {
		m, ok := r.Metric("sys", metrics.ID(tt.id), "")
		if !ok {
			t.Errorf("%s: missing", tt.id)
			continue
		}
		if math.Abs(float64(m.Value)-tt.want) > tol {
			t.Errorf("%s = %.15g, want %.15g (%s)", tt.id, float64(m.Value), tt.want, tt.why)
		}
	}
	// A single criterion (A.1) is no per-criterion breakdown: no slice.
	if m, ok := r.Metric("sys", "data.positive_rate", "criterion=A.1"); ok {
		t.Errorf("data.positive_rate [criterion=A.1] = %v with a single criterion, want it absent", m.Value)
	}
	// Per-fold AUROC is undefined in neither fold? Fold 0: pos 0.8 vs neg 0.3
	// gives 1; fold 1: pos 0.6 vs neg 0.7 gives 0.
	m, _ := r.Metric("sys", "ne.auroc", "")
	if len(m.Folds) != 2 || m.Folds[0] != 1 || m.Folds[1] != 0 {
		t.Errorf("ne.auroc folds = %v, want [1 0]", m.Folds)
	}
	if m.FoldStd != Num(math.Sqrt(0.5)) {
		t.Errorf("ne.auroc fold_std = %v, want sample std √0.5", m.FoldStd)
	}
}

// TestThresholdsSeeOnlyTuneRows shows that changing eval labels cannot move
// a threshold: thresholds are chosen from tune rows alone (docs/metrics.md).
func TestThresholdsSeeOnlyTuneRows(t *testing.T) {
	a, err := Compute(context.Background(), handConfig(0), handDataset(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := handDataset()
	for i := range ds.Queries {
		q := &ds.Queries[i]
		if q.Split == dataset.SplitEval {
			// flip every eval label
			if len(q.Gold) > 0 {
				q.Gold, q.GoldRels = nil, nil
				for j := range ds.Systems[0].Rows[i].Rel {
					ds.Systems[0].Rows[i].Rel[j] = 0
				}
			} else {
				q.Gold, q.GoldRels = []string{"a"}, []int{1}
				ds.Systems[0].Rows[i].Rel[0] = 1
			}
		}
	}
	b, err := Compute(context.Background(), handConfig(0), ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Thresholds) == 0 {
		t.Fatal("no thresholds")
	}
	for i := range a.Thresholds {
		ta, tb := a.Thresholds[i], b.Thresholds[i]
		if ta.TauNeg != tb.TauNeg || ta.TauPos != tb.TauPos && !(math.IsInf(float64(ta.TauPos), 1) && math.IsInf(float64(tb.TauPos), 1)) {
			t.Errorf("fold %d: gate thresholds moved with eval labels: %v/%v vs %v/%v", ta.Fold, ta.TauNeg, ta.TauPos, tb.TauNeg, tb.TauPos)
		}
		for j := range ta.FPR {
			if ta.FPR[j].Threshold != tb.FPR[j].Threshold {
				t.Errorf("fold %d budget %v: threshold moved with eval labels", ta.Fold, ta.FPR[j].Budget)
			}
		}
	}
}
