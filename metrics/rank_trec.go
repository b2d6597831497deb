package metrics

import "math"

// This file holds the ranking measures that need TREC judgments (qrels, docs/input-format.md):
// they tell a judged non-relevant document from an unjudged one, which a
// per-query table cannot. Each follows trec_eval 10's source
// (usnistgov/trec_eval: m_bpref.c, m_iprec_at_recall.c, m_11pt_avg.c,
// m_gm_map.c, m_unjudged.c).
//
// rel is the grade of each ranked candidate (> 0: relevant at the relevance
// level in force, 0: not relevant or not judged); judged says whether each
// ranked candidate has a judgment in the qrels (grade >= 0; a negative
// grade is trec_eval's "in the pool, not judged").

// BPref returns trec_eval's bpref (Buckley and Voorhees, SIGIR 2004) for
// one query with numRel relevant and numNonRel judged non-relevant
// documents in the qrels:
//
//	bpref = (1/R) Σ_{relevant retrieved r} (1 − min(n_r, R) / min(N, R))
//
// where R = numRel, N = numNonRel and n_r is the number of judged
// non-relevant documents ranked above r; the term is 1 when n_r = 0.
// Unjudged documents are skipped. R = 0 gives 0, as trec_eval.
func BPref(rel []int, judged []bool, numRel, numNonRel int) float64 {
	if numRel == 0 {
		return 0
	}
	nonRel := 0
	sum := 0.0
	for i, r := range rel {
		if !judged[i] {
			continue
		}
		if r <= 0 {
			nonRel++
			continue
		}
		if nonRel > 0 {
			sum += 1 - float64(min(nonRel, numRel))/float64(min(numNonRel, numRel))
		} else {
			sum++
		}
	}
	return sum / float64(numRel)
}

// RecallLevels are trec_eval's recall levels of iprec_at_recall_X and
// 11pt_avg: 0, 0.1, ..., 1.
var RecallLevels = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}

// IPrecAtRecall fills out[j] with the interpolated precision at recall
// levels[j] (ascending), trec_eval's iprec_at_recall_X:
//
//	iprec(x) = max { P@i : recall@i >= x }
//
// where recall level x is reached at rank i when the relevant documents
// in the top i number round(x·R) (R = numRel, rounding half away from
// zero, as trec_eval 10's lround). A level beyond the relevant documents
// retrieved gives 0; R = 0 or an empty ranking gives 0 at every level.
func IPrecAtRecall(rel []int, numRel int, levels []float64, out []float64) {
	cuts := make([]int, len(levels))
	for j, x := range levels {
		cuts[j] = int(math.Round(x * float64(numRel)))
		out[j] = 0
	}
	numRet := len(rel)
	if numRet == 0 {
		return
	}
	relRet := Hits(rel, numRet)
	cur := len(levels) - 1
	for cur >= 0 && cuts[cur] > relRet {
		cur--
	}
	ip := float64(relRet) / float64(numRet)
	soFar := relRet
	for i := numRet; i > 0 && soFar > 0; i-- {
		if p := float64(soFar) / float64(i); p > ip {
			ip = p
		}
		if rel[i-1] > 0 {
			for cur >= 0 && soFar == cuts[cur] {
				out[cur] = ip
				cur--
			}
			soFar--
		}
	}
	for ; cur >= 0; cur-- {
		out[cur] = ip
	}
}

// ElevenPointAvg returns trec_eval's 11pt_avg: the mean of the interpolated
// precision at the 11 recall levels 0, 0.1, ..., 1.
func ElevenPointAvg(rel []int, numRel int) float64 {
	var ip [11]float64
	IPrecAtRecall(rel, numRel, RecallLevels, ip[:])
	s := 0.0
	for _, x := range ip {
		s += x
	}
	return s / 11
}

// GMFloor is the floor of the AP values whose geometric mean is gm_map
// (trec_eval's MIN_GEO_MEAN).
const GMFloor = 0.00001

// GMMAPTerm is a query's term of gm_map: ln(max(AP, GMFloor)). gm_map is
// exp of the mean of the terms over queries (trec_eval prints the term
// itself as the per-query gm_map).
func GMMAPTerm(ap float64) float64 {
	return math.Log(math.Max(ap, GMFloor))
}

// Unjudged returns the fraction of the top k that has no judgment,
// trec_eval's unj_K: |{i <= min(k, n) : not judged}| / k. A ranking
// shorter than k still divides by k. It panics if k < 1.
func Unjudged(judged []bool, k int) float64 {
	rankCheckK(k)
	u := 0
	for _, j := range judged[:min(k, len(judged))] {
		if !j {
			u++
		}
	}
	return float64(u) / float64(k)
}
