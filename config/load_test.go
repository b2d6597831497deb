package config

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"paperbundle/dataset"
)

func f64(x float64) *float64 { return &x }

// mustRead returns a file under testdata.
func mustRead(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDefault(t *testing.T) {
	// Every value below is copied by hand from the documented defaults
	// (docs/configuration.md "Keys").
	want := &Config{
		Title:           "Paper bundle",
		Out:             "results/paper_bundle",
		Seed:            20260118,
		Comparisons:     "primary",
		Significance:    Significance{Alpha: 0.05, Correction: "holm"},
		Cutoffs:         []int{1, 3, 5, 10, 20},
		FPRTargets:      []float64{0.01, 0.03, 0.05, 0.10},
		OperatingPoints: []float64{0.5},
		Bootstrap:       Bootstrap{Resamples: 10000, Unit: "post", Method: "percentile", Confidence: 0.95},
		Calibration: Calibration{
			Bins: 10, Strategy: "uniform"},
		Gate: Gate{ScreenSensitivity: 0.995, AlertPrecision: 0.90},
		DynamicK: DynamicK{KMin: 2, HardCap: 10, KMaxRatio: 0.5, Gamma: 0.9, GammaUncertain: 0.95,
			Sweep: []float64{0.7, 0.8, 0.9, 0.95}},
		Strata:   Strata{Auto: true},
		Contract: Contract{MAPDenominator: "gold", FoldStd: "sample", UndefinedAUROC: "nan", NDCGGain: "exponential"},
		TREC:     TREC{RelevanceLevel: 1, NoRelevant: "zero", MissingRun: "skip"},
		Targets:  Targets{},                    // none
		Bundle:   BundleOpts{CopyInputs: true}, // inputs/ on by default (docs/bundle.md)
		Paper:    Paper{Venue: "acm", FontSize: 8, Uncertainty: "ci", Decimals: 3},
	}
	if got := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("Default() =\n%+v\nwant\n%+v", got, want)
	}
	// Default returns a fresh value each time.
	a := Default()
	a.Cutoffs[0] = 99
	if Default().Cutoffs[0] != 1 {
		t.Error("Default shares its slices between calls")
	}
}

func TestParseValid(t *testing.T) {
	specWant := Default()
	specWant.Title = "Evidence retrieval pipeline — final evaluation"
	specWant.Version = "v2.0"
	specWant.Systems = []System{
		{Name: "full", Label: "Full pipeline", Input: "data/full.csv", Format: "csv"},
		{Name: "retriever", Label: "Retriever only", Input: "data/retriever.csv", Format: "csv"},
	}
	specWant.Primary = "full"
	specWant.ReferenceSystem = "retriever"
	specWant.Comparisons = "reference"        // reference_system without comparisons
	specWant.Targets = Targets{Default: true} // targets: default, the earlier spelling of contract

	trecWant := Default()
	trecWant.Title = "BM25 vs. dense retrieval: TREC-style evaluation"
	trecWant.Version = "v1"
	trecWant.Out = "out/bundles"
	trecWant.Seed = 7
	trecWant.Qrels = "data/qrels.txt"
	trecWant.Queries = "data/queries.csv"
	trecWant.Systems = []System{
		{Name: "dense", Label: "Dense retriever", Input: "runs/dense.txt", Format: "trec", NEProbs: "data/dense_ne.csv"},
		{Name: "bm25", Label: "BM25", Input: "runs/bm25.txt", Format: "trec"},
	}
	trecWant.Primary = "dense"
	trecWant.Cutoffs = []int{1, 10, 20, 50, 100}
	trecWant.FPRTargets = []float64{0.05, 0.1}
	trecWant.Bootstrap = Bootstrap{Resamples: 1000, Unit: "query", Method: "bca", Confidence: 0.9}
	trecWant.Calibration = Calibration{Bins: 20, Strategy: "quantile"}
	trecWant.Strata = Strata{Bands: []Band{{3, 10}, {11, 50}, {51, -1}}}
	trecWant.Contract = Contract{MAPDenominator: "min_gold_k", FoldStd: "population", UndefinedAUROC: "half", NDCGGain: "linear"}
	trecWant.TREC = TREC{RelevanceLevel: 2, NoRelevant: "skip", MissingRun: "zero"}
	trecWant.Targets = Targets{Bounds: map[string]Target{
		"rank.ndcg@10":    {Min: f64(0.5)},
		"rank.recall@100": {Min: f64(0.8), Max: f64(1)},
		"ne.ece":          {Max: f64(0.05)},
	}}

	anchorsWant := Default()
	anchorsWant.Title = "2026-01-18"
	anchorsWant.Systems = []System{
		{Name: "full", Label: "yes", Input: "data/full.jsonl", Format: "jsonl"},
		{Name: "no-graph", Label: "yes", Input: "data/no_graph.ndjson", Format: "jsonl"},
		{Name: "retriever_2.0", Label: "10", Input: "data/r.CSV", Format: "csv"},
	}
	anchorsWant.Primary = "full"
	anchorsWant.ReferenceSystem = "full"
	anchorsWant.Comparisons = "reference"
	anchorsWant.Cutoffs = []int{5, 10}
	anchorsWant.DynamicK.KMin = 0
	anchorsWant.DynamicK.HardCap = 1000
	anchorsWant.DynamicK.Sweep = []float64{0.5, 1}
	anchorsWant.Gate = Gate{ScreenSensitivity: 1, AlertPrecision: 0.5}
	anchorsWant.Strata = Strata{Bands: []Band{{1, 2}, {3, 10}, {11, -1}}}
	anchorsWant.Targets = Targets{}

	minimalWant := Default()
	minimalWant.Systems = []System{{Name: "a", Label: "a", Input: "a.csv", Format: "csv"}}
	minimalWant.Primary = "a"

	nullsWant := Default()
	nullsWant.Systems = []System{{Name: "a", Label: "a", Input: "a.csv", Format: "csv"}}
	nullsWant.Primary = "a"

	for _, tc := range []struct {
		name string
		data []byte
		want *Config
	}{
		{"spec", mustRead(t, "paper_spec.yaml"), specWant},
		{"trec", mustRead(t, "paper_trec.yaml"), trecWant},
		{"anchors", mustRead(t, "paper_anchors.yaml"), anchorsWant},
		{"minimal", []byte("systems: [{name: a, input: a.csv}]\n"), minimalWant},
		{"nulls keep defaults", []byte("title:\nversion: ~\nseed: null\ncutoffs:\nbootstrap:\n" +
			"gate: {alert_precision: }\nstrata:\ntargets:\nsystems:\n- name: a\n  input: a.csv\n  label: \"\"\n  format: \"\"\n"), nullsWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("paper.yaml", tc.data, "/data/project")
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			tc.want.File, tc.want.Dir = "paper.yaml", "/data/project"
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

// errCase is a paper.yaml with one mistake and the exact error it gives.
type errCase struct {
	name string
	doc  string
	want string
}

// sys is a valid systems: line, appended to cases that are about another key.
const sys = "systems: [{name: a, input: a.csv}]\n"

var errCases = []errCase{
	// File level.
	{"empty file", "", "paper.yaml:1:1: empty file, expected a YAML mapping with at least the key systems"},
	{"only comments", "# nothing\n\n", "paper.yaml:1:1: empty file, expected a YAML mapping with at least the key systems"},
	{"null document", "~\n", "paper.yaml:1:1: empty configuration, expected a YAML mapping with at least the key systems"},
	{"root is a list", "- a\n- b\n", "paper.yaml:1:1: got a list, expected a mapping of configuration keys (title, systems, ...)"},
	{"root is a string", "systems\n", `paper.yaml:1:1: got the string "systems", expected a mapping of configuration keys (title, systems, ...)`},
	{"two documents", sys + "---\n" + sys, "paper.yaml:2:1: a second YAML document, expected one document"},
	{"syntax", sys + "cutoffs: [1, 3\n", "paper.yaml:2: invalid YAML: did not find expected ',' or ']'"},
	{"syntax, later line", sys + "title: T\nseed: 1\ngate: {alert_precision: 0.9\n", "paper.yaml:4: invalid YAML: did not find expected ',' or '}'"},
	{"syntax, first line", "[a, b\n", "paper.yaml:1: invalid YAML: did not find expected ',' or ']'"},
	{"unknown alias", sys + "cutoffs: *ks\n", "paper.yaml:2:10: alias *ks names no anchor, expected an anchor &ks defined before it"},
	{"tab indent", sys + "bootstrap:\n\tresamples: 10\n", "paper.yaml:3: invalid YAML: found character that cannot start any token"},

	// Keys.
	{"unknown key", sys + "title: T\ncutof: [1]\n",
		`paper.yaml:3:1: unknown key "cutof", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper (did you mean "cutoffs"?)`},
	{"unknown key, no suggestion", sys + "colour: red\n",
		`paper.yaml:2:1: unknown key "colour", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper`},
	{"unknown nested key", sys + "bootstrap: {resample: 10}\n",
		`paper.yaml:2:13: bootstrap: unknown key "resample", expected one of resamples, unit, method, confidence (did you mean "resamples"?)`},
	{"unknown key in a system", "systems:\n  - name: a\n    input: a.csv\n    inptu: b.csv\n",
		`paper.yaml:4:5: systems[0]: unknown key "inptu", expected one of name, label, input, format, ne_probs (did you mean "input"?)`},
	{"unknown key in a target", sys + "targets: {ne.auroc: {minimum: 0.8}}\n",
		`paper.yaml:2:22: targets[ne.auroc]: unknown key "minimum", expected one of min, max`},
	{"duplicate key", sys + "seed: 1\nseed: 2\n", `paper.yaml:3:1: duplicate key "seed", first at line 2, expected each key once`},
	{"duplicate nested key", sys + "gate: {alert_precision: 0.9, alert_precision: 0.8}\n",
		`paper.yaml:2:30: gate: duplicate key "alert_precision", first at line 2, expected each key once`},
	{"duplicate target", sys + "targets:\n  ne.auroc: {min: 0.8}\n  ne.auroc: {min: 0.9}\n",
		`paper.yaml:4:3: targets: duplicate key "ne.auroc", first at line 3, expected each key once`},
	{"list as a key", sys + "[a]: 1\n", "paper.yaml:2:1: got a list as a key, expected a key name"},
	{"bad merge", sys + "gate: {<<: 3}\n", "paper.yaml:2:12: gate: merge key <<: got the integer 3, expected a mapping or a list of mappings"},

	// Types.
	{"string for an int", sys + "bootstrap: {resamples: many}\n",
		`paper.yaml:2:24: bootstrap.resamples: got the string "many", expected an integer from 0 (no intervals) to 1000000`},
	{"float for an int", sys + "calibration: {bins: 10.5}\n",
		"paper.yaml:2:21: calibration.bins: got the number 10.5, expected an integer from 2 to 1000"},
	{"quoted int", sys + "calibration: {bins: \"10\"}\n",
		`paper.yaml:2:21: calibration.bins: got the string "10", expected an integer from 2 to 1000`},
	{"string for a float", sys + "gate: {screen_sensitivity: high}\n",
		`paper.yaml:2:28: gate.screen_sensitivity: got the string "high", expected a number greater than 0 and at most 1`},
	{"bool for a float", sys + "bootstrap: {confidence: true}\n",
		"paper.yaml:2:25: bootstrap.confidence: got the boolean true, expected a number strictly between 0 and 1"},
	{"list for a mapping", sys + "bootstrap: [10000, post]\n",
		"paper.yaml:2:12: bootstrap: got a list, expected a mapping with resamples, unit, method, confidence"},
	{"mapping for a list", sys + "cutoffs: {k: 10}\n",
		"paper.yaml:2:10: cutoffs: got a mapping, expected a list of positive integers such as [1, 3, 5, 10, 20]"},
	{"scalar for a list", sys + "fpr_targets: 0.05\n",
		"paper.yaml:2:14: fpr_targets: got the number 0.05, expected a list of numbers strictly between 0 and 1 such as [0.01, 0.05]"},
	{"list for a string", sys + "title: [a, b]\n", "paper.yaml:2:8: title: got a list, expected text"},
	{"string in an int list", sys + "cutoffs: [1, ten]\n",
		`paper.yaml:2:14: cutoffs[1]: got the string "ten", expected an integer from 1 to 1000000`},
	{"null in a list", sys + "cutoffs: [1, ~]\n", "paper.yaml:2:14: cutoffs[1]: got null, expected an integer from 1 to 1000000"},
	{"systems is a mapping", "systems: {a: a.csv}\n",
		"paper.yaml:1:10: systems: got a mapping, expected a list of systems, each a mapping with name and input"},
	{"system is a string", "systems:\n  - data/full.csv\n",
		`paper.yaml:2:5: systems[0]: got the string "data/full.csv", expected a mapping with name, input and optionally label, format, ne_probs`},
	{"empty system", "systems:\n  -\n", "paper.yaml:2:4: systems[0]: got no value, expected a mapping with name, input and optionally label, format, ne_probs"},
	{"seed negative", sys + "seed: -1\n", "paper.yaml:2:7: seed: got the integer -1, expected an integer from 0 to 18446744073709551615"},
	{"seed too large", sys + "seed: 18446744073709551616\n",
		"paper.yaml:2:7: seed: got the number 18446744073709551616, expected an integer from 0 to 18446744073709551615"},
	{"seed float", sys + "seed: 1.5\n", "paper.yaml:2:7: seed: got the number 1.5, expected an integer from 0 to 18446744073709551615"},
	{"int too large", sys + "dynamic_k: {hard_cap: 9223372036854775808}\n",
		"paper.yaml:2:23: dynamic_k.hard_cap: got the integer 9223372036854775808, expected an integer from 1 to 1000000"},

	// Top-level values.
	{"empty title", sys + "title: \"  \"\n", "paper.yaml:2:8: title: got an empty value, expected a non-empty title"},
	{"empty out", sys + "out: ''\n", "paper.yaml:2:6: out: got an empty value, expected a non-empty folder path"},
	{"version", sys + "version: 2.0\n",
		`paper.yaml:2:10: version: got "2.0", expected v<N> or v<N>.<N>... such as v2 or v2.0.1, or no version for the next free vN`},
	{"version suffix", sys + "version: v2-rc1\n",
		`paper.yaml:2:10: version: got "v2-rc1", expected v<N> or v<N>.<N>... such as v2 or v2.0.1, or no version for the next free vN`},

	// Systems.
	{"no systems key", "title: T\n", "paper.yaml:1:1: systems: missing, expected at least one system, such as - {name: full, input: data/full.csv}"},
	{"empty systems", "systems: []\n", "paper.yaml:1:10: systems: got no systems, expected at least one system, such as - {name: full, input: data/full.csv}"},
	{"missing name", "systems:\n  - input: a.csv\n", "paper.yaml:2:5: systems[0].name: missing, expected a system name (letters, digits, '_', '.', '-')"},
	{"bad name", "systems: [{name: full pipeline, input: a.csv}]\n",
		`paper.yaml:1:18: systems[0].name: got "full pipeline", expected a name of letters, digits, '_', '.' and '-' that starts with a letter or digit`},
	{"name starts with dot", "systems: [{name: .x, input: a.csv}]\n",
		`paper.yaml:1:18: systems[0].name: got ".x", expected a name of letters, digits, '_', '.' and '-' that starts with a letter or digit`},
	{"baseline name", "systems: [{name: Baseline2, input: a.csv}]\n",
		`paper.yaml:1:18: systems[0].name: got "Baseline2", expected a name that does not start with "baseline" (reserved for baseline:random and baseline:oracle)`},
	{"duplicate name", "systems:\n  - {name: a, input: a.csv}\n  - {name: a, input: b.csv}\n",
		`paper.yaml:3:12: systems[1].name: got "a" again (also systems[0]), expected a different name for each system`},
	{"missing input", "systems: [{name: a}]\n",
		"paper.yaml:1:11: systems[0].input: missing, expected the path of the system's per-query table (.csv, .jsonl) or TREC run"},
	{"empty input", "systems: [{name: a, input: \"\"}]\n", "paper.yaml:1:28: systems[0].input: got an empty value, expected a file path"},
	{"unknown format", "systems: [{name: a, input: a.csv, format: xlsx}]\n",
		`paper.yaml:1:43: systems[0].format: got "xlsx", expected csv, tsv, jsonl, parquet or trec`},
	{"format not inferable", "systems: [{name: a, input: data/a.txt}]\n",
		`paper.yaml:1:28: systems[0].input: cannot tell the format of "data/a.txt" from its extension, expected format: csv, tsv, jsonl, parquet or trec on the system (.csv is read as csv, .tsv and .tab as tsv, .jsonl and .ndjson as jsonl, .parquet and .pq as parquet, each also gzip-compressed with .gz after it: .csv.gz)`},
	{"trec without qrels", "systems: [{name: a, input: run.txt, format: trec}]\n",
		"paper.yaml:1:45: systems[0].format: trec needs the gold from qrels, expected a top-level qrels: key with the TREC qrels file"},
	{"ne_probs without trec", "systems: [{name: a, input: a.csv, ne_probs: ne.csv}]\n",
		"paper.yaml:1:45: systems[0].ne_probs: set on a csv system, expected ne_probs only with format: trec (a per-query table has an ne_prob column)"},
	{"qrels without trec", "qrels: q.txt\n" + sys,
		"paper.yaml:1:8: qrels: set but no system has format: trec, expected qrels only with TREC systems"},
	{"queries without trec", "queries: q.csv\n" + sys,
		"paper.yaml:1:10: queries: set but no system has format: trec, expected queries only with TREC systems"},
	{"unknown reference", "systems: [{name: a, input: a.csv}, {name: b, input: b.csv}]\nreference_system: c\n",
		`paper.yaml:2:19: reference_system: got "c", expected the name of a system: a, b`},

	// Lists.
	{"cutoff zero", sys + "cutoffs: [0, 5]\n", "paper.yaml:2:11: cutoffs[0]: got 0, expected an integer from 1 to 1000000"},
	{"cutoff negative", sys + "cutoffs: [5, -1]\n", "paper.yaml:2:14: cutoffs[1]: got -1, expected an integer from 1 to 1000000"},
	{"cutoff too large", sys + "cutoffs: [1000001]\n", "paper.yaml:2:11: cutoffs[0]: got 1000001, expected an integer from 1 to 1000000"},
	{"cutoff twice", sys + "cutoffs: [10, 5, 10]\n", "paper.yaml:2:18: cutoffs[2]: got 10 again (also cutoffs[0]), expected each cutoff once"},
	{"no cutoffs", sys + "cutoffs: []\n", "paper.yaml:2:10: cutoffs: got an empty list, expected at least one cutoff"},
	{"fpr zero", sys + "fpr_targets: [0, 0.05]\n", "paper.yaml:2:15: fpr_targets[0]: got 0, expected a number strictly between 0 and 1"},
	{"fpr one", sys + "fpr_targets: [1]\n", "paper.yaml:2:15: fpr_targets[0]: got 1, expected a number strictly between 0 and 1"},
	{"fpr nan", sys + "fpr_targets: [.nan]\n", "paper.yaml:2:15: fpr_targets[0]: got NaN, expected a number strictly between 0 and 1"},
	{"fpr twice", sys + "fpr_targets: [0.1, 0.10]\n", "paper.yaml:2:20: fpr_targets[1]: got 0.1 again (also fpr_targets[0]), expected each FPR target once"},
	{"no fpr targets", sys + "fpr_targets: []\n", "paper.yaml:2:14: fpr_targets: got an empty list, expected at least one FPR target"},

	// Bootstrap, calibration, gate.
	{"resamples negative", sys + "bootstrap: {resamples: -1}\n",
		"paper.yaml:2:24: bootstrap.resamples: got -1, expected an integer from 0 (no intervals) to 1000000"},
	{"resamples too many", sys + "bootstrap: {resamples: 1000001}\n",
		"paper.yaml:2:24: bootstrap.resamples: got 1000001, expected an integer from 0 (no intervals) to 1000000"},
	{"unit", sys + "bootstrap: {unit: cluster}\n", `paper.yaml:2:19: bootstrap.unit: got "cluster", expected post or query`},
	{"method", sys + "bootstrap: {method: BCa}\n", `paper.yaml:2:21: bootstrap.method: got "BCa", expected percentile or bca`},
	{"confidence one", sys + "bootstrap: {confidence: 1}\n", "paper.yaml:2:25: bootstrap.confidence: got 1, expected a number strictly between 0 and 1"},
	{"confidence percent", sys + "bootstrap: {confidence: 95}\n", "paper.yaml:2:25: bootstrap.confidence: got 95, expected a number strictly between 0 and 1"},
	{"one bin", sys + "calibration: {bins: 1}\n", "paper.yaml:2:21: calibration.bins: got 1, expected an integer from 2 to 1000"},
	{"too many bins", sys + "calibration: {bins: 1001}\n", "paper.yaml:2:21: calibration.bins: got 1001, expected an integer from 2 to 1000"},
	{"strategy", sys + "calibration: {strategy: equal_mass}\n", `paper.yaml:2:25: calibration.strategy: got "equal_mass", expected uniform or quantile`},
	{"gate zero", sys + "gate: {screen_sensitivity: 0}\n", "paper.yaml:2:28: gate.screen_sensitivity: got 0, expected a number greater than 0 and at most 1"},
	{"gate above one", sys + "gate: {alert_precision: 90}\n", "paper.yaml:2:25: gate.alert_precision: got 90, expected a number greater than 0 and at most 1"},

	// Dynamic-K.
	{"k_min negative", sys + "dynamic_k: {k_min: -1}\n", "paper.yaml:2:20: dynamic_k.k_min: got -1, expected an integer from 0 to 1000000"},
	{"hard_cap zero", sys + "dynamic_k: {hard_cap: 0}\n", "paper.yaml:2:23: dynamic_k.hard_cap: got 0, expected an integer from 1 to 1000000"},
	{"k_max_ratio zero", sys + "dynamic_k: {k_max_ratio: 0}\n", "paper.yaml:2:26: dynamic_k.k_max_ratio: got 0, expected a number greater than 0 and at most 1"},
	{"gamma above one", sys + "dynamic_k: {gamma: 1.1}\n", "paper.yaml:2:20: dynamic_k.gamma: got 1.1, expected a number greater than 0 and at most 1"},
	{"gamma_uncertain negative", sys + "dynamic_k: {gamma_uncertain: -0.5}\n",
		"paper.yaml:2:30: dynamic_k.gamma_uncertain: got -0.5, expected a number greater than 0 and at most 1"},
	{"sweep zero", sys + "dynamic_k: {sweep: [0.9, 0]}\n", "paper.yaml:2:26: dynamic_k.sweep[1]: got 0, expected a number greater than 0 and at most 1"},
	{"sweep twice", sys + "dynamic_k: {sweep: [0.9, 0.9]}\n", "paper.yaml:2:26: dynamic_k.sweep[1]: got 0.9 again (also dynamic_k.sweep[0]), expected each gamma once"},
	{"no sweep", sys + "dynamic_k: {sweep: []}\n", "paper.yaml:2:20: dynamic_k.sweep: got an empty list, expected at least one gamma"},

	// Strata.
	{"strata word", sys + "strata: tertiles\n",
		`paper.yaml:2:9: strata: got the string "tertiles", expected auto, ltr, or a list of [lo, hi] n_pos bands such as [[1, 2], [3, null]]`},
	{"strata mapping", sys + "strata: {lo: 1}\n",
		"paper.yaml:2:9: strata: got a mapping, expected auto, ltr, or a list of [lo, hi] n_pos bands such as [[1, 2], [3, null]]"},
	{"no bands", sys + "strata: []\n",
		"paper.yaml:2:9: strata: got no bands, expected auto, ltr, or a list of [lo, hi] n_pos bands such as [[1, 2], [3, null]]"},
	{"band of three", sys + "strata: [[1, 2, 3]]\n",
		"paper.yaml:2:10: strata[0]: got a list, expected a band [lo, hi] of two integers, hi may be null (no upper bound)"},
	{"band is a number", sys + "strata: [3]\n",
		"paper.yaml:2:10: strata[0]: got the integer 3, expected a band [lo, hi] of two integers, hi may be null (no upper bound)"},
	{"band lo null", sys + "strata: [[~, 3]]\n", "paper.yaml:2:11: strata[0][0]: got null, expected an integer >= 1"},
	{"band lo zero", sys + "strata: [[0, 3]]\n", "paper.yaml:2:11: strata[0][0]: got 0, expected an integer >= 1 (n_pos of a positive query)"},
	{"band hi below lo", sys + "strata: [[5, 3]]\n", "paper.yaml:2:14: strata[0][1]: got 3 below lo = 5, expected an integer >= lo, or null for no upper bound"},
	{"band hi -1", sys + "strata: [[5, -1]]\n", "paper.yaml:2:14: strata[0][1]: got the integer -1, expected an integer >= lo, or null for no upper bound"},
	{"bands overlap", sys + "strata: [[1, 5], [5, 9]]\n",
		"paper.yaml:2:18: strata[1]: band [5, 9] overlaps band [1, 5] (strata[0]), expected bands that do not overlap"},
	{"open band not last", sys + "strata: [[20, null], [1, 5], [6, 30]]\n",
		"paper.yaml:2:10: strata[0]: band [20, null] overlaps band [6, 30] (strata[2]), expected bands that do not overlap"},
	{"open band overlaps", sys + "strata: [[1, null], [3, 5]]\n",
		"paper.yaml:2:21: strata[1]: band [3, 5] overlaps band [1, null] (strata[0]), expected bands that do not overlap"},

	// Contract.
	{"map_denominator", sys + "contract: {map_denominator: min}\n",
		`paper.yaml:2:29: contract.map_denominator: got "min", expected gold, min_gold_k or hits`},
	{"fold_std", sys + "contract: {fold_std: n-1}\n", `paper.yaml:2:22: contract.fold_std: got "n-1", expected sample or population`},
	{"undefined_auroc", sys + "contract: {undefined_auroc: 0.5}\n", `paper.yaml:2:29: contract.undefined_auroc: got "0.5", expected nan or half`},
	{"ndcg_gain", sys + "contract: {ndcg_gain: exp}\n", `paper.yaml:2:23: contract.ndcg_gain: got "exp", expected exponential or linear`},

	// TREC conventions.
	{"relevance_level", sys + "trec: {relevance_level: 0}\n", "paper.yaml:2:25: trec.relevance_level: got 0, expected an integer from 1 to 1000000 (trec_eval -l)"},
	{"no_relevant", sys + "trec: {no_relevant: drop}\n", `paper.yaml:2:21: trec.no_relevant: got "drop", expected zero or skip`},
	{"missing_run", sys + "trec: {missing_run: c}\n", `paper.yaml:2:21: trec.missing_run: got "c", expected skip or zero`},
	{"trec key", sys + "trec: {level: 2}\n", `paper.yaml:2:8: trec: unknown key "level", expected one of relevance_level, no_relevant, missing_run`},

	// Targets.
	{"targets word", sys + "targets: all\n",
		`paper.yaml:2:10: targets: got the string "all", expected none, contract, or a mapping of metric id to {min: x} / {max: x}`},
	{"targets list", sys + "targets: [ne.auroc]\n",
		"paper.yaml:2:10: targets: got a list, expected none, contract, or a mapping of metric id to {min: x} / {max: x}"},
	{"target is a number", sys + "targets: {ne.auroc: 0.85}\n",
		"paper.yaml:2:21: targets[ne.auroc]: got the number 0.85, expected a mapping with min, max or both, such as {min: 0.85}"},
	{"target is null", sys + "targets: {ne.auroc: }\n",
		"paper.yaml:2:21: targets[ne.auroc]: got no value, expected a mapping with min, max or both, such as {min: 0.85}"},
	{"target without bound", sys + "targets: {ne.auroc: {}}\n",
		"paper.yaml:2:21: targets[ne.auroc]: got no bound, expected a mapping with min, max or both, such as {min: 0.85}"},
	{"target id", sys + "targets: {NDCG@10: {min: 0.8}}\n",
		`paper.yaml:2:11: targets: got the metric id "NDCG@10", expected an id such as rank.ndcg@10 or ne.tpr@fpr=0.05`},
	{"target string bound", sys + "targets: {ne.auroc: {min: high}}\n",
		`paper.yaml:2:27: targets[ne.auroc].min: got the string "high", expected a finite number`},
	{"target infinite bound", sys + "targets: {ne.ece: {max: .inf}}\n",
		"paper.yaml:2:25: targets[ne.ece].max: got +Inf, expected a finite number"},
	{"target min above max", sys + "targets: {ne.auroc: {min: 0.9, max: 0.8}}\n",
		"paper.yaml:2:37: targets[ne.auroc].max: got max 0.8 below min 0.9, expected min <= max"},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("paper.yaml", []byte(tc.doc), ".")
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want error %q", tc.doc, c, tc.want)
			}
			if c != nil {
				t.Errorf("Parse returned a Config with an error")
			}
			var list dataset.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not a dataset.ErrorList", err)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("Parse(%q) error\n got: %s\nwant: %s", tc.doc, got, tc.want)
			}
		})
	}
}

func TestParseManyErrors(t *testing.T) {
	// 30 bad cutoffs give 30 errors; only the first dataset.MaxErrors are kept.
	var b strings.Builder
	b.WriteString(sys + "cutoffs:\n")
	for range 30 {
		b.WriteString("  - 0\n")
	}
	_, err := Parse("paper.yaml", []byte(b.String()), ".")
	var list dataset.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Parse: got %v, want an ErrorList", err)
	}
	if len(list) != dataset.MaxErrors {
		t.Fatalf("got %d errors, want %d", len(list), dataset.MaxErrors)
	}
	if got, want := list[0].Error(), "paper.yaml:3:5: cutoffs[0]: got 0, expected an integer from 1 to 1000000"; got != want {
		t.Errorf("first error %q, want %q", got, want)
	}
}

func TestParseSeveralErrorsSorted(t *testing.T) {
	doc := "bootstrap: {unit: cluster}\n" +
		"systems:\n" +
		"  - {name: a, input: a.csv}\n" +
		"  - {name: a, input: b.txt}\n" +
		"seed: x\n"
	want := strings.Join([]string{
		`paper.yaml:1:19: bootstrap.unit: got "cluster", expected post or query`,
		`paper.yaml:4:12: systems[1].name: got "a" again (also systems[0]), expected a different name for each system`,
		`paper.yaml:4:22: systems[1].input: cannot tell the format of "b.txt" from its extension, expected format: csv, tsv, jsonl, parquet or trec on the system (.csv is read as csv, .tsv and .tab as tsv, .jsonl and .ndjson as jsonl, .parquet and .pq as parquet, each also gzip-compressed with .gz after it: .csv.gz)`,
		`paper.yaml:5:7: seed: got the string "x", expected an integer from 0 to 18446744073709551615`,
	}, "\n")
	_, err := Parse("paper.yaml", []byte(doc), ".")
	if err == nil || err.Error() != want {
		t.Errorf("Parse error\n got: %v\nwant: %s", err, want)
	}
}

func TestParseKnownMetric(t *testing.T) {
	doc := sys + "targets:\n  rank.ndcg@10: {min: 0.8}\n  rank.ndgc@10: {min: 0.8}\n"
	known := func(id string) bool { return id == "rank.ndcg@10" }
	_, err := ParseWith("paper.yaml", []byte(doc), ".", Options{KnownMetric: known})
	want := `paper.yaml:4:3: targets: unknown metric id "rank.ndgc@10", expected an id of the metric catalog (docs/metrics.md, or METHODS.md in a bundle)`
	if err == nil || err.Error() != want {
		t.Errorf("ParseWith error\n got: %v\nwant: %s", err, want)
	}
	if _, err := Parse("paper.yaml", []byte(doc), "."); err != nil {
		t.Errorf("Parse without KnownMetric: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "paper.yaml")
	if err := os.WriteFile(path, mustRead(t, "paper_spec.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.File != path || c.Dir != dir {
		t.Errorf("File, Dir = %q, %q; want %q, %q", c.File, c.Dir, path, dir)
	}
	if got, want := c.ResolvePath(c.Systems[0].Input), filepath.Join(dir, "data", "full.csv"); got != want {
		t.Errorf("ResolvePath = %q, want %q", got, want)
	}

	missing := filepath.Join(dir, "nope.yaml")
	_, err = Load(missing)
	want := missing + ": cannot read the configuration (no such file or directory), expected a readable YAML file (name it with -config, or write one with paperbundle init)"
	if err == nil || err.Error() != want {
		t.Errorf("Load(missing) error\n got: %v\nwant: %s", err, want)
	}
}

func TestValidate(t *testing.T) {
	c := Default()
	c.Systems = []System{{Name: "b", Input: "b.jsonl"}, {Name: "a", Input: "a.csv", Label: "A"}}
	c.Cutoffs = []int{10, 1}
	c.Strata = Strata{Bands: []Band{{5, -7}, {1, 4}}}
	c.Targets = Targets{Bounds: map[string]Target{}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []System{{Name: "b", Label: "b", Input: "b.jsonl", Format: "jsonl"}, {Name: "a", Label: "A", Input: "a.csv", Format: "csv"}}
	if !reflect.DeepEqual(c.Systems, want) {
		t.Errorf("Systems = %+v, want %+v", c.Systems, want)
	}
	if !reflect.DeepEqual(c.Cutoffs, []int{1, 10}) {
		t.Errorf("Cutoffs = %v, want [1 10]", c.Cutoffs)
	}
	if !reflect.DeepEqual(c.Strata.Bands, []Band{{1, 4}, {5, -1}}) {
		t.Errorf("Bands = %v, want [{1 4} {5 -1}]", c.Strata.Bands)
	}
	if c.Targets.Bounds != nil {
		t.Errorf("empty Bounds not normalised to nil")
	}

	c.Version = "2"
	c.Bootstrap.Confidence = math.NaN()
	want2 := "config: version: got \"2\", expected v<N> or v<N>.<N>... such as v2 or v2.0.1, or no version for the next free vN\n" +
		"config: bootstrap.confidence: got NaN, expected a number strictly between 0 and 1"
	if err := c.Validate(); err == nil || err.Error() != want2 {
		t.Errorf("Validate error\n got: %v\nwant: %s", err, want2)
	}
}

func TestParseAliasBomb(t *testing.T) {
	// Nine levels of nine aliases would expand to 9^9 nodes if aliases were
	// copied; Parse walks only the schema and each merged mapping once.
	var b strings.Builder
	b.WriteString("systems:\n  - &m0 {name: a, input: a.csv}\n")
	for i := 1; i <= 9; i++ {
		prev := "*m" + string(rune('0'+i-1))
		b.WriteString("  - &m" + string(rune('0'+i)) + " {<<: [" + strings.Repeat(prev+", ", 8) + prev + "], name: s" + string(rune('0'+i)) + "}\n")
	}
	b.WriteString("cutoffs: &l0 [1, 2]\n")
	c, err := Parse("paper.yaml", []byte(b.String()), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Systems) != 10 || c.Systems[9].Input != "a.csv" || c.Systems[9].Name != "s9" {
		t.Errorf("Systems = %+v", c.Systems)
	}

	bomb := "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n" +
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"systems: [{name: x, input: x.csv}]\n" +
		"cutoffs: *d\n"
	_, err = Parse("paper.yaml", []byte(bomb), ".")
	var list dataset.ErrorList
	if !errors.As(err, &list) || len(list) != 13 {
		t.Fatalf("got %v, want 4 unknown keys and 9 type errors", err)
	}
	if got, want := list[4].Error(), "paper.yaml:4:8: cutoffs[0]: got a list, expected an integer from 1 to 1000000"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseMergePrecedence(t *testing.T) {
	// Keys written in the mapping win over merged ones; among merged
	// mappings the first wins (YAML merge key type).
	doc := "systems:\n" +
		"  - <<: [{label: First, input: first.csv}, {label: Second, input: second.jsonl, format: jsonl}]\n" +
		"    name: a\n" +
		"    input: own.csv\n"
	c, err := Parse("paper.yaml", []byte(doc), ".")
	if err != nil {
		t.Fatal(err)
	}
	want := System{Name: "a", Label: "First", Input: "own.csv", Format: "jsonl"}
	if c.Systems[0] != want {
		t.Errorf("system = %+v, want %+v", c.Systems[0], want)
	}
}
