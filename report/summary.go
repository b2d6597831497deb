package report

import (
	"fmt"
	"sort"

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
	if s.Criteria == nil {
		s.Criteria = []string{}
	}
	posts := map[string]bool{}
	foldPosts := map[int]map[string]bool{}
	var candSum, goldSum int
	s.CandidatesMin = -1
	sys0 := ds.Systems[0]
	for i, qi := range c.eval {
		q := &ds.Queries[qi]
		posts[q.Post] = true
		if foldPosts[q.Fold] == nil {
			foldPosts[q.Fold] = map[string]bool{}
		}
		foldPosts[q.Fold][q.Post] = true
		n := len(sys0.Rows[qi].Candidates)
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
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("fold %d has no tune rows: its thresholds are cross-fitted on the eval rows of the other folds", f))
	}
	sort.Strings(c.rep.Warnings)
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
	add("ne_gate", hasNE, "the inputs have no ne_prob column")
	add("calibration", hasNE, "the inputs have no ne_prob column")
	add("ranking", c.rep.Dataset.PositiveQueries > 0, "no eval query has gold evidence")
	add("dynamic_k", c.rep.Dataset.PositiveQueries > 0, "no eval query has gold evidence")
	add("clinical_gate", hasNE || c.hasStates(), "the inputs have neither ne_prob nor state")
	add("per_criterion", ds.HasCriteria, "the inputs have no criterion_id column")
	add("per_post", ds.HasCriteria && ds.HasPosts, "per-post analysis needs post_id and criterion_id")
	add("strata", len(c.strata) > 0, "no eval query has gold evidence")
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
