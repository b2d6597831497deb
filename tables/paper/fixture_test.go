package paper

import (
	"context"
	"fmt"
	"math/rand/v2"
	hostile_ "paperbundle/internal/hostile"
	"sort"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/report"
)

// hostile returns the shared hostile strings of testdata/hostile.txt.
func hostile(t testing.TB) []string {
	return hostile_.Strings(t)
}

// fixture describes a small synthetic dataset: posts x criteria queries
// over two folds with tune rows, and two systems, the first better.
type fixture struct {
	posts    int
	criteria []string
	labels   [2]string
	cutoffs  []int
	B        int
}

// dataset builds the validated dataset of f, deterministically.
func (f fixture) dataset() *dataset.Dataset {
	rng := rand.New(rand.NewPCG(7, 11))
	ds := &dataset.Dataset{HasCriteria: true, HasPosts: true, HasNEProb: true, HasFolds: true}
	type qr struct {
		q    dataset.Query
		rows [2]dataset.Row
	}
	var all []qr
	for p := 0; p < f.posts; p++ {
		post := fmt.Sprintf("P%03d", p)
		fold := p % 2
		for _, split := range []dataset.Split{dataset.SplitEval, dataset.SplitTune} {
			qfold := fold
			if split == dataset.SplitTune {
				qfold = 1 - fold
			}
			for ci, cr := range f.criteria {
				n := 6 + rng.IntN(10)
				var gold []string
				pos := rng.Float64() < 0.35+0.1*float64(ci%2)
				cands := make([]string, n)
				for i := range cands {
					cands[i] = fmt.Sprintf("s%02d", i)
				}
				if pos {
					for i := 0; i < 1+rng.IntN(3); i++ {
						gold = append(gold, cands[rng.IntN(n)])
					}
					gold = dedupe(gold)
				}
				q := dataset.Query{ID: post + "/" + cr, Post: post, Criterion: cr, Fold: qfold, Split: split, Gold: gold, GoldRels: ones(len(gold))}
				var rows [2]dataset.Row
				for s := 0; s < 2; s++ {
					rows[s] = f.row(rng, cands, gold, s)
				}
				all = append(all, qr{q, rows})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i].q, all[j].q
		if a.Fold != b.Fold {
			return a.Fold < b.Fold
		}
		if a.Split != b.Split {
			return a.Split < b.Split
		}
		if a.Post != b.Post {
			return a.Post < b.Post
		}
		return a.Criterion < b.Criterion
	})
	ds.Systems = []dataset.System{{Name: "full", Label: f.labels[0]}, {Name: "base", Label: f.labels[1]}}
	for _, x := range all {
		ds.Queries = append(ds.Queries, x.q)
		for s := 0; s < 2; s++ {
			ds.Systems[s].Rows = append(ds.Systems[s].Rows, x.rows[s])
		}
	}
	return ds
}

// row scores the candidates: gold items get a higher mean score for the
// better system (s = 0); candidates are stored in ranked order.
func (f fixture) row(rng *rand.Rand, cands, gold []string, s int) dataset.Row {
	isGold := map[string]bool{}
	for _, g := range gold {
		isGold[g] = true
	}
	type cs struct {
		c string
		s float64
	}
	var xs []cs
	for _, c := range cands {
		v := rng.Float64()
		if isGold[c] {
			v += 0.6 - 0.3*float64(s)
		}
		xs = append(xs, cs{c, v})
	}
	sort.SliceStable(xs, func(i, j int) bool { return xs[i].s > xs[j].s })
	r := dataset.Row{HasNEProb: true}
	for _, x := range xs {
		r.Candidates = append(r.Candidates, x.c)
		r.Scores = append(r.Scores, x.s)
		rel := 0
		if isGold[x.c] {
			rel = 1
		}
		r.Rel = append(r.Rel, rel)
		r.NodeProbs = append(r.NodeProbs, min(1, x.s/1.6))
	}
	ne := 0.2 + 0.4*rng.Float64()
	if len(gold) > 0 {
		ne += 0.3 - 0.15*float64(s)
	}
	r.NEProb = float64(int(min(0.99, ne)*100)) / 100
	return r
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// report computes the Report of f.
func (f fixture) report(t testing.TB) *report.Report {
	t.Helper()
	cfg := config.Default()
	cfg.Title = f.labels[0] + " evaluation"
	cfg.Systems = []config.System{{Name: "full", Label: f.labels[0], Input: "full.csv"}, {Name: "base", Label: f.labels[1], Input: "base.csv"}}
	if f.cutoffs != nil {
		cfg.Cutoffs = f.cutoffs
	}
	cfg.Bootstrap.Resamples = f.B
	r, err := report.Compute(context.Background(), cfg, f.dataset(), report.Options{Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// plainFixture has ordinary names.
func plainFixture() fixture {
	return fixture{posts: 40, criteria: []string{"A.1", "A.2", "A.3"}, labels: [2]string{"Full pipeline", "Retriever"}, B: 50}
}

// hostileFixture uses hostile strings as labels and criterion ids.
func hostileFixture(t testing.TB) fixture {
	h := hostile(t)
	crit := []string{}
	for i := 0; i < 4 && i < len(h); i++ {
		crit = append(crit, h[len(h)-1-i])
	}
	crit = append(crit, h[0], h[1], h[2])
	sort.Strings(crit)
	return fixture{posts: 30, criteria: dedupe(crit), labels: [2]string{h[0], h[3]}, B: 20}
}
