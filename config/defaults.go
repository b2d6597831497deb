package config

import "strconv"

// Values of the enumerated keys. The fields of Config hold them as plain
// strings (they are what paper.yaml spells); these constants name them.
const (
	FormatCSV     = "csv"     // systems[].format: per-query table, CSV
	FormatJSONL   = "jsonl"   // systems[].format: per-query table, JSON Lines
	FormatTSV     = "tsv"     // systems[].format: per-query table, tab-separated
	FormatParquet = "parquet" // systems[].format: per-query table, Apache Parquet
	FormatTREC    = "trec"    // systems[].format: TREC run, gold from qrels

	UnitPost  = "post"  // bootstrap.unit: resample posts (clusters)
	UnitQuery = "query" // bootstrap.unit: resample queries

	MethodPercentile = "percentile" // bootstrap.method
	MethodBCa        = "bca"        // bootstrap.method: bias-corrected and accelerated

	StrategyUniform  = "uniform"  // calibration.strategy: equal-width bins
	StrategyQuantile = "quantile" // calibration.strategy: equal-mass bins

	MAPGold     = "gold"       // contract.map_denominator: |gold| (trec_eval)
	MAPMinGoldK = "min_gold_k" // contract.map_denominator: min(|gold|, K)
	MAPHits     = "hits"       // contract.map_denominator: relevant hits in the top K

	FoldStdSample     = "sample"     // contract.fold_std: n - 1
	FoldStdPopulation = "population" // contract.fold_std: n

	UndefinedNaN  = "nan"  // contract.undefined_auroc: undefined (null)
	UndefinedHalf = "half" // contract.undefined_auroc: 0.5

	GainExponential = "exponential" // contract.ndcg_gain: 2^rel - 1
	GainLinear      = "linear"      // contract.ndcg_gain: rel (trec_eval)

	NoRelevantZero = "zero" // trec.no_relevant: scored 0, as trec_eval
	NoRelevantSkip = "skip" // trec.no_relevant: left out of the ranking population

	MissingRunSkip = "skip" // trec.missing_run: left out of that system
	MissingRunZero = "zero" // trec.missing_run: scored 0 (trec_eval -c)
)

// Limits of the integer keys.
const (
	MaxResamples = 1_000_000 // bootstrap.resamples
	// MinResamples is the fewest resamples of a bootstrap that publishes
	// intervals (0 publishes none): with fewer, a 95% percentile interval
	// is made of the one or two extreme resamples.
	MinResamples = 50
	// FewResamples: below it, a build warns that the intervals' ends
	// vary from seed to seed in their second decimal.
	FewResamples = 1000
	MaxCutoff    = 1_000_000 // cutoffs, dynamic_k.k_min, dynamic_k.hard_cap
	MinBins      = 2         // calibration.bins
	MaxBins      = 1000      // calibration.bins
)

// DefaultSeed is the seed of every random choice when paper.yaml names none.
const DefaultSeed uint64 = 20260118

// Default returns the configuration with every key at its default
// (SPEC 2.3). It has no systems, so it does not validate by itself: Parse
// starts from it and overlays what paper.yaml says.
func Default() *Config {
	return &Config{
		Title:      "Paper bundle",
		Version:    "",
		Out:        "results/paper_bundle",
		Seed:       DefaultSeed,
		Cutoffs:    []int{1, 3, 5, 10, 20},
		FPRTargets: []float64{0.01, 0.03, 0.05, 0.10},
		Bootstrap: Bootstrap{
			Resamples:  10000,
			Unit:       UnitPost,
			Method:     MethodPercentile,
			Confidence: 0.95,
		},
		Calibration: Calibration{Bins: 10, Strategy: StrategyUniform},
		Gate:        Gate{ScreenSensitivity: 0.995, AlertPrecision: 0.90},
		DynamicK: DynamicK{
			KMin:           2,
			HardCap:        10,
			KMaxRatio:      0.5,
			Gamma:          0.9,
			GammaUncertain: 0.95,
			Sweep:          []float64{0.7, 0.8, 0.9, 0.95},
		},
		Strata: Strata{Auto: true},
		Bundle: BundleOpts{CopyInputs: true},
		Contract: Contract{
			MAPDenominator: MAPGold,
			FoldStd:        FoldStdSample,
			UndefinedAUROC: UndefinedNaN,
			NDCGGain:       GainExponential,
		},
		TREC:    TREC{RelevanceLevel: 1, NoRelevant: NoRelevantZero, MissingRun: MissingRunSkip},
		Targets: Targets{Default: true},
	}
}

// LTRBands returns the bands of the strata preset "ltr" (seed 001): n_pos in
// [3, 10], [11, 50] and 51 or more.
func LTRBands() []Band {
	return []Band{{Lo: 3, Hi: 10}, {Lo: 11, Hi: 50}, {Lo: 51, Hi: -1}}
}

// Open reports whether b has no upper bound.
func (b Band) Open() bool { return b.Hi < 0 }

// Contains reports whether nPos lies in b: Lo <= nPos and, unless b is open,
// nPos <= Hi.
func (b Band) Contains(nPos int) bool {
	return nPos >= b.Lo && (b.Open() || nPos <= b.Hi)
}

// String formats b as it appears in a slice name (SPEC 7, "stratum=4-7"):
// "lo-hi", or "lo+" for an open band.
func (b Band) String() string {
	if b.Open() {
		return strconv.Itoa(b.Lo) + "+"
	}
	return strconv.Itoa(b.Lo) + "-" + strconv.Itoa(b.Hi)
}
