package report

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
)

// randomDataset builds n single-criterion queries in 2 folds with tied
// probabilities, for checking that the report's sum route equals the plain
// kernels of package metrics.
func randomDataset(n int, seed uint64) *dataset.Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	ds := &dataset.Dataset{HasPosts: true, HasNEProb: true, HasFolds: true}
	var rows []dataset.Row
	for i := 0; i < n; i++ {
		pos := r.Float64() < 0.3
		q := dataset.Query{ID: "q" + itoa(i), Post: "p" + itoa(i/3), Fold: (i / 3) % 2, Split: dataset.SplitEval}
		rel := []int{0, 0, 0, 0}
		if pos {
			q.Gold, q.GoldRels = []string{"a"}, []int{1}
			rel[r.IntN(4)] = 1
		}
		p := math.Round(r.Float64()*20) / 20
		if pos {
			p = math.Min(1, p+0.2)
		}
		ds.Queries = append(ds.Queries, q)
		rows = append(rows, dataset.Row{Candidates: []string{"a", "b", "c", "d"}, Scores: []float64{4, 3, 2, 1}, Rel: rel, NEProb: p, HasNEProb: true})
	}
	ds.Systems = []dataset.System{{Name: "sys", Label: "sys", Rows: rows}}
	return ds
}

func itoa(i int) string {
	return string(rune('a'+i%26)) + string(rune('a'+(i/26)%26)) + string(rune('a'+(i/676)%26))
}

func TestSumRouteEqualsKernels(t *testing.T) {
	const tol = 1e-12
	ds := randomDataset(600, 3)
	cfg := config.Default()
	cfg.Systems = []config.System{{Name: "sys", Input: "x"}}
	cfg.Bootstrap.Resamples = 0
	r, err := Compute(context.Background(), cfg, ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var y []bool
	var p []float64
	for i, q := range ds.Queries {
		y = append(y, q.HasEvidence())
		p = append(p, ds.Systems[0].Rows[i].NEProb)
	}
	cm := metrics.ConfusionAt(y, p, 0.5)
	want := map[string]float64{
		"ne.auroc":                     metrics.AUROC(y, p),
		"ne.auprc":                     metrics.AveragePrecision(y, p),
		"ne.brier":                     metrics.Brier(y, p),
		"ne.ece":                       metrics.ECE(y, p, 10),
		"ne.ece_equal_mass":            metrics.ECEEqualMass(y, p, 10),
		"ne.f1@tau=0.5":                cm.F1(),
		"ne.mcc@tau=0.5":               cm.MCC(),
		"ne.balanced_accuracy@tau=0.5": cm.BalancedAccuracy(),
	}
	for id, w := range want {
		m, ok := r.Metric("sys", metrics.ID(id), "")
		if !ok {
			t.Errorf("%s missing", id)
			continue
		}
		if math.Abs(float64(m.Value)-w) > tol {
			t.Errorf("%s = %.15g, kernel gives %.15g", id, float64(m.Value), w)
		}
	}
}
