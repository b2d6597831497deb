package report

import (
	"math"
	"strconv"

	"paperbundle/config"
	"paperbundle/internal/numtext"
)

// Text words the bootstrap settings for a reader of the paper, in plain
// text, for example
//
//	percentile bootstrap, 10,000 resamples of posts, 95% confidence level, seed 42
//
// Every output that states the settings (report.html, METHODS.md,
// SUMMARY.md, the captions of paper/, tables.xlsx's README sheet, the
// console summary) uses this text, each escaping it for its format, so
// the settings read the same everywhere. seed is Settings.Seed, the seed
// of the resamples. With no resamples the text says there are no
// intervals.
func (b BootstrapSettings) Text(seed uint64) string {
	if b.Resamples <= 0 {
		return "none (bootstrap.resamples is 0)"
	}
	method := string(b.Method) + " bootstrap"
	switch b.Method {
	case config.MethodPercentile:
		method = "percentile bootstrap"
	case config.MethodBCa:
		method = "BCa (bias-corrected and accelerated) bootstrap"
	}
	unit := string(b.Unit) + " units"
	switch b.Unit {
	case config.UnitPost:
		unit = "posts"
	case config.UnitQuery:
		unit = "queries"
	}
	resamples := numtext.Thousands(int64(b.Resamples)) + " resamples of " + unit
	if b.Resamples == 1 {
		resamples = "1 resample of " + unit
	}
	return method + ", " + resamples + ", " + b.Level() + " confidence level, seed " + strconv.FormatUint(seed, 10)
}

// Level is the confidence level as a percentage, "95%" for 0.95: at most
// four decimals, so that 0.975 is "97.5%" and not the float64 product
// 97.50000000000001.
func (b BootstrapSettings) Level() string {
	return strconv.FormatFloat(math.Round(1e6*b.Confidence)/1e4, 'f', -1, 64) + "%"
}

// ThresholdOrigin words where the report's thresholds were chosen, for a
// caption: "chosen on tune rows only"; "cross-fitted on the other folds'
// eval rows (the input has no tune rows)"; both when some folds have tune
// rows and others do not; "" when no fold has a threshold. Text never
// claims tune rows the input does not have.
func (r *Report) ThresholdOrigin() string {
	if !r.Has(HeldOut) && !r.Has(ClinicalGate) {
		return "" // nothing in the report uses a threshold (a TREC run)
	}
	tune, cross := r.ThresholdSources()
	switch {
	case tune && !cross:
		return "chosen on tune rows only"
	case tune:
		return "chosen on tune rows only, or for a fold without tune rows cross-fitted on the other folds' eval rows"
	case cross:
		return "cross-fitted on the other folds' eval rows (the input has no tune rows)"
	}
	return ""
}

// ThresholdSources says where the outer folds' thresholds come from: tune
// reports some fold choosing them on its own tune rows, cross some fold
// (one without tune rows) cross-fitting them on the other folds' eval
// rows. Both are false when no fold has either.
func (r *Report) ThresholdSources() (tune, cross bool) {
	for _, f := range r.Dataset.Folds {
		cross = cross || f.CrossFitted
		tune = tune || (!f.CrossFitted && f.TuneRows > 0)
	}
	return tune, cross
}

// BootstrapText is Bootstrap.Text in the words of the kind of input, for
// settings read without their dataset: a TREC query or a classifier's
// case is then taken to be its own resampling unit. Report.BootstrapText
// knows whether post_id groups them, and is the one renderers use.
func (s Settings) BootstrapText() string {
	return VocabularyOf(s.InputKind).Say(s.Bootstrap.Text(s.Seed))
}

// BootstrapText is Bootstrap.Text in the words of the report's input: for
// evidence retrieval the unit is the post; a TREC query or a classifier's
// case is its own unit, unless post_id groups several of them, and then
// the unit is the group of queries (of cases) that share a post_id, which
// the bootstrap draws whole.
func (r *Report) BootstrapText() string {
	return r.Vocabulary().Say(r.Settings.Bootstrap.Text(r.Settings.Seed))
}
