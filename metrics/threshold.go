package metrics

// Threshold selection: the FPR-budget operating point and the two
// thresholds of the clinical gate (docs/metrics.md "Thresholds"). Each chooser takes the labels
// and scores of one fold's tune rows and nothing else: it has no access to
// eval rows, to other folds, or to any state kept between calls. That is
// the leakage guarantee (thresholds are chosen on tune rows only), shown by
// threshold_test.go.
//
// Common rules: the candidate thresholds are the distinct scores observed on
// the tune rows; a row is positive (screened in, alerted) when p >= t; every
// rate is compared as a ratio of counts, so a rate that equals a target
// exactly (5/100 against 0.05) meets it. Scores must not be NaN.

import "math"

// ChooseFPRThreshold chooses the FPR-budget operating point on tune rows
// (`ne.heldout_tpr@fpr=X`; max TPR, highest threshold among ties): among
// the observed scores t with
//
//	FPR(t) = FP(t) / n₋ <= budget,
//
// the one with the largest TPR(t) = TP(t) / n₊, and among those the highest
// t. ok is false, and threshold +Inf ("nothing screened in"), when no
// observed score meets the budget, and also when the tune rows lack a class
// (no negatives: the FPR cannot be estimated; no positives: the TPR cannot)
// or are empty; the caller reports the budget as not met. A budget >= 1 is
// always met when both classes are present.
func ChooseFPRThreshold(tuneY []bool, tuneP []float64, budget float64) (threshold float64, ok bool) {
	pos, neg := clfSplit(tuneY, tuneP)
	npos, nneg := len(pos), len(neg)
	threshold = math.Inf(1)
	if npos == 0 || nneg == 0 {
		return threshold, false
	}
	// FPR never decreases as t goes down, so the thresholds meeting the
	// budget are a prefix of the descending walk; TPR never decreases along
	// it, so the first point reaching the prefix's largest TP count is the
	// highest threshold with the largest TPR.
	tp, fp, bestTP := 0, 0, -1
	stopped := false
	clfWalkDesc(pos, neg, func(s float64, dp, dn int) {
		if stopped {
			return
		}
		tp += dp
		fp += dn
		if !(float64(fp)/float64(nneg) <= budget) {
			stopped = true
			return
		}
		if tp > bestTP {
			bestTP, threshold, ok = tp, s, true
		}
	})
	return threshold, ok
}

// ChooseScreenThreshold chooses tau_neg of the three-state gate on tune
// rows: the largest observed score t whose
// screening sensitivity
//
//	sens(t) = #{positives with p >= t} / n₊
//
// is at least minSensitivity. With positives present and minSensitivity <=
// 1 such a t always exists (the lowest positive score screens every
// positive in). ok is false, and tauNeg is -Inf ("screen every query in",
// the safe side for a screening stage), when the tune rows have no positive
// row, are empty, or when minSensitivity exceeds 1 or is NaN.
func ChooseScreenThreshold(tuneY []bool, tuneP []float64, minSensitivity float64) (tauNeg float64, ok bool) {
	pos, neg := clfSplit(tuneY, tuneP)
	npos := len(pos)
	tauNeg = math.Inf(-1)
	if npos == 0 {
		return tauNeg, false
	}
	tp := 0
	clfWalkDesc(pos, neg, func(s float64, dp, _ int) {
		if ok {
			return
		}
		tp += dp
		if float64(tp)/float64(npos) >= minSensitivity {
			tauNeg, ok = s, true
		}
	})
	return tauNeg, ok
}

// ChooseAlertThreshold chooses tau_pos of the three-state gate on tune rows:
// the smallest observed score t >= tauNeg whose alert precision
//
//	prec(t) = #{positives with p >= t} / #{rows with p >= t}
//
// is at least minPrecision. Precision is not monotone in t; every candidate
// is checked. ok is false, and tauPos is +Inf (no POS state: the caller
// warns), when no candidate qualifies, which includes tune rows with no
// positive (precision 0 everywhere, for minPrecision > 0) and empty tune
// rows.
func ChooseAlertThreshold(tuneY []bool, tuneP []float64, tauNeg, minPrecision float64) (tauPos float64, ok bool) {
	pos, neg := clfSplit(tuneY, tuneP)
	tauPos = math.Inf(1)
	tp, fp := 0, 0
	clfWalkDesc(pos, neg, func(s float64, dp, dn int) {
		tp += dp
		fp += dn
		if s >= tauNeg && float64(tp)/float64(tp+fp) >= minPrecision {
			tauPos, ok = s, true // the walk descends: the last hit is the smallest
		}
	})
	return tauPos, ok
}
