package metrics

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRankWholeHand checks the whole-ranking kernels (no cutoff: rank.map,
// rank.ndcg, rank.r_precision) on cases small enough to compute by hand;
// each expected value's derivation is in the comment beside it.
func TestRankWholeHand(t *testing.T) {
	const tol = 1e-12
	l2 := math.Log2
	nan := math.NaN()
	// The TREC example of cmd/paperbundle: q1 ranked d1 d3 d2 d4 with grades
	// 1 0 2 0, gold grades {d1:1, d2:2, d5:1}, so R = 3 and d5 is never
	// ranked.
	q1, q1Gold := []int{1, 0, 2, 0}, []int{1, 2, 1}
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		// Gold at ranks 1 and 3: (1/1 + 2/3) / 3.
		{"q1 ap", AP(q1, 3), 5.0 / 9},
		// DCG = 1/log2(2) + 2/log2(4) = 2; IDCG over grades 2, 1, 1.
		{"q1 ndcg linear", NDCG(q1, q1Gold, GainLinear), 2 / (2 + 1/l2(3) + 1/l2(4))},
		// Gains 2^1-1 = 1 and 2^2-1 = 3: DCG = 1 + 3/2; IDCG = 3 + 1/log2(3) + 1/2.
		{"q1 ndcg exponential", NDCG(q1, q1Gold, GainExponential), 2.5 / (3 + 1/l2(3) + 0.5)},
		// Top R = 3 holds d1 and d2.
		{"q1 rprec", RPrecision(q1, 3), 2.0 / 3},
		// R = 2 with gold at ranks 2 and 4: 1 hit in the top 2.
		{"rprec R=2", RPrecision([]int{0, 1, 0, 1}, 2), 0.5},
		// R larger than the ranking: rel=[1,0], gold=[2,1,1], R = 3. Rprec is
		// the hits of the whole ranking over R (trec_eval): 1/3. AP = (1/1)/3.
		// The ideal ranking is NOT cut at the ranking's length: IDCG over
		// grades 2, 1, 1, so nDCG = 1 / (2 + 1/log2(3) + 1/log2(4)), where
		// nDCG@2 would cut IDCG at 2 + 1/log2(3).
		{"short rprec", RPrecision([]int{1, 0}, 3), 1.0 / 3},
		{"short ap", AP([]int{1, 0}, 3), 1.0 / 3},
		{"short ndcg", NDCG([]int{1, 0}, []int{2, 1, 1}, GainLinear), 1 / (2 + 1/l2(3) + 1/l2(4))},
		{"short ndcg@2", NDCGAt([]int{1, 0}, []int{2, 1, 1}, 2, GainLinear), 1 / (2 + 1/l2(3))},
		// Ranking longer than the gold list: rel=[0,0,0,1], gold=[1].
		// DCG = 1/log2(5), IDCG = 1; AP = (1/4)/1; Rprec = 0 hits in the top 1.
		{"deep ndcg", NDCG([]int{0, 0, 0, 1}, []int{1}, GainExponential), 1 / l2(5)},
		{"deep ap", AP([]int{0, 0, 0, 1}, 1), 0.25},
		{"deep rprec", RPrecision([]int{0, 0, 0, 1}, 1), 0},
		// Perfect ranking of all gold: every measure is 1.
		{"perfect ndcg", NDCG([]int{3, 2, 2, 0}, []int{2, 3, 2}, GainExponential), 1},
		{"perfect rprec", RPrecision([]int{3, 2, 2, 0}, 3), 1},
		{"perfect ap", AP([]int{3, 2, 2, 0}, 3), 1},
		// No gold: undefined (trec_eval skips such a query or prints 0).
		{"no gold ndcg", NDCG([]int{0, 0}, nil, GainLinear), nan},
		{"no gold rprec", RPrecision([]int{0, 0}, 0), nan},
		{"no gold ap", AP([]int{0, 0}, 0), nan},
		// Empty ranking with gold: 0.
		{"empty ndcg", NDCG(nil, []int{1}, GainLinear), 0},
		{"empty rprec", RPrecision(nil, 2), 0},
	} {
		if !rankSame(tc.got, tc.want, tol) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}

// The qrels, run and trec_eval output of TestRankWholeTrecEval. The output
// is that of trec_eval 10.0 (github.com/usnistgov/trec_eval at f425365,
// built with gcc), run as
//
//	trec_eval -q -m map -m ndcg -m Rprec qrels run
//	trec_eval -q -m ndcg.1=1,2=3,3=7,4=15 qrels run
//
// (the second gives nDCG with gain 2^rel − 1). trec_eval prints four
// decimals. Ties in score are broken by docno descending, as trec_eval
// does. Ranked grades (0 = not gold or not judged) and R:
//
//	q1 a5 a7 a2 a1 a9 a3 a8       0 0 2 3 0 1 0          R = 5 (a4, a6 not ranked)
//	q2 b3 x1 b1 b8                3 0 1 1                R = 8, longer than the ranking
//	q3 c9 c3 c1 c4 c2 c5 c7 c6 c8 c0  0 2 1 0 2 0 0 0 0 0  R = 3 (c9 judged 0)
//	q4 e11 e07 e12 e01 e05 e02 e13 e10 e04 e14 e08 e15
//	                              0 1 0 4 2 3 0 1 2 0 1 0  R = 10
//	q5 g1 g2 g3                   0 0 0                  R = 3, no gold ranked
//
// By hand, e.g. q1: map = (1/3 + 2/4 + 3/6) / 5 = 0.266667; Rprec = 2/5;
// q2: map = (1/1 + 2/3 + 3/4) / 8 = 0.302083, Rprec = 3/8 (hits of the
// whole ranking over R); q4: map = (1/2 + 2/4 + 3/5 + 4/6 + 5/8 + 6/9 +
// 7/11) / 10 = 0.419470, Rprec = 6/10.
const (
	trecWholeQrels = `q1 0 a1 3
q1 0 a2 2
q1 0 a3 1
q1 0 a4 1
q1 0 a5 0
q1 0 a6 2
q2 0 b1 1
q2 0 b2 2
q2 0 b3 3
q2 0 b4 1
q2 0 b5 1
q2 0 b6 2
q2 0 b7 1
q2 0 b8 1
q3 0 c1 1
q3 0 c2 2
q3 0 c3 2
q3 0 c9 0
q4 0 e01 4
q4 0 e02 3
q4 0 e03 3
q4 0 e04 2
q4 0 e05 2
q4 0 e06 2
q4 0 e07 1
q4 0 e08 1
q4 0 e09 1
q4 0 e10 1
q5 0 f1 1
q5 0 f2 2
q5 0 f3 1
`
	trecWholeRun = `q1 Q0 a5 1 0.9 t
q1 Q0 a2 2 0.8 t
q1 Q0 a7 3 0.8 t
q1 Q0 a1 4 0.7 t
q1 Q0 a3 5 0.5 t
q1 Q0 a9 6 0.5 t
q1 Q0 a8 7 0.4 t
q2 Q0 b3 1 0.9 t
q2 Q0 x1 2 0.6 t
q2 Q0 b1 3 0.6 t
q2 Q0 b8 4 0.2 t
q3 Q0 c1 1 0.7 t
q3 Q0 c3 2 0.7 t
q3 Q0 c9 3 0.7 t
q3 Q0 c4 4 0.6 t
q3 Q0 c2 5 0.5 t
q3 Q0 c5 6 0.4 t
q3 Q0 c6 7 0.3 t
q3 Q0 c7 8 0.3 t
q3 Q0 c8 9 0.2 t
q3 Q0 c0 10 0.1 t
q4 Q0 e11 1 0.99 t
q4 Q0 e07 2 0.95 t
q4 Q0 e01 3 0.90 t
q4 Q0 e12 4 0.90 t
q4 Q0 e05 5 0.85 t
q4 Q0 e02 6 0.80 t
q4 Q0 e13 7 0.75 t
q4 Q0 e10 8 0.70 t
q4 Q0 e04 9 0.70 t
q4 Q0 e14 10 0.60 t
q4 Q0 e08 11 0.50 t
q4 Q0 e15 12 0.40 t
q5 Q0 g1 1 0.9 t
q5 Q0 g2 2 0.8 t
q5 Q0 g3 3 0.8 t
`
	trecWholeOut = `map                   	q1	0.2667
Rprec                 	q1	0.4000
ndcg                  	q1	0.4356
map                   	q2	0.3021
Rprec                 	q2	0.3750
ndcg                  	q2	0.5548
map                   	q3	0.5889
Rprec                 	q3	0.6667
ndcg                  	q3	0.6740
map                   	q4	0.4195
Rprec                 	q4	0.6000
ndcg                  	q4	0.4912
map                   	q5	0.0000
Rprec                 	q5	0.0000
ndcg                  	q5	0.0000
map                   	all	0.3154
Rprec                 	all	0.4083
ndcg                  	all	0.4311
ndcg_1=1,2=3,3=7,4=15 	q1	0.4345
ndcg_1=1,2=3,3=7,4=15 	q2	0.6492
ndcg_1=1,2=3,3=7,4=15 	q3	0.6589
ndcg_1=1,2=3,3=7,4=15 	q4	0.4423
ndcg_1=1,2=3,3=7,4=15 	q5	0.0000
ndcg_1=1,2=3,3=7,4=15 	all	0.4370
`
)

// TestRankWholeTrecEval checks AP, NDCG (linear and exponential gain) and
// RPrecision against trec_eval's map, ndcg and Rprec, per query and
// averaged, on graded queries with ties, unjudged and zero-judged documents,
// gold never ranked, and R longer than the ranking. The ranking is built
// here as trec_eval builds it (score descending, then docno descending).
func TestRankWholeTrecEval(t *testing.T) {
	const tol = 1e-4 // trec_eval prints four decimals
	grade := map[[2]string]int{}
	gold := map[string][]int{}
	for _, l := range strings.Split(strings.TrimSpace(trecWholeQrels), "\n") {
		f := strings.Fields(l)
		g, _ := strconv.Atoi(f[3])
		grade[[2]string{f[0], f[2]}] = g
		if g > 0 {
			gold[f[0]] = append(gold[f[0]], g)
		}
	}
	type doc struct {
		no    string
		score float64
	}
	runs := map[string][]doc{}
	var qids []string
	for _, l := range strings.Split(strings.TrimSpace(trecWholeRun), "\n") {
		f := strings.Fields(l)
		s, _ := strconv.ParseFloat(f[4], 64)
		if runs[f[0]] == nil {
			qids = append(qids, f[0])
		}
		runs[f[0]] = append(runs[f[0]], doc{f[2], s})
	}
	want := map[[2]string]float64{}
	for _, l := range strings.Split(strings.TrimSpace(trecWholeOut), "\n") {
		f := strings.Fields(l)
		v, _ := strconv.ParseFloat(f[2], 64)
		want[[2]string{f[0], f[1]}] = v
	}
	mean := map[string]float64{}
	for _, q := range qids {
		d := runs[q]
		slices.SortStableFunc(d, func(a, b doc) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return strings.Compare(b.no, a.no)
		})
		rel := make([]int, len(d))
		for i, x := range d {
			rel[i] = grade[[2]string{q, x.no}]
		}
		g := gold[q]
		for _, m := range []struct {
			name string
			got  float64
		}{
			{"map", AP(rel, len(g))},
			{"ndcg", NDCG(rel, g, GainLinear)},
			{"ndcg_1=1,2=3,3=7,4=15", NDCG(rel, g, GainExponential)},
			{"Rprec", RPrecision(rel, len(g))},
		} {
			w, ok := want[[2]string{m.name, q}]
			if !ok {
				t.Fatalf("no trec_eval %s for %s", m.name, q)
			}
			if math.Abs(m.got-w) > tol {
				t.Errorf("%s %s = %.6f, trec_eval gives %.4f (rel=%v gold=%v)", m.name, q, m.got, w, rel, g)
			}
			mean[m.name] += m.got / float64(len(qids))
		}
	}
	for name, got := range mean {
		if w := want[[2]string{name, "all"}]; math.Abs(got-w) > tol {
			t.Errorf("%s all = %.6f, trec_eval gives %.4f", name, got, w)
		}
	}
}

// TestRandomExpectedWholeHand checks the random baseline of the
// whole-ranking measures by hand.
func TestRandomExpectedWholeHand(t *testing.T) {
	const tol = 1e-12
	l2 := math.Log2
	// Pool of 4 with one gold (rel=[1,0,0,0]) and n_gold = 2 (one gold
	// outside the pool). The gold candidate sits at rank r = 1..4 with
	// probability 1/4 each:
	//   E[AP]    = (1/4) Σ_r (1/r) / 2 = (1/8)(1 + 1/2 + 1/3 + 1/4) = 25/96
	//   E[nDCG]  = (1/4) Σ_r 1/log2(r+1) / (1 + 1/log2(3)), linear gain
	//   E[Rprec] = P(r <= 2) · 1 / 2 = (1/2)(1/2) = 1/4
	pool := []int{1, 0, 0, 0}
	eDCG := (1 + 1/l2(3) + 1/l2(4) + 1/l2(5)) / 4
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"ap", RandomExpectedAP(pool, 2), 25.0 / 96},
		{"ndcg", RandomExpectedNDCG(pool, []int{1, 1}, GainLinear), eDCG / (1 + 1/l2(3))},
		{"rprec", RandomExpectedRPrecision(pool, 2), 0.25},
		// R = 3 longer than the pool of 2 with one gold: the one hit is
		// always within the ranking, so E[Rprec] = 1/3; E[AP] = (1/2)(1 + 1/2)/3.
		{"short rprec", RandomExpectedRPrecision([]int{0, 1}, 3), 1.0 / 3},
		{"short ap", RandomExpectedAP([]int{0, 1}, 3), 0.25},
		// All gold: every ordering is perfect.
		{"all gold ndcg", RandomExpectedNDCG([]int{1, 1}, []int{1, 1}, GainExponential), 1},
		{"undefined ap", RandomExpectedAP(pool, 0), math.NaN()},
		{"undefined ndcg", RandomExpectedNDCG(pool, nil, GainLinear), math.NaN()},
		{"undefined rprec", RandomExpectedRPrecision(pool, 0), math.NaN()},
		{"empty pool ndcg", RandomExpectedNDCG(nil, []int{1}, GainLinear), 0},
	} {
		if !rankSame(tc.got, tc.want, tol) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}
