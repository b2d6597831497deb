package config_test

import (
	"fmt"

	"paperbundle/config"
)

func ExampleParse() {
	paper := []byte(`
title: Ablation study
systems:
  - {name: full, label: Full pipeline, input: data/full.csv}
  - {name: retriever, input: data/retriever.jsonl}
cutoffs: [10, 1, 5]
strata: ltr
targets: contract
`)
	c, err := config.Parse("paper.yaml", paper, "/project")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.Systems {
		fmt.Printf("%s (%s, %s)\n", s.Label, s.Format, c.ResolvePath(s.Input))
	}
	fmt.Println("primary:", c.Primary, "comparisons:", c.Comparisons, c.Pairs())
	fmt.Println(c.Cutoffs, c.Strata.Bands, c.Bootstrap.Resamples)
	t, _ := c.TargetFor("rank.ndcg@10")
	fmt.Println("rank.ndcg@10 target:", t, "(targets: contract)")
	// Output:
	// Full pipeline (csv, /project/data/full.csv)
	// retriever (jsonl, /project/data/retriever.jsonl)
	// primary: full comparisons: primary [{0 1}]
	// [1 5 10] [3-10 11-50 51+] 10000
	// rank.ndcg@10 target: ≥ 0.85 (targets: contract)
}

func ExampleParse_errors() {
	paper := []byte(`systems:
  - {name: full, input: data/full.csv}
cutof: [1, 5]
bootstrap: {resamples: many}
`)
	_, err := config.Parse("paper.yaml", paper, ".")
	fmt.Println(err)
	// Output:
	// paper.yaml:3:1: unknown key "cutof", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper (did you mean "cutoffs"?)
	// paper.yaml:4:24: bootstrap.resamples: got the string "many", expected an integer from 0 (no intervals) to 1000000
}
