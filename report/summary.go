package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"paperbundle/config"
	"paperbundle/dataset"
)

// summarize fills the dataset summary and the list of systems.
func (c *computer) summarize() {
	c.rep.Dataset = c.datasetSummary()
	c.rep.Systems = append(c.rep.Systems, c.systemInfos()...)
}

// datasetSummary counts the queries, posts, candidates, gold items and
// folds of the evaluated data.
func (c *computer) datasetSummary() DatasetSummary {
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
	if ds.PerSystemQueries {
		s.SystemQueries = map[string]int{}
		for si := range ds.Systems {
			n := 0
			for _, qi := range c.eval {
				if !ds.Systems[si].Rows[qi].Absent {
					n++
				}
			}
			s.SystemQueries[ds.Systems[si].Name] = n
		}
	}
	posts := map[string]bool{}
	foldPosts := map[int]map[string]bool{}
	var goldSum int
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
	own, candSum := c.primaryPool(&s)
	s.Posts = len(posts)
	if len(c.eval) > 0 {
		s.PositiveRate = Num(float64(s.PositiveQueries) / float64(len(c.eval)))
		s.CandidatesMean = Num(float64(candSum) / float64(max(own, 1)))
	} else {
		s.PositiveRate, s.CandidatesMean = NaN, NaN
	}
	if s.PositiveQueries > 0 {
		s.GoldMean = Num(float64(goldSum) / float64(s.PositiveQueries))
	} else {
		s.GoldMean = NaN
	}
	s.Folds = c.foldSummaries(foldPosts)
	return s
}

// primaryPool sets the candidate counts of the primary system (least,
// most) and the gold missing from its pool (a soft check) over the queries
// it is evaluated on, and returns how many those are and their candidates
// in all.
func (c *computer) primaryPool(s *DatasetSummary) (own, candidates int) {
	sys0 := c.ds.Systems[c.primary]
	s.CandidatesMin = -1
	for _, qi := range c.eval {
		if sys0.Rows[qi].Absent {
			continue
		}
		own++
		n := len(sys0.Rows[qi].Scores) // the scores are aligned with the candidate ids
		candidates += n
		if s.CandidatesMin < 0 || n < s.CandidatesMin {
			s.CandidatesMin = n
		}
		if n > s.CandidatesMax {
			s.CandidatesMax = n
		}
		found := 0
		for _, r := range sys0.Rows[qi].Rel {
			if r > 0 {
				found++
			}
		}
		s.GoldMissing += len(c.ds.Queries[qi].Gold) - found
	}
	if s.CandidatesMin < 0 {
		s.CandidatesMin = 0
	}
	return own, candidates
}

// foldSummaries counts the evaluated queries and positives of each fold, in
// fold order; foldPosts are the posts of each fold.
func (c *computer) foldSummaries(foldPosts map[int]map[string]bool) []FoldSummary {
	out := []FoldSummary{}
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
		out = append(out, fs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Fold < out[j].Fold })
	return out
}

// systemInfos describes each system. A system's reference is the one
// system it is compared with under comparisons: reference or ladder
// (primary and all_pairs compare a system with several).
func (c *computer) systemInfos() []SystemInfo {
	ds := c.ds
	var out []SystemInfo
	ref := map[int]int{}
	if m := c.cfg.Comparisons; m == config.CompareReference || m == config.CompareLadder {
		for _, pr := range c.cfg.Pairs() {
			ref[pr.System] = pr.Reference
		}
	}
	for i, sys := range ds.Systems {
		info := SystemInfo{Name: sys.Name, Label: sys.Label, Kind: Pipeline, Source: sys.Source, Primary: i == c.primary}
		if ri, ok := ref[i]; ok {
			info.Reference = ds.Systems[ri].Name
		}
		out = append(out, info)
	}
	return out
}

// warnings writes the warnings about the data that depend on the
// capabilities (c.capabilities has run): a fold's thresholds matter only
// when some section chooses thresholds.
func (c *computer) warnings() {
	thresholds := c.has(HeldOut) || (c.has(ClinicalGate) && c.ds.HasNEProb && !c.hasStates())
	// The folds whose thresholds are cross-fitted share one warning, so
	// that five folds without tune rows are one line, not five.
	var crossed []int
	for f := range c.crossFit {
		if !thresholds {
			break
		}
		if len(c.tuneOf[f]) == 0 {
			c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("fold %d has no tune rows, and there is no other fold to cross-fit its thresholds from: no threshold can be chosen for it", f))
			continue
		}
		crossed = append(crossed, f)
	}
	slices.Sort(crossed)
	switch len(crossed) {
	case 0:
	case 1:
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("fold %d has no tune rows: its thresholds are cross-fitted on the eval rows of the other folds", crossed[0]))
	default:
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("folds %s have no tune rows: the thresholds of each are cross-fitted on the eval rows of the other folds", foldsText(crossed)))
	}
	c.thresholdWarnings()
	c.clipWarnings()
	if B := c.cfg.Bootstrap.Resamples; B > 0 && c.nGroups > 0 && c.nGroups < fewUnits {
		unit := "posts"
		if c.cfg.Bootstrap.Unit == config.UnitQuery {
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
	heldOut, derivedGate := c.has(HeldOut), c.has(ClinicalGate)
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
	if heldOut && len(noFPR) > 0 {
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("no FPR-budget threshold can be chosen in %s: the held-out metrics (ne.heldout_*@fpr=X) %s; their confusion counts (ne.heldout_tp, tn, fp, fn) are not reported, as they would not cover every eval query",
			c.foldsWhy(noFPR, why), c.pooledOver(noFPR)))
	}
	gate := false
	for si := range c.ds.Systems {
		if !derivedGate || !c.ds.HasNEProb {
			break // no clinical gate of our own without probabilities
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

// foldsText writes folds as "0, 1 and 2".
func foldsText(folds []int) string {
	parts := make([]string, len(folds))
	for i, f := range folds {
		parts[i] = strconv.Itoa(f)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
