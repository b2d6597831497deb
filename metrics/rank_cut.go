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

// RandomCut computes RandomAtCutoff at one cutoff for pool after pool.
// The expected Hit, RR and (but for a final division by the denominator)
// AP of a random order depend only on the pool's size n and its gold count
// g, and the RR and AP sums take a loop of up to k steps each; a run's
// pools repeat a few (n, g) pairs (1,000 documents, 3 to 120 of them
// relevant), so RandomCut keeps those parts per pair. The values are
// RandomAtCutoff's, bit for bit. Not safe for concurrent use.
type RandomCut struct {
	k    int
	d    MAPDenominator
	seen map[[2]int]randomParts
}

// randomParts are the parts of RandomAtCutoff's values that depend on the
// pool only through its size and gold count.
type randomParts struct {
	hit, rr, ap float64 // ap: expectedAPPart, 0 without gold
}

// NewRandomCut returns a RandomCut at cutoff k with MAP denominator d. It
// panics if k < 1.
func NewRandomCut(k int, d MAPDenominator) *RandomCut {
	rankCheckK(k)
	return &RandomCut{k: k, d: d, seen: map[[2]int]randomParts{}}
}

// At returns RandomAtCutoff(rel, nGold, k, d).
func (rc *RandomCut) At(rel []int, nGold int) CutValues {
	n, g := rankPoolGold(rel)
	k := rc.k
	p, ok := rc.seen[[2]int{n, g}]
	if !ok {
		p = randomParts{hit: expectedHit(n, g, k), rr: expectedRR(n, g, k)}
		if g > 0 && nGold > 0 {
			p.ap = expectedAPPart(n, g, k, rc.d)
		}
		if g == 0 || nGold > 0 {
			rc.seen[[2]int{n, g}] = p // the AP part is known
		}
	}
	eh := expectedHits(n, g, k)
	v := CutValues{Precision: eh / float64(k), Hit: p.hit, RR: p.rr}
	if nGold <= 0 {
		v.Recall, v.CappedRecall, v.AP = math.NaN(), math.NaN(), math.NaN()
		return v
	}
	v.Recall = eh / float64(nGold)
	v.CappedRecall = eh / float64(min(k, nGold))
	if g > 0 {
		v.AP = expectedAPOf(p.ap, nGold, k, rc.d)
	}
	return v
}
