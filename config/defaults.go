package config

import "strconv"

// The enumerated keys. Each has a named string type, shared with the
// report's settings where the report records the value; the constants are
// what paper.yaml spells. A key's allowed values are listed once, in its
// row of the key table (keys.go), from these constants.
type (
	Format         string // systems[].format
	Unit           string // bootstrap.unit
	Method         string // bootstrap.method
	Strategy       string // calibration.strategy
	MAPDenominator string // contract.map_denominator
	FoldStd        string // contract.fold_std
	UndefinedAUROC string // contract.undefined_auroc
	NDCGGain       string // contract.ndcg_gain
	NoRelevant     string // trec.no_relevant
	MissingRun     string // trec.missing_run
	Comparisons    string // comparisons
	Correction     string // significance.correction
	Venue          string // paper.venue
	Uncertainty    string // paper.uncertainty
)

const (
	FormatCSV     Format = "csv"     // per-query table, CSV
	FormatTSV     Format = "tsv"     // per-query table, tab-separated
	FormatJSONL   Format = "jsonl"   // per-query table, JSON Lines
	FormatParquet Format = "parquet" // per-query table, Apache Parquet
	FormatTREC    Format = "trec"    // TREC run, gold from qrels

	UnitPost  Unit = "post"  // resample posts (clusters)
	UnitQuery Unit = "query" // resample queries

	MethodPercentile Method = "percentile"
	MethodBCa        Method = "bca" // bias-corrected and accelerated

	StrategyUniform  Strategy = "uniform"  // equal-width bins
	StrategyQuantile Strategy = "quantile" // equal-mass bins

	MAPGold     MAPDenominator = "gold"       // |gold| (trec_eval)
	MAPMinGoldK MAPDenominator = "min_gold_k" // min(|gold|, K)
	MAPHits     MAPDenominator = "hits"       // relevant hits in the top K

	FoldStdSample     FoldStd = "sample"     // n - 1
	FoldStdPopulation FoldStd = "population" // n

	UndefinedNaN  UndefinedAUROC = "nan"  // undefined (null)
	UndefinedHalf UndefinedAUROC = "half" // 0.5

	GainExponential NDCGGain = "exponential" // 2^rel - 1
	GainLinear      NDCGGain = "linear"      // rel (trec_eval)

	NoRelevantZero NoRelevant = "zero" // scored 0, as trec_eval
	NoRelevantSkip NoRelevant = "skip" // left out of the ranking population

	MissingRunSkip MissingRun = "skip" // left out of that system
	MissingRunZero MissingRun = "zero" // scored 0 (trec_eval -c)

	ComparePrimary   Comparisons = "primary"   // the primary against every other system
	CompareReference Comparisons = "reference" // every system against reference_system
	CompareLadder    Comparisons = "ladder"    // each system against the one listed before it
	CompareAllPairs  Comparisons = "all_pairs" // every unordered pair once

	CorrectionHolm Correction = "holm" // Holm within one metric's comparisons
	CorrectionNone Correction = "none" // none (p_holm = p)

	VenueACM     Venue = "acm"     // acmart sigconf
	VenueIEEE    Venue = "ieee"    // IEEEtran conference
	VenueNeurIPS Venue = "neurips" // NeurIPS (one column)
	VenueLNCS    Venue = "lncs"    // Springer llncs (one column)
	VenueCustom  Venue = "custom"  // column_width, text_width, body_size given

	UncertaintyCI  Uncertainty = "ci"  // [low, high] after each value
	UncertaintyStd Uncertainty = "std" // ± fold std after each value
	// UncertaintyCIRow puts the intervals of a row on a row of their own.
	UncertaintyCIRow Uncertainty = "ci-row"
	UncertaintyNone  Uncertainty = "none" // the value alone
)

// Default returns the configuration with every key at its default, as
// the key table (keys.go) gives it. It has no systems, so it does not
// validate by itself: Parse starts from it and overlays what paper.yaml
// says. Each call returns new slices.
func Default() *Config {
	c := &Config{}
	for _, k := range keyTable {
		if k.val != nil {
			k.val.setDefault(c)
		}
	}
	return c
}

// LTRBands returns the bands of the strata preset "ltr" (the bands of a
// learning-to-rank evaluation methodology): n_pos in
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

// String formats b as it appears in a slice name ("stratum=4-7"):
// "lo-hi", or "lo+" for an open band.
func (b Band) String() string {
	if b.Open() {
		return strconv.Itoa(b.Lo) + "+"
	}
	return strconv.Itoa(b.Lo) + "-" + strconv.Itoa(b.Hi)
}
