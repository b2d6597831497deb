package report

import (
	"fmt"
	"sort"
	"strconv"

	"paperbundle/metrics"
	"paperbundle/stats"
)

// headlineIDs are the metrics compared between systems (SPEC 4.8), when
// computed.
func (c *computer) headlineIDs() []metrics.ID {
	k := c.headK()
	return []metrics.ID{"ne.auroc", "ne.auprc", "ne.brier", "ne.ece",
		metrics.At("rank.ndcg", k), metrics.At("rank.recall", k), metrics.At("rank.map", k), "rank.mrr",
		"dynk.evidence_recall", "dynk.evidence_precision",
		"clinical.screen_sensitivity", "clinical.alert_precision", "e2e.f1"}
}

// comparisons compares every system with its reference on the same
// queries: paired bootstrap difference, paired permutation test, Holm,
// Cohen's d and d_z, and DeLong for AUROC.
func (c *computer) comparisons() {
	nSys := len(c.ds.Systems)
	var pvals []float64
	for si := 0; si < nSys; si++ {
		ri, ok := c.cfg.ReferenceFor(si)
		if !ok {
			continue
		}
		a, b := c.sys[si], c.sys[ri]
		for hi, id := range c.headlineIDs() {
			ma, okA := c.rep.Metric(a.name, id, "")
			mb, okB := c.rep.Metric(b.name, id, "")
			if !okA || !okB {
				continue
			}
			cmp := Comparison{System: a.name, Reference: b.name, ID: id, N: ma.N, Diff: ma.Value - mb.Value,
				PPermutation: NaN, PHolm: NaN, CohensD: NaN, DZ: NaN}
			key := func(s string) metricKey { return metricKey{s, id, ""} }
			ba, bb := c.boots[si], c.boots[ri]
			if ja, ok1 := ba.col[key(a.name)]; ok1 && ba.reps != nil {
				if jb, ok2 := bb.col[key(b.name)]; ok2 && bb.reps != nil {
					d := make([]float64, ba.reps.B)
					ca, cb := ba.column(ja), bb.column(jb)
					for k := range d {
						d[k] = ca[k] - cb[k]
					}
					lo, hi, dropped := percentileInterval(d, c.cfg.Bootstrap.Confidence, &c.qscratch)
					iv := stats.Interval{Low: lo, High: hi, Dropped: dropped}
					cmp.CI = &CI{Low: Num(iv.Low), High: Num(iv.High), Method: "percentile (paired)", Unit: c.cfg.Bootstrap.Unit, Resamples: ba.reps.B, Undefined: iv.Dropped}
				}
			}
			if va, ok := a.perQ[id]; ok {
				if vb, ok := b.perQ[id]; ok {
					var xa, xb []float64
					var grp []int32
					for i := range va {
						if !isNaN(va[i]) && !isNaN(vb[i]) {
							xa, xb = append(xa, va[i]), append(xb, vb[i])
							grp = append(grp, c.group[i])
						}
					}
					if len(xa) > 1 {
						seed := c.cfg.Seed ^ (uint64(si+1) << 40) ^ (uint64(hi+1) << 20)
						grp, ng := compactGroups(grp)
						cmp.PPermutation = Num(stats.PermutationTest(xa, xb, grp, ng, 10000, seed))
						cmp.CohensD = Num(stats.CohensD(xa, xb))
						cmp.DZ = Num(stats.CohensDz(xa, xb))
						cmp.N = len(xa)
					}
				}
			}
			if id == "ne.auroc" && a.ne != nil && b.ne != nil {
				_, _, z, p := stats.DeLongPaired(c.y, a.ne, b.ne)
				zz, pp := Num(z), Num(p)
				cmp.DeLongZ, cmp.DeLongP = &zz, &pp
				se := Num(stats.DeLongClusteredSE(c.y, a.ne, b.ne, c.group, c.nGroups))
				cmp.DeLongSEClust = &se
			}
			p := float64(cmp.PPermutation)
			if id == "ne.auroc" && cmp.DeLongP != nil {
				p = float64(*cmp.DeLongP)
			}
			pvals = append(pvals, p)
			c.rep.Comparisons = append(c.rep.Comparisons, cmp)
		}
	}
	if len(pvals) > 0 {
		holm := stats.Holm(pvals)
		for i := range c.rep.Comparisons {
			c.rep.Comparisons[i].PHolm = Num(holm[i])
		}
	}
}

// headK is the headline cutoff of the configuration (see headCutoff).
func (c *computer) headK() int { return HeadlineCutoff(c.cfg.Cutoffs) }

// compactGroups renumbers group ids to 0..n-1 in order of appearance.
func compactGroups(g []int32) ([]int32, int) {
	m := map[int32]int32{}
	out := make([]int32, len(g))
	for i, x := range g {
		y, ok := m[x]
		if !ok {
			y = int32(len(m))
			m[x] = y
		}
		out[i] = y
	}
	return out, len(m)
}

// checks evaluates SPEC 10 on the computed report.
func (c *computer) checks() {
	add := func(id string, hard, ok bool, detail string) {
		c.rep.Checks = append(c.rep.Checks, Check{ID: id, Hard: hard, Passed: ok, Detail: detail})
	}
	// Structural checks already enforced by the loader (it refuses the
	// input otherwise); listed so the reader sees they were made.
	add("folds_post_disjoint", true, true, "every post is evaluated in exactly one fold")
	add("tune_eval_disjoint", true, true, "within each fold, tune and eval rows share no post")
	add("gold_identical_across_systems", true, true, identicalGold(len(c.ds.Systems)))
	add("probabilities_in_range", true, true, "every ne_prob and node_prob is in [0, 1]")

	// Confusion matrices add up.
	npos := c.rep.Dataset.PositiveQueries
	n := len(c.eval)
	bad := []string{}
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
			if int(tp.Value+fn.Value) != npos || int(tp.Value+fn.Value+fp.Value+tn.Value) != n {
				bad = append(bad, s.Name+" "+string(pre.tp))
			}
		}
	}
	add("confusion_matrices_add_up", true, len(bad) == 0, detailList(bad, fmt.Sprintf("TP+FN = %d positives and TP+TN+FP+FN = %d queries for every operating point", npos, n)))

	// Rates inside their range.
	bad = bad[:0]
	for _, m := range c.rep.Metrics {
		d := metrics.MustDef(m.ID)
		if !m.Value.Valid() || d.Hi < d.Lo {
			continue
		}
		if d.Base == "ne.tpr_threshold" && !c.ds.HasNEProb {
			continue // a threshold over ne_score, not a probability
		}
		v := float64(m.Value)
		if v < d.Lo-1e-12 || v > d.Hi+1e-12 {
			bad = append(bad, fmt.Sprintf("%s %s %s = %g", m.System, m.ID, m.Slice, v))
		}
	}
	add("rates_in_range", true, len(bad) == 0, detailList(bad, "every rate and score lies in its range"))

	// Soft checks.
	gm := c.rep.Dataset.GoldMissing
	add("gold_in_candidate_pool", false, gm == 0, fmt.Sprintf("%d gold items of eval queries are missing from the primary system's candidates", gm))
	sizes := map[int]bool{}
	for _, f := range c.rep.Dataset.Folds {
		sizes[f.Posts] = true
	}
	add("folds_equal_size", false, len(sizes) <= 1, fmt.Sprintf("posts per fold: %s", foldSizes(c.rep.Dataset.Folds)))
	var noPos []string
	for _, cr := range c.criteria {
		if m, ok := c.rep.Metric(c.ds.Systems[0].Name, "data.n_pos", critSlice(cr)); ok && m.Value == 0 {
			noPos = append(noPos, cr)
		}
	}
	add("criteria_have_positives", false, len(noPos) == 0, detailList(noPos, "every criterion has at least one positive eval query"))
	var unmet []string
	for _, t := range c.rep.Thresholds {
		for _, p := range t.FPR {
			if !p.Met {
				unmet = append(unmet, fmt.Sprintf("%s fold %d FPR budget %g", t.System, t.Fold, float64(p.Budget)))
			}
		}
		if t.TauNeg.Valid() && !t.TauNegMet {
			unmet = append(unmet, fmt.Sprintf("%s fold %d screening sensitivity", t.System, t.Fold))
		}
		if t.TauNeg.Valid() && !t.TauPosMet {
			unmet = append(unmet, fmt.Sprintf("%s fold %d alert precision (no POS state)", t.System, t.Fold))
		}
	}
	add("thresholds_met", false, len(unmet) == 0, detailList(unmet, "every threshold target was met on tune rows"))
}

type confPrefix struct{ tp, fn, fp, tn metrics.ID }

func (c *computer) confusionPrefixes() []confPrefix {
	out := []confPrefix{{"ne.tp@tau=0.5", "ne.fn@tau=0.5", "ne.fp@tau=0.5", "ne.tn@tau=0.5"}, {"e2e.tp", "e2e.fn", "e2e.fp", "e2e.tn"}}
	for _, x := range c.cfg.FPRTargets {
		out = append(out, confPrefix{metrics.AtFPR("ne.heldout_tp", x), metrics.AtFPR("ne.heldout_fn", x), metrics.AtFPR("ne.heldout_fp", x), metrics.AtFPR("ne.heldout_tn", x)})
	}
	return out
}

func detailList(items []string, ok string) string {
	if len(items) == 0 {
		return ok
	}
	sort.Strings(items)
	if len(items) > 10 {
		return fmt.Sprintf("%d failures, first: %v", len(items), items[:10])
	}
	return fmt.Sprintf("failures: %v", items)
}

func foldSizes(f []FoldSummary) string {
	s := ""
	for i, x := range f {
		if i > 0 {
			s += ", "
		}
		s += strconv.Itoa(x.Posts)
	}
	return s
}

// identicalGold is the detail of the gold_identical_across_systems check.
func identicalGold(n int) string {
	if n == 1 {
		return "one system: nothing to compare"
	}
	return fmt.Sprintf("%d systems carry identical gold", n)
}
