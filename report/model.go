// Package report is the middle of the pipeline: Compute turns a validated
// dataset.Dataset (package dataset) and the resolved configuration (package
// config) into one read-only *Report holding every number of the bundle
// (point estimates, per-fold values, bootstrap intervals, curves, checks,
// comparisons, capabilities, the typed per-query rows). The bootstrap itself
// (column sums, the sum matrix, AVX2 kernels, tail quantiles) runs in
// report/engine. This package also writes and reads the Report's own files
// (metrics_master.json: JSON and Decode; per_query_metrics.csv:
// WritePerQueryCSV and ReadPerQueryCSV). Everything downstream only reads the
// Report: tables (long tables, paper tables), figures (specs, then
// figures/plot and figures/echarts), templates (report.html), and compare
// (Diff of two Reports).
package report

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/toolid"
	"paperbundle/metrics"
)

// SchemaVersion of metrics_master.json. 2: the capabilities (with the
// reason for each absent one) replace the sections, and comparisons follow
// the comparison mode with one test per (system, reference, metric).
const SchemaVersion = 2

// Num is a float64 that is written to JSON as null when it is undefined
// (NaN or infinite): undefined is null, never 0 (docs/metrics.md).
type Num float64

// NaN is the undefined Num.
var NaN = Num(math.NaN())

// Valid reports whether n is a finite number.
func (n Num) Valid() bool { return !math.IsNaN(float64(n)) && !math.IsInf(float64(n), 0) }

// MarshalJSON writes null for an undefined number, else the shortest
// representation that round-trips.
func (n Num) MarshalJSON() ([]byte, error) {
	if !n.Valid() {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(n), 'g', -1, 64), nil
}

// UnmarshalJSON reads null as NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = NaN
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = Num(f)
	return err
}

// Nums converts a slice.
func Nums(x []float64) []Num {
	out := make([]Num, len(x))
	for i, v := range x {
		out[i] = Num(v)
	}
	return out
}

// Report is everything the bundle shows, computed once.
type Report struct {
	SchemaVersion  int            `json:"schema_version"`
	Version        string         `json:"version"`
	Title          string         `json:"title"`
	Tool           string         `json:"tool"`
	ToolBuild      *toolid.ID     `json:"tool_build,omitempty"` // the build identity of the tool that computed it
	Generated      string         `json:"generated,omitempty"`  // from SOURCE_DATE_EPOCH only
	Dataset        DatasetSummary `json:"dataset"`
	Systems        []SystemInfo   `json:"systems"`
	Capabilities   Capabilities   `json:"capabilities"`
	Thresholds     []Thresholds   `json:"thresholds"`
	Checks         []Check        `json:"checks"`
	Curves         Curves         `json:"curves"`
	Metrics        []Metric       `json:"metrics"`
	Distributions  []Distribution `json:"distributions"`
	ComparisonMode string         `json:"comparison_mode"` // the comparisons mode: primary, reference, ladder or all_pairs
	Comparisons    []Comparison   `json:"comparisons"`
	Warnings       []string       `json:"warnings"`
	Settings       Settings       `json:"settings"`

	PerQuery        []Evidence     `json:"-"` // the per-query evidence; per_query_metrics.csv is its text
	PerQueryFields  EvidenceFields `json:"-"` // which of Evidence's fields apply
	PerQueryColumns []metrics.ID   `json:"-"` // metric ids of the evidence's values (Evidence.Value)

	index    map[metricKey]int
	recorded map[string]bool // settings keys of the decoded metrics_master.json; nil: every one (see SettingRecorded)
}

// DatasetSummary describes the validated input.
type DatasetSummary struct {
	Systems          int            `json:"systems"`
	Rows             int            `json:"rows"`
	EvalQueries      int            `json:"eval_queries"`
	TuneRows         int            `json:"tune_rows"`
	TrainRowsIgnored int            `json:"train_rows_ignored"`
	Posts            int            `json:"posts"`
	Criteria         []string       `json:"criteria"`
	Folds            []FoldSummary  `json:"folds"`
	PositiveQueries  int            `json:"positive_queries"`
	PositiveRate     Num            `json:"positive_rate"`
	CandidatesMean   Num            `json:"candidates_per_query_mean"`
	CandidatesMin    int            `json:"candidates_per_query_min"`
	CandidatesMax    int            `json:"candidates_per_query_max"`
	GoldMean         Num            `json:"gold_per_positive_query_mean"`
	GoldMissing      int            `json:"gold_missing_from_candidates"`
	TRECRunOnly      map[string]int `json:"trec_run_queries_without_qrels,omitempty"`
	TRECQrelsOnly    map[string]int `json:"trec_qrels_queries_without_run,omitempty"`
	// SystemQueries is, when the systems are evaluated on different
	// queries (TREC runs under missing_run: skip), how many eval queries
	// each system is evaluated on; absent when they share every query.
	SystemQueries map[string]int `json:"system_eval_queries,omitempty"`
	// TRECConventions is how TREC input was read (trec: in paper.yaml);
	// absent without TREC input.
	TRECConventions *TRECConventions `json:"trec_conventions,omitempty"`
	Notes           []string         `json:"notes"`
}

// TRECConventions is how TREC input was read: the relevance level
// (trec_eval -l), what a judged query with no relevant document scores
// (zero, as trec_eval, or skip) and what a qrels query with no run line
// does (skip, or zero as trec_eval -c).
type TRECConventions struct {
	RelevanceLevel int    `json:"relevance_level"`
	NoRelevant     string `json:"no_relevant"`
	MissingRun     string `json:"missing_run"`
}

// FoldSummary is one outer fold.
type FoldSummary struct {
	Fold        int  `json:"fold"`
	Posts       int  `json:"posts"`
	EvalQueries int  `json:"eval_queries"`
	Positives   int  `json:"positives"`
	TuneRows    int  `json:"tune_rows"`
	CrossFitted bool `json:"cross_fitted"` // no tune rows: thresholds from other folds' eval rows
}

// SystemInfo names a system and its role. Systems lists the pipelines of
// the inputs in configuration order (the first is primary), then the
// baselines the tool computed.
type SystemInfo struct {
	Name      string     `json:"name"`
	Label     string     `json:"label"`
	Kind      SystemKind `json:"kind"`
	Source    string     `json:"source"`
	Reference string     `json:"reference,omitempty"`
	Primary   bool       `json:"primary"`
}

// Settings are the facts of the resolved configuration that every renderer
// needs: with them a Report decoded from metrics_master.json renders the
// same tables and figures as the one just computed, and no renderer reads
// the configuration.
type Settings struct {
	HeadlineCutoff  int                  `json:"headline_cutoff"` // the K of every "@10" table and figure; see HeadlineCutoff
	Cutoffs         []int                `json:"cutoffs"`
	FPRTargets      []float64            `json:"fpr_targets"`
	OperatingPoints []float64            `json:"operating_points"` // fixed tau of the confusion metrics
	GammaSweep      []float64            `json:"gamma_sweep"`
	Seed            uint64               `json:"seed"`
	Significance    SignificanceSettings `json:"significance"` // of the comparisons
	Bootstrap       BootstrapSettings    `json:"bootstrap"`
	Calibration     CalibrationSettings  `json:"calibration"`
	Gate            GateSettings         `json:"gate"`
	Conventions     Conventions          `json:"conventions"`
	// InputKind is the kind of input (evidence retrieval, TREC runs, a
	// classifier), decided once from what the inputs hold: it chooses
	// the headline set and the words of every renderer (Report.Kind,
	// Report.Vocabulary).
	InputKind InputKind `json:"input_kind,omitempty"`
	// Headline is the headline set: paper.yaml's headline: when given,
	// else the kind's (DefaultHeadline). Report.HeadlineIDs keeps those
	// some system has.
	Headline []metrics.ID `json:"headline,omitempty"`
}

// SignificanceSettings say when a comparison is significant: p_holm <
// Alpha, with Correction "holm" (within one metric id's comparisons) or
// "none" (p_holm = p).
type SignificanceSettings struct {
	Alpha      float64           `json:"alpha"`
	Correction config.Correction `json:"correction"`
}

// BootstrapSettings describe the confidence intervals (docs/statistics.md).
type BootstrapSettings struct {
	Resamples  int           `json:"resamples"`
	Unit       config.Unit   `json:"unit"`   // post or query
	Method     config.Method `json:"method"` // percentile or bca
	Confidence float64       `json:"confidence"`
}

// CalibrationSettings describe the reliability bins.
type CalibrationSettings struct {
	Bins     int             `json:"bins"`
	Strategy config.Strategy `json:"strategy"`
}

// GateSettings are the targets the three-state gate's thresholds are chosen
// to meet on tune rows (docs/metrics.md "Thresholds").
type GateSettings struct {
	ScreenSensitivity float64 `json:"screen_sensitivity"`
	AlertPrecision    float64 `json:"alert_precision"`
}

// Conventions are the options in force where the metric contracts disagree
// (docs/metrics.md "Conventions").
type Conventions struct {
	MAPDenominator config.MAPDenominator `json:"map_denominator"`
	FoldStd        config.FoldStd        `json:"fold_std"`
	UndefinedAUROC config.UndefinedAUROC `json:"undefined_auroc"`
	NDCGGain       config.NDCGGain       `json:"ndcg_gain"`
}

// System returns the system named name.
func (r *Report) System(name string) (SystemInfo, bool) {
	for _, s := range r.Systems {
		if s.Name == name {
			return s, true
		}
	}
	return SystemInfo{}, false
}

// Label returns the display label of a system (its name when unknown).
func (r *Report) Label(name string) string {
	if s, ok := r.System(name); ok && s.Label != "" {
		return s.Label
	}
	return name
}

// SystemsOf returns the names of the systems of one kind, in report order.
func (r *Report) SystemsOf(kind SystemKind) []string {
	var out []string
	for _, s := range r.Systems {
		if s.Kind == kind {
			out = append(out, s.Name)
		}
	}
	return out
}

// SystemNames returns every system name in report order: pipelines, then
// baselines.
func (r *Report) SystemNames() []string {
	out := make([]string, len(r.Systems))
	for i, s := range r.Systems {
		out[i] = s.Name
	}
	return out
}

// Thresholds are the operating thresholds of one system in one fold, all
// chosen on that fold's tune rows, or cross-fitted on the other folds' eval
// rows when it has none (docs/metrics.md "Thresholds").
type Thresholds struct {
	System    string     `json:"system"`
	Fold      int        `json:"fold"`
	Source    string     `json:"source"` // "tune" or "cross-fitted"
	TuneRows  int        `json:"tune_rows"`
	FPR       []FPRPoint `json:"fpr_budget"`
	TauNeg    Num        `json:"tau_neg"`
	TauPos    Num        `json:"tau_pos"` // null: no POS state
	TauNegMet bool       `json:"tau_neg_met"`
	TauPosMet bool       `json:"tau_pos_met"`
}

// FPRPoint is a threshold chosen for an FPR budget, with the TPR and FPR
// it reached on tune rows and on the fold's eval rows.
type FPRPoint struct {
	Budget    Num  `json:"budget"`
	Threshold Num  `json:"threshold"` // null: no observed probability met the budget
	Met       bool `json:"met"`
	TuneTPR   Num  `json:"tune_tpr"`
	TuneFPR   Num  `json:"tune_fpr"`
	EvalTPR   Num  `json:"eval_tpr"`
	EvalFPR   Num  `json:"eval_fpr"`
}

// Check is one consistency check: a hard one (post-disjoint folds, tune/eval
// overlap, gold equal across systems, probabilities and rates in [0, 1],
// confusion cells that add up) stops the build; a soft one is shown. A
// check with nothing to check is not applicable (Passed false), its Detail
// the reason. Detail is a sentence; a list in it is joined with "; ".
type Check struct {
	ID            string `json:"id"`
	Hard          bool   `json:"hard"`
	Passed        bool   `json:"passed"`
	NotApplicable bool   `json:"not_applicable,omitempty"`
	Detail        string `json:"detail"`
}

// CI is a bootstrap confidence interval.
type CI struct {
	Low       Num         `json:"low"`
	High      Num         `json:"high"`
	Method    string      `json:"method"`
	Unit      config.Unit `json:"unit"`
	Resamples int         `json:"resamples"`
	Undefined int         `json:"undefined_resamples,omitempty"` // resamples where the metric was undefined
}

// AnalyticCI is a confidence interval from a formula rather than
// resamples: DeLong's for ne.auroc (pROC's ci.auc default).
type AnalyticCI struct {
	Low        Num     `json:"low"`
	High       Num     `json:"high"`
	Method     string  `json:"method"` // "delong"
	Confidence float64 `json:"confidence"`
}

// Target is the bound a metric is held to.
type Target struct {
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

// Metric is one (system, metric id, slice) value, one row of the long
// metrics table of metrics_master.json.
type Metric struct {
	System     string             `json:"system"`
	ID         metrics.ID         `json:"id"`
	Slice      Slice              `json:"slice"`
	Population metrics.Population `json:"population"`
	N          int                `json:"n"`
	// Denominator is the count a ratio of counts is divided by (alert
	// precision: the POS queries; precision: the predicted positives;
	// sensitivity: the positive queries), absent for a mean or a rank
	// statistic. It is the n a reader should see beside the value: a
	// precision over 15 alerts must not read as n = 14,770.
	Denominator *int              `json:"denominator,omitempty"`
	Value       Num               `json:"value"`
	CI          *CI               `json:"ci"`
	CIDeLong    *AnalyticCI       `json:"ci_delong,omitempty"` // ne.auroc only
	Folds       []Num             `json:"folds"`
	FoldMean    Num               `json:"fold_mean"`
	FoldStd     Num               `json:"fold_std"`
	Direction   metrics.Direction `json:"direction"`
	Variant     string            `json:"variant"`
	Target      *Target           `json:"target"`
	TargetMet   *bool             `json:"target_met"`
}

// Distribution summarises the per-query values of a metric (mean, std,
// median, P25, P75).
type Distribution struct {
	System string     `json:"system"`
	ID     metrics.ID `json:"id"`
	Slice  Slice      `json:"slice"`
	N      int        `json:"n"`
	Mean   Num        `json:"mean"`
	Std    Num        `json:"std"`
	Median Num        `json:"median"`
	P25    Num        `json:"p25"`
	P75    Num        `json:"p75"`
	P90    Num        `json:"p90"`
	Min    Num        `json:"min"`
	Max    Num        `json:"max"`
	CV     Num        `json:"cv"`
}

// Comparison is one system against its reference on one metric
// (docs/statistics.md "Comparing systems"),
// on the queries both share: Diff = system − reference, so that a positive
// difference on a higher-is-better metric means the system is better.
// Test is TestPermutation, TestDeLong or TestBootstrap; PHolm is P adjusted
// within the metric id's comparisons (equal to P with correction: none).
// Wins, Ties, Losses (queries where the system is better, equal, worse),
// CohensD and DZ exist for per-query metrics only, DeLongZ for ne.auroc.
type Comparison struct {
	System        string     `json:"system"`
	Reference     string     `json:"reference"`
	ID            metrics.ID `json:"id"`
	N             int        `json:"n"`
	Diff          Num        `json:"diff"`
	CI            *CI        `json:"ci"`
	Test          string     `json:"test"`
	P             Num        `json:"p"`
	PHolm         Num        `json:"p_holm"`
	Wins          *int       `json:"wins,omitempty"`
	Ties          *int       `json:"ties,omitempty"`
	Losses        *int       `json:"losses,omitempty"`
	CohensD       *Num       `json:"cohens_d,omitempty"`
	DZ            *Num       `json:"d_z,omitempty"`
	DeLongZ       *Num       `json:"delong_z,omitempty"`
	DeLongSEClust *Num       `json:"delong_se_clustered,omitempty"` // the difference's SE with posts as clusters (information, not the test)
}

// Significant reports whether the comparison's verdict is significant at
// level alpha: p_holm < alpha (p_holm is p with correction: none).
func (c Comparison) Significant(alpha float64) bool {
	return c.PHolm.Valid() && float64(c.PHolm) < alpha
}

// Evidence is one eval query of one system: what the query is (its label,
// from the input, never guessed), what the system said about it (its NE
// score, gate state, selected K) and the system's per-query metric values.
// The paired tests between systems and between versions read it
// (report/paired); per_query_metrics.csv is its text (WritePerQueryCSV,
// ReadPerQueryCSV). Which fields apply is Report.PerQueryFields.
type Evidence struct {
	System     string
	Query      string
	Post       string
	Criterion  string
	Fold       int
	Label      bool // the query has evidence: a gold item, or a label of 1 in a classifier-only table
	NGold      int
	NCand      int
	GoldInPool int // gold items among the candidates
	Difficulty Num // n_neg / n_pos = (NCand − GoldInPool) / NGold (query difficulty); null without gold
	Score      Num // the NE score (a probability when PerQueryFields.Score is ScoreProb); null without one
	State      dataset.State
	SelectedK  int
	// The metric values, aligned with Report.PerQueryColumns: row of a
	// column-major block shared by the rows of one system (Value).
	values *evidenceValues
	row    int
}

// ScoreKind says what the evidence's NE score is.
type ScoreKind uint8

const (
	NoScore   ScoreKind = iota // the input has no NE score
	ScoreProb                  // ne_prob: a probability
	ScoreRaw                   // ne_score: a score that orders queries, not a probability
)

// EvidenceFields says which of Evidence's fields apply to the input; the
// columns of per_query_metrics.csv follow it (a field that does not apply
// has no column).
type EvidenceFields struct {
	// Label: the labels are known (false only for a file written before
	// per_query_metrics.csv had a label column).
	Label bool
	// Criteria: the input has criteria (criterion_id).
	Criteria bool
	// Candidates: the input has candidate lists (n_gold, n_candidates,
	// gold_in_pool, difficulty); false for a classifier-only table.
	Candidates bool
	Score      ScoreKind
	State      bool // some system has clinical gate states
	SelectedK  bool // some system has a Dynamic-K selection
}

type metricKey struct {
	system string
	id     metrics.ID
	slice  Slice
}

// Reindex rebuilds the lookup index of Metric; call it after building or
// changing a Report by hand (tests, readers of metrics_master.json).
func (r *Report) Reindex() {
	r.index = make(map[metricKey]int, len(r.Metrics))
	for i, m := range r.Metrics {
		r.index[metricKey{m.System, m.ID, m.Slice}] = i
	}
}

// Metric returns the metric (system, id, slice), if computed.
func (r *Report) Metric(system string, id metrics.ID, slice Slice) (Metric, bool) {
	if r.index == nil {
		r.Reindex()
	}
	i, ok := r.index[metricKey{system, id, slice}]
	if !ok {
		return Metric{}, false
	}
	return r.Metrics[i], true
}

// CheckError is returned when a hard consistency check failed (exit 3).
type CheckError struct{ Failed []Check }

func (e *CheckError) Error() string {
	var b strings.Builder
	b.WriteString("hard consistency checks failed:")
	for _, c := range e.Failed {
		b.WriteString("\n  " + c.ID + ": " + c.Detail)
	}
	return b.String()
}

// HardCheckError returns a *CheckError when a hard check failed.
func (r *Report) HardCheckError() error {
	var failed []Check
	for _, c := range r.Checks {
		if c.Hard && !c.Passed && !c.NotApplicable {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &CheckError{Failed: failed}
}

var errNoSystems = errors.New("report: no systems")
