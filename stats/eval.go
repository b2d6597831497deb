package stats

import (
	"fmt"
	"math"
)

// Eval holds one weighting of a Scored sample, reduced in one pass over the
// ranked items (Load) to the cumulative weighted counts at every tie group
// plus the sums behind AUROC and AP. Every statistic is then O(1) (AUROC,
// AP), a binary search per grid point (TPRAtGrid, TPRAtFPR, Confusion) or a
// scan of the tie groups (PrecisionAtRecallGrid).
//
// An Eval is scratch memory owned by one goroutine: create one per worker
// (Scored.NewEval, e.g. in the constructor passed to RunWorkers) and Load it
// once per replicate.
//
// The ROC curve's vertices are (FPR_k, TPR_k) = (FP_k/W⁻, TP_k/W⁺) after
// each tie group k, from the highest score down, starting at (0, 0); FP_k
// and TP_k are the weights of the negatives and positives scoring at least
// the group's score, W⁻ and W⁺ the class totals. A group of zero weight
// repeats the previous vertex, which changes no statistic.
type Eval struct {
	s          *Scored
	g          *Grouped // non-nil: an Eval of a Grouped sample
	nw         int      // length of the weight slices Load accepts
	ones       []int32  // nw ones, for Load(nil) of a Grouped sample
	cumT, cumF []int32  // TP_k and FP_k after each tie group k
	pos, neg   int64    // W⁺, W⁻
	num2       int64    // twice the Mann-Whitney pair count
	apSum      float64  // Σ_k tp_k P_k
	pn, pp     []int64  // Grouped: prefix sums of the negatives' and the positives' weights
}

// NewEval returns an Eval for s.
func (s *Scored) NewEval() *Eval {
	return &Eval{s: s, nw: s.n, cumT: make([]int32, len(s.score)), cumF: make([]int32, len(s.score))}
}

// Grouped is a Scored sample whose items take the weight of their group:
// the weights of an Eval of a Grouped sample are the group multiplicities
// of a cluster bootstrap replicate (Plan.Counts, RunCounts), one per group,
// not one per item. It is the bootstrap's form of a Scored sample, and its
// pass is several times faster than Load's:
//
//   - it reads the multiplicity of an item's group directly, which saves
//     expanding them to item weights in every replicate;
//   - it only visits the tie groups that hold a positive item. The
//     negatives between two such groups change neither TPR nor any
//     precision: they only add to FP, so one tight sum over their group
//     multiplicities replaces a step per tie group. The Eval keeps the ROC
//     vertices at the start and end of each tie group holding a positive,
//     plus the end point; the vertices it leaves out lie on horizontal runs
//     between them, so the curve, AUROC, AP, TPRAtGrid, TPRAtFPR and
//     PrecisionAtRecallGrid are those of the item sample with the
//     expanded weights, to the last bit. Confusion and ROC, which need
//     every tie group, are not available.
type Grouped struct {
	s   *Scored
	nG  int
	neg []int32 // group of each negative item, in rank order
	pos []int32 // group of each positive item, in rank order
	seg []posGroup
	// negOf lists the groups with negative items and how many, when that
	// is shorter than the negatives after the last positive (nil if not).
	negOf []groupCount
}

type groupCount struct{ g, n int32 }

// posGroup is a tie group holding a positive item: the negatives before it
// (after the previous such group) are neg[.. mid), its own negatives
// neg[mid:negEnd], its positives pos[..:posEnd].
type posGroup struct {
	mid, negEnd, posEnd int32
}

// Grouped returns the sample s whose item i belongs to group[i], in
// 0..nGroups-1. It panics if len(group) is not the number of items or a
// group is out of range.
func (s *Scored) Grouped(group []int32, nGroups int) *Grouped {
	if len(group) != s.n {
		panic(fmt.Sprintf("stats: Grouped: %d groups for %d items", len(group), s.n))
	}
	if nGroups < 0 || nGroups >= endBit {
		panic("stats: Grouped: invalid number of groups")
	}
	g := &Grouped{s: s, nG: nGroups}
	start := 0 // first rank of the current tie group
	for r, v := range s.rk {
		if v&endBit == 0 {
			continue
		}
		hasPos := false
		for _, u := range s.rk[start : r+1] {
			hasPos = hasPos || u&labelBit != 0
		}
		mid := len(g.neg)
		for _, u := range s.rk[start : r+1] {
			i := u & itemMask
			gi := group[i]
			if gi < 0 || int(gi) >= nGroups {
				panic(fmt.Sprintf("stats: Grouped: group %d of item %d outside [0, %d)", gi, i, nGroups))
			}
			if u&labelBit != 0 {
				g.pos = append(g.pos, gi)
			} else {
				g.neg = append(g.neg, gi)
			}
		}
		if hasPos {
			g.seg = append(g.seg, posGroup{mid: int32(mid), negEnd: int32(len(g.neg)), posEnd: int32(len(g.pos))})
		}
		start = r + 1
	}
	tail := len(g.neg)
	if len(g.seg) > 0 {
		tail -= int(g.seg[len(g.seg)-1].negEnd)
	}
	cnt := map[int32]int32{}
	for _, gi := range g.neg {
		cnt[gi]++
	}
	if len(cnt) < tail {
		for gi := range int32(nGroups) {
			if n := cnt[gi]; n > 0 {
				g.negOf = append(g.negOf, groupCount{gi, n})
			}
		}
	}
	return g
}

// NewEval returns an Eval whose Load takes the multiplicity of each group
// (nil = all 1).
func (g *Grouped) NewEval() *Eval {
	n := 2*len(g.seg) + 1
	nNeg := 0
	if len(g.seg) > 0 {
		nNeg = int(g.seg[len(g.seg)-1].negEnd)
	}
	return &Eval{s: g.s, g: g, nw: g.nG, cumT: make([]int32, n), cumF: make([]int32, n),
		pn: make([]int64, nNeg+1), pp: make([]int64, len(g.pos)+1)}
}

// loadGrouped is Load for an Eval of a Grouped sample: cumT and cumF hold
// the vertex before and after each tie group with a positive, then the end
// point (W⁺, W⁻).
//
// Two tight passes first cumulate the multiplicities of the negatives (up
// to the last group with a positive) and of the positives, in rank order;
// each tie group then reads its counts from these prefix sums with no loop
// and no branch of its own. (A loop per tie group over its negatives
// mispredicted its exit in nearly every group, and skipping the AP term of
// a positive not drawn mispredicted in a third of them.) The counts are
// integers, so they are exact in either form, and AP adds the same terms
// in the same order: a positive not drawn adds +0, which leaves the sum's
// bits as they were.
func (e *Eval) loadGrouped(w []int32) {
	g := e.g
	neg, pos := g.neg, g.pos
	cT, cF := e.cumT, e.cumF
	nNeg := 0
	if len(g.seg) > 0 {
		nNeg = int(g.seg[len(g.seg)-1].negEnd)
	}
	pn, pp := e.pn[:nNeg+1], e.pp[:len(pos)+1]
	cumulate(w, neg[:nNeg], pn[1:])
	cumulate(w, pos, pp[1:])
	var cumT, cumF, num2 int64
	var apSum float64
	cT, cF = cT[:2*len(g.seg)+1], cF[:2*len(g.seg)+1]
	for k, sg := range g.seg {
		// Negatives before the group: each loses to every positive above.
		f := pn[sg.mid] - cumF
		num2 += 2 * cumT * f
		cumF += f
		cT[2*k], cF[2*k] = int32(cumT), int32(cumF)
		// The group: its negatives also tie with its positives.
		fp := pn[sg.negEnd] - cumF
		tp := pp[sg.posEnd] - cumT
		num2 += fp * (2*cumT + tp)
		cumT += tp
		cumF += fp
		// cumT+cumF is 0 only before any weight, where tp is 0 too.
		apSum += float64(tp) * (float64(cumT) / float64(max(cumT+cumF, 1)))
		cT[2*k+1], cF[2*k+1] = int32(cumT), int32(cumF)
	}
	// The negatives after the last positive: one step each, or one per
	// group from the negatives of each group when that is shorter.
	var f int64
	if g.negOf != nil {
		var all int64
		for _, gn := range g.negOf {
			all += int64(w[gn.g]) * int64(gn.n)
		}
		f = all - cumF
	} else {
		f = sumWeights(w, neg[nNeg:])
	}
	num2 += 2 * cumT * f
	cumF += f
	last := len(cT) - 1
	cT[last], cF[last] = int32(cumT), int32(cumF)
	e.pos, e.neg = cumT, cumF
	e.num2, e.apSum = num2, apSum
}

// cumulateGo sets dst[j] to Σ w[idx[i]] for i <= j, four at a step (20%
// fewer instructions than one at a time). On amd64 cumulate is the same
// loop in assembly (eval_amd64.s), a third faster again: without bounds
// checks, which Grouped makes unnecessary (every group index is below
// nGroups, checked when the sample is made, and Load takes weights of that
// length only). TestCumulate checks the two against each other.
func cumulateGo(w []int32, idx []int32, dst []int64) {
	dst = dst[:len(idx)]
	var a int64
	j := 0
	for ; j+4 <= len(idx); j += 4 {
		i, d := idx[j:j+4:j+4], dst[j:j+4:j+4]
		a += int64(w[i[0]])
		d[0] = a
		a += int64(w[i[1]])
		d[1] = a
		a += int64(w[i[2]])
		d[2] = a
		a += int64(w[i[3]])
		d[3] = a
	}
	for ; j < len(idx); j++ {
		a += int64(w[idx[j]])
		dst[j] = a
	}
}

// Load makes one pass over the ranked items with the weights w (nil = all
// 1): one per item, or one per group for an Eval of a Grouped sample. It
// panics if len(w) is not the number of items (groups) or the total weight
// reaches 2³¹.
func (e *Eval) Load(w []int32) {
	switch {
	case w == nil && e.nw == e.s.n:
		w = e.s.unit(nil)
	case w == nil:
		if e.ones == nil {
			e.ones = make([]int32, e.nw)
			for i := range e.ones {
				e.ones[i] = 1
			}
		}
		w = e.ones
	case len(w) != e.nw:
		panic(fmt.Sprintf("stats: %d weights for %d items", len(w), e.nw))
	}
	switch {
	case e.g != nil:
		e.loadGrouped(w)
	case len(e.cumT) == len(e.s.rk):
		e.loadDistinct(w)
	default:
		e.loadTied(w)
	}
	if e.pos+e.neg >= labelBit {
		panic("stats: total weight too large")
	}
}

// loadDistinct is Load for samples without tied scores: every item is its
// own tie group.
func (e *Eval) loadDistinct(w []int32) {
	rk := e.s.rk
	cT, cF := e.cumT[:len(rk)], e.cumF[:len(rk)]
	var cumT, cumA, num2 int64
	var apSum float64
	for r, v := range rk {
		wi := int64(w[v&itemMask])
		cumA += wi
		tp := wi & -int64(v>>31)
		// A negative loses to every positive above it.
		num2 += (wi - tp) * cumT
		cumT += tp
		if tp != 0 {
			apSum += float64(tp) * (float64(cumT) / float64(cumA))
		}
		cT[r], cF[r] = int32(cumT), int32(cumA-cumT)
	}
	e.pos, e.neg = cumT, cumA-cumT
	e.num2, e.apSum = 2*num2, apSum
}

// loadTied is Load for samples with tied scores. The pass over the items
// has no branch: every item writes the running counts into the slot of its
// tie group, and the last item of the group leaves them there. The
// Mann-Whitney and AP sums then take one step per tie group.
func (e *Eval) loadTied(w []int32) {
	var cumT, cumA int64
	cT, cF := e.cumT, e.cumF
	k := 0
	for _, v := range e.s.rk {
		wi := int64(w[v&itemMask])
		cumA += wi
		cumT += wi & -int64(v>>31)
		cT[k], cF[k] = int32(cumT), int32(cumA-cumT)
		k += int(v>>30) & 1
	}
	var lastT, lastF, num2 int64
	var apSum float64
	for k := range cT {
		t, f := int64(cT[k]), int64(cF[k])
		// Each negative of group k loses to the positives above it and
		// ties with the positives of its own group.
		tp, fp := t-lastT, f-lastF
		num2 += fp * (2*lastT + tp)
		if tp != 0 {
			apSum += float64(tp) * (float64(t) / float64(t+f))
		}
		lastT, lastF = t, f
	}
	e.pos, e.neg = cumT, cumA-cumT
	e.num2, e.apSum = num2, apSum
}

// Positives returns W⁺, the total weight of the positive items.
func (e *Eval) Positives() float64 { return float64(e.pos) }

// Negatives returns W⁻, the total weight of the negative items.
func (e *Eval) Negatives() float64 { return float64(e.neg) }

// AUROC returns the weighted area under the ROC curve: the Mann-Whitney
// probability that a positive item scores above a negative one, ties
// counting one half (scikit-learn's roc_auc_score, pROC's auc):
//
//	AUROC = Σ_{i pos} Σ_{j neg} w_i w_j (1[p_i > p_j] + ½ 1[p_i = p_j]) / (W⁺ W⁻).
//
// It is NaN when W⁺ or W⁻ is 0 (one class only). The pair count is exact
// integer arithmetic.
func (e *Eval) AUROC() float64 {
	if e.pos == 0 || e.neg == 0 {
		return math.NaN()
	}
	return float64(e.num2) / (2 * float64(e.pos) * float64(e.neg))
}

// AP returns the weighted average precision, the step-wise area under the
// precision-recall curve of scikit-learn's average_precision_score (with
// sample_weight), not the trapezoidal one:
//
//	AP = Σ_k (R_k - R_{k-1}) P_k,  R_k = TP_k / W⁺,  P_k = TP_k / (TP_k + FP_k),
//
// over the tie groups k with positive weight (R_0 = 0), computed as
// Σ_k tp_k P_k / W⁺ with tp_k the positive weight of group k. It is NaN when
// W⁺ = 0 (scikit-learn returns 0 with a warning).
func (e *Eval) AP() float64 {
	if e.pos == 0 {
		return math.NaN()
	}
	return e.apSum / float64(e.pos)
}

// checkGrid panics unless grid is ascending and inside [0, 1].
func checkGrid(name string, grid, out []float64) {
	if len(out) < len(grid) {
		panic(fmt.Sprintf("stats: %s: len(out) < len(grid)", name))
	}
	for j, g := range grid {
		if !(g >= 0 && g <= 1) || (j > 0 && g < grid[j-1]) {
			panic(fmt.Sprintf("stats: %s: grid must be ascending within [0, 1]", name))
		}
	}
}

func fillNaN(out []float64) {
	for j := range out {
		out[j] = math.NaN()
	}
}

// firstFPRAbove returns the first tie group k >= lo whose vertex has
// float64(FP_k)/W⁻ > g, or len(cumF) if none has.
//
// The quotient is never computed: a correctly rounded division is
// non-decreasing in its numerator, so the vertices that pass are those
// with FP_k >= leastAbove(g, W⁻), an integer test. The search steps
// forward a few groups first (the next grid point is usually near), then
// halves the rest.
func (e *Eval) firstFPRAbove(lo int, g, fN float64) int {
	c := leastAbove(g, fN)
	cf := e.cumF
	for end := min(lo+8, len(cf)); lo < end; lo++ {
		if int64(cf[lo]) >= c {
			return lo
		}
	}
	hi := len(cf)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int64(cf[mid]) >= c {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// leastAbove returns the least integer c >= 0 with float64(c)/d > x, for
// d > 0 and 0 <= x <= 1: the rounded product x·d is within a step or two
// of it.
func leastAbove(x, d float64) int64 {
	c := int64(x * d)
	for c > 0 && float64(c-1)/d > x {
		c--
	}
	for !(float64(c)/d > x) {
		c++
	}
	return c
}

// leastAtLeast returns the least integer c >= 0 with float64(c)/d >= x,
// for d > 0 and 0 <= x <= 1.
func leastAtLeast(x, d float64) int64 {
	c := int64(x * d)
	for c > 0 && float64(c-1)/d >= x {
		c--
	}
	for !(float64(c)/d >= x) {
		c++
	}
	return c
}

// TPRAtGrid writes into out[j] the TPR of the ROC curve at FPR = grid[j]
// (grid ascending in [0, 1]). The curve is the polyline through its
// vertices (see Eval), so a tie group with both classes is a sloped
// segment, as in pROC's and scikit-learn's plots:
//
//   - if some vertices have FPR exactly g, the largest of their TPRs;
//   - otherwise the linear interpolation between the last vertex with
//     FPR < g, (f₀, t₀), and the next one, (f₁, t₁):
//     t₀ + (g - f₀)/(f₁ - f₀) (t₁ - t₀).
//
// This is pROC's coords(input = "specificity") rule, which its ci.se uses
// for ROC confidence bands; the full-sample curve drawn under the band is
// the same polyline (Load(nil), ROC). All values are NaN when a class has
// zero weight. It panics if grid is not ascending in [0, 1] or out is
// shorter.
func (e *Eval) TPRAtGrid(grid, out []float64) {
	checkGrid("TPRAtGrid", grid, out)
	if e.pos == 0 || e.neg == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP, fN := float64(e.pos), float64(e.neg)
	k := 0
	for j, g := range grid {
		k = e.firstFPRAbove(k, g, fN)
		// Vertex k-1 is the last with FPR <= g, the origin if k = 0.
		f0, t0 := 0.0, 0.0
		if k > 0 {
			f0, t0 = float64(e.cumF[k-1])/fN, float64(e.cumT[k-1])/fP
		}
		if k == len(e.cumF) || f0 == g {
			out[j] = t0
			continue
		}
		f1, t1 := float64(e.cumF[k])/fN, float64(e.cumT[k])/fP
		out[j] = t0 + (g-f0)/(f1-f0)*(t1-t0)
	}
}

// TPRAtFPR writes into out[j] the largest TPR among the ROC curve's
// vertices (the step curve, thresholds at the observed scores) whose FPR is
// at most budgets[j] (budgets ascending in [0, 1]), as the in-sample
// ne.tpr@fpr=X. The vertex (0, 0) always qualifies. All values are NaN
// when a class has zero weight.
func (e *Eval) TPRAtFPR(budgets, out []float64) {
	checkGrid("TPRAtFPR", budgets, out)
	if e.pos == 0 || e.neg == 0 {
		fillNaN(out[:len(budgets)])
		return
	}
	fP, fN := float64(e.pos), float64(e.neg)
	k := 0
	for j, b := range budgets {
		k = e.firstFPRAbove(k, b, fN)
		out[j] = 0
		if k > 0 {
			out[j] = float64(e.cumT[k-1]) / fP
		}
	}
}

// PrecisionAtRecallGrid writes into out[j] the interpolated precision at
// recall grid[j] (grid ascending in [0, 1]): the largest precision among
// the precision-recall curve's points whose recall is at least grid[j],
//
//	P_interp(r) = max { TP_k/(TP_k+FP_k) : TP_k/W⁺ >= r },
//
// over the tie groups k with positive cumulative weight (the PR-curve
// points of scikit-learn's precision_recall_curve, without its artificial
// (recall 0, precision 1) end point). The result is non-increasing in r,
// which makes bootstrap percentile bands well defined. All values are NaN
// when W⁺ = 0.
func (e *Eval) PrecisionAtRecallGrid(grid, out []float64) {
	checkGrid("PrecisionAtRecallGrid", grid, out)
	if e.pos == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP := float64(e.pos)
	// Walk the points from the lowest score (recall 1) up, keeping the
	// running maximum precision. Only groups holding positive weight can
	// raise it: a group without positives has the recall of the point
	// above it and no higher precision.
	//
	// No division per point: the best precision is kept as the fraction
	// bt/bs, compared by cross-multiplication (exact in int64) and divided
	// only where it is written out; since rounding is monotone, the
	// rounded maximum is the maximum of the rounded precisions. bt/bs is
	// 0/1 before the first point, which replaces it (its TP is > 0; W⁺ > 0
	// makes sure there is one). The recall test
	// grid[j] > float64(above)/W⁺ is above < leastAtLeast(grid[j], W⁺).
	bt, bs := int64(0), int64(1)
	best := math.Inf(-1)
	j := len(grid) - 1
	need := leastAtLeast(grid[j], fP)
	// In an Eval of a Grouped sample only the odd vertices, after a tie
	// group with a positive, can add positive weight: the others repeat
	// the TP of the vertex before them.
	k0, step := len(e.cumT)-1, 1
	if e.g != nil {
		k0, step = len(e.cumT)-2, 2
	}
	for k := k0; k >= 0 && j >= 0; k -= step {
		t := int64(e.cumT[k])
		var above int64
		if k > 0 {
			above = int64(e.cumT[k-1])
		}
		if t == above {
			continue
		}
		if s := t + int64(e.cumF[k]); t*bs > bt*s {
			bt, bs = t, s
		}
		if above < need {
			best = float64(bt) / float64(bs)
		}
		for above < need {
			out[j] = best
			j--
			if j < 0 {
				break
			}
			need = leastAtLeast(grid[j], fP)
		}
	}
	if j >= 0 && bt != 0 {
		best = float64(bt) / float64(bs)
	}
	for ; j >= 0; j-- {
		out[j] = best
	}
}

// Confusion returns the weighted confusion matrix of the rule "predicted
// positive when p >= threshold": tp and fp are the positive and negative
// weights scoring at least threshold, fn and tn the rest.
func (e *Eval) Confusion(threshold float64) (tp, fp, tn, fn float64) {
	e.needTieGroups("Confusion")
	// Tie groups are in descending score order: count those scoring at
	// least the threshold.
	sc := e.s.score
	lo, hi := 0, len(sc)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if sc[mid] < threshold {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	var t, f int64
	if lo > 0 {
		t, f = int64(e.cumT[lo-1]), int64(e.cumF[lo-1])
	}
	return float64(t), float64(f), float64(e.neg - f), float64(e.pos - t)
}

// ROC returns the vertices of the ROC curve (see Eval), starting at (0, 0)
// and ending at (1, 1), skipping repeated vertices, for drawing the
// full-sample curve under a TPRAtGrid band. Both are nil when a class has
// zero weight.
func (e *Eval) ROC() (fpr, tpr []float64) {
	e.needTieGroups("ROC")
	if e.pos == 0 || e.neg == 0 {
		return nil, nil
	}
	fpr, tpr = []float64{0}, []float64{0}
	var lastT, lastF int32
	for k, t := range e.cumT {
		f := e.cumF[k]
		if t == lastT && f == lastF {
			continue
		}
		fpr = append(fpr, float64(f)/float64(e.neg))
		tpr = append(tpr, float64(t)/float64(e.pos))
		lastT, lastF = t, f
	}
	return fpr, tpr
}

// needTieGroups panics for an Eval of a Grouped sample, which does not keep
// every tie group.
func (e *Eval) needTieGroups(name string) {
	if e.g != nil {
		panic("stats: " + name + " of an Eval of a Grouped sample")
	}
}

// sumWeights returns Σ w[g] over the groups g of idx, four at a time.
func sumWeights(w []int32, idx []int32) int64 {
	var f0, f1, f2, f3 int64
	for len(idx) >= 4 {
		f0 += int64(w[idx[0]])
		f1 += int64(w[idx[1]])
		f2 += int64(w[idx[2]])
		f3 += int64(w[idx[3]])
		idx = idx[4:]
	}
	for _, g := range idx {
		f0 += int64(w[g])
	}
	return f0 + f1 + f2 + f3
}
