package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"paperbundle/config"
	"paperbundle/dataset"
)

// summarize fills the dataset summary.
func (c *computer) summarize() {
	ds := c.ds
	s := DatasetSummary{
		Systems:          len(ds.Systems),
		Rows:             len(ds.Queries),
		EvalQueries:      len(c.eval),
		TrainRowsIgnored: ds.TrainRowsIgnored,
		Criteria:         append([]string{}, c.criteria...),
		TRECRunOnly:      ds.RunQueriesWithoutQrels,
		TRECQrelsOnly:    ds.QrelsQueriesWithoutRun,
		Notes:            append([]string{}, ds.Notes...),
		Folds:            []FoldSummary{},
	}
	if t := ds.TRECConventions; t != nil {
		s.TRECConventions = &TRECConventions{RelevanceLevel: t.RelevanceLevel, NoRelevant: t.NoRelevant, MissingRun: t.MissingRun}
	}
	if s.Criteria == nil {
		s.Criteria = []string{}
	}
	posts := map[string]bool{}
	foldPosts := map[int]map[string]bool{}
	var candSum, goldSum int
	s.CandidatesMin = -1
	sys0 := ds.Systems[0]
	var last *dataset.Query
	for i, qi := range c.eval {
		q := &ds.Queries[qi]
		// The queries of a post are adjacent (dataset order): the sets
		// see each (fold, post) once per run of them.
		if last == nil || q.Post != last.Post || q.Fold != last.Fold {
			posts[q.Post] = true
			if foldPosts[q.Fold] == nil {
				foldPosts[q.Fold] = map[string]bool{}
			}
			foldPosts[q.Fold][q.Post] = true
		}
		last = q
		n := len(sys0.Rows[qi].Scores) // the scores are aligned with the candidate ids
		candSum += n
		if s.CandidatesMin < 0 || n < s.CandidatesMin {
			s.CandidatesMin = n
		}
		if n > s.CandidatesMax {
			s.CandidatesMax = n
		}
		if c.y[i] {
			s.PositiveQueries++
			goldSum += len(q.Gold)
		}
	}
	for qi := range ds.Queries {
		if ds.Queries[qi].Split == dataset.SplitTune {
			s.TuneRows++
		}
	}
	// Gold missing from the candidate pool (soft check), primary system.
	for _, qi := range c.eval {
		q := &ds.Queries[qi]
		found := 0
		for _, r := range sys0.Rows[qi].Rel {
			if r > 0 {
				found++
			}
		}
		s.GoldMissing += len(q.Gold) - found
	}
	s.Posts = len(posts)
	if len(c.eval) > 0 {
		s.PositiveRate = Num(float64(s.PositiveQueries) / float64(len(c.eval)))
		s.CandidatesMean = Num(float64(candSum) / float64(len(c.eval)))
	} else {
		s.PositiveRate, s.CandidatesMean = NaN, NaN
	}
	if s.PositiveQueries > 0 {
		s.GoldMean = Num(float64(goldSum) / float64(s.PositiveQueries))
	} else {
		s.GoldMean = NaN
	}
	if s.CandidatesMin < 0 {
		s.CandidatesMin = 0
	}
	for _, f := range c.folds {
		fs := FoldSummary{Fold: f, Posts: len(foldPosts[f]), CrossFitted: c.crossFit[f]}
		for i := range c.eval {
			if c.fold[i] == f {
				fs.EvalQueries++
				if c.y[i] {
					fs.Positives++
				}
			}
		}
		if !c.crossFit[f] {
			fs.TuneRows = len(c.tuneOf[f])
		}
		s.Folds = append(s.Folds, fs)
	}
	sort.Slice(s.Folds, func(i, j int) bool { return s.Folds[i].Fold < s.Folds[j].Fold })
	c.rep.Dataset = s
	for i, sys := range ds.Systems {
		info := SystemInfo{Name: sys.Name, Label: sys.Label, Kind: Pipeline, Source: sys.Source, Primary: i == 0}
		if ri, ok := c.cfg.ReferenceFor(i); ok {
			info.Reference = ds.Systems[ri].Name
		}
		c.rep.Systems = append(c.rep.Systems, info)
	}
	for f := range c.crossFit {
		if len(c.tuneOf[f]) == 0 {
			c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("fold %d has no tune rows, and there is no other fold to cross-fit its thresholds from: no threshold can be chosen for it", f))
			continue
		}
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("fold %d has no tune rows: its thresholds are cross-fitted on the eval rows of the other folds", f))
	}
	c.thresholdWarnings()
	if B := c.cfg.Bootstrap.Resamples; B > 0 && c.nGroups > 0 && c.nGroups < fewUnits {
		unit := "posts"
		if c.cfg.Bootstrap.Unit == "query" {
			unit = "queries"
		}
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("the bootstrap resamples only %d eval %s: with fewer than %d, percentile intervals are too narrow to trust (an interval such as [1.0000, 1.0000] only says that every resample agreed)", c.nGroups, unit, fewUnits))
	}
	if B := c.cfg.Bootstrap.Resamples; B > 0 && B < config.FewResamples {
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("bootstrap.resamples is %d: with fewer than %d resamples the ends of a 95%% interval rest on a handful of resamples and move with the seed; set bootstrap.resamples to %d or more for the paper", B, config.FewResamples, config.FewResamples))
	}
	sort.Strings(c.rep.Warnings)
}

// fewUnits is the number of bootstrap units (posts, or queries) below which
// the report warns that its intervals cannot be trusted.
const fewUnits = 30

// thresholdWarnings says which folds have a threshold that cannot be
// chosen, and what the metrics that need it are computed on instead
// (report/system.go neGate, report/gate.go gate). Whether a threshold can
// be chosen depends on the labels of the rows it is chosen from, which
// every system shares, so one warning covers every system.
func (c *computer) thresholdWarnings() {
	if !c.neScore {
		return
	}
	var noFPR, noNeg, noPos []int // noPos: tau_pos alone is missing
	why := map[int]string{}
	for _, f := range c.folds {
		pos, neg := c.tuneClasses(f)
		switch {
		case pos+neg == 0:
			why[f] = "no tune rows, and no other fold to cross-fit from"
		case pos == 0:
			why[f] = c.tuneRowsText(f) + " have no query with evidence"
		case neg == 0:
			why[f] = c.tuneRowsText(f) + " have no query without evidence"
		}
		if pos == 0 || neg == 0 {
			noFPR = append(noFPR, f)
		}
		if pos == 0 {
			noNeg = append(noNeg, f)
		} else if neg == 0 {
			noPos = append(noPos, f)
		}
	}
	if len(c.cfg.FPRTargets) > 0 && len(noFPR) > 0 {
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("no FPR-budget threshold can be chosen in %s: the held-out metrics (ne.heldout_*@fpr=X) %s; their confusion counts (ne.heldout_tp, tn, fp, fn) are not reported, as they would not cover every eval query",
			c.foldsWhy(noFPR, why), c.pooledOver(noFPR)))
	}
	gate := false
	for si := range c.ds.Systems {
		if !c.ds.HasNEProb {
			break // no clinical gate without probabilities
		}
		if !c.statesGiven(&c.ds.Systems[si]) {
			gate = true
		}
	}
	if !gate {
		return
	}
	if len(noNeg) > 0 {
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("tau_neg of the clinical gate cannot be chosen in %s: the clinical gate metrics (clinical.*) %s; Dynamic-K and the end-to-end metrics screen every query of %s in (state UNCERTAIN)",
			c.foldsWhy(noNeg, why), c.pooledOver(noNeg), foldList(noNeg, "that fold", "those folds")))
	}
	if len(noPos) > 0 {
		both := append(append([]int{}, noNeg...), noPos...)
		sort.Ints(both)
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("tau_pos of the clinical gate cannot be chosen in %s, so alert precision cannot be estimated: %s no POS state; clinical.uncertain_rate, pos_rate, alert_rate_per_1000, alert_precision and workload_per_1000 %s",
			c.foldsWhy(noPos, why), foldList(noPos, "that fold has", "those folds have"), c.pooledOver(both)))
	}
}

// foldsWhy writes "fold 0 (why)" or "folds 0 (why) and 2 (why)".
func (c *computer) foldsWhy(folds []int, why map[int]string) string {
	parts := make([]string, len(folds))
	for k, f := range folds {
		parts[k] = fmt.Sprintf("%d (%s)", f, why[f])
	}
	if len(parts) == 1 {
		return "fold " + parts[0]
	}
	return "folds " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// pooledOver says what the metrics of a threshold missing in the folds
// out are: null, or pooled over the other folds' eval queries.
func (c *computer) pooledOver(out []int) string {
	left := map[int]bool{}
	for _, f := range out {
		left[f] = true
	}
	var in []string
	n := 0
	for _, f := range c.folds {
		if !left[f] {
			in = append(in, strconv.Itoa(f))
		}
	}
	for i := range c.eval {
		if !left[c.fold[i]] {
			n++
		}
	}
	if len(in) == 0 {
		return "are null: no fold has the threshold"
	}
	return fmt.Sprintf("leave out the eval queries of %s and are pooled over %s %s (n = %d of %d eval queries)",
		foldList(out, "that fold", "those folds"), foldList(in, "fold", "folds"), strings.Join(in, ", "), n, len(c.eval))
}

// foldList returns one for a single fold, else many.
func foldList[T any](folds []T, one, many string) string {
	if len(folds) == 1 {
		return one
	}
	return many
}

// sections records which report sections can be computed, and why not.
func (c *computer) sections() {
	ds := c.ds
	add := func(id string, ok bool, why string) {
		s := Section{ID: id, Present: ok}
		if !ok {
			s.Reason = why
		}
		c.rep.Sections = append(c.rep.Sections, s)
	}
	hasNE := ds.HasNEProb
	// ne_score (a score with no probability meaning) gives the rank-based
	// NE-gate metrics only; a classifier-only table (no candidate lists)
	// gives no ranking, Dynamic-K or per-post results.
	noProb := "the inputs have no ne_prob column"
	if c.neScore && !hasNE {
		noProb = "scores are not probabilities (ne_score given): calibration, the Brier score, fixed thresholds and the clinical gate need ne_prob"
	}
	rankWhy := "no eval query has gold evidence"
	if !c.cands {
		rankWhy = "the inputs have no candidate lists (a classifier-only table)"
	}
	hasRank := c.rep.Dataset.PositiveQueries > 0 && c.cands
	add("ne_gate", c.neScore, "the inputs have no ne_prob or ne_score column")
	add("calibration", hasNE, noProb)
	add("ranking", hasRank, rankWhy)
	add("dynamic_k", hasRank, rankWhy)
	gateWhy := "the inputs have neither ne_prob nor state"
	if !c.cands && (hasNE || c.hasStates()) {
		// The gate's metrics are computed beside Dynamic-K (workload,
		// end to end), which needs candidate lists.
		gateWhy = "the inputs have no candidate lists (a classifier-only table): the clinical gate's metrics are computed with the Dynamic-K selections"
	}
	add("clinical_gate", (hasNE || c.hasStates()) && c.cands, gateWhy)
	add("per_criterion", ds.HasCriteria, "the inputs have no criterion_id column")
	add("per_post", ds.HasCriteria && ds.HasPosts && c.cands, "per-post analysis needs post_id, criterion_id and candidate lists")
	add("strata", len(c.strata) > 0 && c.cands, rankWhy)
	add("folds", len(c.folds) > 1, "the inputs have a single fold")
	add("comparisons", len(ds.Systems) > 1, "a single system has nothing to be compared with")
}

func (c *computer) hasStates() bool {
	for _, sys := range c.ds.Systems {
		for _, qi := range c.eval {
			if sys.Rows[qi].State == dataset.StateNone {
				return false
			}
		}
	}
	return len(c.eval) > 0
}

func (c *computer) section(id string) bool {
	for _, s := range c.rep.Sections {
		if s.ID == id {
			return s.Present
		}
	}
	return false
}
