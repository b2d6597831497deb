package metrics

import (
	"math"
	"slices"
)

// This file holds the rest of the measures trec_eval 10 prints with
// `-m all_trec` (usnistgov/trec_eval: m_set_*.c, m_Rprec_mult.c, m_infap.c,
// m_gm_bpref.c, m_G.c, m_binG.c, m_Rndcg.c, m_ndcg_rel.c, m_utility.c,
// m_rbp.c, m_rbp_resid.c), each written from its definition and checked
// against trec_eval's output on trec_eval's own test suite
// (trec_eval_parity_test.go).
//
// The set measures read four counts of a query: ret, the documents
// retrieved; rel, the relevant documents in the qrels; relRet, the relevant
// documents retrieved. A 0/0 gives 0, as trec_eval prints it.

// SetPrecision is trec_eval's set_P: relRet / ret over every document
// retrieved (0 when nothing is retrieved).
func SetPrecision(relRet, ret int) float64 {
	if ret == 0 {
		return 0
	}
	return float64(relRet) / float64(ret)
}

// SetRecall is trec_eval's set_recall: relRet / rel (0 when rel = 0).
func SetRecall(relRet, rel int) float64 {
	if rel == 0 {
		return 0
	}
	return float64(relRet) / float64(rel)
}

// SetF is trec_eval's set_F with its default weight 1: the harmonic mean
// 2PR / (P + R) of SetPrecision and SetRecall, 0 when nothing relevant is
// retrieved.
func SetF(relRet, ret, rel int) float64 {
	if relRet == 0 {
		return 0
	}
	p := float64(relRet) / float64(ret)
	r := float64(relRet) / float64(rel)
	return 2 * p * r / (p + r)
}

// SetMAP is trec_eval's set_map, the unranked average precision:
// relRet² / (ret · rel), that is SetPrecision · SetRecall.
func SetMAP(relRet, ret, rel int) float64 {
	if ret == 0 || rel == 0 {
		return 0
	}
	return float64(relRet) * float64(relRet) / (float64(ret) * float64(rel))
}

// SetRelativePrecision is trec_eval's set_relative_P: relRet /
// min(ret, rel), the set precision over the largest it could be for a set
// of that size.
func SetRelativePrecision(relRet, ret, rel int) float64 {
	if ret == 0 || rel == 0 {
		return 0
	}
	return float64(relRet) / float64(min(ret, rel))
}

// Utility is trec_eval's utility with its default coefficients (1, −1, 0,
// 0): the relevant documents retrieved minus the non-relevant (or
// unjudged) ones retrieved, relRet − (ret − relRet).
func Utility(relRet, ret int) float64 {
	return float64(relRet) - float64(ret-relRet)
}

// RPrecMults are the multiples of R of trec_eval's Rprec_mult_X.
var RPrecMults = []float64{0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2}

// RPrecMultCutoff is the rank at which Rprec_mult_X measures precision
// for a query with numRel relevant documents: ⌊X·R + 0.9⌋, trec_eval's
// rounding (0 when R = 0).
func RPrecMultCutoff(x float64, numRel int) int {
	return int(float64(x*float64(numRel)) + 0.9)
}

// RPrecMult is trec_eval's Rprec_mult_X: the precision at rank
// RPrecMultCutoff(x, numRel), the hits in the top c over c even when fewer
// than c documents are ranked; 0 when c = 0.
func RPrecMult(rel []int, numRel int, x float64) float64 {
	c := RPrecMultCutoff(x, numRel)
	if c <= 0 {
		return 0
	}
	return float64(Hits(rel, c)) / float64(c)
}

// infAPEpsilon is trec_eval's INFAP_EPSILON, which keeps the estimate of
// the precision above a relevant document defined when nothing above it
// is judged.
const infAPEpsilon = 0.00001

// InfAP is trec_eval's infAP (Yilmaz and Aslam, CIKM 2006), inferred
// average precision from a sampled judgment pool. Each ranked document is
// relevant (rel > 0), judged non-relevant (judged, rel = 0), in the pool
// but not judged (pooled: a negative grade in the qrels) or outside the
// pool (neither). Documents outside the pool are skipped. A relevant
// document at rank k (k ≥ 2) adds
//
//	1/k + ((k−1)/k) · (d/(k−1)) · (r + ε) / (r + n + 2ε)
//
// where, above it in the pooled documents, r are relevant, n judged
// non-relevant and d = r + n + the pooled unjudged ones; at rank 1 it adds
// 1. The sum is divided by numRel (0 when numRel = 0). pooled may be nil
// (no pooled unjudged documents).
func InfAP(rel []int, judged, pooled []bool, numRel int) float64 {
	var relSoFar, nonRel, unjudged int
	sum := 0.0
	for j, r := range rel {
		switch {
		case pooled != nil && pooled[j]:
			unjudged++
			continue
		case !judged[j]:
			continue
		case r <= 0:
			nonRel++
			continue
		}
		relSoFar++
		if j == 0 {
			sum++
			continue
		}
		fj := float64(j)
		above := float64(relSoFar - 1 + nonRel + unjudged)
		sum += 1/(fj+1) + (fj/(fj+1))*(above/fj)*
			((float64(relSoFar-1)+infAPEpsilon)/(float64(relSoFar-1+nonRel)+2*infAPEpsilon))
	}
	if numRel > 0 {
		sum /= float64(numRel)
	}
	return sum
}

// GMBprefTerm is a query's term of gm_bpref: ln(max(bpref, GMFloor));
// gm_bpref is exp of the mean of the terms (trec_eval prints no per-query
// value).
func GMBprefTerm(bpref float64) float64 {
	return math.Log(math.Max(bpref, GMFloor))
}

// BinG is trec_eval's binG, binary normalized gain: the sum, over the
// relevant documents retrieved, of 1 / log2(2 + the documents not relevant
// ranked above it), divided by numRel (0 when nothing relevant is
// retrieved).
func BinG(rel []int, numRel int) float64 {
	sum, relSoFar := 0.0, 0
	for i, r := range rel {
		if r > 0 {
			relSoFar++
			sum += 1 / math.Log2(float64(3+i-relSoFar))
		}
	}
	if relSoFar == 0 {
		return 0
	}
	return sum / float64(numRel)
}

// IdealGains returns the judged grades above 0 of a query, highest first:
// the ideal ranking's gains of G, Rndcg and ndcg_rel (a grade is its
// gain, trec_eval's default).
func IdealGains(grades []int) []int {
	out := slices.Clone(grades)
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out
}

// gainAt is the gain of the ranked document i (its grade; none below 0).
func gainAt(gain []int, i int) float64 {
	return float64(max(gain[i], 0))
}

// NormalizedGain is trec_eval's G: a retrieved document of gain g at rank
// i adds g / log2(2 + C_i − S_i), where S_i is the gain of the top i and
// C_i the sum over ranks j ≤ i of max(ideal_j, 1) (ideal_j the ideal
// ranking's gain at rank j, 0 past its end); the sum is divided by the
// ideal ranking's total gain (0 without it). gain is the grade of each
// ranked document, ideal the IdealGains of the query.
func NormalizedGain(gain, ideal []int) float64 {
	total := 0
	for _, g := range ideal {
		total += g
	}
	if total <= 0 {
		return 0
	}
	var cost, got, sum float64
	for i := range gain {
		g := gainAt(gain, i)
		got += g
		ig := 0.0
		if i < len(ideal) {
			ig = float64(ideal[i])
		}
		cost += max(ig, 1)
		if g != 0 {
			sum += g / math.Log2(2+cost-got)
		}
	}
	return sum / float64(total)
}

// RNDCG is trec_eval's Rndcg: the mean of nDCG at each R level of the
// ideal ranking, the ranks i where its gain changes (the last one where
// it falls to 0), plus the whole ranking when it is longer than the ideal
// one. At a rank i beyond the ranking, the DCG of the whole ranking is
// used. numRel is the number of relevant documents; 0 gives 0.
func RNDCG(gain, ideal []int, numRel int) float64 {
	if numRel == 0 || len(ideal) == 0 {
		return 0
	}
	var sum, dcg, idcg float64
	points := 0
	for i := 0; i <= len(ideal); i++ {
		if i > 0 && (i == len(ideal) || ideal[i] != ideal[i-1]) {
			sum += dcg / idcg
			points++
		}
		if i == len(ideal) {
			break
		}
		if i < len(gain) {
			if g := gainAt(gain, i); g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
		}
		idcg += float64(ideal[i]) / math.Log2(float64(i+2))
	}
	if len(gain) > len(ideal) {
		for i := len(ideal); i < len(gain); i++ {
			if g := gainAt(gain, i); g != 0 {
				dcg += g / math.Log2(float64(i+2))
			}
		}
		sum += dcg / idcg
		points++
	}
	return sum / float64(points)
}

// NDCGRel is trec_eval's ndcg_rel: the mean over the query's documents of
// gain above 0 of the nDCG at the rank each is retrieved (the ideal DCG cut
// at that rank, or at the ideal ranking's end), an unretrieved one taking
// the nDCG of the whole ranking.
func NDCGRel(gain, ideal []int) float64 {
	n := len(ideal)
	if n == 0 {
		return 0
	}
	idealAt := func(i int) float64 { return float64(ideal[i]) }
	var sum, dcg, idcg float64
	found := 0
	for i := range gain {
		g := gainAt(gain, i)
		if g != 0 {
			dcg += g / math.Log2(float64(i+2))
		}
		if i < n {
			idcg += idealAt(i) / math.Log2(float64(i+2))
		}
		if g > 0 {
			sum += dcg / idcg
			found++
		}
	}
	for i := len(gain); i < n; i++ {
		idcg += idealAt(i) / math.Log2(float64(i+2))
	}
	sum += float64(n-found) * dcg / idcg
	if !(sum > 0) {
		return 0
	}
	return sum / float64(n)
}

// RBPPersistence is the persistence p of trec_eval's rbp and rbp_resid.
const RBPPersistence = 0.9

// RBP is trec_eval's rbp, rank-biased precision (Moffat and Zobel, TOIS
// 2008) with persistence p = 0.9: (1 − p) Σ_i g_i p^(i−1) over the ranked
// documents, where g_i is the document's grade divided by the query's
// highest judged grade maxGrade when that is above 1 (gains lie in [0,
// 1]), else its grade.
func RBP(gain []int, maxGrade int) float64 {
	scale := 1.0
	if maxGrade > 1 {
		scale = float64(maxGrade)
	}
	sum, w := 0.0, 1.0
	for i := range gain {
		if g := gainAt(gain, i); g != 0 {
			sum += g / scale * w
		}
		w *= RBPPersistence
	}
	return (1 - RBPPersistence) * sum
}

// RBPResid is trec_eval's rbp_resid, the residual of rbp: the most rbp
// could rise if every unjudged retrieved document had the highest gain and
// the ranking went on with relevant documents, p^n + (1 − p) Σ p^(i−1)
// over the unjudged ranks i of a ranking of n documents. It is 0 when
// every retrieved document is judged, as trec_eval prints it.
func RBPResid(judged []bool) float64 {
	sum, w := 0.0, 1.0
	unj := 0
	for _, j := range judged {
		if !j {
			unj++
			sum += w
		}
		w *= RBPPersistence
	}
	if unj == 0 {
		return 0
	}
	return w + (1-RBPPersistence)*sum
}
