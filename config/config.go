// Package config loads paper.yaml (SPEC 2.3), the user's description of a
// bundle build. It stands before the pipeline it steers:
//
//	paper.yaml -> config -> (inputs -> dataset -> report.Compute -> renderers -> bundle)
//
// The command loads a Config, hands its input paths to dataset, its metric
// options to report.Compute, and its Out and Version to bundle, which also
// records Config.YAML as config.yaml.
//
// Every key has a default (Default). Unknown keys, duplicate keys, wrong
// types and values out of range are *dataset.InputError values that name the
// file, line and column; docs/configuration.md lists every key.
package config

import "path/filepath"

// Config is the resolved configuration of one bundle build.
type Config struct {
	Title           string      `yaml:"title"`
	Version         string      `yaml:"version"` // "" = next free vN
	Out             string      `yaml:"out"`
	Seed            uint64      `yaml:"seed"`
	Qrels           string      `yaml:"qrels,omitempty"`   // TREC qrels, shared by TREC systems
	Queries         string      `yaml:"queries,omitempty"` // TREC query table CSV
	Systems         []System    `yaml:"systems"`
	ReferenceSystem string      `yaml:"reference_system"` // "" = previous system in the list
	Cutoffs         []int       `yaml:"cutoffs"`
	FPRTargets      []float64   `yaml:"fpr_targets"`
	Bootstrap       Bootstrap   `yaml:"bootstrap"`
	Calibration     Calibration `yaml:"calibration"`
	Gate            Gate        `yaml:"gate"`
	DynamicK        DynamicK    `yaml:"dynamic_k"`
	Strata          Strata      `yaml:"strata"`
	Contract        Contract    `yaml:"contract"`
	TREC            TREC        `yaml:"trec"`
	Targets         Targets     `yaml:"targets"`
	Bundle          BundleOpts  `yaml:"bundle"`

	// Dir is the folder paper.yaml was read from; relative input paths are
	// resolved against it. Not part of the YAML.
	Dir string `yaml:"-"`
	// File is the path paper.yaml was read from ("" for a built-in default).
	File string `yaml:"-"`
}

// BundleOpts is the bundle: key: what the bundle keeps besides the
// results.
type BundleOpts struct {
	// CopyInputs keeps a gzip copy of every input under inputs/ (default),
	// so verify can recompute the bundle; false keeps their hashes only.
	CopyInputs bool `yaml:"copy_inputs"`
}

// System is one entry of systems:.
type System struct {
	Name    string `yaml:"name"`
	Label   string `yaml:"label"`              // default: Name
	Input   string `yaml:"input"`              // per-query table (.csv, .jsonl) or TREC run
	Format  string `yaml:"format,omitempty"`   // csv, tsv, jsonl, parquet or trec; inferred from Input's extension when not written
	NEProbs string `yaml:"ne_probs,omitempty"` // TREC only: CSV query_id, ne_prob
}

// Bootstrap is the bootstrap: key: how confidence intervals are computed
// (SPEC 6).
type Bootstrap struct {
	Resamples  int     `yaml:"resamples"`  // default 10000
	Unit       string  `yaml:"unit"`       // post (default) | query
	Method     string  `yaml:"method"`     // percentile (default) | bca
	Confidence float64 `yaml:"confidence"` // default 0.95
}

// Calibration is the calibration: key: the bins of ne.ece and of the
// reliability diagram (SPEC 4.1).
type Calibration struct {
	Bins     int    `yaml:"bins"`     // default 10
	Strategy string `yaml:"strategy"` // uniform (default) | quantile
}

// Gate is the gate: key: the requirements the three-state clinical gate
// thresholds are chosen to meet on tune rows (SPEC 4.4).
type Gate struct {
	ScreenSensitivity float64 `yaml:"screen_sensitivity"` // default 0.995
	AlertPrecision    float64 `yaml:"alert_precision"`    // default 0.90
}

// DynamicK is the dynamic_k: key: the evidence-selection policy applied when
// a row has no selected_uids (SPEC 4.3), and the gamma sweep.
type DynamicK struct {
	KMin           int       `yaml:"k_min"`           // default 2
	HardCap        int       `yaml:"hard_cap"`        // default 10
	KMaxRatio      float64   `yaml:"k_max_ratio"`     // default 0.5
	Gamma          float64   `yaml:"gamma"`           // default 0.9
	GammaUncertain float64   `yaml:"gamma_uncertain"` // default 0.95
	Sweep          []float64 `yaml:"sweep"`           // default [0.7, 0.8, 0.9, 0.95]
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
// contracts disagree (SPEC 9).
type Contract struct {
	MAPDenominator string `yaml:"map_denominator"` // gold (default) | min_gold_k | hits
	FoldStd        string `yaml:"fold_std"`        // sample (default) | population
	UndefinedAUROC string `yaml:"undefined_auroc"` // nan (default) | half
	NDCGGain       string `yaml:"ndcg_gain"`       // exponential (default) | linear
}

// TREC is the trec: key: the conventions of TREC input, trec_eval's by
// default (SPEC 2.2). It applies only to systems with format trec.
type TREC struct {
	RelevanceLevel int    `yaml:"relevance_level"` // default 1: relevant when grade >= this (trec_eval -l)
	NoRelevant     string `yaml:"no_relevant"`     // zero (default) | skip: a judged query with no relevant document
	MissingRun     string `yaml:"missing_run"`     // skip (default) | zero (trec_eval -c): a qrels query with no run line
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
// the built-in table (DefaultTargets: seed 002 targets, seed 003 reference
// ranges) is used; otherwise Bounds is the whole table (nil for `none`).
// Use Config.TargetFor rather than reading the fields.
type Targets struct {
	Default bool
	Bounds  map[string]Target
}

// Target is a bound on a metric: value >= Min when Min is set, value <= Max
// when Max is set.
type Target struct {
	Min *float64 `yaml:"min,omitempty"`
	Max *float64 `yaml:"max,omitempty"`
}

// ReferenceFor returns the index of the system that system i is compared
// against (SPEC 4.8): the one named by reference_system when it is set, else
// the previous system in the list. ok is false when system i has no
// reference: it is the reference itself, it is the first system and
// reference_system is empty, or i is out of range.
func (c *Config) ReferenceFor(i int) (ref int, ok bool) {
	if i < 0 || i >= len(c.Systems) {
		return -1, false
	}
	if c.ReferenceSystem == "" {
		if i == 0 {
			return -1, false
		}
		return i - 1, true
	}
	for j, s := range c.Systems {
		if s.Name == c.ReferenceSystem {
			if j == i {
				return -1, false
			}
			return j, true
		}
	}
	return -1, false
}

// ResolvePath returns p relative to the folder paper.yaml was read from
// (c.Dir). An empty or absolute p is returned unchanged.
func (c *Config) ResolvePath(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return filepath.Join(c.Dir, p)
}
