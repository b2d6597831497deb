package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"paperbundle/metrics"
)

// The results of a consistency check, one word each, the same in the
// report, SUMMARY.md, the workbook and checks.csv.
const (
	CheckPassed        = "passed"
	CheckNotPassed     = "not passed" // a soft check: a caveat the reader should know
	CheckFailed        = "FAILED"     // a hard check: the build stops
	CheckNotApplicable = "not applicable"
)

// Result is the check's result in one word (CheckPassed, CheckNotPassed,
// CheckFailed or CheckNotApplicable).
func (c Check) Result() string {
	switch {
	case c.NotApplicable:
		return CheckNotApplicable
	case c.Passed:
		return CheckPassed
	case c.Hard:
		return CheckFailed
	}
	return CheckNotPassed
}

// checkList collects the checks of a report.
type checkList []Check

// add records a check that had something to check.
func (l *checkList) add(id string, hard, ok bool, detail string) {
	*l = append(*l, Check{ID: id, Hard: hard, Passed: ok, Detail: detail})
}

// none records a check with nothing to check: not applicable, with the
// reason; never "passed".
func (l *checkList) none(id string, hard bool, why string) {
	*l = append(*l, Check{ID: id, Hard: hard, NotApplicable: true, Detail: why})
}

// checks evaluates the consistency checks (see Check) on the computed report.
func (c *computer) checks() {
	var l checkList
	// Structural checks already enforced by the loader (it refuses the
	// input otherwise); listed so the reader sees they were made.
	l.add("folds_post_disjoint", true, true, "Every post is evaluated in exactly one fold.")
	// A TREC run sets no rows aside and has no threshold to choose: its
	// not-applicable checks say so without naming tune rows it cannot have.
	trec := c.rep.Kind() == KindTREC
	switch {
	case c.rep.Dataset.TuneRows == 0 && trec:
		l.none("tune_eval_disjoint", true, "Every query of the runs is evaluated; none is set aside to choose a threshold.")
	case c.rep.Dataset.TuneRows == 0:
		l.none("tune_eval_disjoint", true, "The input has no tune rows: no tune row can share a post with an eval row.")
	default:
		l.add("tune_eval_disjoint", true, true, "Within each fold, tune and eval rows share no post.")
	}
	if n := len(c.ds.Systems); n == 1 {
		l.none("gold_identical_across_systems", true, "One system: there is no other gold to compare with.")
	} else {
		l.add("gold_identical_across_systems", true, true, fmt.Sprintf("The %d systems hold the same gold for every query (the same ids with the same grades, in any order).", n))
	}
	if trec && !c.ds.HasNEProb {
		l.none("probabilities_in_range", true, "The runs hold no probabilities (no ne_probs: file).")
	} else {
		l.add("probabilities_in_range", true, true, "Every ne_prob and node_prob is in [0, 1].")
	}
	c.confusionCheck(&l)
	c.rateCheck(&l)

	// Soft checks. Checks of a section that does not apply are not made
	// (a classifier-only input has no candidate pool to miss gold from).
	// A TREC run is depth-limited: relevant documents it never retrieved
	// are normal there, a count of the data table, not a failed check.
	if gm := c.rep.Dataset.GoldMissing; c.has(Ranking) && c.rep.Kind() != KindTREC {
		detail := "Every gold item of the eval queries is among the primary system's candidates."
		if gm > 0 {
			detail = fmt.Sprintf("%d gold items of eval queries are missing from the primary system's candidates.", gm)
		}
		l.add("gold_in_candidate_pool", false, gm == 0, detail)
	}
	foldCheck(&l, c.rep.Dataset.Folds)
	if c.has(PerCriterion) {
		var noPos []string
		for _, cr := range c.criteria {
			if m, ok := c.rep.Metric(c.ds.Systems[c.primary].Name, metrics.DataNPos.ID(), critSlice(cr)); ok && m.Value == 0 {
				noPos = append(noPos, cr)
			}
		}
		l.add("criteria_have_positives", false, len(noPos) == 0, detailList(noPos, "Every criterion has at least one positive eval query.", "criteria without a positive eval query"))
	}
	c.thresholdCheck(&l)
	c.rep.Checks = append(c.rep.Checks, l...)
}

// confusionCheck checks that every confusion matrix adds up to its
// population and to its positive count.
func (c *computer) confusionCheck(l *checkList) {
	npos, n := c.rep.Dataset.PositiveQueries, len(c.eval)
	bad, seen := []string{}, 0
	for _, s := range c.rep.Systems {
		if s.Kind != Pipeline {
			continue
		}
		for _, pre := range c.confusionPrefixes() {
			tp, ok1 := c.rep.Metric(s.Name, pre.tp, "")
			fn, ok2 := c.rep.Metric(s.Name, pre.fn, "")
			fp, ok3 := c.rep.Metric(s.Name, pre.fp, "")
			tn, ok4 := c.rep.Metric(s.Name, pre.tn, "")
			if !ok1 || !ok2 || !ok3 || !ok4 {
				continue
			}
			seen++
			if int(tp.Value+fn.Value) != npos || int(tp.Value+fn.Value+fp.Value+tn.Value) != n {
				bad = append(bad, s.Name+" "+string(pre.tp))
			}
		}
	}
	if seen == 0 {
		l.none("confusion_matrices_add_up", true, "No confusion matrix was computed for these inputs.")
		return
	}
	l.add("confusion_matrices_add_up", true, len(bad) == 0, detailList(bad,
		fmt.Sprintf("TP+FN = %d positives and TP+TN+FP+FN = %d queries for every operating point.", npos, n),
		"confusion matrices that do not add up"))
}

// rateCheck checks that every rate and score lies in its range.
func (c *computer) rateCheck(l *checkList) {
	var bad []string
	for _, m := range c.rep.Metrics {
		d := metrics.MustDef(m.ID)
		if !m.Value.Valid() || d.Hi < d.Lo {
			continue
		}
		if d.Base == metrics.NETPRThreshold && !c.ds.HasNEProb {
			continue // a threshold over ne_score, not a probability
		}
		v := float64(m.Value)
		if v < d.Lo-1e-12 || v > d.Hi+1e-12 {
			bad = append(bad, fmt.Sprintf("%s %s %s = %g", m.System, m.ID, m.Slice, v))
		}
	}
	l.add("rates_in_range", true, len(bad) == 0, detailList(bad, "Every rate and score lies in its range.", "values outside their range"))
}

// Folds are of equal size when the largest has at most 5% more posts than
// the smallest, or one more: the most even split of n posts into k folds
// differs by one, and the contract's own split (295, 295, 295, 295, 297)
// by two of 295.
const foldSizeTolerance = 0.05

// foldCheck is folds_equal_size; its detail lists the sizes.
func foldCheck(l *checkList, folds []FoldSummary) {
	if len(folds) < 2 {
		l.none("folds_equal_size", false, "One fold: there are no fold sizes to compare.")
		return
	}
	lo, hi := folds[0].Posts, folds[0].Posts
	sizes := make([]string, len(folds))
	for i, f := range folds {
		lo, hi = min(lo, f.Posts), max(hi, f.Posts)
		sizes[i] = strconv.Itoa(f.Posts)
	}
	ok := hi-lo <= 1 || float64(hi) <= (1+foldSizeTolerance)*float64(lo)
	detail := "Posts per fold: " + strings.Join(sizes, "; ") + "."
	if lo > 0 && hi > lo {
		detail += fmt.Sprintf(" The largest fold has %s%% more posts than the smallest", strconv.FormatFloat(100*float64(hi-lo)/float64(lo), 'f', 1, 64))
		if ok {
			detail += " (at most 5% more, or one more, counts as equal)."
		} else {
			detail += " (more than 5% and more than one)."
		}
	}
	l.add("folds_equal_size", false, ok, detail)
}

// thresholdCheck is thresholds_met: every threshold target was met where
// the thresholds were chosen (the fold's tune rows, or the other folds'
// eval rows when it has none). With no threshold, or no target, it is not
// applicable.
func (c *computer) thresholdCheck(l *checkList) {
	var unmet []string
	targets, tune, cross := 0, 0, 0
	for _, t := range c.rep.Thresholds {
		switch {
		case strings.HasPrefix(t.Source, "tune"):
			tune++
		case strings.HasPrefix(t.Source, "cross-fitted"):
			cross++
		}
		for _, p := range t.FPR {
			targets++
			if !p.Met {
				unmet = append(unmet, fmt.Sprintf("%s fold %d FPR budget %g", t.System, t.Fold, float64(p.Budget)))
			}
		}
		if t.TauNeg.Valid() {
			targets += 2
			if !t.TauNegMet {
				unmet = append(unmet, fmt.Sprintf("%s fold %d screening sensitivity", t.System, t.Fold))
			}
			if !t.TauPosMet {
				unmet = append(unmet, fmt.Sprintf("%s fold %d alert precision (no POS state)", t.System, t.Fold))
			}
		}
	}
	if targets == 0 {
		why := "No threshold target applies to these inputs."
		switch {
		case tune+cross == 0 && c.rep.Kind() == KindTREC:
			why = "No threshold applies: a run is evaluated as a ranking, without a decision threshold."
		case tune+cross == 0 && c.rep.Dataset.TuneRows == 0:
			why = "No threshold was chosen: the input has no tune rows, and no other fold to cross-fit from."
		}
		l.none("thresholds_met", false, why)
		return
	}
	where := "on tune rows"
	switch {
	case tune == 0:
		where = "on the other folds' eval rows (cross-fitted: the input has no tune rows)"
	case cross > 0:
		where = "on tune rows, or cross-fitted on the other folds' eval rows for folds without tune rows"
	}
	l.add("thresholds_met", false, len(unmet) == 0, detailList(unmet, "Every threshold target was met "+where+".", "threshold targets not met "+where))
}

type confPrefix struct{ tp, fn, fp, tn metrics.ID }

func (c *computer) confusionPrefixes() []confPrefix {
	out := []confPrefix{{metrics.E2ETP.ID(), metrics.E2EFN.ID(), metrics.E2EFP.ID(), metrics.E2ETN.ID()}}
	for _, x := range c.cfg.OperatingPoints {
		out = append(out, confPrefix{metrics.NETP.AtTau(x), metrics.NEFN.AtTau(x), metrics.NEFP.AtTau(x), metrics.NETN.AtTau(x)})
	}
	for _, x := range c.cfg.FPRTargets {
		out = append(out, confPrefix{metrics.NEHeldoutTP.AtFPR(x), metrics.NEHeldoutFN.AtFPR(x), metrics.NEHeldoutFP.AtFPR(x), metrics.NEHeldoutTN.AtFPR(x)})
	}
	return out
}

// detailList is a check's detail as a sentence: ok when items is empty,
// else "N <what>: a; b; c." (the first 10 when there are more).
func detailList(items []string, ok, what string) string {
	if len(items) == 0 {
		return ok
	}
	sort.Strings(items)
	if len(items) > 10 {
		return fmt.Sprintf("%d %s; the first 10: %s.", len(items), what, strings.Join(items[:10], "; "))
	}
	return fmt.Sprintf("%d %s: %s.", len(items), what, strings.Join(items, "; "))
}
