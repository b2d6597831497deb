// Package dataset is the first stage of the pipeline: it reads the inputs a
// user points paper.yaml at (per-query CSV or JSON Lines tables, TREC run and
// qrels files), validates them, and returns one typed, read-only Dataset that
// report.Compute turns into numbers. It never computes a metric.
//
// Every problem with the input is an *InputError that names the file, line
// and column; up to 20 of them are returned together as an ErrorList.
package dataset

import (
	"fmt"
	"strings"
)

// Split says what a row is for: eval rows are measured, tune rows only choose
// thresholds (docs/metrics.md, Thresholds).
type Split uint8

const (
	SplitEval Split = iota
	SplitTune
)

func (s Split) String() string {
	switch s {
	case SplitEval:
		return "eval"
	case SplitTune:
		return "tune"
	}
	return fmt.Sprintf("Split(%d)", uint8(s))
}

// State is a three-state clinical gate decision: NEG, UNCERTAIN or POS
// (docs/metrics.md, Thresholds: clinical gate).
type State uint8

const (
	StateNone State = iota // not given in the input
	StateNEG
	StateUncertain
	StatePOS
)

func (s State) String() string {
	switch s {
	case StateNone:
		return ""
	case StateNEG:
		return "NEG"
	case StateUncertain:
		return "UNCERTAIN"
	case StatePOS:
		return "POS"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Query is one (query, fold, split) row of the evaluation: everything about it
// that does not depend on the system. Gold is identical across systems
// (a load fails when two systems give a query different gold).
type Query struct {
	ID        string // query_id; defaults to post_id + "/" + criterion_id
	Post      string // the group: unit of folds and of the cluster bootstrap
	Criterion string // "" when the input has no criteria
	Fold      int
	Split     Split
	Gold      []string // gold evidence ids, in input order, no duplicates
	GoldRels  []int    // graded relevance aligned with Gold, each >= 1

	// GainRels is, for a TREC query judged at a relevance level above 1,
	// the grade of every document judged above 0, relevant or not: nDCG's
	// ideal ranking is built from them, as trec_eval builds it whatever
	// its -l. nil when they are the relevant ones (GoldRels); Gains says
	// which applies.
	GainRels []int

	// Label is the has_evidence (or label) of a classifier-only row, a
	// table without gold_uids: the query has evidence though Gold is
	// empty. With gold_uids it is false (Gold then says it).
	Label bool

	// TREC is true for a query judged in a qrels file; NonRel is then how
	// many of its documents are judged non-relevant (grade 0 up to the
	// relevance level), which bpref needs.
	TREC   bool
	NonRel int
}

// HasEvidence reports whether the query has evidence: at least one gold
// item, or a label of 1 in a classifier-only table.
func (q *Query) HasEvidence() bool { return len(q.Gold) > 0 || q.Label }

// Gains returns the grades nDCG's ideal ranking is built from: GainRels
// when set, else GoldRels.
func (q *Query) Gains() []int {
	if q.GainRels != nil {
		return q.GainRels
	}
	return q.GoldRels
}

// Row is one system's output for one Query.
//
// Candidates are stored in ranked order: score descending, ties in input
// order for the per-query table, ties by docno descending for TREC runs. Rel
// gives, for each ranked candidate, its gold grade (0 when not gold).
type Row struct {
	Candidates []string
	Scores     []float64
	Rel        []int
	// Gain gives, for each ranked candidate, the grade nDCG takes as its
	// gain when that differs from Rel: for a TREC query with documents
	// graded between 1 and the relevance level minus 1, which are not
	// relevant (Rel 0) but keep their gain, as in trec_eval's ndcg. nil
	// means Rel; Gains says which applies.
	Gain      []int
	NodeProbs []float64 // aligned with Candidates; nil when absent

	// Judged says, for TREC runs, whether each ranked candidate has a
	// judgment in the qrels (grade >= 0); nil for a per-query table, which
	// cannot tell a judged non-relevant candidate from an unjudged one.
	Judged []bool
	// Pooled says, for TREC runs, whether each ranked candidate is in
	// the qrels with a negative grade: in the judgment pool but not
	// judged (trec_eval's infAP tells these from documents outside the
	// pool). nil when no ranked candidate is.
	Pooled []bool

	// Absent marks the row of a query this system was not evaluated on: a
	// TREC run with no line for a qrels query that another run has, under
	// trec.missing_run: skip. The row has no candidates and enters none of
	// this system's metrics; a comparison with the system uses the queries
	// both have.
	Absent bool

	Selected    []string // the pipeline's own extracted set, when HasSelected
	HasSelected bool

	NEProb    float64 // NE-gate probability, when HasNEProb
	HasNEProb bool

	// NEScore is the NE-gate score the rank-based NE metrics read (AUROC,
	// AUPRC, ROC and PR curves, TPR at FPR, held-out thresholds, DeLong):
	// ne_prob when the row gives it (NEScore = NEProb), else ne_score, a
	// score with no probability meaning (a logit, a margin).
	NEScore    float64
	HasNEScore bool

	State State // the pipeline's own gate state; StateNone when absent
}

// Gains returns the grades nDCG takes as gains, aligned with Candidates:
// Gain when set, else Rel.
func (r *Row) Gains() []int {
	if r.Gain != nil {
		return r.Gain
	}
	return r.Rel
}

// System is one pipeline configuration: a label and one Row per Query.
type System struct {
	Name   string
	Label  string
	Source string // input file(s), for provenance
	Rows   []Row  // Rows[i] belongs to Dataset.Queries[i]
}

// Dataset is the validated input of a bundle.
type Dataset struct {
	Queries []Query // sorted by (Fold, Split, Post, Criterion, ID)
	Systems []System

	HasCriteria bool // every query has a criterion_id
	HasPosts    bool // post_id was given (else each query is its own group)
	HasNEProb   bool // every system gives ne_prob on every row
	HasFolds    bool // fold was given

	// HasNEScore: every system gives an NE-gate score on every row,
	// ne_prob or ne_score (Row.NEScore): the rank-based NE metrics apply.
	// HasNEScore without HasNEProb means the scores are not probabilities:
	// calibration, the Brier score, fixed thresholds and the clinical gate
	// do not apply.
	HasNEScore bool
	// HasCandidates: the inputs have candidate lists (a per-query table in
	// the wide or long layout, or a TREC run); false for a classifier-only
	// table (a label and a score per row), which has no ranking.
	HasCandidates bool

	TrainRowsIgnored int // rows with split = train, counted and dropped

	// TREC inputs: run queries without qrels (not evaluated) and qrels
	// queries without a run, per system name.
	RunQueriesWithoutQrels map[string]int
	QrelsQueriesWithoutRun map[string]int
	// PerSystemQueries is true when some system is absent on some query
	// (Row.Absent): TREC runs under missing_run: skip that cover different
	// qrels queries, each system then evaluated on its own.
	PerSystemQueries bool
	// TRECConventions is the conventions in force for TREC inputs; nil
	// when no system is a TREC run.
	TRECConventions *TRECConventions

	Notes []string // caveats about the input, shown in the report
}

// TRECConventions records how TREC inputs were read (trec_eval's options
// where it has one).
type TRECConventions struct {
	RelevanceLevel int    `json:"relevance_level"` // trec_eval -l
	NoRelevant     string `json:"no_relevant"`     // zero | skip
	MissingRun     string `json:"missing_run"`     // skip | zero (trec_eval -c)
}

// InputError is one problem with an input file, positioned at a line and a
// column (1-based; Column 0 means the whole line, Line 0 the whole file).
type InputError struct {
	File   string
	Line   int
	Column int
	Msg    string // what was wrong, and what was expected

	// Consistency marks a failed hard consistency check (folds
	// not post-disjoint, tune/eval overlap, gold differing between systems)
	// rather than malformed input; when every error of a list is one, the
	// command exits 3 instead of 2. A probability outside [0, 1] is a
	// malformed value of its row (exit 2; docs/reliability.md).
	Consistency bool
}

func (e *InputError) Error() string {
	switch {
	case e.Line <= 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Column <= 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// MaxErrors is how many input errors are collected before giving up.
const MaxErrors = 20

// ErrorList is a non-empty list of input errors, reported together.
type ErrorList []*InputError

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
