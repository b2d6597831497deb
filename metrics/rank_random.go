package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// This file holds the random-ranking baseline of the comparison tables: the
// expected value of each per-query ranking metric when the candidate pool
// of the query is put in a uniformly random order. The pool is rel (its
// order is irrelevant); n is len(rel), g the number of gold candidates in
// it, and k' = min(k, n). Gold outside the pool is still counted by n_gold,
// exactly as for a real system. Averaging these per-query values over the
// population gives the baseline row of the systems table. The oracle row
// comes from Oracle.

// rankPoolGold returns n and g for the pool rel.
func rankPoolGold(rel []int) (n, g int) {
	return len(rel), Hits(rel, len(rel))
}

// rankExpectedHits returns E[hits in the top k] = k'·g/n, the mean of the
// hypergeometric distribution.
func rankExpectedHits(rel []int, k int) float64 {
	n, g := rankPoolGold(rel)
	return expectedHits(n, g, k)
}

// expectedHits is rankExpectedHits of a pool of n items, g of them gold.
func expectedHits(n, g, k int) float64 {
	if n == 0 {
		return 0
	}
	return float64(min(k, n)) * float64(g) / float64(n)
}

// RandomExpectedRecallAt returns E[Recall@k] under a random ordering of the
// pool: (k'·g/n) / n_gold. n_gold = 0 gives NaN. It panics if k < 1.
func RandomExpectedRecallAt(rel []int, nGold, k int) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	return rankExpectedHits(rel, k) / float64(nGold)
}

// RandomExpectedCappedRecallAt returns E[CappedRecall@k] under a random
// ordering of the pool: (k'·g/n) / min(k, n_gold). n_gold = 0 gives NaN. It
// panics if k < 1.
func RandomExpectedCappedRecallAt(rel []int, nGold, k int) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	return rankExpectedHits(rel, k) / float64(min(k, nGold))
}

// RandomExpectedPrecisionAt returns E[Precision@k] under a random ordering
// of the pool: (k'·g/n) / k. It panics if k < 1.
func RandomExpectedPrecisionAt(rel []int, k int) float64 {
	rankCheckK(k)
	return rankExpectedHits(rel, k) / float64(k)
}

// rankNoGoldIn returns the hypergeometric probability that the first m
// positions of a random ordering of n items, g of them gold, hold no gold:
//
//	C(n−g, m) / C(n, m) = Π_{i=0..m−1} (n−g−i) / (n−i)
//
// computed as a product of ratios in [0, 1], which neither overflows nor
// loses precision the way the binomial coefficients would.
func rankNoGoldIn(n, g, m int) float64 {
	p := 1.0
	for i := range m {
		if n-g-i <= 0 {
			return 0
		}
		p *= float64(n-g-i) / float64(n-i)
	}
	return p
}

// RandomExpectedHitAt returns E[Hit@k] = P(at least one gold in the top k)
// under a random ordering of the pool:
//
//	1 − C(n−g, k') / C(n, k')
//
// (one minus the hypergeometric probability of zero successes). It panics if
// k < 1.
func RandomExpectedHitAt(rel []int, k int) float64 {
	rankCheckK(k)
	n, g := rankPoolGold(rel)
	return expectedHit(n, g, k)
}

// expectedHit is RandomExpectedHitAt of a pool of n items, g of them gold.
func expectedHit(n, g, k int) float64 {
	if g == 0 {
		return 0
	}
	return 1 - rankNoGoldIn(n, g, min(k, n))
}

// RandomExpectedNDCGAt returns E[nDCG@k] under a random ordering of the
// pool, exactly: every position holds every candidate with probability 1/n,
// so the expected gain at any position is the mean gain of the pool and
//
//	E[nDCG@k] = (Σ_j gain(rel_j) / n) · Σ_{i=1..k'} 1/log2(i+1) / IDCG@k
//
// with IDCG@k as in NDCGAt (from all gold grades). IDCG = 0 gives NaN. It
// panics if k < 1.
func RandomExpectedNDCGAt(rel, gold []int, k int, g Gain) float64 {
	rankCheckK(k)
	shift := g.gainShift(rel, gold)
	idcg := rankIdealDCG(gold, k, g, shift)
	if idcg == 0 {
		return math.NaN()
	}
	n := len(rel)
	if n == 0 {
		return 0
	}
	return poolGain(rel, g, shift) / float64(n) * rankDiscountSum(min(k, n)) / idcg
}

// poolGain returns Σ_j gain(rel_j), added in order. Linear gains are
// integers, and a sum of integers whose partial sums stay below 2^53 is
// exact in float64 whatever the order of its terms: for those it is
// summed in an integer, the same value as the float64 sum.
func poolGain(rel []int, g Gain, shift int) float64 {
	if g == GainLinear {
		var s int
		ok := true
		for _, r := range rel {
			if r > 0 {
				s += r
				ok = ok && r < 1<<20
			}
		}
		if ok && len(rel) < 1<<32 {
			return float64(s) // below 2^52: every partial sum was exact
		}
	}
	var sum float64
	for _, r := range rel {
		sum += g.value(r, shift)
	}
	return sum
}

// rankExpectedRR returns Σ_{r=1..m} P(first gold at rank r) / r for a
// random ordering of the pool, where
//
//	P(first gold at r) = Π_{i=0..r−2} (n−g−i)/(n−i) · g/(n−r+1).
func rankExpectedRR(rel []int, m int) float64 {
	n, g := rankPoolGold(rel)
	return expectedRR(n, g, m)
}

// expectedRR is rankExpectedRR of a pool of n items, g of them gold.
func expectedRR(n, g, m int) float64 {
	if g == 0 {
		return 0
	}
	m = min(m, n-g+1)
	var e float64
	q := 1.0 // P(no gold in the first r−1 positions)
	for r := 1; r <= m; r++ {
		e += q * float64(g) / float64(n-r+1) / float64(r)
		q *= float64(n-g-r+1) / float64(n-r+1)
	}
	return e
}

// RandomExpectedRR returns E[RR] under a random ordering of the pool,
// exactly: Σ_r P(first gold at rank r) / r (see RandomExpectedRRAt). A pool
// without gold gives 0.
func RandomExpectedRR(rel []int) float64 {
	return rankExpectedRR(rel, len(rel))
}

// RandomExpectedRRAt returns E[RR@k] under a random ordering of the pool,
// exactly:
//
//	E[RR@k] = Σ_{r=1..k'} P(first gold at r) / r,
//	P(first gold at r) = C(n−g, r−1)/C(n, r−1) · g/(n−r+1).
//
// It panics if k < 1.
func RandomExpectedRRAt(rel []int, k int) float64 {
	rankCheckK(k)
	return rankExpectedRR(rel, k)
}

// rankHypergeomPMF returns P(H = h) for the number H of gold items among m
// draws without replacement from n items, g of them gold.
func rankHypergeomPMF(n, g, m, h int) float64 {
	if h < 0 || h > g || h > m || m-h > n-g {
		return 0
	}
	return math.Exp(rankLogChoose(g, h) + rankLogChoose(n-g, m-h) - rankLogChoose(n, m))
}

// rankLogChoose returns log C(a, b).
func rankLogChoose(a, b int) float64 {
	la, _ := math.Lgamma(float64(a) + 1)
	lb, _ := math.Lgamma(float64(b) + 1)
	lc, _ := math.Lgamma(float64(a-b) + 1)
	return la - lb - lc
}

// RandomExpectedAPAt returns E[AP@k] under a random ordering of the pool,
// exactly. With a fixed denominator D (n_gold or min(n_gold, k)), since
// position i holds gold with probability g/n and, given that, each of the
// i−1 positions before it holds gold with probability (g−1)/(n−1):
//
//	E[AP@k] = (1/D) Σ_{i=1..k'} (1/i) · (g/n) · (1 + (i−1)(g−1)/(n−1)).
//
// With MAPHits the denominator is the random number H of hits in the top k'
// (hypergeometric); given H = h the hit positions are a uniform h-subset of
// the k' positions, so with H_m = Σ_{i=1..m} 1/i
//
//	E[AP@k] = Σ_{h>=1} P(H = h) · (1/k') · (H_k' + (h−1)(k' − H_k')/(k'−1)).
//
// The hypergeometric probabilities come from log-gamma, so the MAPHits value
// is accurate to about 1e-12 relative. n_gold = 0 gives NaN. It panics if
// k < 1 or d is unknown. RandomAPMonteCarlo estimates the same quantity by
// simulation.
func RandomExpectedAPAt(rel []int, nGold, k int, d MAPDenominator) float64 {
	rankCheckK(k)
	if nGold <= 0 {
		return math.NaN()
	}
	n, g := rankPoolGold(rel)
	return expectedAP(n, g, nGold, k, d)
}

// expectedAP is RandomExpectedAPAt of a pool of n items, g of them gold,
// for n_gold > 0.
func expectedAP(n, g, nGold, k int, d MAPDenominator) float64 {
	if g == 0 {
		return 0
	}
	return expectedAPOf(expectedAPPart(n, g, k, d), nGold, k, d)
}

// expectedAPPart is the part of expectedAP that does not depend on
// n_gold, for g > 0: with MAPGold and MAPMinGoldK the sum over the top k'
// times g/n, which expectedAPOf divides by the denominator; with MAPHits
// the value itself.
func expectedAPPart(n, g, k int, d MAPDenominator) float64 {
	m := min(k, n)
	switch d {
	case MAPGold, MAPMinGoldK:
		var s float64
		for i := 1; i <= m; i++ {
			t := 1.0
			if i > 1 {
				t += float64(i-1) * float64(g-1) / float64(n-1)
			}
			s += t / float64(i)
		}
		return s * (float64(g) / float64(n))
	case MAPHits:
		var harm float64
		for i := 1; i <= m; i++ {
			harm += 1 / float64(i)
		}
		var e float64
		for h := 1; h <= min(g, m); h++ {
			c := 1.0 // m = 1: the single hit is at rank 1
			if m > 1 {
				c = (harm + float64(h-1)*(float64(m)-harm)/float64(m-1)) / float64(m)
			}
			e += rankHypergeomPMF(n, g, m, h) * c
		}
		return e
	}
	panic(fmt.Sprintf("metrics: unknown MAP denominator %d", int(d)))
}

// expectedAPOf is expectedAP from its part (expectedAPPart).
func expectedAPOf(part float64, nGold, k int, d MAPDenominator) float64 {
	switch d {
	case MAPGold:
		return part / float64(nGold)
	case MAPMinGoldK:
		return part / float64(min(nGold, k))
	}
	return part
}

// RandomExpectedAP returns E[AP] over the whole ranking (trec_eval's map)
// under a random ordering of the pool: RandomExpectedAPAt(rel, nGold,
// len(rel), MAPGold). n_gold = 0 gives NaN.
func RandomExpectedAP(rel []int, nGold int) float64 {
	return RandomExpectedAPAt(rel, nGold, max(len(rel), 1), MAPGold)
}

// RandomExpectedNDCG returns E[nDCG] over the whole ranking (trec_eval's
// ndcg) under a random ordering of the pool, exactly:
//
//	E[nDCG] = (Σ_j gain(rel_j) / n) · Σ_{i=1..n} 1/log2(i+1) / IDCG
//
// with IDCG over all gold grades, uncut, as in NDCG. IDCG = 0 gives NaN.
func RandomExpectedNDCG(rel, gold []int, g Gain) float64 {
	return RandomExpectedNDCGAt(rel, gold, max(len(rel), len(gold), 1), g)
}

// RandomExpectedRPrecision returns E[R-precision] under a random ordering
// of the pool: (min(R, n)·g/n) / R with R = n_gold, the expected hits in the
// top R over R (see RPrecision). n_gold = 0 gives NaN.
func RandomExpectedRPrecision(rel []int, nGold int) float64 {
	if nGold <= 0 {
		return math.NaN()
	}
	return RandomExpectedPrecisionAt(rel, nGold)
}

// RandomAPMonteCarlo estimates E[AP@k] under a random ordering of the pool
// as the mean of APAt over perms orderings drawn from a PCG generator seeded
// with seed (the same arguments give the same value on every machine). Each
// ordering is a partial Fisher-Yates shuffle of the top k' positions, which
// is all APAt reads. n_gold = 0 gives NaN. It panics if perms < 1 or k < 1.
// RandomExpectedAPAt gives the exact value; this estimator exists for
// metrics without a closed form and to check that one.
func RandomAPMonteCarlo(rel []int, nGold, k int, d MAPDenominator, perms int, seed uint64) float64 {
	rankCheckK(k)
	if perms < 1 {
		panic(fmt.Sprintf("metrics: perms must be positive, got %d", perms))
	}
	if nGold <= 0 {
		return math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	pool := make([]int, len(rel))
	copy(pool, rel)
	n := len(pool)
	m := min(k, n)
	var sum float64
	for range perms {
		for i := range m {
			j := i + rng.IntN(n-i)
			pool[i], pool[j] = pool[j], pool[i]
		}
		sum += APAt(pool[:m], nGold, k, d)
	}
	return sum / float64(perms)
}
