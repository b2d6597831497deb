package metrics

//go:generate go test -run TestBaseConstants -update .

import (
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Population says which queries a metric is computed over (the dual
// protocol: all queries or positive queries only; docs/metrics.md
// "Populations").
type Population string

const (
	AllQueries    Population = "all_queries"    // every eval row
	PositivesOnly Population = "positives_only" // eval rows with has_evidence = 1
	// JudgedQueries is the ranking population of TREC input with
	// trec.no_relevant: zero: every evaluated query of the qrels, a query
	// with no relevant document scoring 0 (as trec_eval).
	JudgedQueries Population = "judged_queries"
	Posts         Population = "posts" // posts whose every criterion is in eval
	PredPositive  Population = "predicted_positive"
)

// Direction says whether a higher value is better.
type Direction string

const (
	Higher  Direction = "higher"
	Lower   Direction = "lower"
	Neutral Direction = "none"
)

// Param is the kind of parameter that follows "@" in a metric id.
type Param int

const (
	NoParam     Param = iota
	ParamK            // @10
	ParamFPR          // @fpr=0.05
	ParamTau          // @tau=0.5
	ParamGamma        // @gamma=0.9
	ParamPct          // @p=0.25 (percentile query-specific K)
	ParamRecall       // @recall=0.1 (interpolated precision at a recall level)
	ParamMult         // @mult=0.2 (a multiple of the query's relevant documents, Rprec_mult)
)

// Kind says how a value is shown: a count, a rate or score with 4
// decimals, or a free number.
type Kind int

const (
	KindScore   Kind = iota // in [0, 1] unless Range says otherwise, 4 decimals
	KindCount               // integer
	KindValue               // any real, 4 decimals
	KindPer1000             // per 1,000 queries, 2 decimals
)

// Def is one entry of the metric registry: everything a renderer needs to
// know about a metric besides its value.
type Def struct {
	Base       Base // id without the parameter, e.g. "rank.recall"
	Param      Param
	Title      string // short human name; "K" in it is replaced by the cutoff
	Population Population
	Direction  Direction
	Kind       Kind
	Lo, Hi     float64   // range of valid values (Hi < Lo: unbounded)
	Variant    string    // the convention used, when the contracts disagree
	Definition string    // Markdown: formula and edge cases
	Meaning    string    // one-line interpretation for the reader, shown beside the value
	Tables     []TableID // the tables that show the metric, in registry order
	Headline   bool      // a headline metric: in the scorecard (cutoff metrics at the headline cutoff)
	// TrecEval is the name trec_eval 10 prints for the metric, with the
	// parameter as K or X (P_K, iprec_at_recall_X); "" when trec_eval has
	// none. TrecEvalName writes it for one id.
	TrecEval string
	// Compared marks a metric compared between systems besides the
	// headline ones: the compared set is the headline metrics plus these
	// (InComparisons, ComparedIDs), cutoff metrics at the headline cutoff.
	Compared bool
}

// InComparisons reports whether the metric is compared between systems:
// a headline metric, or one flagged Compared.
func (d Def) InComparisons() bool { return d.Headline || d.Compared }

// ComparedIDs returns the ids of the metrics compared between systems, in
// registry order, with cutoff metrics at the headline cutoff h.
func ComparedIDs(h int) []ID {
	registryIndex()
	var out []ID
	for _, d := range defs {
		if !d.InComparisons() {
			continue
		}
		switch d.Param {
		case NoParam:
			out = append(out, d.Base.ID())
		case ParamK:
			out = append(out, d.Base.At(h))
		}
	}
	return out
}

// Family returns the part of the id before the first dot.
func (d Def) Family() string { return d.Base.Family() }

// ID returns the metric id for parameter value x (ignored without a param).
func (d Def) ID(x float64) ID {
	switch d.Param {
	case ParamK:
		return d.Base.At(int(x))
	case ParamFPR:
		return d.Base.AtFPR(x)
	case ParamTau:
		return d.Base.AtTau(x)
	case ParamGamma:
		return d.Base.AtGamma(x)
	case ParamPct:
		return d.Base.AtPct(x)
	case ParamRecall:
		return d.Base.AtRecall(x)
	case ParamMult:
		return d.Base.AtMult(x)
	}
	return d.Base.ID()
}

// FormatParam writes a number in an id the way the id scheme asks
// (docs/metrics.md "Ids"):
// strconv.FormatFloat(x, 'g', -1, 64).
func FormatParam(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

type regKey struct {
	base  Base
	param Param
}

var (
	registryOnce sync.Once
	registry     map[regKey]*Def
)

// registryIndex builds the lookup table once every init has appended its
// definitions (on first use; safe for concurrent use).
func registryIndex() map[regKey]*Def {
	registryOnce.Do(func() {
		m := make(map[regKey]*Def, len(defs))
		for i := range defs {
			d := &defs[i]
			k := regKey{d.Base, d.Param}
			if _, dup := m[k]; dup {
				panic("metrics: duplicate registry entry " + string(d.ID(10)))
			}
			m[k] = d
		}
		registry = m
	})
	return registry
}

// ParseID splits a metric id into its base and the kind of its parameter.
func ParseID(id ID) (base Base, p Param, arg string) {
	i := strings.IndexByte(string(id), '@')
	if i < 0 {
		return Base(id), NoParam, ""
	}
	base, arg = Base(id[:i]), string(id[i+1:])
	for _, pre := range []struct {
		s string
		p Param
	}{{"fpr=", ParamFPR}, {"tau=", ParamTau}, {"gamma=", ParamGamma}, {"p=", ParamPct}, {"recall=", ParamRecall}, {"mult=", ParamMult}} {
		if strings.HasPrefix(arg, pre.s) {
			return base, pre.p, arg[len(pre.s):]
		}
	}
	return base, ParamK, arg
}

// Lookup returns the definition of a metric id such as "rank.ndcg@10" or
// "ne.tpr@fpr=0.05".
func Lookup(id ID) (Def, bool) {
	base, p, _ := ParseID(id)
	d, ok := registryIndex()[regKey{base, p}]
	if !ok {
		return Def{}, false
	}
	return *d, true
}

// MustDef returns the definition of a metric id; it panics for an unknown
// id (a programmer's mistake).
func MustDef(id ID) Def {
	d, ok := Lookup(id)
	if !ok {
		panic("metrics: unknown metric " + string(id))
	}
	return d
}

// Defs returns every definition, sorted by base id.
func Defs() []Def {
	out := make([]Def, len(defs))
	copy(out, defs)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Base != out[j].Base {
			return out[i].Base < out[j].Base
		}
		return out[i].Param < out[j].Param
	})
	return out
}

const unbounded = -1 // Hi < Lo

var defs = []Def{
	// NE gate, classification (all queries, score = ne_prob).
	{Base: "ne.auroc", Tables: []TableID{TableNEGate, TablePerCriterion}, Headline: true, Title: "AUROC", Population: AllQueries, Direction: Higher, Hi: 1,
		Definition: "Area under the ROC curve of `ne_prob` against has_evidence: the probability that a random positive query scores higher than a random negative one, ties counting one half (as scikit-learn's `roc_auc_score`). Undefined when only one class is present.",
		Meaning:    "How well the NE gate separates queries with evidence from queries without; 0.5 is chance."},
	{Base: "ne.auprc", Tables: []TableID{TableNEGate, TablePerCriterion}, Headline: true, Title: "AUPRC", Population: AllQueries, Direction: Higher, Hi: 1, Variant: "step-wise average precision",
		Definition: "Average precision: $\\sum_n (R_n - R_{n-1}) P_n$ over the distinct thresholds in descending order (scikit-learn's `average_precision_score`; not the trapezoidal area). Chance level is the positive rate. Undefined without positives.",
		Meaning:    "Precision of evidence alerts averaged over all sensitivity levels; compare with the positive rate, not 0.5."},
	{Base: "ne.tpr", Param: ParamFPR, Tables: []TableID{TableNEGate}, Title: "TPR at FPR ≤ X (in-sample)", Population: AllQueries, Direction: Higher, Hi: 1, Variant: "in-sample, descriptive",
		Definition: "The largest TPR on the eval ROC step curve whose FPR is at most X, with the threshold that gives it (metric specification document §2.3). The threshold is chosen on the same rows it is measured on, so this is optimistic; the held-out value is `ne.heldout_tpr`.",
		Meaning:    "Sensitivity reachable at this false-alarm budget if the threshold were known in advance (optimistic)."},
	{Base: "ne.tpr_threshold", Param: ParamFPR, Tables: []TableID{TableNEGate}, Title: "Threshold for TPR at FPR ≤ X (in-sample)", Population: AllQueries, Direction: Neutral, Hi: 1,
		Definition: "The probability threshold that gives `ne.tpr@fpr=X` (a query is positive when p ≥ threshold).",
		Meaning:    "The in-sample operating threshold; not for deployment."},
	{Base: "ne.heldout_tpr", Param: ParamFPR, Tables: []TableID{TableNEGate}, Title: "Held-out TPR at FPR budget X", Population: AllQueries, Direction: Higher, Hi: 1, Variant: "threshold from tune rows",
		Definition: "For each fold, the threshold with the largest TPR whose FPR on that fold's `tune` rows is at most X (highest threshold among ties) is applied to the fold's `eval` rows; TP and FN are summed over folds: TPR = ΣTP / (ΣTP + ΣFN) (end-to-end metrics specification A.10, G).",
		Meaning:    "Share of evidence queries caught at the deployed false-alarm budget, honestly measured."},
	{Base: "ne.heldout_fpr", Param: ParamFPR, Tables: []TableID{TableNEGate}, Title: "Held-out FPR at FPR budget X", Population: AllQueries, Direction: Lower, Hi: 1, Variant: "threshold from tune rows",
		Definition: "The FPR achieved on `eval` rows by the tune-chosen thresholds of `ne.heldout_tpr`, pooled over folds: ΣFP / (ΣFP + ΣTN). It may exceed the budget X.",
		Meaning:    "False-alarm rate actually reached at the deployed threshold; compare with the budget."},
	{Base: "ne.brier", Compared: true, Tables: []TableID{TableCalibration}, Title: "Brier score", Population: AllQueries, Direction: Lower, Hi: 1,
		Definition: "Mean squared error between `ne_prob` and has_evidence: $\\frac1N\\sum_i (p_i - y_i)^2$ (scikit-learn's `brier_score_loss`).",
		Meaning:    "Overall accuracy of the evidence probabilities; 0 is perfect."},
	{Base: "ne.ece", Tables: []TableID{TableCalibration}, Headline: true, Title: "ECE (equal width)", Population: AllQueries, Direction: Lower, Hi: 1, Variant: "equal-width bins, last bin closed",
		Definition: "Expected calibration error over M equal-width bins (default 10): bin k holds $k/M \\le p < (k+1)/M$, the last bin also holds p = 1; $\\mathrm{ECE} = \\sum_k \\frac{n_k}{N}\\,|\\bar y_k - \\bar p_k|$. Empty bins contribute nothing.",
		Meaning:    "Average gap between predicted and observed evidence rates; below 0.05 is well calibrated."},
	{Base: "ne.ece_equal_mass", Tables: []TableID{TableCalibration}, Title: "ECE (equal mass)", Population: AllQueries, Direction: Lower, Hi: 1, Variant: "equal-count bins",
		Definition: "ECE with M bins of (nearly) equal count: the queries sorted by p (ties negatives first) are cut into M consecutive blocks whose sizes differ by at most one, the first n mod M one larger (numpy's `array_split` of the sorted order). scikit-learn's `calibration_curve(strategy=\"quantile\")` instead bins by value between quantile edges, so ties make its bins unequal.",
		Meaning:    "Calibration gap where the data are; less sensitive to empty high-probability bins."},
	{Base: "ne.calibration_intercept", Tables: []TableID{TableCalibration}, Title: "Calibration intercept", Population: AllQueries, Direction: Neutral, Lo: 0, Hi: unbounded,
		Definition: "Calibration-in-the-large: the intercept $a$ of the logistic model $\\mathrm{logit}\\,P(y=1) = a + \\mathrm{logit}(p)$ (slope fixed at 1); 0 is ideal. p is clipped to [1e-6, 1 − 1e-6] (a probability of exactly 0 or 1 has no logit); when many probabilities lie within the clip of 0 or 1, the clip decides the intercept, and the report warns.",
		Meaning:    "Below 0: probabilities too high on average; above 0: too low."},
	{Base: "ne.calibration_slope", Tables: []TableID{TableCalibration}, Title: "Calibration slope", Population: AllQueries, Direction: Neutral, Lo: 0, Hi: unbounded,
		Definition: "The slope $b$ of the logistic recalibration $\\mathrm{logit}\\,P(y=1) = a + b\\,\\mathrm{logit}(p)$; 1 is ideal. p is clipped to [1e-6, 1 − 1e-6] (a probability of exactly 0 or 1 has no logit); when many probabilities lie within the clip of 0 or 1, the clip decides the slope, and the report warns.",
		Meaning:    "Below 1: probabilities too extreme; above 1: too timid."},
	{Base: "ne.spiegelhalter_z", Tables: []TableID{TableCalibration}, Title: "Spiegelhalter's Z", Population: AllQueries, Direction: Neutral, Lo: 0, Hi: unbounded,
		Definition: "$Z = \\sum (y_i - p_i)(1 - 2p_i) / \\sqrt{\\sum (1-2p_i)^2 p_i (1-p_i)}$, approximately standard normal under perfect calibration.",
		Meaning:    "|Z| above 1.96 is evidence of miscalibration at the 5% level."},
	{Base: "ne.spiegelhalter_p", Tables: []TableID{TableCalibration}, Title: "Spiegelhalter's p-value", Population: AllQueries, Direction: Neutral, Hi: 1,
		Definition: "Two-sided normal p-value of Spiegelhalter's Z.",
		Meaning:    "Small values indicate miscalibration."},
}
