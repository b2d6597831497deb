package metrics

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// This file holds the per-query ranking kernels (positive queries, ranking by
// candidate score).
//
// A ranked query is described by two slices:
//
//   - rel: the gold grade of each candidate in ranked order (already sorted by
//     the caller; ties are the caller's business). A grade <= 0 means "not
//     gold". rel[0] is the candidate at rank 1.
//   - gold: the grades of ALL gold items of the query, including gold that is
//     not in the candidate pool. n_pos = len(gold).
//
// Binary kernels (recall, precision, hit, AP, RR) treat a candidate as gold
// when its grade is >= 1, which is trec_eval's default relevance level.
// Undefined values are math.NaN().

// Hits returns the number of gold candidates (grade >= 1) among the first k
// entries of rel. A k larger than len(rel) counts the whole list; k <= 0
// gives 0.
func Hits(rel []int, k int) int {
	k = min(max(k, 0), len(rel))
	h := 0
	for _, r := range rel[:k] {
		if r > 0 {
			h++
		}
	}
	return h
}

// rankCheckK panics when a cutoff is not positive: cutoffs come from the
// validated configuration, so a bad one is a programmer's mistake.
func rankCheckK(k int) {
	if k < 1 {
		panic(fmt.Sprintf("metrics: cutoff k must be positive, got %d", k))
	}
}

// RecallAt returns Recall@k, the fraction of the query's gold found in the
// top k (trec_eval's recall_k):
//
//	Recall@k = |gold ∩ top_k| / n_gold
//
// Population: positives_only. Gold outside the candidate pool counts in
// n_gold, so such a query can never reach 1. A k larger than the list counts
// the whole list. n_gold = 0 is undefined (NaN), where some published code returns 0:
// the report only calls it on positive queries. It panics if k < 1.
func RecallAt(rel []int, nGold, k int) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	return float64(Hits(rel, k)) / float64(nGold)
}

// CappedRecallAt returns the query-specific recall, whose
// denominator is capped by the cutoff so that a perfect ranking scores 1
// even when the query has more gold than k:
//
//	CappedRecall@k = |gold ∩ top_k| / min(k, n_gold)
//
// Population: positives_only. n_gold = 0 gives NaN. It panics if k < 1.
func CappedRecallAt(rel []int, nGold, k int) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	return float64(Hits(rel, k)) / float64(min(k, nGold))
}

// PrecisionAt returns Precision@k (trec_eval's P_k):
//
//	Precision@k = |gold ∩ top_k| / k
//
// The denominator is k even when the list holds fewer than k candidates, as
// in trec_eval. Population: positives_only. It panics if k < 1.
func PrecisionAt(rel []int, k int) float64 {
	rankCheckK(k)
	return float64(Hits(rel, k)) / float64(k)
}

// HitAt returns 1 if at least one gold candidate is in the top k and 0
// otherwise (trec_eval's success_k). Its mean
// over queries is the hit rate. It panics if k < 1.
func HitAt(rel []int, k int) float64 {
	rankCheckK(k)
	if Hits(rel, k) > 0 {
		return 1
	}
	return 0
}

// Gain selects the gain function of nDCG.
type Gain int

const (
	// GainExponential is 2^rel − 1 (Burges et al.). For binary relevance it
	// equals GainLinear.
	GainExponential Gain = iota
	// GainLinear is rel itself, the gain of trec_eval's ndcg and ndcg_cut
	// ("gain values are the relevance values in the qrels file").
	GainLinear
)

// String returns "exponential" or "linear", the names the configuration
// uses (contract.ndcg_gain).
func (g Gain) String() string {
	switch g {
	case GainExponential:
		return "exponential"
	case GainLinear:
		return "linear"
	}
	return fmt.Sprintf("Gain(%d)", int(g))
}

// value returns the gain of grade r scaled by 2^-shift (see gainShift);
// grades <= 0 have no gain. With shift 0 it is 2^r − 1 or r.
func (g Gain) value(r, shift int) float64 {
	if r <= 0 {
		return 0
	}
	switch g {
	case GainExponential:
		return math.Exp2(float64(r-shift)) - math.Exp2(float64(-shift))
	case GainLinear:
		return float64(r)
	}
	panic(fmt.Sprintf("metrics: unknown gain %d", int(g)))
}

// maxUnscaledGrade is the largest grade whose exponential gains are
// summed unscaled: 2^960 leaves a factor 2^63 before float64 overflows
// (2^1024), room for the sum of any ranking's discounted gains.
const maxUnscaledGrade = 960

// gainShift is the power of two by which the exponential gains of one
// query are scaled down, so that their sums stay finite: 0 unless a grade
// of grades exceeds maxUnscaledGrade. nDCG is a ratio of two sums of the
// same gains, so the scale cancels (up to rounding); without it three
// documents of grade 1023 sum to +Inf and nDCG is NaN.
func (g Gain) gainShift(grades ...[]int) int {
	if g != GainExponential {
		return 0
	}
	m := 0
	for _, gs := range grades {
		for _, r := range gs {
			m = max(m, r)
		}
	}
	return max(0, m-maxUnscaledGrade)
}

// rankDiscount returns 1/log2(i+2), the discount of 0-based position i
// (rank i+1): from discounts for the first positions, else computed (the
// same expression, so the same bits).
func rankDiscount(i int) float64 {
	if i < len(discounts) {
		return discounts[i]
	}
	return 1 / math.Log2(float64(i)+2)
}

// discountTable is how many positions discounts and discountSums hold.
const discountTable = 4096

var (
	// discounts[i] is 1/log2(i+2).
	discounts = func() []float64 {
		d := make([]float64, discountTable)
		for i := range d {
			d[i] = 1 / math.Log2(float64(i)+2)
		}
		return d
	}()
	// discountSums[m] is Σ_{i<m} discounts[i], added in order (so it is
	// bit for bit the loop it replaces).
	discountSums = func() []float64 {
		s := make([]float64, discountTable+1)
		for i, d := range discounts {
			s[i+1] = s[i] + d
		}
		return s
	}()
)

// rankDiscountSum returns Σ_{i<m} rankDiscount(i), added in order.
func rankDiscountSum(m int) float64 {
	if m < len(discountSums) {
		return discountSums[m]
	}
	s := discountSums[len(discountSums)-1]
	for i := len(discountSums) - 1; i < m; i++ {
		s += rankDiscount(i)
	}
	return s
}

// NDCGAt returns nDCG@k, the discounted cumulative gain of the top k
// normalised by that of the ideal ranking (Järvelin and Kekäläinen):
//
//	DCG@k  = Σ_{i=1..min(k, len(rel))} gain(rel_i) / log2(i + 1)
//	IDCG@k = Σ_{i=1..min(k, len(gold))} gain(g_(i)) / log2(i + 1)
//	nDCG@k = DCG@k / IDCG@k
//
// where g_(1) >= g_(2) >= ... are ALL gold grades of the query sorted in
// descending order, including gold not in the pool (so such a query cannot
// reach 1). With GainLinear this is trec_eval 9's ndcg_cut_k, whose ideal
// ranking is built from the qrels grades and whose discount is
// log2(rank + 1) (trec_eval 8 did not discount rank 2; 9 does). Grades <= 0
// have no gain. Population: positives_only. IDCG = 0 (no gold) gives NaN,
// where trec_eval prints 0. It panics if k < 1.
func NDCGAt(rel, gold []int, k int, g Gain) float64 {
	rankCheckK(k)
	shift := g.gainShift(rel, gold)
	dcg := rankDCG(rel[:min(k, len(rel))], g, shift)
	idcg := rankIdealDCG(gold, k, g, shift)
	if idcg == 0 {
		return math.NaN()
	}
	return dcg / idcg
}

// rankDCG returns Σ_i gain(rel_i)·rankDiscount(i), the gains scaled by
// 2^-shift. A linear gain is the grade itself and the first positions'
// discounts are in a table: that case reads them directly, the same
// products added in the same order.
func rankDCG(rel []int, g Gain, shift int) float64 {
	var dcg float64
	if g == GainLinear && len(rel) <= len(discounts) {
		d := discounts[:len(rel)]
		for i, r := range rel {
			if r > 0 {
				dcg += float64(r) * d[i]
			}
		}
		return dcg
	}
	for i, r := range rel {
		if r > 0 {
			dcg += g.value(r, shift) * rankDiscount(i)
		}
	}
	return dcg
}

// rankIdealDCG returns the DCG of gold sorted by grade descending, cut at
// k, its gains scaled by 2^-shift. Grades below oracleGrades are counted
// rather than sorted: the ideal ranking is then each grade's count of
// positions, highest grade first, the same terms in the same order.
func rankIdealDCG(gold []int, k int, g Gain, shift int) float64 {
	var count [oracleGrades]int
	for _, r := range gold {
		if r < 0 || r >= oracleGrades {
			return rankIdealDCGSorted(gold, k, g, shift)
		}
		count[r]++
	}
	var idcg float64
	i, m := 0, min(k, len(gold))
	for r := oracleGrades - 1; r > 0 && i < m; r-- {
		v := g.value(r, shift)
		for n := min(count[r], m-i); n > 0; n-- {
			idcg += v * rankDiscount(i)
			i++
		}
	}
	return idcg
}

// rankIdealDCGSorted is rankIdealDCG by sorting a copy of gold.
func rankIdealDCGSorted(gold []int, k int, g Gain, shift int) float64 {
	var ideal []int
	if len(gold) <= 32 {
		var buf [32]int
		ideal = buf[:len(gold)]
	} else {
		ideal = make([]int, len(gold))
	}
	copy(ideal, gold)
	slices.Sort(ideal)
	slices.Reverse(ideal)
	var idcg float64
	for i, r := range ideal[:min(k, len(ideal))] {
		if r > 0 {
			idcg += g.value(r, shift) * rankDiscount(i)
		}
	}
	return idcg
}

// MAPDenominator selects the denominator of AP@k, on which published
// definitions disagree (contract.map_denominator; docs/metrics.md).
type MAPDenominator int

const (
	// MAPGold divides by n_gold, the number of gold items of the query
	// (trec_eval's map_cut). The default.
	MAPGold MAPDenominator = iota
	// MAPMinGoldK divides by min(n_gold, k).
	MAPMinGoldK
	// MAPHits divides by the number of gold items found in the top k (seed
	// 004 B.5); a query with no hit in the top k scores 0.
	MAPHits
)

// String returns "gold", "min_gold_k" or "hits", the names the
// configuration uses.
func (d MAPDenominator) String() string {
	switch d {
	case MAPGold:
		return "gold"
	case MAPMinGoldK:
		return "min_gold_k"
	case MAPHits:
		return "hits"
	}
	return fmt.Sprintf("MAPDenominator(%d)", int(d))
}

// APAt returns the average precision of the top k:
//
//	S    = Σ_{i=1..min(k, len(rel))} [rel_i >= 1] · Precision@i
//	AP@k = S / D
//
// where D is n_gold (MAPGold, trec_eval's map_cut_k), min(n_gold, k)
// (MAPMinGoldK) or the number of hits in the top k (MAPHits; 0 hits gives
// 0). Population: positives_only; n_gold = 0 gives NaN for every
// denominator. It panics if k < 1 or d is unknown.
func APAt(rel []int, nGold, k int, d MAPDenominator) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	var s float64
	h := 0
	for i, r := range rel[:min(k, len(rel))] {
		if r > 0 {
			h++
			s += float64(h) / float64(i+1)
		}
	}
	return apOf(s, h, nGold, k, d)
}

// apOf is AP@k from the sum S of the precisions at the hits, the number of
// hits h and n_gold > 0 (see APAt).
func apOf(s float64, h, nGold, k int, d MAPDenominator) float64 {
	switch d {
	case MAPGold:
		return s / float64(nGold)
	case MAPMinGoldK:
		return s / float64(min(nGold, k))
	case MAPHits:
		if h == 0 {
			return 0
		}
		return s / float64(h)
	}
	panic(fmt.Sprintf("metrics: unknown MAP denominator %d", int(d)))
}

// AP returns the average precision of the whole list, trec_eval's map
// (rank.map):
//
//	AP = (1 / n_gold) Σ_{i=1..len(rel)} [rel_i >= 1] · Precision@i
//
// that is APAt(rel, nGold, len(rel), MAPGold). Gold never retrieved
// contributes precision 0. Population: positives_only. n_gold = 0 gives NaN.
func AP(rel []int, nGold int) float64 {
	return APAt(rel, nGold, max(len(rel), 1), MAPGold)
}

// NDCG returns nDCG over the whole ranking, trec_eval's ndcg (rank.ndcg):
//
//	DCG  = Σ_{i=1..len(rel)} gain(rel_i) / log2(i + 1)
//	IDCG = Σ_{i=1..len(gold)} gain(g_(i)) / log2(i + 1)
//	nDCG = DCG / IDCG
//
// where g_(1) >= g_(2) >= ... are ALL gold grades of the query in
// descending order, uncut: the ideal ranking is as long as the gold list
// even when the system ranks fewer candidates, and gold outside the pool
// keeps the query below 1. It is NDCGAt with k = max(len(rel), len(gold)).
// Population: positives_only. No gold (IDCG = 0) gives NaN, where trec_eval
// prints 0; an empty ranking with gold gives 0.
func NDCG(rel, gold []int, g Gain) float64 {
	return NDCGAt(rel, gold, max(len(rel), len(gold), 1), g)
}

// RPrecision returns the precision at rank R = n_gold, trec_eval's Rprec
// (rank.r_precision):
//
//	R-precision = |gold ∩ top_R| / R
//
// At rank R precision equals recall. A ranking shorter than R counts the
// hits of the whole ranking over R, as trec_eval does, so such a query
// cannot reach 1. Population: positives_only. n_gold = 0 gives NaN.
func RPrecision(rel []int, nGold int) float64 {
	if nGold <= 0 {
		return math.NaN()
	}
	return float64(Hits(rel, nGold)) / float64(nGold)
}

// RR returns the reciprocal rank of the first gold candidate in the whole
// list, 1/rank, or 0 when the list holds no gold (trec_eval's recip_rank;
// rank.mrr). Its mean over positive queries is MRR.
func RR(rel []int) float64 {
	for i, r := range rel {
		if r > 0 {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// RRAt returns the reciprocal rank of the first gold candidate within the
// top k, or 0 when there is none (MRR@K). It panics if k < 1.
func RRAt(rel []int, k int) float64 {
	rankCheckK(k)
	return RR(rel[:min(k, len(rel))])
}

// Oracle returns a copy of rel reordered as a perfect ranker would order the
// pool: grades descending, ties keeping their order. Feeding it to the
// kernels of this file gives the oracle baseline: the best
// any ordering of the same candidates can score. Gold outside the pool stays
// out of reach.
func Oracle(rel []int) []int {
	if rel == nil {
		return nil
	}
	// Grades are small: count them and write them out, highest first (the
	// items are bare grades, so this is the stable sort's result).
	var n [oracleGrades]int
	for _, g := range rel {
		if g < 0 || g >= oracleGrades {
			out := slices.Clone(rel)
			slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(b, a) })
			return out
		}
		n[g]++
	}
	out := make([]int, len(rel))
	k := 0
	for g := oracleGrades - 1; g >= 0; g-- {
		for range n[g] {
			out[k] = g
			k++
		}
	}
	return out
}

// oracleGrades bounds the grades Oracle counts; others take a sort.
const oracleGrades = 16
