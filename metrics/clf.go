package metrics

// Binary classification kernels for the NE gate (population
// all_queries): AUROC, average precision, ROC and PR curves, TPR at a fixed
// FPR. Every kernel takes the labels y (true = the query has evidence) and
// the scores p of the same rows, and treats a row as predicted positive when
// p >= threshold.
//
// The curve kernels share one O(n log n) step: the scores of the positive
// and of the negative rows are sorted separately (a plain float64 sort) and
// merged from the top, giving each distinct score with its count of
// positives and negatives. Scores must not be NaN (package dataset rejects
// them); a NaN score is a programmer error and panics.

import (
	"math"
	"slices"
)

// clfCheckLen panics when the label and score slices differ in length.
func clfCheckLen(ny, np int) {
	if ny != np {
		panic("metrics: length mismatch between labels and scores")
	}
}

// clfSplit copies the scores of the positive rows and of the negative rows
// into two sorted (ascending) slices sharing one allocation.
func clfSplit(y []bool, p []float64) (pos, neg []float64) {
	clfCheckLen(len(y), len(p))
	npos := 0
	for _, v := range y {
		if v {
			npos++
		}
	}
	buf := make([]float64, len(p))
	pos, neg = buf[:0:npos], buf[npos:npos]
	for i, v := range p {
		if math.IsNaN(v) {
			panic("metrics: NaN score")
		}
		if y[i] {
			pos = append(pos, v)
		} else {
			neg = append(neg, v)
		}
	}
	sortFloats(pos)
	sortFloats(neg)
	return pos, neg
}

// clfWalkDesc calls fn once per distinct score of pos and neg (both sorted
// ascending), from the highest score to the lowest, with the number of
// positive and negative rows holding exactly that score. A negative zero is
// reported as +0.
func clfWalkDesc(pos, neg []float64, fn func(score float64, dp, dn int)) {
	i, j := len(pos)-1, len(neg)-1
	for i >= 0 || j >= 0 {
		var s float64
		switch {
		case i < 0:
			s = neg[j]
		case j < 0:
			s = pos[i]
		default:
			s = max(pos[i], neg[j])
		}
		dp, dn := 0, 0
		for i >= 0 && pos[i] == s {
			dp++
			i--
		}
		for j >= 0 && neg[j] == s {
			dn++
			j--
		}
		if s == 0 {
			s = 0 // drop the sign of -0
		}
		fn(s, dp, dn)
	}
}

// AUROC returns the area under the ROC curve of scores p for labels y, as
// the Mann-Whitney statistic with ties counted one half:
//
//	AUROC = (#{(i,j): p_i > p_j} + ½ #{(i,j): p_i = p_j}) / (n₊ n₋)
//
// over pairs of a positive row i and a negative row j. This equals
// scikit-learn's roc_auc_score (the trapezoidal area under the full ROC
// curve). The pair count is exact integer arithmetic, so the result is the
// correctly rounded ratio. It is NaN when y has no positive or no negative
// row (some reference code returns 0.5 there; we make it undefined, see
// docs/metrics.md "Conventions"). O(n log n).
func AUROC(y []bool, p []float64) float64 {
	pos, neg := clfSplit(y, p)
	npos, nneg := len(pos), len(neg)
	if npos == 0 || nneg == 0 {
		return math.NaN()
	}
	// twice the Mann-Whitney U: each positive beats the negatives strictly
	// below it (2 each) and ties with the negatives at its score (1 each).
	var u2 int64
	negAbove := 0
	clfWalkDesc(pos, neg, func(_ float64, dp, dn int) {
		below := nneg - negAbove - dn
		u2 += int64(dp) * int64(2*below+dn)
		negAbove += dn
	})
	return float64(u2) / (2 * float64(npos) * float64(nneg))
}

// AveragePrecision returns the step-wise average precision of scores p for
// labels y, exactly as scikit-learn's average_precision_score:
//
//	AP = Σ_k (R_k − R_{k−1}) P_k
//
// where k runs over the distinct scores in descending order, P_k and R_k
// are the precision and recall of the rule "p >= score_k", and R_0 = 0. It
// is not the trapezoidal area under the PR curve. It is NaN when y has no
// positive row (scikit-learn warns and returns a meaningless value). A
// sample with no negative row has AP = 1.
func AveragePrecision(y []bool, p []float64) float64 {
	pos, neg := clfSplit(y, p)
	npos := len(pos)
	if npos == 0 {
		return math.NaN()
	}
	ap := 0.0
	tp, fp := 0, 0
	clfWalkDesc(pos, neg, func(_ float64, dp, dn int) {
		tp += dp
		fp += dn
		if dp > 0 {
			ap += float64(dp) / float64(npos) * (float64(tp) / float64(tp+fp))
		}
	})
	return ap
}

// ROCCurve is an empirical ROC curve: point i is the false and true
// positive rate of the rule "p >= Thresholds[i]". Thresholds are descending,
// so FPR and TPR are non-decreasing.
type ROCCurve struct {
	FPR, TPR, Thresholds []float64
}

// ROC returns the ROC curve of scores p for labels y with one point per
// distinct score, highest first, preceded by the point (0, 0) at threshold
// +Inf: the curve of scikit-learn's roc_curve(drop_intermediate=False)
// (scikit-learn before 1.3 put max(p)+1 instead of +Inf in Thresholds[0]).
//
//	FPR_i = FP_i / n₋,  TPR_i = TP_i / n₊
//
// When y has no negative row every FPR is NaN (0/0); when it has no
// positive row every TPR is NaN, as scikit-learn. An empty sample gives the
// single point (NaN, NaN, +Inf).
func ROC(y []bool, p []float64) ROCCurve {
	pos, neg := clfSplit(y, p)
	npos, nneg := float64(len(pos)), float64(len(neg))
	m := len(p) + 1 // at most one point per row, plus the start
	c := ROCCurve{
		FPR:        append(make([]float64, 0, m), 0/nneg), // NaN without negatives
		TPR:        append(make([]float64, 0, m), 0/npos), // NaN without positives
		Thresholds: append(make([]float64, 0, m), math.Inf(1)),
	}
	tp, fp := 0, 0
	clfWalkDesc(pos, neg, func(s float64, dp, dn int) {
		tp += dp
		fp += dn
		c.FPR = append(c.FPR, float64(fp)/nneg)
		c.TPR = append(c.TPR, float64(tp)/npos)
		c.Thresholds = append(c.Thresholds, s)
	})
	return c
}

// PRCurve is an empirical precision-recall curve in scikit-learn's layout:
// Thresholds ascend over the distinct scores; Precision[i] and Recall[i]
// belong to the rule "p >= Thresholds[i]"; Precision and Recall have one
// more element, the end point (recall 0, precision 1) that has no
// threshold. Recall is therefore non-increasing.
type PRCurve struct {
	Recall, Precision, Thresholds []float64
}

// PR returns the precision-recall curve of scores p for labels y, element
// for element as scikit-learn's precision_recall_curve
// (drop_intermediate=False; version 1.2.1, which the tests compare with,
// and the current documentation agree): the first point is the lowest score
// (recall 1, precision = the positive rate), the last is the appended
// (0, 1).
//
//	Precision_i = TP_i / (TP_i + FP_i),  Recall_i = TP_i / n₊
//
// Precision is always defined at an observed score. When y has no positive
// row, Recall is NaN except at the end point (scikit-learn sets it to 1).
func PR(y []bool, p []float64) PRCurve {
	pos, neg := clfSplit(y, p)
	npos := float64(len(pos))
	m := len(p) + 1 // at most one point per row, plus the end point
	c := PRCurve{
		Recall:     make([]float64, 0, m),
		Precision:  make([]float64, 0, m),
		Thresholds: make([]float64, 0, m),
	}
	tp, fp := 0, 0
	clfWalkDesc(pos, neg, func(s float64, dp, dn int) {
		tp += dp
		fp += dn
		c.Recall = append(c.Recall, float64(tp)/npos) // NaN without positives
		c.Precision = append(c.Precision, float64(tp)/float64(tp+fp))
		c.Thresholds = append(c.Thresholds, s)
	})
	slices.Reverse(c.Recall)
	slices.Reverse(c.Precision)
	slices.Reverse(c.Thresholds)
	c.Recall = append(c.Recall, 0)
	c.Precision = append(c.Precision, 1)
	return c
}

// TPRAtFPR returns the largest TPR among the points of c whose FPR is at
// most target, with the FPR and the threshold of that point; among points
// with that TPR the one with the highest threshold is taken
// (`ne.tpr@fpr=X`). This is the in-sample, descriptive
// operating point, with the tie rule made explicit. Because a curve from ROC
// starts at (0, 0, +Inf), a curve of a sample with both classes always has a
// qualifying point and the result is free of NaN (threshold +Inf means
// "nothing is called positive"). Points whose FPR or TPR is NaN never
// qualify; with no qualifying point the result is (NaN, NaN, NaN). The scan
// does not assume c is sorted.
func TPRAtFPR(c ROCCurve, target float64) (tpr, fpr, threshold float64) {
	if len(c.FPR) != len(c.TPR) || len(c.FPR) != len(c.Thresholds) {
		panic("metrics: ROCCurve slices differ in length")
	}
	best := -1
	for i, f := range c.FPR {
		t := c.TPR[i]
		if !(f <= target) || math.IsNaN(t) {
			continue
		}
		if best < 0 || t > c.TPR[best] || (t == c.TPR[best] && c.Thresholds[i] > c.Thresholds[best]) {
			best = i
		}
	}
	if best < 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return c.TPR[best], c.FPR[best], c.Thresholds[best]
}
