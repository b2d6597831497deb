package report

import (
	"math"
	"slices"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/report/engine"
)

// trecCounts are the measures of trec_eval that are counts: per query a
// number of queries or documents, over the queries their sum (as trec_eval
// prints them in its `all` line).
var trecCounts = []metrics.Base{metrics.RankNumQ, metrics.RankNumRet, metrics.RankNumRel, metrics.RankNumRelRet, metrics.RankNumNonrelJudgedRet}

// trecMeans are the other measures of trec_eval that only rank_trec_all.go
// computes, each a mean over queries (gm_bpref a geometric one), in the
// order of trecAllValues's output after the counts and the Rprec_mult
// values.
var trecMeans = []metrics.Base{metrics.RankSetPrecision, metrics.RankSetRecall, metrics.RankSetF, metrics.RankSetMAP,
	metrics.RankSetRelativePrecision, metrics.RankInfAP, metrics.RankGMBpref, metrics.RankG, metrics.RankBinG,
	metrics.RankRNDCG, metrics.RankNDCGRel, metrics.RankUtility, metrics.RankRBP, metrics.RankRBPResid}

// trecAllValues writes one query's values of trecCounts, then of
// rank.rprec_mult at each of metrics.RPrecMults, then of trecMeans into
// out[:0], and returns it (gm_bpref as the log term of bpref, the query's
// bpref).
func trecAllValues(r *dataset.Row, q *dataset.Query, ideal []int, bpref float64, out []float64) []float64 {
	ret, rel := len(r.Rel), len(q.Gold)
	relRet := metrics.Hits(r.Rel, ret)
	nonRel := 0
	for i, j := range r.Judged {
		if j && r.Rel[i] == 0 {
			nonRel++
		}
	}
	out = append(out[:0], 1, float64(ret), float64(rel), float64(relRet), float64(nonRel))
	for _, x := range metrics.RPrecMults {
		out = append(out, metrics.RPrecMult(r.Rel, rel, x))
	}
	gain := r.Gains()
	maxGrade := 0
	if len(ideal) > 0 {
		maxGrade = ideal[0]
	}
	return append(out,
		metrics.SetPrecision(relRet, ret), metrics.SetRecall(relRet, rel), metrics.SetF(relRet, ret, rel),
		metrics.SetMAP(relRet, ret, rel), metrics.SetRelativePrecision(relRet, ret, rel),
		metrics.InfAP(r.Rel, r.Judged, r.Pooled, rel),
		metrics.GMBprefTerm(bpref),
		metrics.NormalizedGain(gain, ideal), metrics.BinG(r.Rel, rel),
		metrics.RNDCG(gain, ideal, rel), metrics.NDCGRel(gain, ideal),
		metrics.Utility(relRet, ret), metrics.RBP(gain, maxGrade), metrics.RBPResid(r.Judged))
}

// trecAll computes the measures of trec_eval's `-m all_trec` that no other
// part of the ranking section computes (docs/metrics.md "trec_eval
// measures"), over the rows in the ranking population (in), with the
// queries' bpref values (NaN outside it) for gm_bpref, and
// success_1 (rank.hit@1) when 1 is not a cutoff. None is bootstrapped:
// they are shown as trec_eval shows them, beside the measures that are.
func (c *computer) trecAll(sc *sysCalc, in func(int) bool, row func(int) *dataset.Row, query func(int) *dataset.Query, bpref []float64) {
	n := len(c.eval)
	width := len(trecCounts) + len(metrics.RPrecMults) + len(trecMeans)
	cols := make([][]float64, width)
	for j := range cols {
		cols[j] = make([]float64, n)
	}
	c.rows(n, func(lo, hi int) {
		out := make([]float64, 0, width)
		for i := lo; i < hi; i++ {
			if !in(i) {
				for j := range cols {
					cols[j][i] = nan
				}
				continue
			}
			q := query(i)
			out = trecAllValues(row(i), q, metrics.IdealGains(q.Gains()), bpref[i], out)
			for j, v := range out {
				cols[j][i] = v
			}
		}
	})
	pop := c.rankPop()
	j := 0
	for _, b := range trecCounts {
		c.addSum(sc, b.ID(), pop, cols[j])
		j++
	}
	for _, x := range metrics.RPrecMults {
		c.addMean(sc, metrics.RankRPrecMult.AtMult(x), "", pop, cols[j], nil, false)
		j++
	}
	for _, b := range trecMeans {
		if b == metrics.RankGMBpref {
			c.addGeoMean(sc, b.ID(), pop, cols[j], false)
		} else {
			c.addMean(sc, b.ID(), "", pop, cols[j], nil, false)
		}
		j++
	}
	if !slices.Contains(c.cfg.Cutoffs, 1) {
		hit := make([]float64, n)
		for i := range hit {
			hit[i] = nan
			if in(i) {
				hit[i] = b2f(metrics.Hits(row(i).Rel, 1) > 0)
			}
		}
		c.addMean(sc, metrics.RankHit.At(1), "", pop, hit, nil, false)
	}
}

// addSum registers the sum over the population of per-query values (NaN:
// outside it), not bootstrapped: trec_eval's counts.
func (c *computer) addSum(sc *sysCalc, id metrics.ID, pop metrics.Population, v []float64) {
	name := string(id) + "|"
	x := sc.tab.ColOf(name+"|x", nil, v, engine.NaNZero)
	m := sc.tab.ColOf(name+"|m", nil, v, engine.NotNaN)
	sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, ""}, pop: pop, cols: []int{x, m},
		f: func(s []float64) float64 { return s[0] }, nCol: m, perQ: -1})
	if c.keepPerQuery(sc.name) {
		sc.keepPerQ(id, v)
	}
}

// addGeoMean registers exp of the mean of per-query log terms (NaN:
// outside the population): a geometric mean such as gm_map and gm_bpref.
// The CI, when bootstrapped, is the same transform of the mean's.
func (c *computer) addGeoMean(sc *sysCalc, id metrics.ID, pop metrics.Population, v []float64, boot bool) {
	name := string(id) + "|"
	x := sc.tab.ColOf(name+"|x", nil, v, engine.NaNZero)
	m := sc.tab.ColOf(name+"|m", nil, v, engine.NotNaN)
	sc.stats = append(sc.stats, &sumStat{key: metricKey{sc.name, id, ""}, pop: pop, cols: []int{x, m},
		f: func(s []float64) float64 { return math.Exp(ratio(s)) }, nCol: m, perQ: -1, boot: boot})
}
