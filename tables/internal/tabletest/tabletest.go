// Package tabletest builds the small synthetic Reports that the tests of
// tables and tables/paper share: a plain one with ordinary names and a
// hostile one whose labels and criterion ids are the strings of
// testdata/hostile.txt.
package tabletest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/hostile"
	"paperbundle/report"
)

// Fixture describes a small synthetic dataset: Posts x Criteria queries
// over two folds with tune rows, and two systems, the first better.
type Fixture struct {
	Posts    int
	Criteria []string
	Labels   [2]string
	Cutoffs  []int         // nil: the default cutoffs
	B        int           // bootstrap resamples
	Strata   []config.Band // nil: the default strata
}

// Dataset builds the validated dataset of f, deterministically.
func (f Fixture) Dataset() *dataset.Dataset {
	rng := rand.New(rand.NewPCG(7, 11))
	ds := &dataset.Dataset{HasCriteria: true, HasPosts: true, HasNEProb: true, HasFolds: true}
	type qr struct {
		q    dataset.Query
		rows [2]dataset.Row
	}
	var all []qr
	for p := 0; p < f.Posts; p++ {
		post := fmt.Sprintf("P%03d", p)
		fold := p % 2
		for _, split := range []dataset.Split{dataset.SplitEval, dataset.SplitTune} {
			qfold := fold
			if split == dataset.SplitTune {
				qfold = 1 - fold
			}
			for ci, cr := range f.Criteria {
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
	ds.Systems = []dataset.System{{Name: "full", Label: f.Labels[0]}, {Name: "base", Label: f.Labels[1]}}
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
func (f Fixture) row(rng *rand.Rand, cands, gold []string, s int) dataset.Row {
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

// Report computes the Report of f.
func (f Fixture) Report(t testing.TB) *report.Report {
	t.Helper()
	cfg := config.Default()
	cfg.Title = f.Labels[0] + " evaluation"
	cfg.Systems = []config.System{{Name: "full", Label: f.Labels[0], Input: "full.csv"}, {Name: "base", Label: f.Labels[1], Input: "base.csv"}}
	if f.Cutoffs != nil {
		cfg.Cutoffs = f.Cutoffs
	}
	cfg.Bootstrap.Resamples = f.B
	if f.Strata != nil {
		cfg.Strata = config.Strata{Bands: f.Strata}
	}
	r, err := report.Compute(context.Background(), cfg, f.Dataset(), report.Options{Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Plain has ordinary names.
func Plain() Fixture {
	return Fixture{Posts: 40, Criteria: []string{"A.1", "A.2", "A.3"}, Labels: [2]string{"Full pipeline", "Retriever"}, B: 50}
}

// Hostile uses hostile strings as labels and criterion ids.
func Hostile(t testing.TB) Fixture {
	h := hostile.Strings(t)
	crit := []string{}
	for i := 0; i < 4 && i < len(h); i++ {
		crit = append(crit, h[len(h)-1-i])
	}
	crit = append(crit, h[0], h[1], h[2])
	sort.Strings(crit)
	return Fixture{Posts: 30, Criteria: dedupe(crit), Labels: [2]string{h[0], h[3]}, B: 20}
}
