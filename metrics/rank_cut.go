package metrics

import "math"

// CutValues holds the measures at one cutoff k that read only the top k
// of a query's ranking and its number of gold items: Recall@k,
// CappedRecall@k, Precision@k, Hit@k, AP@k and RR@k. A report computes
// them for every query at every cutoff; one pass over the top k gives all
// six, where the single kernels would pass over it six times.
type CutValues struct {
	Recall, CappedRecall, Precision, Hit, AP, RR float64
}

// AtCutoff returns RecallAt, CappedRecallAt, PrecisionAt, HitAt, APAt
// (with denominator d) and RRAt of the ranking rel of a query with nGold
// gold items at cutoff k: the same values, bit for bit, as those kernels
// (the same operations in the same order), from one pass over the top k.
// nGold = 0 makes Recall, CappedRecall and AP undefined (NaN). It panics
// if k < 1, or if d is unknown and nGold > 0.
func AtCutoff(rel []int, nGold, k int, d MAPDenominator) CutValues {
	rankCheckK(k)
	var s float64
	h, first := 0, 0
	for i, r := range rel[:min(k, len(rel))] {
		if r > 0 {
			h++
			s += float64(h) / float64(i+1)
			if first == 0 {
				first = i + 1
			}
		}
	}
	v := CutValues{Precision: float64(h) / float64(k)}
	if h > 0 {
		v.Hit = 1
		v.RR = 1 / float64(first)
	}
	if nGold <= 0 {
		v.Recall, v.CappedRecall, v.AP = math.NaN(), math.NaN(), math.NaN()
		return v
	}
	v.Recall = float64(h) / float64(nGold)
	v.CappedRecall = float64(h) / float64(min(k, nGold))
	v.AP = apOf(s, h, nGold, k, d)
	return v
}

// RandomAtCutoff returns the expected values of AtCutoff's measures under
// a uniformly random order of the pool rel: RandomExpectedRecallAt,
// RandomExpectedCappedRecallAt, RandomExpectedPrecisionAt,
// RandomExpectedHitAt, RandomExpectedAPAt and RandomExpectedRRAt, bit for
// bit, counting the pool's gold once for all six. It panics as AtCutoff
// does.
func RandomAtCutoff(rel []int, nGold, k int, d MAPDenominator) CutValues {
	rankCheckK(k)
	n, g := rankPoolGold(rel)
	eh := expectedHits(n, g, k)
	v := CutValues{
		Precision: eh / float64(k),
		Hit:       expectedHit(n, g, k),
		RR:        expectedRR(n, g, k),
	}
	if nGold <= 0 {
		v.Recall, v.CappedRecall, v.AP = math.NaN(), math.NaN(), math.NaN()
		return v
	}
	v.Recall = eh / float64(nGold)
	v.CappedRecall = eh / float64(min(k, nGold))
	v.AP = expectedAP(n, g, nGold, k, d)
	return v
}
