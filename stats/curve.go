package stats

import (
	"fmt"
	"math"
	"sort"
)

// Curve is the ROC and precision-recall curve of one weighting of a Scored
// sample, reduced to the weighted positive and negative counts of each tie
// group. Load fills it in one pass over the items; every curve statistic is
// then a pass over the tie groups only. A Curve is scratch memory owned by
// one goroutine: create one per worker (Scored.NewCurve) and Load it once
// per replicate to compute several statistics from one pass.
//
// The curve's vertices are (FPR_k, TPR_k) = (FP_k/W⁻, TP_k/W⁺) after each
// tie group k with positive weight, from the highest score down, starting
// at (0, 0); FP_k and TP_k are the weights of the negatives and positives
// scoring at least the group's score, W⁻ and W⁺ the class totals.
type Curve struct {
	s      *Scored
	tp, fp []int32 // weighted positives and negatives of each tie group
	pos    int64   // W⁺
	neg    int64   // W⁻
}

// NewCurve returns an empty Curve for s.
func (s *Scored) NewCurve() *Curve {
	k := len(s.ends)
	return &Curve{s: s, tp: make([]int32, k), fp: make([]int32, k)}
}

// Load computes the tie-group counts for the weights w (nil = all 1). It
// panics if len(w) is not the number of items or the total weight reaches
// 2³¹.
func (c *Curve) Load(w []int32) {
	s := c.s
	w = s.unit(w)
	var cumP, cumT int64
	r := 0
	tps, fps := c.tp, c.fp
	for k, end := range s.ends {
		var tp, tot int32
		for _, v := range s.rk[r:end] {
			wi := w[v&^labelBit]
			tot += wi
			tp += wi & -int32(v>>31)
		}
		r = int(end)
		tps[k] = tp
		fps[k] = tot - tp
		cumP += int64(tp)
		cumT += int64(tot)
	}
	if cumT >= labelBit {
		panic("stats: total weight too large")
	}
	c.pos, c.neg = cumP, cumT-cumP
}

// Positives returns W⁺, the total weight of the positive items.
func (c *Curve) Positives() float64 { return float64(c.pos) }

// Negatives returns W⁻, the total weight of the negative items.
func (c *Curve) Negatives() float64 { return float64(c.neg) }

// AUROC returns the same value as Scored.AUROC for the loaded weights.
func (c *Curve) AUROC() float64 {
	var cumP, num2 int64
	for k, tp := range c.tp {
		tp, fp := int64(tp), int64(c.fp[k])
		num2 += fp * (2*cumP + tp)
		cumP += tp
	}
	if c.pos == 0 || c.neg == 0 {
		return math.NaN()
	}
	return float64(num2) / (2 * float64(c.pos) * float64(c.neg))
}

// AP returns the weighted average precision, the step-wise area under the
// precision-recall curve of scikit-learn's average_precision_score (with
// sample_weight), not the trapezoidal one:
//
//	AP = Σ_k (R_k - R_{k-1}) P_k,  R_k = TP_k / W⁺,  P_k = TP_k / (TP_k + FP_k),
//
// over the tie groups k with positive weight (R_0 = 0); it is computed as
// Σ_k tp_k P_k / W⁺ with tp_k the positive weight of group k. It is NaN when
// W⁺ = 0 (scikit-learn returns 0 with a warning).
func (c *Curve) AP() float64 {
	if c.pos == 0 {
		return math.NaN()
	}
	var cumT, cumA int64
	var sum float64
	for k, tp := range c.tp {
		tot := int64(tp) + int64(c.fp[k])
		if tot == 0 {
			continue
		}
		cumT += int64(tp)
		cumA += tot
		if tp != 0 {
			sum += float64(tp) * (float64(cumT) / float64(cumA))
		}
	}
	return sum / float64(c.pos)
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

// TPRAtGrid writes into out[j] the TPR of the ROC curve at FPR = grid[j]
// (grid ascending in [0, 1]). The curve is the polyline through its
// vertices (see Curve), so a tie group with both classes is a sloped
// segment, as in pROC's and scikit-learn's plots:
//
//   - if some vertices have FPR exactly g, the largest of their TPRs;
//   - otherwise the linear interpolation between the last vertex with
//     FPR < g, (f₀, t₀), and the next one, (f₁, t₁):
//     t₀ + (g - f₀)/(f₁ - f₀) (t₁ - t₀).
//
// This is pROC's coords(input = "specificity") rule, which its ci.se uses
// for ROC confidence bands; the full-sample curve drawn under the band is
// the same polyline (Load(nil)). All values are NaN when a class has zero
// weight. It panics if grid is not ascending in [0, 1] or out is shorter.
func (c *Curve) TPRAtGrid(grid, out []float64) {
	checkGrid("TPRAtGrid", grid, out)
	if c.pos == 0 || c.neg == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP, fN := float64(c.pos), float64(c.neg)
	var cumT, cumF int64
	prevF, prevT := 0.0, 0.0
	j := 0
	for k, tp := range c.tp {
		fp := c.fp[k]
		if tp == 0 && fp == 0 {
			continue
		}
		cumT += int64(tp)
		cumF += int64(fp)
		curF := float64(cumF) / fN
		curT := float64(cumT) / fP
		for j < len(grid) && grid[j] < curF {
			out[j] = prevT + (grid[j]-prevF)/(curF-prevF)*(curT-prevT)
			j++
		}
		if j == len(grid) {
			return
		}
		prevF, prevT = curF, curT
	}
	for ; j < len(grid); j++ {
		out[j] = prevT
	}
}

// TPRAtFPR writes into out[j] the largest TPR among the ROC curve's
// vertices (the step curve, thresholds at the observed scores) whose FPR is
// at most budgets[j] (budgets ascending in [0, 1]), as SPEC 4.1's
// ne.tpr@fpr=X. The vertex (0, 0) always qualifies. All values are NaN
// when a class has zero weight.
func (c *Curve) TPRAtFPR(budgets, out []float64) {
	checkGrid("TPRAtFPR", budgets, out)
	if c.pos == 0 || c.neg == 0 {
		fillNaN(out[:len(budgets)])
		return
	}
	fP, fN := float64(c.pos), float64(c.neg)
	var cumT, cumF int64
	prevT := 0.0
	j := 0
	for k, tp := range c.tp {
		fp := c.fp[k]
		cumT += int64(tp)
		cumF += int64(fp)
		curF := float64(cumF) / fN
		for j < len(budgets) && curF > budgets[j] {
			out[j] = prevT
			j++
		}
		if j == len(budgets) {
			return
		}
		prevT = float64(cumT) / fP
	}
	for ; j < len(budgets); j++ {
		out[j] = prevT
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
func (c *Curve) PrecisionAtRecallGrid(grid, out []float64) {
	checkGrid("PrecisionAtRecallGrid", grid, out)
	if c.pos == 0 {
		fillNaN(out[:len(grid)])
		return
	}
	fP := float64(c.pos)
	// Walk the points from the lowest score (recall 1) up, keeping the
	// running maximum precision of the points walked so far.
	cumT, cumA := c.pos, c.pos+c.neg
	best := math.Inf(-1)
	j := len(grid) - 1
	for k := len(c.tp) - 1; k >= 0 && j >= 0; k-- {
		tp, tot := int64(c.tp[k]), int64(c.tp[k])+int64(c.fp[k])
		if cumA > 0 {
			best = max(best, float64(cumT)/float64(cumA))
		}
		cumT -= tp
		cumA -= tot
		prevR := float64(cumT) / fP // recall of the next point up
		for j >= 0 && grid[j] > prevR {
			out[j] = best
			j--
		}
	}
	for ; j >= 0; j-- {
		out[j] = best
	}
}

// Confusion returns the weighted confusion matrix of the rule "predicted
// positive when p >= threshold": tp and fp are the positive and negative
// weights scoring at least threshold, fn and tn the rest.
func (c *Curve) Confusion(threshold float64) (tp, fp, tn, fn float64) {
	// Tie groups are in descending score order: find the first group
	// scoring below the threshold.
	cut := sort.Search(len(c.s.score), func(k int) bool { return c.s.score[k] < threshold })
	var t, f int64
	for k := range cut {
		t += int64(c.tp[k])
		f += int64(c.fp[k])
	}
	return float64(t), float64(f), float64(c.neg - f), float64(c.pos - t)
}

// ROC returns the vertices of the ROC curve (see Curve), starting at
// (0, 0) and ending at (1, 1), for drawing the full-sample curve under a
// TPRAtGrid band. Both are nil when a class has zero weight.
func (c *Curve) ROC() (fpr, tpr []float64) {
	if c.pos == 0 || c.neg == 0 {
		return nil, nil
	}
	fpr, tpr = []float64{0}, []float64{0}
	var cumT, cumF int64
	for k, tp := range c.tp {
		fp := c.fp[k]
		if tp == 0 && fp == 0 {
			continue
		}
		cumT += int64(tp)
		cumF += int64(fp)
		fpr = append(fpr, float64(cumF)/float64(c.neg))
		tpr = append(tpr, float64(cumT)/float64(c.pos))
	}
	return fpr, tpr
}
