package report

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report/engine"
)

func (c *computer) gain() metrics.Gain {
	if c.cfg.Contract.NDCGGain == config.GainLinear {
		return metrics.GainLinear
	}
	return metrics.GainExponential
}

func (c *computer) mapDenominator() metrics.MAPDenominator {
	switch c.cfg.Contract.MAPDenominator {
	case "min_gold_k":
		return metrics.MAPMinGoldK
	case "hits":
		return metrics.MAPHits
	}
	return metrics.MAPGold
}

// rankKernels computes the per-query value of a ranking metric from the
// ranked grades; the random baseline swaps in expected-value kernels.
type rankKernels struct {
	recall, capped, precision, hit func(rel []int, gold []int, k int) float64
	ndcg, mapk                     func(rel []int, gold []int, k int) float64
	rr                             func(rel []int) float64
	rrAt                           func(rel []int, k int) float64
	ap, ndcgAll, rprec             func(rel []int, gold []int) float64 // whole ranking, no cutoff
}

func (c *computer) plainKernels() rankKernels {
	g, d := c.gain(), c.mapDenominator()
	return rankKernels{
		recall:    func(rel, gold []int, k int) float64 { return metrics.RecallAt(rel, len(gold), k) },
		capped:    func(rel, gold []int, k int) float64 { return metrics.CappedRecallAt(rel, len(gold), k) },
		precision: func(rel, gold []int, k int) float64 { return metrics.PrecisionAt(rel, k) },
		hit:       func(rel, gold []int, k int) float64 { return metrics.HitAt(rel, k) },
		ndcg:      func(rel, gold []int, k int) float64 { return metrics.NDCGAt(rel, gold, k, g) },
		mapk:      func(rel, gold []int, k int) float64 { return metrics.APAt(rel, len(gold), k, d) },
		rr:        metrics.RR,
		rrAt:      metrics.RRAt,
		ap:        func(rel, gold []int) float64 { return metrics.AP(rel, len(gold)) },
		ndcgAll:   func(rel, gold []int) float64 { return metrics.NDCG(rel, gold, g) },
		rprec:     func(rel, gold []int) float64 { return metrics.RPrecision(rel, len(gold)) },
	}
}

func (c *computer) randomKernels() rankKernels {
	g, d := c.gain(), c.mapDenominator()
	return rankKernels{
		recall:    func(rel, gold []int, k int) float64 { return metrics.RandomExpectedRecallAt(rel, len(gold), k) },
		capped:    func(rel, gold []int, k int) float64 { return metrics.RandomExpectedCappedRecallAt(rel, len(gold), k) },
		precision: func(rel, gold []int, k int) float64 { return metrics.RandomExpectedPrecisionAt(rel, k) },
		hit:       func(rel, gold []int, k int) float64 { return metrics.RandomExpectedHitAt(rel, k) },
		ndcg:      func(rel, gold []int, k int) float64 { return metrics.RandomExpectedNDCGAt(rel, gold, k, g) },
		mapk:      func(rel, gold []int, k int) float64 { return metrics.RandomExpectedAPAt(rel, len(gold), k, d) },
		rr:        metrics.RandomExpectedRR,
		rrAt:      metrics.RandomExpectedRRAt,
		ap:        func(rel, gold []int) float64 { return metrics.RandomExpectedAP(rel, len(gold)) },
		ndcgAll:   func(rel, gold []int) float64 { return metrics.RandomExpectedNDCG(rel, gold, g) },
		rprec:     func(rel, gold []int) float64 { return metrics.RandomExpectedRPrecision(rel, len(gold)) },
	}
}

// ranking computes the ranking metrics, strata and difficulty for one system
// (positives only).
// relOf gives a row's ranked grades and gainOf the gains nDCG reads
// (dataset.Row.Gains), which differ from the grades only for TREC input at
// a relevance level above 1; absent says which rows the system is not
// evaluated on (dataset.Row.Absent), undefined for every ranking measure.
func (c *computer) ranking(sc *sysCalc, relOf, gainOf func(int) []int, absent func(int) bool, query func(int) *dataset.Query, full bool) {
	c.rankingWith(sc, relOf, gainOf, absent, query, full, c.plainKernels())
}

// judgedZero reports whether the ranking population is judged_queries: TREC
// input with trec.no_relevant: zero, where a judged query with no relevant
// document is ranked and scores 0 on every ranking measure, as trec_eval
// scores it.
func (c *computer) judgedZero() bool {
	t := c.ds.TRECConventions
	return t != nil && t.NoRelevant == "zero"
}

// rankPop is the population of the ranking measures.
func (c *computer) rankPop() metrics.Population {
	if c.judgedZero() {
		return metrics.JudgedQueries
	}
	return metrics.PositivesOnly
}

func (c *computer) rankingWith(sc *sysCalc, relOf, gainOf func(int) []int, absent func(int) bool, query func(int) *dataset.Query, full bool, kern rankKernels) {
	n := len(c.eval)
	pop := c.rankPop()
	zero := c.judgedZero()
	per := func(f func(rel, gold []int) float64) []float64 {
		v := make([]float64, n)
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if absent(i) {
					v[i] = nan
					continue
				}
				if !c.y[i] {
					v[i] = nan
					if zero {
						v[i] = 0
					}
					continue
				}
				q := query(i)
				v[i] = f(relOf(i), q.GoldRels)
			}
		})
		return v
	}
	// perGain is per for nDCG, whose gains are every judged grade above 0
	// (trec_eval's ndcg, whatever its relevance level): a judged query with
	// no relevant document (no_relevant: zero) still has the gain of its
	// documents graded below the level, and scores 0 only when it has
	// none, as in trec_eval.
	perGain := func(f func(gains, ideal []int) float64) []float64 {
		v := make([]float64, n)
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				switch {
				case absent(i):
					v[i] = nan
				case c.y[i]:
					v[i] = f(gainOf(i), query(i).Gains())
				case !zero:
					v[i] = nan
				case len(query(i).GainRels) > 0:
					v[i] = f(gainOf(i), query(i).GainRels)
				default:
					v[i] = 0
				}
			}
		})
		return v
	}
	for _, k := range c.cfg.Cutoffs {
		c.rankingAt(sc, k, per, perGain, kern, pop, full, relOf, absent, query)
	}
	mrr := per(func(r, g []int) float64 { return kern.rr(r) })
	c.addMean(sc, metrics.RankMRR.ID(), "", pop, mrr, nil, true)
	if full {
		c.distribution(sc.name, metrics.RankMRR.ID(), "", mrr)
	}
	for ci, cr := range c.criteria {
		c.addMean(sc, metrics.RankMRR.ID(), critSlice(cr), pop, mrr, c.critSel[ci], true)
	}
	// Whole-ranking measures, no cutoff (trec_eval's map, ndcg, Rprec).
	for _, w := range []struct {
		id metrics.ID
		f  func(rel, gold []int) float64
	}{{metrics.RankMAP.ID(), kern.ap}, {metrics.RankNDCG.ID(), kern.ndcgAll}, {metrics.RankRPrecision.ID(), kern.rprec}} {
		of := per
		if w.id == metrics.RankNDCG.ID() {
			of = perGain
		}
		v := of(w.f)
		c.addMean(sc, w.id, "", pop, v, nil, true)
		if full {
			c.distribution(sc.name, w.id, "", v)
		}
	}
	if full {
		c.rankingQueryK(sc, per, query, pop)
	}
}

// perQuery turns a per-query kernel of (ranking, gold) into the vector of
// its values over the eval rows, undefined (or 0) where the query is not
// ranked.
type perQuery func(f func(rel, gold []int) float64) []float64

// rankingAt registers the ranking metrics at cutoff k: their means over
// the ranked queries, with intervals at the headline cutoff only, the
// strata's recall and precision, the per-criterion recall and nDCG at the
// headline cutoff, and (full) the distributions and the difficulty
// correlation.
func (c *computer) rankingAt(sc *sysCalc, k int, per, perGain perQuery, kern rankKernels, pop metrics.Population, full bool,
	relOf func(int) []int, absent func(int) bool, query func(int) *dataset.Query) {
	recallK, precisionK := metrics.RankRecall.At(k), metrics.RankPrecision.At(k)
	vals := map[metrics.ID][]float64{
		recallK:                        per(func(r, g []int) float64 { return kern.recall(r, g, k) }),
		metrics.RankCappedRecall.At(k): per(func(r, g []int) float64 { return kern.capped(r, g, k) }),
		precisionK:                     per(func(r, g []int) float64 { return kern.precision(r, g, k) }),
		metrics.RankHit.At(k):          per(func(r, g []int) float64 { return kern.hit(r, g, k) }),
		metrics.RankNDCG.At(k):         perGain(func(r, g []int) float64 { return kern.ndcg(r, g, k) }),
		metrics.RankMAP.At(k):          per(func(r, g []int) float64 { return kern.mapk(r, g, k) }),
		metrics.RankMRR.At(k):          per(func(r, g []int) float64 { return kern.rrAt(r, k) }),
	}
	boot := c.headlineCutoffs()[k] // ranking CIs only at the headline cutoff and the headline set's cutoffs
	for _, id := range sortedKeys(vals) {
		c.addMean(sc, id, "", pop, vals[id], nil, boot)
		if full {
			c.distribution(sc.name, id, "", vals[id])
		}
	}
	// Strata by n_pos.
	for si, st := range c.strata {
		keep := c.stratSel[si]
		c.addMean(sc, recallK, stratumSlice(st.label), pop, vals[recallK], keep, false)
		c.addMean(sc, precisionK, stratumSlice(st.label), pop, vals[precisionK], keep, false)
	}
	// Per criterion at the headline cutoff.
	if k == c.headK() {
		ndcgK := metrics.RankNDCG.At(k)
		for ci, cr := range c.criteria {
			keep := c.critSel[ci]
			c.addMean(sc, recallK, critSlice(cr), pop, vals[recallK], keep, true)
			c.addMean(sc, ndcgK, critSlice(cr), pop, vals[ndcgK], keep, true)
		}
	}
	if full {
		c.rankDifficulty(sc, relOf, absent, query, k, vals[recallK])
	}
}

// absentOf says which eval rows system si is not evaluated on
// (dataset.Row.Absent, when runs cover different queries). The flags are
// copied out of the rows once: the kernels ask for every row, and reaching
// into each Row for one flag cost a third of the ranking's time on a
// million queries, where most rows (those without evidence) need nothing
// else of their Row.
func (c *computer) absentOf(si int) func(int) bool {
	if !c.ds.PerSystemQueries {
		return func(int) bool { return false }
	}
	rows := c.ds.Systems[si].Rows
	a := make([]bool, len(c.eval))
	for i, qi := range c.eval {
		a[i] = rows[qi].Absent
	}
	return func(i int) bool { return a[i] }
}

// rankDifficulty registers the Spearman correlation, over the positive
// queries, of their difficulty (n_neg / n_pos: the candidates that are not
// gold per gold document) with their recall at cutoff k (recall).
func (c *computer) rankDifficulty(sc *sysCalc, relOf func(int) []int, absent func(int) bool, query func(int) *dataset.Query, k int, recall []float64) {
	n := len(c.eval)
	var dx, ry []float64
	for i := 0; i < n; i++ {
		if !c.y[i] || absent(i) {
			continue
		}
		rel := relOf(i)
		inPool := 0
		for _, r := range rel {
			if r > 0 {
				inPool++
			}
		}
		npos := len(query(i).Gold)
		dx = append(dx, float64(len(rel)-inPool)/float64(npos))
		ry = append(ry, recall[i])
	}
	rho, p := metrics.Spearman(dx, ry)
	c.put(sc.name, metrics.RankSpearmanDifficulty.At(k), "", len(dx), rho)
	c.put(sc.name, metrics.RankSpearmanDifficultyP.At(k), "", len(dx), p)
}

// rankingQueryK registers the query-specific cutoffs of the ranking
// measures (a K from each query's number of gold documents): per gives a
// measure's per-row values, as in rankingWith.
func (c *computer) rankingQueryK(sc *sysCalc, per func(f func(rel, gold []int) float64) []float64, query func(int) *dataset.Query, pop metrics.Population) {
	n := len(c.eval)
	// Query-specific K (docs/metrics.md "Query-specific cutoffs").
	fracs := []float64{0.1, 0.25, 0.5, 0.75, 1}
	weights := make([]float64, n)
	for i := range weights {
		weights[i] = float64(len(query(i).Gold))
	}
	for fi, p := range fracs {
		fi := fi
		rec := per(func(r, g []int) float64 {
			k := metrics.PercentileKs(len(g), fracs)[fi]
			return metrics.CappedRecallAt(r, len(g), k)
		})
		prec := per(func(r, g []int) float64 {
			k := metrics.PercentileKs(len(g), fracs)[fi]
			return metrics.PrecisionAt(r, k)
		})
		c.addMean(sc, metrics.RankPctRecall.AtPct(p), "", pop, rec, nil, false)
		c.addMean(sc, metrics.RankPctPrecision.AtPct(p), "", pop, prec, nil, false)
		c.addWeighted(sc, metrics.RankPctRecallWeighted.AtPct(p), pop, rec, weights)
		c.addWeighted(sc, metrics.RankPctPrecisionWeighted.AtPct(p), pop, prec, weights)
	}
	for _, k := range []int{5, 10, 20, 50, 100} {
		k := k
		rec := per(func(r, g []int) float64 { kk := min(k, len(g)); return float64(metrics.Hits(r, kk)) / float64(kk) })
		c.addMean(sc, metrics.RankCapKRecall.At(k), "", pop, rec, nil, false)
	}
	arec := per(func(r, g []int) float64 {
		var s float64
		ks := metrics.AdaptiveKs(len(g))
		for _, k := range ks {
			s += metrics.CappedRecallAt(r, len(g), k)
		}
		return s / float64(len(ks))
	})
	aprec := per(func(r, g []int) float64 {
		var s float64
		ks := metrics.AdaptiveKs(len(g))
		for _, k := range ks {
			s += metrics.PrecisionAt(r, k)
		}
		return s / float64(len(ks))
	})
	c.addMean(sc, metrics.RankAdaptiveRecall.ID(), "", pop, arec, nil, false)
	c.addMean(sc, metrics.RankAdaptivePrecision.ID(), "", pop, aprec, nil, false)
	c.addWeighted(sc, metrics.RankAdaptiveRecallWeighted.ID(), pop, arec, weights)
	c.addWeighted(sc, metrics.RankAdaptivePrecisionWeighted.ID(), pop, aprec, weights)
}

// addWeighted registers Σ w·x / Σ w over the rows where x is defined.
func (c *computer) addWeighted(sc *sysCalc, id metrics.ID, pop metrics.Population, x, w []float64) {
	num := make([]float64, len(x))
	den := make([]float64, len(x))
	cnt := make([]float64, len(x))
	for i := range x {
		if !isNaN(x[i]) {
			num[i], den[i], cnt[i] = w[i]*x[i], w[i], 1
		}
	}
	c.addRatio(sc, id, "", pop, num, den, cnt, 1, nil, false)
	// A weighted mean is read over its queries (n), not over the sum of
	// its weights: it carries no denominator.
	sc.stats[len(sc.stats)-1].den = nil
}

// perCriterion registers the per-criterion NE metrics and counts
// (n, n_pos, AUROC, AUPRC, ...); ranking and deployment slices are added by their sections.
//
// absent says which rows the system is not evaluated on (dataset.Row.Absent):
// they are not counted.
func (c *computer) perCriterion(sc *sysCalc, absent func(int) bool) {
	for ci, cr := range c.criteria {
		var rows []int
		npos := 0
		for i := range c.eval {
			if c.crit[i] == ci && !absent(i) {
				rows = append(rows, i)
				if c.y[i] {
					npos++
				}
			}
		}
		sl := critSlice(cr)
		c.put(sc.name, metrics.DataN.ID(), sl, len(rows), float64(len(rows)))
		c.put(sc.name, metrics.DataNPos.ID(), sl, len(rows), float64(npos))
		c.put(sc.name, metrics.DataPositiveRate.ID(), sl, len(rows), float64(npos)/float64(len(rows)))
		if sc.ne != nil {
			sc.scored = append(sc.scored,
				&scoredStat{key: metricKey{sc.name, metrics.NEAUROC.ID(), sl}, rows: rows, y: c.y, p: sc.ne, kind: "auroc"},
				&scoredStat{key: metricKey{sc.name, metrics.NEAUPRC.ID(), sl}, rows: rows, y: c.y, p: sc.ne, kind: "auprc"})
		}
	}
	for si, st := range c.strata {
		cnt := 0
		for i := range c.eval {
			if c.stratOf[i] == si && !absent(i) {
				cnt++
			}
		}
		c.put(sc.name, metrics.DataN.ID(), stratumSlice(st.label), cnt, float64(cnt))
	}
}

// multiLabel computes the per-post multi-label metrics over posts whose every criterion is in eval.
// Every statistic is a function of sums, so it bootstraps like the rest:
// per-post values sit on the post's first eval row.
func (c *computer) multiLabel(sc *sysCalc) {
	v, posts := c.multiLabelRows(sc)
	if posts == 0 {
		return
	}
	c.multiLabelStats(sc, v)
}

// mlRows are the per-row vectors of the multi-label metrics: per-post
// values on each post's first eval row (isPost marks those rows), and
// each row's confusion cell.
type mlRows struct {
	exact, ham, f1, isPost []float64
	tp, fp, fn             []float64
}

// multiLabelRows computes the per-row vectors of the multi-label metrics
// of sc over the posts whose every criterion is in eval, and the number of
// those posts.
func (c *computer) multiLabelRows(sc *sysCalc) (v mlRows, posts int) {
	n := len(c.eval)
	C := len(c.criteria)
	type post struct{ rows []int }
	byPost := map[string]*post{}
	var order []string
	for i, qi := range c.eval {
		p := c.ds.Queries[qi].Post
		if byPost[p] == nil {
			byPost[p] = &post{}
			order = append(order, p)
		}
		byPost[p].rows = append(byPost[p].rows, i)
	}
	pred := func(i int) bool { return sc.k[i] > 0 }
	exact := make([]float64, n)
	ham := make([]float64, n)
	f1 := make([]float64, n)
	isPost := make([]float64, n)
	tp, fp, fn := make([]float64, n), make([]float64, n), make([]float64, n)
	for _, p := range order {
		rows := byPost[p].rows
		if len(rows) != C {
			continue
		}
		posts++
		first := rows[0]
		correct, ptp, pfp, pfn := 0, 0, 0, 0
		for _, i := range rows {
			pr, tr := pred(i), c.y[i]
			if pr == tr {
				correct++
			}
			switch {
			case pr && tr:
				ptp++
				tp[i] = 1
			case pr:
				pfp++
				fp[i] = 1
			case tr:
				pfn++
				fn[i] = 1
			}
		}
		isPost[first] = 1
		exact[first] = b2f(correct == C)
		ham[first] = float64(correct) / float64(C)
		if d := 2*ptp + pfp + pfn; d > 0 {
			f1[first] = 2 * float64(ptp) / float64(d)
		}
	}
	return mlRows{exact: exact, ham: ham, f1: f1, isPost: isPost, tp: tp, fp: fp, fn: fn}, posts
}

// multiLabelStats registers the multi-label metrics of sc, sums of the
// vectors v.
func (c *computer) multiLabelStats(sc *sysCalc, v mlRows) {
	n, C := len(c.eval), len(c.criteria)
	exact, ham, f1, isPost, tp, fp, fn := v.exact, v.ham, v.f1, v.isPost, v.tp, v.fp, v.fn
	pop := metrics.Posts
	add := func(id metrics.ID, cols []int, f func(s []float64) float64, nCol int) {
		sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, ""}, pop: pop, cols: cols, f: f, nCol: nCol, perQ: -1, boot: true})
	}
	// Per-post values sit on first rows, per-criterion counts are the
	// counts over the criterion's rows.
	col := func(name string, sel *engine.Rows, v []float64) int {
		return sc.tab.ColOf("ml|"+name, sel, v, engine.Value)
	}
	firsts := engine.SelectRows(n, func(i int) bool { return isPost[i] != 0 })
	np := col("posts", firsts, isPost)
	add(metrics.MultilabelExactMatch.ID(), []int{col("exact", firsts, exact), np}, ratio, np)
	add(metrics.MultilabelHammingScore.ID(), []int{col("ham", firsts, ham), np}, ratio, np)
	add(metrics.MultilabelHammingLoss.ID(), []int{col("ham", firsts, ham), np}, func(s []float64) float64 { return 1 - ratio(s) }, np)
	add(metrics.MultilabelMacroF1Posts.ID(), []int{col("f1", firsts, f1), np}, ratio, np)
	tpc, fpc, fnc := col("tp", nil, tp), col("fp", nil, fp), col("fn", nil, fn)
	f1of := func(t, p, n float64) float64 {
		if d := 2*t + p + n; d > 0 {
			return 2 * t / d
		}
		return 0
	}
	add(metrics.MultilabelMicroF1.ID(), []int{tpc, fpc, fnc, np}, func(s []float64) float64 {
		if s[3] == 0 {
			return nan
		}
		return f1of(s[0], s[1], s[2])
	}, np)
	var ccols []int
	for k := 0; k < C; k++ {
		in := c.critSel[k]
		ccols = append(ccols, col("tp"+strconv.Itoa(k), in, tp), col("fp"+strconv.Itoa(k), in, fp), col("fn"+strconv.Itoa(k), in, fn))
	}
	ccols = append(ccols, np)
	add(metrics.MultilabelMacroF1Criteria.ID(), ccols, func(s []float64) float64 {
		if s[len(s)-1] == 0 {
			return nan
		}
		var sum float64
		for k := 0; k+3 < len(s); k += 3 {
			sum += f1of(s[k], s[k+1], s[k+2])
		}
		return sum / float64((len(s)-1)/3)
	}, np)
	add(metrics.MultilabelWeightedF1.ID(), ccols, func(s []float64) float64 {
		var sum, sup float64
		for k := 0; k+3 < len(s); k += 3 {
			w := s[k] + s[k+2]
			sum += w * f1of(s[k], s[k+1], s[k+2])
			sup += w
		}
		if sup == 0 {
			return nan
		}
		return sum / sup
	}, np)
}

// baselines computes the random and oracle rankings of the primary
// system's candidate pools, systems "baseline:random" and
// "baseline:oracle", and adds them to the systems. It reads only the
// primary system's grades, so it may run on a shard beside the systems'
// sections.
func (c *computer) baselines() {
	if !c.has(Ranking) {
		return
	}
	sys := &c.ds.Systems[c.primary]
	query := func(i int) *dataset.Query { return &c.ds.Queries[c.eval[i]] }
	rnd := &sysCalc{name: "baseline:random", tab: engine.NewTable(len(c.eval), c.group, c.nGroups), perQ: map[metrics.ID][]float64{}}
	absent := c.absentOf(c.primary)
	c.rankingWith(rnd, func(i int) []int { return sys.Rows[c.eval[i]].Rel }, func(i int) []int { return sys.Rows[c.eval[i]].Gains() }, absent, query, false, c.randomKernels())
	orc := &sysCalc{name: "baseline:oracle", tab: engine.NewTable(len(c.eval), c.group, c.nGroups), perQ: map[metrics.ID][]float64{}}
	// The oracle lists repeat (they depend only on the grades' counts):
	// rows with equal lists share one copy (kernels only read them).
	oracle := make([][]int, len(c.eval))
	c.rows(len(oracle), func(lo, hi int) {
		seen := map[string][]int{}
		var key []byte
		for i := lo; i < hi; i++ {
			o := metrics.Oracle(sys.Rows[c.eval[i]].Rel)
			key = key[:0]
			for _, g := range o {
				key = binary.AppendVarint(key, int64(g))
			}
			if s, ok := seen[string(key)]; ok {
				o = s
			} else {
				seen[string(key)] = o
			}
			oracle[i] = o
		}
	})
	// The oracle's gains: the same candidates by gain, highest first. A
	// relevant grade is above every gain below the relevance level, so
	// position by position this is the order of oracle (the relevant
	// grades first, highest first) with the gains below the level after.
	oracleGain := oracle
	for i := range oracle {
		if g := sys.Rows[c.eval[i]].Gain; g != nil {
			if sameSlice(oracleGain, oracle) {
				oracleGain = slices.Clone(oracle)
			}
			oracleGain[i] = metrics.Oracle(g)
		}
	}
	c.rankingWith(orc, func(i int) []int { return oracle[i] }, func(i int) []int { return oracleGain[i] }, absent, query, false, c.plainKernels())
	c.addBaselines(rnd, orc)
}

// sameSlice reports whether a and b share their first element's storage.
func sameSlice(a, b [][]int) bool {
	return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
}

// addBaselines adds the baseline systems to the systems, after the others.
func (c *computer) addBaselines(rnd, orc *sysCalc) {
	c.sys = append(c.sys, rnd, orc)
	c.rep.Systems = append(c.rep.Systems,
		SystemInfo{Name: rnd.name, Label: "Random ranking", Kind: Baseline, Source: "expected value over random orderings of the primary system's candidates"},
		SystemInfo{Name: orc.name, Label: "Oracle ranking", Kind: Baseline, Source: "gold first within the primary system's candidates"})
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// trecRanking computes the measures that need TREC judgments (qrels):
// bpref, gm_map, interpolated precision at the 11 recall levels and their
// mean, and the unjudged fraction at every cutoff. Rows without judgments
// (a per-query table system beside TREC runs) are undefined.
func (c *computer) trecRanking(sc *sysCalc, row func(int) *dataset.Row, query func(int) *dataset.Query) {
	n := len(c.eval)
	pop := c.rankPop()
	zero := c.judgedZero()
	in := func(i int) bool { return (c.y[i] || zero) && row(i).Judged != nil && !row(i).Absent }
	per := func(f func(r *dataset.Row, q *dataset.Query) float64) []float64 {
		v := make([]float64, n)
		c.rows(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if !in(i) {
					v[i] = nan
					continue
				}
				v[i] = f(row(i), query(i))
			}
		})
		return v
	}
	add := func(id metrics.ID, v []float64, boot bool) {
		c.addMean(sc, id, "", pop, v, nil, boot)
	}
	bpref := per(func(r *dataset.Row, q *dataset.Query) float64 {
		return metrics.BPref(r.Rel, r.Judged, len(q.Gold), q.NonRel)
	})
	add(metrics.RankBpref.ID(), bpref, true)
	// gm_map: exp of the mean of ln(max(AP, 1e-5)); the CI is the same
	// transform of the mean's.
	gm := per(func(r *dataset.Row, q *dataset.Query) float64 {
		ap := 0.0 // a query with no relevant document has AP 0 here, as in trec_eval
		if len(q.Gold) > 0 {
			ap = metrics.AP(r.Rel, len(q.Gold))
		}
		return metrics.GMMAPTerm(ap)
	})
	x := sc.tab.ColOf(metrics.RankGMMAP.String()+"||x", nil, gm, engine.NaNZero)
	m := sc.tab.ColOf(metrics.RankGMMAP.String()+"||m", nil, gm, engine.NotNaN)
	sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, metrics.RankGMMAP.ID(), ""}, pop: pop, cols: []int{x, m},
		f: func(s []float64) float64 { return math.Exp(ratio(s)) }, nCol: m, perQ: -1, boot: true})
	// Interpolated precision at the 11 recall levels, one pass per query.
	levels := metrics.RecallLevels
	ip := make([][]float64, len(levels))
	for j := range ip {
		ip[j] = make([]float64, n)
	}
	avg := make([]float64, n)
	c.rows(n, func(lo, hi int) {
		out := make([]float64, len(levels))
		for i := lo; i < hi; i++ {
			if !in(i) {
				for j := range ip {
					ip[j][i] = nan
				}
				avg[i] = nan
				continue
			}
			metrics.IPrecAtRecall(row(i).Rel, len(query(i).Gold), levels, out)
			s := 0.0
			for j, v := range out {
				ip[j][i] = v
				s += v
			}
			avg[i] = s / float64(len(levels))
		}
	})
	for j, l := range levels {
		add(metrics.RankIPrec.AtRecall(l), ip[j], false)
	}
	add(metrics.Rank11ptAvg.ID(), avg, true)
	for _, k := range c.cfg.Cutoffs {
		add(metrics.RankUnjudged.At(k), per(func(r *dataset.Row, q *dataset.Query) float64 {
			return metrics.Unjudged(r.Judged, k)
		}), k == c.headK())
	}
	c.trecAll(sc, in, row, query, bpref)
}

// unjudgedWarnings warns, for each system, when more than a tenth of the
// top K (the headline cutoff) is unjudged on average: pooled judgments then
// understate every measure.
func (c *computer) unjudgedWarnings() {
	id := metrics.RankUnjudged.At(c.headK())
	for _, s := range c.ds.Systems {
		m, ok := c.rep.Metric(s.Name, id, "")
		if !ok || !(float64(m.Value) > 0.1) {
			continue
		}
		c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("system %s: %.1f%% of its top %d documents have no judgment in the qrels (%s = %.4f, above 0.1): every measure that counts an unjudged document as non-relevant understates it; bpref skips them", s.Name, 100*float64(m.Value), c.headK(), id, float64(m.Value)))
	}
}
