package metrics

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the Dynamic-K policy (docs/metrics.md "Dynamic-K") and the
// evidence-set metrics of the set it selects: recall and precision over
// positive queries, over all queries, and the micro (summed) recall.

// DynKPolicy holds the constraints of the Dynamic-K selection
// (configuration dynamic_k). The published defaults are KMin 2,
// HardCap 10, KMaxRatio 0.5. A zero HardCap or KMaxRatio means that limit
// does not apply.
type DynKPolicy struct {
	KMin      int     // minimum number of sentences returned (when the pool has them)
	HardCap   int     // absolute maximum; <= 0: none
	KMaxRatio float64 // maximum fraction of the pool; <= 0: none
}

// dynkSelectTol absorbs the rounding of the normalised cumulative mass: a
// cumulative mass within 1e-12 of gamma counts as reaching it, so that, for
// example, probabilities {0.6, 0.1, 0.05} reach gamma = 0.8 with the first
// candidate although 0.6/0.75 rounds to 0.7999999999999999 in float64.
const dynkSelectTol = 1e-12

// KMax returns the largest K the policy allows for a pool of n candidates:
//
//	k_max = min(HardCap, ⌊n · KMaxRatio⌋), raised to KMin if below it,
//	        and never above n
//
// n · KMaxRatio is snapped to the nearest integer first when within a
// relative 1e-9 of it (0.29 · 100 gives 29, not 28). n <= 0 gives 0.
func (p DynKPolicy) KMax(n int) int {
	if n <= 0 {
		return 0
	}
	k := n
	if p.HardCap > 0 {
		k = min(k, p.HardCap)
	}
	if p.KMaxRatio > 0 {
		k = min(k, int(math.Floor(rankSnap(float64(n)*p.KMaxRatio))))
	}
	k = max(k, p.KMin)
	return min(k, n)
}

// Select runs the Dynamic-K policy on one query and returns the selected
// candidates as rank positions (0-based indexes into nodeProbs), in
// selection order. nodeProbs holds the node probability of each candidate in
// rank order. The candidates are ordered by probability descending, ties
// kept in rank order; the probabilities are normalised to sum 1, and K is
// the smallest count whose cumulative mass reaches gamma:
//
//	K* = min{K >= 1 : Σ_{j<=K} p_(j) / Σ_j p_j >= gamma − 1e-12}
//	K  = min(n, max(KMin, min(K*, KMax(n))))
//
// The 1e-12 slack absorbs rounding in the cumulative sum. gamma > 1 selects
// up to KMax(n); gamma <= 0 selects max(1, KMin). When every probability is 0 the
// mass is taken as uniform (each candidate 1/n), so K* = ⌈gamma·n⌉ and the
// candidates are taken in rank order. An empty pool gives an empty
// selection. Whether the gate returns anything at all (the NEG state) is
// the caller's decision. It panics on a negative, infinite or NaN
// probability (the dataset validates them to [0, 1]).
func (p DynKPolicy) Select(nodeProbs []float64, gamma float64) []int {
	n := len(nodeProbs)
	if n == 0 {
		return []int{}
	}
	var total float64
	for _, q := range nodeProbs {
		if !(q >= 0) || math.IsInf(q, 1) {
			panic(fmt.Sprintf("metrics: node probability must be finite and >= 0, got %v", q))
		}
		total += q
	}
	m := p.KMax(n) // K never exceeds it, so only the top m need ordering
	order := dynkTop(nodeProbs, m)
	kStar := m
	var cum float64
	for j, i := range order {
		if total > 0 {
			cum += nodeProbs[i] / total
		} else {
			cum += 1 / float64(n)
		}
		if cum >= gamma-dynkSelectTol {
			kStar = j + 1
			break
		}
	}
	k := min(n, max(p.KMin, min(kStar, m)))
	return order[:k:k]
}

// dynkTop returns the indexes of the m largest probabilities, by
// probability descending and rank ascending among ties. Small m (the usual
// hard cap of 10) uses insertion into a buffer of m, O(n·m) without sorting
// the whole pool; larger m sorts all indexes stably.
func dynkTop(probs []float64, m int) []int {
	if m <= 0 {
		return []int{}
	}
	if m > 32 {
		order := make([]int, len(probs))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case probs[a] > probs[b]:
				return -1
			case probs[a] < probs[b]:
				return 1
			}
			return 0
		})
		return order[:m]
	}
	top := make([]int, 0, m)
	for i, q := range probs {
		if len(top) == m && q <= probs[top[m-1]] {
			continue // an equal later candidate never displaces an earlier one
		}
		pos := len(top)
		if pos < m {
			top = append(top, i)
		} else {
			pos = m - 1
		}
		for pos > 0 && probs[top[pos-1]] < q {
			top[pos] = top[pos-1]
			pos--
		}
		top[pos] = i
	}
	return top
}

// dynkCheckCounts panics on counts that cannot come from one query.
func dynkCheckCounts(hits, nGold, nSel int) {
	if hits < 0 || nGold < 0 || nSel < 0 || hits > nGold || hits > nSel {
		panic(fmt.Sprintf("metrics: inconsistent evidence counts hits=%d n_gold=%d n_sel=%d", hits, nGold, nSel))
	}
}

// EvidenceRecall returns the recall of the selected evidence set of one
// query (dynk.evidence_recall, over positive queries):
//
//	|selected ∩ gold| / |gold|
//
// Population: positives_only; n_gold = 0 gives NaN (the seed returns 0, but
// the report never asks). hits is |selected ∩ gold|, nSel |selected|. It
// panics when hits exceeds n_gold or nSel, or a count is negative.
func EvidenceRecall(hits, nGold, nSel int) float64 {
	dynkCheckCounts(hits, nGold, nSel)
	if nGold == 0 {
		return math.NaN()
	}
	return float64(hits) / float64(nGold)
}

// EvidencePrecision returns the precision of the selected evidence set of
// one query (dynk.evidence_precision, over positive queries):
//
//	|selected ∩ gold| / |selected|
//
// Population: positives_only; an empty selection gives 0, as the seed says.
// It panics when hits exceeds nSel or is negative.
func EvidencePrecision(hits, nSel int) float64 {
	if hits < 0 || hits > nSel {
		panic(fmt.Sprintf("metrics: inconsistent evidence counts hits=%d n_sel=%d", hits, nSel))
	}
	if nSel == 0 {
		return 0
	}
	return float64(hits) / float64(nSel)
}

// EvidenceRecallAll returns the evidence recall of one query with the
// all-queries convention for queries without gold, so that it is defined on
// all_queries (dynk.evidence_recall_all):
//
//	n_gold > 0: hits / n_gold
//	n_gold = 0: 1 if nothing was selected, else 0
//
// It panics on inconsistent counts.
func EvidenceRecallAll(hits, nGold, nSel int) float64 {
	dynkCheckCounts(hits, nGold, nSel)
	if nGold == 0 {
		if nSel == 0 {
			return 1
		}
		return 0
	}
	return float64(hits) / float64(nGold)
}

// EvidencePrecisionAll returns the evidence precision of one query with the
// all-queries convention for empty selections (dynk.evidence_precision_all):
//
//	n_sel > 0: hits / n_sel
//	n_sel = 0: 1 if the query has no gold, else 0
//
// It panics on inconsistent counts.
func EvidencePrecisionAll(hits, nGold, nSel int) float64 {
	dynkCheckCounts(hits, nGold, nSel)
	if nSel == 0 {
		if nGold == 0 {
			return 1
		}
		return 0
	}
	return float64(hits) / float64(nSel)
}
