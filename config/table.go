package config

//go:generate go test -run TestDocsKeyTable -update .

// The key table. Each row is one key of paper.yaml, in the order
// config.yaml writes them; adding a key is adding a row (and its field
// of Config). Docs: `go test ./config -update` rewrites the tables of
// docs/configuration.md from it.

// Expectations named by errors, shared by type errors and range errors.
const (
	wantText       = "text"
	wantPath       = "a file path"
	wantName       = "a system name"
	wantRate       = "a number strictly between 0 and 1"
	wantShare      = "a number greater than 0 and at most 1"
	wantCutoff     = "an integer from 1 to 1000000"
	wantStrata     = "auto, ltr, or a list of [lo, hi] n_pos bands such as [[1, 2], [3, null]]"
	wantBand       = "a band [lo, hi] of two integers, hi may be null (no upper bound)"
	wantBandLo     = "an integer >= 1"
	wantBandHi     = "an integer >= lo, or null for no upper bound"
	wantTarget     = "a mapping with min, max or both, such as {min: 0.85}"
	wantBound      = "a finite number"
	wantTopMapping = "a mapping of configuration keys"
	wantTargets    = "none, contract, or a mapping of metric id to {min: x} / {max: x}"
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

// formats are the values of systems[].format.
var formats = []Format{FormatCSV, FormatTSV, FormatJSONL, FormatParquet, FormatTREC}

// wantFormat is "csv, tsv, jsonl, parquet or trec".
var wantFormat = enumVal[Format]{values: formats}.allowedText()

// A SystemKey is one key of an entry of systems:, all of them text.
type SystemKey struct {
	Name     string
	Required bool
	Want     string // the expectation of a value of the wrong type
	Default  string // docs
	Allowed  string // docs
	get      func(*System) string
	set      func(*System, string)
}

// systemKeys are the keys of an entry of systems:, in config.yaml's order.
var systemKeys = []SystemKey{
	{Name: "name", Required: true, Want: wantName, Default: "*(required)*",
		Allowed: "`^[A-Za-z0-9][A-Za-z0-9_.-]*$`, unique, must not start with `baseline` (any case)",
		get:     func(s *System) string { return s.Name }, set: func(s *System, v string) { s.Name = v }},
	{Name: "label", Want: wantText, Default: "the `name`", Allowed: "any text",
		get: func(s *System) string { return s.Label }, set: func(s *System, v string) { s.Label = v }},
	{Name: "input", Required: true, Want: wantPath, Default: "*(required)*",
		Allowed: "the per-query table (`.csv`, `.tsv`, `.tab`, `.jsonl`, `.ndjson`, `.parquet`, `.pq`) or the TREC run (any name, with `format: trec`); any of them gzip-compressed with `.gz` after the name",
		get:     func(s *System) string { return s.Input }, set: func(s *System, v string) { s.Input = v }},
	{Name: "format", Want: wantFormat,
		Default: "from `input`'s name: `.csv` csv, `.tsv`/`.tab` tsv, `.jsonl`/`.ndjson` jsonl, `.parquet`/`.pq` parquet, each also with `.gz` after it", Allowed: "`csv`, `tsv`, `jsonl`, `parquet` or `trec` (any case; a TREC run always needs `format: trec`)",
		get: func(s *System) string { return string(s.Format) }, set: func(s *System, v string) { s.Format = Format(v) }},
	{Name: "ne_probs", Want: wantPath, Default: "*(none)*", Allowed: "CSV `query_id, ne_prob`; only with `format: trec`",
		get: func(s *System) string { return s.NEProbs }, set: func(s *System, v string) { s.NEProbs = v }},
}

// SystemKeys returns the keys of an entry of systems:.
func SystemKeys() []SystemKey { return systemKeys }

// keyRows is the key table. It is a function so that the rows can name
// the checks of the decoder.
//
// It is one long list of rows, longer than 100 lines: a row per key is the
// point of the table.
func keyRows() []Key {
	return append([]Key{
		{Path: "title", Want: wantText, Allowed: "any non-blank text", Init: initCaller,
			val: textVal{get: func(c *Config) *string { return &c.Title }, def: "Paper bundle", want: "a non-empty title", required: true}},
		{Path: "version", Want: "a version such as v2 or v2.0", Init: initSkip,
			Default: "*(empty: the next free `vN`)*", Allowed: "`^v[0-9]+(\\.[0-9]+)*$`, e.g. `v2`, `v2.0.1`",
			val: textVal{get: func(c *Config) *string { return &c.Version }}, post: checkVersion},
		{Path: "out", Want: wantPath, Allowed: "a non-blank folder path (the bundle root)",
			Note: "          # the bundle goes to out/<version>/",
			val:  textVal{get: func(c *Config) *string { return &c.Out }, def: "results/paper_bundle", want: "a non-empty folder path", required: true}},
		{Path: "seed", Want: "an integer from 0 to 18446744073709551615", Allowed: "an integer from 0 to 18446744073709551615",
			Note: "                   # bootstrap seed: same inputs + config + seed = same bytes",
			val:  seedVal{}},
		{Path: "qrels", Want: wantPath, Init: initCaller, Applies: ForTREC, Default: "*(none)*",
			Allowed: "TREC qrels file (`qid 0 docno rel`; `.gz` after the name: gzip-compressed); required when a system has `format: trec`, not allowed otherwise",
			val:     textVal{get: func(c *Config) *string { return &c.Qrels }, want: wantPath}},
		{Path: "queries", Want: wantPath, Init: initSkip, Applies: ForTREC, Default: "*(none)*",
			Allowed: "TREC query table CSV (`query_id, post_id, criterion_id, fold, split`); only with TREC systems",
			val:     textVal{get: func(c *Config) *string { return &c.Queries }, want: wantPath}},
		{Path: "systems", Want: "a list of systems, each a mapping with name and input", Init: initCaller,
			Default: "*(required)*", Allowed: "a list of one to 32 systems (see below)", val: systemsVal{}, post: checkSystemCount},
		{Path: "primary", Want: wantName, Init: initPlaceholder, Default: "*(empty: the first system listed)*",
			Allowed: "the `name` of one of the systems: the one the report leads with",
			Note:    "                # the system the report leads with (default: the first one listed)",
			val:     textVal{get: func(c *Config) *string { return &c.Primary }, want: wantName},
			post:    func(d *decoder, c *Config) { d.checkNamed("primary", c.Primary, c) }},
		{Path: "comparisons", Allowed: "`primary`, `reference`, `ladder` or `all_pairs` (see below)",
			Note: "             # which systems are compared, on the same queries, with paired tests:\n" +
				"                                 #   primary: the primary against every other system; a positive difference\n" +
				"                                 #     means the primary is better (on a higher-is-better metric)\n" +
				"                                 #   reference: every system against reference_system (default: the last listed)\n" +
				"                                 #   ladder: each system against the one listed before it (an ablation ladder)\n" +
				"                                 #   all_pairs: every pair once",
			val: enumVal[Comparisons]{get: func(c *Config) *Comparisons { return &c.Comparisons }, def: ComparePrimary,
				values: []Comparisons{ComparePrimary, CompareReference, CompareLadder, CompareAllPairs}},
			pre: resolveComparisons, post: checkComparisonCount},
		{Path: "reference_system", Want: wantName, Init: initPlaceholder, Default: "*(empty: the last system listed)*",
			Allowed: "the `name` of one of the systems; only with `comparisons: reference`",
			Note:    "       # with comparisons: reference only",
			val:     textVal{get: func(c *Config) *string { return &c.ReferenceSystem }, want: wantName},
			post:    checkReference},
		{Path: "significance", Group: true, Note: "   # correction: holm (within each metric's comparisons) or none"},
		{Path: "significance.alpha", Want: wantRate, Allowed: "a number in (0, 1): a comparison is significant when `p_holm < alpha`",
			val: floatVal{get: func(c *Config) *float64 { return &c.Significance.Alpha }, def: 0.05, open: true}},
		{Path: "significance.correction", Allowed: "`holm` (within one metric id's comparisons) or `none` (`p_holm` = `p`)",
			val: enumVal[Correction]{get: func(c *Config) *Correction { return &c.Significance.Correction }, def: CorrectionHolm,
				values: []Correction{CorrectionHolm, CorrectionNone}}},
		{Path: "cutoffs", Want: "a list of positive integers such as [1, 3, 5, 10, 20]", Applies: ForRanking,
			Allowed:  "a non-empty list of distinct integers from 1 to 1000000; sorted on load",
			Note:     "              # K of Recall@K, nDCG@K, ...; the headline is 10 when listed",
			NoteTREC: "              # trec_eval's cutoffs (P_5 ... P_1000); the headline is 10",
			val: intsVal{get: func(c *Config) *[]int { return &c.Cutoffs }, def: []int{1, 3, 5, 10, 20},
				lo: 1, hi: MaxCutoff, elemWant: wantCutoff, what: "cutoff"}},
		{Path: "fpr_targets", Want: "a list of numbers strictly between 0 and 1 such as [0.01, 0.05]", Applies: ForNE,
			Allowed: "a non-empty list of distinct numbers in (0, 1); sorted on load",
			Note:    "    # false-positive budgets of the ne_prob threshold; thresholds chosen on tune rows",
			val: floatsVal{get: func(c *Config) *[]float64 { return &c.FPRTargets }, def: []float64{0.01, 0.03, 0.05, 0.10},
				open: true, what: "FPR target"}},
		{Path: "operating_points", Want: "a list of numbers greater than 0 and at most 1 such as [0.5]", Applies: ForNE,
			Allowed: "a non-empty list of distinct numbers in (0, 1]: the fixed thresholds tau of the `ne.*@tau=X` metrics; sorted on load",
			Note:    "            # fixed probability thresholds tau of the ne.*@tau=X metrics",
			val:     floatsVal{get: func(c *Config) *[]float64 { return &c.OperatingPoints }, def: []float64{0.5}, what: "operating point"}},
		{Path: "bootstrap", Group: true, Note: "   # unit: post or query; method: percentile or bca"},
		{Path: "bootstrap.resamples", Want: "an integer from 0 (no intervals) to 1000000",
			Allowed: "integer from 0 to 1000000; `0` = no confidence intervals; 1 to 49 is refused, below 1000 the report warns",
			val:     intVal{get: func(c *Config) *int { return &c.Bootstrap.Resamples }, def: 10000, lo: 0, hi: MaxResamples},
			post:    checkResamples},
		{Path: "bootstrap.unit", Allowed: "`post` (all queries of a post move together) or `query`",
			val: enumVal[Unit]{get: func(c *Config) *Unit { return &c.Bootstrap.Unit }, def: UnitPost, values: []Unit{UnitPost, UnitQuery}}},
		{Path: "bootstrap.method", Allowed: "`percentile` or `bca`",
			val: enumVal[Method]{get: func(c *Config) *Method { return &c.Bootstrap.Method }, def: MethodPercentile,
				values: []Method{MethodPercentile, MethodBCa}}},
		{Path: "bootstrap.confidence", Want: wantRate, Allowed: "a number in (0, 1)",
			val: floatVal{get: func(c *Config) *float64 { return &c.Bootstrap.Confidence }, def: 0.95, open: true}},
		{Path: "calibration", Group: true, Applies: ForNE, Note: "   # strategy: uniform (equal width) or quantile"},
		{Path: "calibration.bins", Want: "an integer from 2 to 1000", Allowed: "an integer from 2 to 1000",
			val: intVal{get: func(c *Config) *int { return &c.Calibration.Bins }, def: 10, lo: MinBins, hi: MaxBins}},
		{Path: "calibration.strategy", Allowed: "`uniform` (equal width) or `quantile` (equal mass)",
			val: enumVal[Strategy]{get: func(c *Config) *Strategy { return &c.Calibration.Strategy }, def: StrategyUniform,
				values: []Strategy{StrategyUniform, StrategyQuantile}}},
		{Path: "gate", Group: true, Applies: ForNE, Note: "   # targets of the three-state gate"},
		{Path: "gate.screen_sensitivity", Want: wantShare, Allowed: "a number in (0, 1]",
			val: floatVal{get: func(c *Config) *float64 { return &c.Gate.ScreenSensitivity }, def: 0.995}},
		{Path: "gate.alert_precision", Want: wantShare, Allowed: "a number in (0, 1]",
			val: floatVal{get: func(c *Config) *float64 { return &c.Gate.AlertPrecision }, def: 0.90}},
		{Path: "dynamic_k", Group: true, Applies: ForDynamicK},
		{Path: "dynamic_k.k_min", Want: "an integer from 0 to 1000000", Allowed: "an integer from 0 to 1000000",
			val: intVal{get: func(c *Config) *int { return &c.DynamicK.KMin }, def: 2, lo: 0, hi: MaxCutoff}},
		{Path: "dynamic_k.hard_cap", Want: "an integer from 1 to 1000000", Allowed: "an integer from 1 to 1000000",
			val: intVal{get: func(c *Config) *int { return &c.DynamicK.HardCap }, def: 10, lo: 1, hi: MaxCutoff}},
		{Path: "dynamic_k.k_max_ratio", Want: wantShare, Allowed: "a number in (0, 1]",
			val: floatVal{get: func(c *Config) *float64 { return &c.DynamicK.KMaxRatio }, def: 0.5}},
		{Path: "dynamic_k.gamma", Want: wantShare, Allowed: "a number in (0, 1]",
			val: floatVal{get: func(c *Config) *float64 { return &c.DynamicK.Gamma }, def: 0.9}},
		{Path: "dynamic_k.gamma_uncertain", Want: wantShare, Allowed: "a number in (0, 1]",
			val: floatVal{get: func(c *Config) *float64 { return &c.DynamicK.GammaUncertain }, def: 0.95}},
		{Path: "dynamic_k.sweep", Want: "a list of numbers greater than 0 and at most 1 such as [0.7, 0.9]",
			Allowed: "a non-empty list of distinct numbers in (0, 1]; sorted on load",
			val: floatsVal{get: func(c *Config) *[]float64 { return &c.DynamicK.Sweep }, def: []float64{0.7, 0.8, 0.9, 0.95},
				what: "gamma"}},
		{Path: "strata", Want: wantStrata, Applies: ForRanking, Allowed: "`auto`, `ltr`, or a list of `[lo, hi]` bands (see below)",
			Note: "                     # n_pos strata: auto, ltr, or a list of [lo, hi] bands",
			val:  strataVal{}},
		{Path: "contract", Group: true, Note: "   # where the metric contracts disagree (docs/configuration.md)"},
		{Path: "contract.map_denominator",
			Allowed: "`gold` (\\|gold\\|, trec_eval), `min_gold_k` (min(\\|gold\\|, K)), `hits` (hits in the top K)",
			val: enumVal[MAPDenominator]{get: func(c *Config) *MAPDenominator { return &c.Contract.MAPDenominator }, def: MAPGold,
				values: []MAPDenominator{MAPGold, MAPMinGoldK, MAPHits}}},
		{Path: "contract.fold_std", Allowed: "`sample` (n - 1) or `population` (n)",
			val: enumVal[FoldStd]{get: func(c *Config) *FoldStd { return &c.Contract.FoldStd }, def: FoldStdSample,
				values: []FoldStd{FoldStdSample, FoldStdPopulation}}},
		{Path: "contract.undefined_auroc", Allowed: "`nan` (undefined, null, \"n/a\") or `half` (0.5)",
			val: enumVal[UndefinedAUROC]{get: func(c *Config) *UndefinedAUROC { return &c.Contract.UndefinedAUROC }, def: UndefinedNaN,
				values: []UndefinedAUROC{UndefinedNaN, UndefinedHalf}}},
		{Path: "contract.ndcg_gain", Allowed: "`exponential` (2^rel - 1) or `linear` (rel, as trec_eval)",
			val: enumVal[NDCGGain]{get: func(c *Config) *NDCGGain { return &c.Contract.NDCGGain }, def: GainExponential,
				values: []NDCGGain{GainExponential, GainLinear}}},
		// trec: is written to config.yaml only when it applies, so that the
		// config.yaml of other inputs keeps its bytes.
		{Path: "trec", Group: true, Applies: ForTREC, written: (*Config).HasTREC,
			Note: "   # trec_eval's: -l; a judged query with no relevant document scores 0; missing_run: zero = trec_eval -c"},
		{Path: "trec.relevance_level", Want: "an integer from 1 to 1000000 (trec_eval -l)",
			Allowed: "a document is relevant when its qrels grade is at least this (trec_eval `-l`)",
			val:     intVal{get: func(c *Config) *int { return &c.TREC.RelevanceLevel }, def: 1, lo: 1, hi: MaxCutoff}},
		{Path: "trec.no_relevant",
			Allowed: "`zero`: a judged query with no relevant document is ranked and scores 0, as trec_eval (ranking population `judged_queries`); `skip`: it is left out of the ranking (population `positives_only`)",
			val: enumVal[NoRelevant]{get: func(c *Config) *NoRelevant { return &c.TREC.NoRelevant }, def: NoRelevantZero,
				values: []NoRelevant{NoRelevantZero, NoRelevantSkip}}},
		{Path: "trec.missing_run",
			Allowed: "`skip`: a qrels query with no run line is left out of that system (runs that cover different queries: each system on its own, each comparison on the queries both have); `zero`: it is evaluated with nothing retrieved and scores 0 (trec_eval `-c`)",
			val: enumVal[MissingRun]{get: func(c *Config) *MissingRun { return &c.TREC.MissingRun }, def: MissingRunSkip,
				values: []MissingRun{MissingRunSkip, MissingRunZero}}},
		{Path: "targets", Want: wantTargets,
			Allowed: "`none`, `contract` (`default`, the earlier spelling, is read as `contract`), or a mapping of metric id to bounds (see below)",
			Note:    "                    # target badges: none, contract (the metric contracts' targets), or metric id: {min: x} / {max: x}",
			val:     targetsVal{}},
		{Path: "headline", Want: wantHeadline, Init: initCaller,
			Default: "*(the kind of input's: TREC runs `rank.map`, `rank.precision@H`, `rank.ndcg@H`, `rank.recall@R`, `rank.mrr`; a classifier `ne.auroc`, `ne.auprc`, with probabilities `ne.brier`, `ne.ece`, `ne.sensitivity@tau=X`, `ne.specificity@tau=X` at the first operating point; evidence retrieval the registry's headline metrics)*",
			Allowed: "a list of metric ids (docs/metrics.md), each once: the columns of the results matrix, SUMMARY.md, the cards and paper/results.tex, and the first rows of the changes, in this order; an id the inputs do not support stops the build",
			written: func(c *Config) bool { return len(c.Headline) > 0 },
			val:     headlineVal{}},
		{Path: "bundle", Group: true, Note: "        # keep a copy of the inputs so verify can recompute the bundle"},
		{Path: "bundle.copy_inputs", Want: "true or false",
			Allowed: "keep a gzip copy of every input under `inputs/` so `verify` can recompute the bundle; `false` keeps their sha256 only",
			val:     boolVal{get: func(c *Config) *bool { return &c.Bundle.CopyInputs }, def: true}},
		{Path: "paper", Group: true, Note: "   # paper/: venue acm, ieee, neurips, lncs or custom; uncertainty ci, std or none",
			post: checkPaperWidths},
		{Path: "paper.venue", Allowed: "`acm`, `ieee`, `neurips`, `lncs` or `custom`: the geometry of `paper/` (see below)",
			val: enumVal[Venue]{get: func(c *Config) *Venue { return &c.Paper.Venue }, def: VenueACM,
				values: []Venue{VenueACM, VenueIEEE, VenueNeurIPS, VenueLNCS, VenueCustom}}},
		{Path: "paper.font_size", Want: "a number of points from 4 to 24", Allowed: "points, 4 to 24: every text of a `paper/figures/*.pdf` at print size",
			val: floatVal{get: func(c *Config) *float64 { return &c.Paper.FontSize }, def: 8, lo: 4, hi: 24}},
		{Path: "paper.uncertainty", Allowed: "`ci` (`[low, high]` under each value, at `\\footnotesize`), `ci-row` (the same row of intervals at the body size), `std` (± fold std) or `none`: what follows a number in `paper/tables/`",
			val: enumVal[Uncertainty]{get: func(c *Config) *Uncertainty { return &c.Paper.Uncertainty }, def: UncertaintyCI,
				values: []Uncertainty{UncertaintyCI, UncertaintyCIRow, UncertaintyStd, UncertaintyNone}}},
		{Path: "paper.decimals", Want: "an integer from 0 to 6", Allowed: "an integer from 0 to 6: decimals of the paper tables and of `paper/numbers.tex`",
			val: intVal{get: func(c *Config) *int { return &c.Paper.Decimals }, def: 3, lo: 0, hi: 6}},
		{Path: "paper.column_width", Want: "a length in points from 50 to 2000", written: isCustomVenue,
			Default: "*(venue custom only, required there)*", Allowed: "points, 50 to 2000: the column width",
			val: lengthVal{get: func(c *Config) *float64 { return &c.Paper.ColumnWidth }, lo: 50, hi: 2000}},
		{Path: "paper.text_width", Want: "a length in points from 50 to 2000", written: isCustomVenue,
			Default: "*(venue custom only, required there)*", Allowed: "points, 50 to 2000: the text width (at least the column width; equal for one column)",
			val: lengthVal{get: func(c *Config) *float64 { return &c.Paper.TextWidth }, lo: 50, hi: 2000}},
		{Path: "paper.body_size", Want: "a number of points from 5 to 20", written: isCustomVenue,
			Default: "*(venue custom only, required there)*", Allowed: "points, 5 to 20: the body text size",
			val: lengthVal{get: func(c *Config) *float64 { return &c.Paper.BodySize }, lo: 5, hi: 20}},
	}, paperKeyRows()...)
}

// isCustomVenue: the three paper lengths are written with venue custom
// only (a named venue takes them from its class).
func isCustomVenue(c *Config) bool { return c.Paper.Venue == VenueCustom }
