// Package config loads paper.yaml (docs/configuration.md), the user's description of a
// bundle build. It stands before the pipeline it steers:
//
//	paper.yaml -> config -> (inputs -> dataset -> report.Compute -> renderers -> bundle)
//
// The command loads a Config, hands its input paths to dataset, its metric
// options to report.Compute, and its Out and Version to bundle, which also
// records Config.YAML as config.yaml.
//
// Every key is one row of the key table (table.go): how it is read,
// checked, defaulted, written to config.yaml, written by init's template
// (Template) and documented; the tables of docs/configuration.md are
// generated from it. Every key has a default (Default). Unknown keys,
// duplicate keys, wrong types and values out of range are
// *dataset.InputError values that name the file, line and column.
package config

import (
	"path/filepath"

	"paperbundle/metrics"
)

// Config is the resolved configuration of one bundle build.
type Config struct {
	Title           string
	Version         string // "" = next free vN
	Out             string
	Seed            uint64
	Qrels           string // TREC qrels, shared by TREC systems
	Queries         string // TREC query table CSV
	Systems         []System
	Primary         string      // the primary system; Parse resolves "" to the first one listed
	Comparisons     Comparisons // which pairs are compared: primary (default) | reference | ladder | all_pairs
	ReferenceSystem string      // comparisons: reference only; Parse resolves "" to the last system listed
	Significance    Significance
	Cutoffs         []int
	FPRTargets      []float64
	OperatingPoints []float64 // fixed probability thresholds tau of the ne.*@tau=X metrics
	Bootstrap       Bootstrap
	Calibration     Calibration
	Gate            Gate
	DynamicK        DynamicK
	Strata          Strata
	Contract        Contract
	TREC            TREC
	Targets         Targets
	// Headline replaces the headline set of the kind of input (nil: that
	// set, report.DefaultHeadline).
	Headline []metrics.ID
	Bundle   BundleOpts
	Paper    Paper

	// Dir is the folder paper.yaml was read from; relative input paths are
	// resolved against it. Not part of the YAML.
	Dir string
	// File is the path paper.yaml was read from ("" for a built-in default).
	File string
}

// BundleOpts is the bundle: key: what the bundle keeps besides the
// results.
type BundleOpts struct {
	// CopyInputs keeps a gzip copy of every input under inputs/ (default),
	// so verify can recompute the bundle; false keeps their hashes only.
	CopyInputs bool
}

// Paper is the paper: key: the geometry and number style of the bundle's
// paper/ folder (tables, figures and numbers.tex sized for a venue).
type Paper struct {
	Venue       Venue       // acm (default) | ieee | neurips | lncs | custom
	FontSize    float64     // pt of every text in the paper figures; default 8
	Uncertainty Uncertainty // ci (default) | std | none: what follows a number in paper tables
	Decimals    int         // decimals of paper numbers; default 3
	ColumnWidth float64     // pt, venue custom only (required there)
	TextWidth   float64     // pt, venue custom only (required there)
	BodySize    float64     // pt, venue custom only (required there)
	// Results and RankingSystems compose results.tex and
	// ranking_systems.tex (zero: the default sets).
	Results, RankingSystems Composition
	// Captions replace the caption of a table or figure, by its id.
	Captions map[string]string
	// CopyTo is a folder that receives a copy of paper/ after each build
	// ("" none), relative to Dir.
	CopyTo string
}

// System is one entry of systems:.
type System struct {
	Name    string
	Label   string // default: Name
	Input   string // per-query table (.csv, .jsonl) or TREC run
	Format  Format // csv, jsonl or trec; inferred from Input's extension when not written
	NEProbs string // TREC only: CSV query_id, ne_prob
}

// Significance is the significance: key: the level of the paired tests
// between systems and the correction for multiple comparisons (Holm's
// family is one metric id over every compared pair).
type Significance struct {
	Alpha      float64    // default 0.05
	Correction Correction // holm (default) | none
}

// Bootstrap is the bootstrap: key: how confidence intervals are computed
// (docs/statistics.md).
type Bootstrap struct {
	Resamples  int     // default 10000
	Unit       Unit    // post (default) | query
	Method     Method  // percentile (default) | bca
	Confidence float64 // default 0.95
}

// Calibration is the calibration: key: the bins of ne.ece and of the
// reliability diagram (equal-width edges k/M, docs/metrics.md).
type Calibration struct {
	Bins     int      // default 10
	Strategy Strategy // uniform (default) | quantile
}

// Gate is the gate: key: the requirements the three-state clinical gate
// thresholds are chosen to meet on tune rows (docs/metrics.md "Thresholds").
type Gate struct {
	ScreenSensitivity float64 // default 0.995
	AlertPrecision    float64 // default 0.90
}

// DynamicK is the dynamic_k: key: the evidence-selection policy applied when
// a row has no selected_uids (docs/metrics.md "Dynamic-K"), and the gamma sweep.
type DynamicK struct {
	KMin           int       // default 2
	HardCap        int       // default 10
	KMaxRatio      float64   // default 0.5
	Gamma          float64   // default 0.9
	GammaUncertain float64   // default 0.95
	Sweep          []float64 // default [0.7, 0.8, 0.9, 0.95]
}

// Strata is the strata: key: either Auto (up to three bands at the n_pos
// tertiles, found by the report) or explicit bands, sorted by Lo and not
// overlapping after Parse. The preset "ltr" loads as LTRBands.
type Strata struct {
	Auto  bool
	Bands []Band // Hi < 0 means no upper bound
}

// Band is an inclusive n_pos range [Lo, Hi]; Hi = -1 is open-ended.
type Band struct{ Lo, Hi int }

// Contract is the contract: key: the convention chosen where the metric
// contracts disagree (docs/metrics.md "Conventions").
type Contract struct {
	MAPDenominator MAPDenominator // gold (default) | min_gold_k | hits
	FoldStd        FoldStd        // sample (default) | population
	UndefinedAUROC UndefinedAUROC // nan (default) | half
	NDCGGain       NDCGGain       // exponential (default) | linear
}

// TREC is the trec: key: the conventions of TREC input, trec_eval's by
// default (docs/input-format.md). It applies only to systems with format trec.
type TREC struct {
	RelevanceLevel int        // default 1: relevant when grade >= this (trec_eval -l)
	NoRelevant     NoRelevant // zero (default) | skip: a judged query with no relevant document
	MissingRun     MissingRun // skip (default) | zero (trec_eval -c): a qrels query with no run line
}

// HasTREC reports whether any system is a TREC run.
func (c *Config) HasTREC() bool {
	for _, s := range c.Systems {
		if s.Format == FormatTREC {
			return true
		}
	}
	return false
}

// Targets holds the bound each metric id should meet. Default is true when
// the built-in table is used (`targets: contract`, or its earlier spelling
// `default`: DefaultTargets, the table of docs/configuration.md "targets");
// otherwise Bounds is the whole table (nil for `none`, the
// default). Targets apply only to metrics that exist for the data.
// Use Config.TargetFor rather than reading the fields.
type Targets struct {
	Default bool
	Bounds  map[string]Target
}

// Target is a bound on a metric: value >= Min when Min is set, value <= Max
// when Max is set.
type Target struct {
	Min *float64
	Max *float64
}

// Pair is one comparison between systems (indexes into Systems): the
// difference is System minus Reference.
type Pair struct{ System, Reference int }

// PrimaryIndex returns the index of the primary system: the one named by
// primary, else the first one listed (-1 without systems).
func (c *Config) PrimaryIndex() int {
	for i, s := range c.Systems {
		if s.Name == c.Primary {
			return i
		}
	}
	if len(c.Systems) == 0 {
		return -1
	}
	return 0
}

// referenceIndex returns the index of the reference system of comparisons:
// reference: the one named by reference_system, else the last one listed.
func (c *Config) referenceIndex() int {
	for i, s := range c.Systems {
		if s.Name == c.ReferenceSystem {
			return i
		}
	}
	return len(c.Systems) - 1
}

// Pairs returns the pairs of systems compared under the comparisons mode,
// in a fixed order:
//
//   - primary (default, also ""): the primary against every other system
//     in list order, {primary, other}: positive differences mean the
//     primary is better on a higher-is-better metric;
//   - reference: every other system against reference_system, {system,
//     reference};
//   - ladder: each system against the one listed before it, {system,
//     previous};
//   - all_pairs: every unordered pair once, in list order, {earlier,
//     later}.
func (c *Config) Pairs() []Pair {
	n := len(c.Systems)
	var out []Pair
	switch c.Comparisons {
	case CompareReference:
		r := c.referenceIndex()
		for i := 0; i < n; i++ {
			if i != r {
				out = append(out, Pair{i, r})
			}
		}
	case CompareLadder:
		for i := 1; i < n; i++ {
			out = append(out, Pair{i, i - 1})
		}
	case CompareAllPairs:
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				out = append(out, Pair{i, j})
			}
		}
	default:
		p := c.PrimaryIndex()
		for i := 0; i < n; i++ {
			if i != p {
				out = append(out, Pair{p, i})
			}
		}
	}
	return out
}

// ResolvePath returns p relative to the folder paper.yaml was read from
// (c.Dir). An empty or absolute p is returned unchanged.
func (c *Config) ResolvePath(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return filepath.Join(c.Dir, p)
}
