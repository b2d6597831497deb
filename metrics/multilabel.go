package metrics

import (
	"fmt"
	"math"
)

// This file holds the per-post multi-label metrics (posts whose every
// criterion is in eval). Each post is one instance whose labels are the criteria
// (A.1..A.10): truth[p][c] says whether post p has evidence for criterion c,
// pred[p][c] whether the system returns any (the deployment decision). Both
// matrices are posts × criteria and rectangular; a shape mismatch panics (a
// programmer's mistake). With no posts every metric is NaN.
//
// An F1 score with no positive in either the truth or the prediction is 0,
// scikit-learn's zero_division default, and the report says so.

// multilabelShape checks that truth and pred are equal-shaped rectangles and
// returns the number of posts and criteria.
func multilabelShape(truth, pred [][]bool) (posts, crit int) {
	if len(truth) != len(pred) {
		panic(fmt.Sprintf("metrics: multi-label shape mismatch: %d truth posts, %d predicted", len(truth), len(pred)))
	}
	if len(truth) == 0 {
		return 0, 0
	}
	crit = len(truth[0])
	for p := range truth {
		if len(truth[p]) != crit || len(pred[p]) != crit {
			panic(fmt.Sprintf("metrics: multi-label post %d has %d truth and %d predicted labels, want %d", p, len(truth[p]), len(pred[p]), crit))
		}
	}
	if crit == 0 {
		panic("metrics: multi-label matrices have no criteria")
	}
	return len(truth), crit
}

// multilabelF1 returns 2·TP / (2·TP + FP + FN), or 0 when the denominator
// is 0 (no positive in truth or prediction; scikit-learn's zero_division).
func multilabelF1(tp, fp, fn int) float64 {
	d := 2*tp + fp + fn
	if d == 0 {
		return 0
	}
	return 2 * float64(tp) / float64(d)
}

// ExactMatch returns the fraction of posts whose predicted label vector
// equals the truth on every criterion (scikit-learn's accuracy_score on
// multi-label input, "subset accuracy"):
//
//	ExactMatch = (1/P) Σ_p 1[pred_p = truth_p]
func ExactMatch(truth, pred [][]bool) float64 {
	posts, _ := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	n := 0
	for p := range truth {
		ok := true
		for c := range truth[p] {
			if truth[p][c] != pred[p][c] {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return float64(n) / float64(posts)
}

// HammingScore returns the mean over posts of the fraction of criteria
// predicted correctly:
//
//	HammingScore = (1/P) Σ_p |{c : pred_pc = truth_pc}| / C
//
// It equals 1 − HammingLoss.
func HammingScore(truth, pred [][]bool) float64 {
	posts, crit := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	ok := 0
	for p := range truth {
		for c := range truth[p] {
			if truth[p][c] == pred[p][c] {
				ok++
			}
		}
	}
	return float64(ok) / float64(posts*crit)
}

// HammingLoss returns the fraction of (post, criterion) labels predicted
// wrongly (scikit-learn's hamming_loss):
//
//	HammingLoss = (1/(P·C)) Σ_p Σ_c 1[pred_pc ≠ truth_pc]
func HammingLoss(truth, pred [][]bool) float64 {
	posts, crit := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	bad := 0
	for p := range truth {
		for c := range truth[p] {
			if truth[p][c] != pred[p][c] {
				bad++
			}
		}
	}
	return float64(bad) / float64(posts*crit)
}

// MicroF1 returns the F1 of all (post, criterion) pairs pooled
// (scikit-learn's f1_score(average='micro')):
//
//	MicroF1 = 2·ΣTP / (2·ΣTP + ΣFP + ΣFN)
//
// 0 when no pair is positive in truth or prediction.
func MicroF1(truth, pred [][]bool) float64 {
	posts, _ := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	var tp, fp, fn int
	for p := range truth {
		for c := range truth[p] {
			switch t, y := truth[p][c], pred[p][c]; {
			case t && y:
				tp++
			case y:
				fp++
			case t:
				fn++
			}
		}
	}
	return multilabelF1(tp, fp, fn)
}

// MacroF1Posts returns the mean over posts of each post's F1 across its
// criteria (multilabel.macro_f1_posts; scikit-learn's
// f1_score(average='samples')):
//
//	MacroF1Posts = (1/P) Σ_p 2·TP_p / (2·TP_p + FP_p + FN_p)
//
// A post with no positive in truth or prediction has F1 0 (scikit-learn's
// zero_division default), so a system is not rewarded for posts without
// evidence.
func MacroF1Posts(truth, pred [][]bool) float64 {
	posts, _ := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	var sum float64
	for p := range truth {
		var tp, fp, fn int
		for c := range truth[p] {
			switch t, y := truth[p][c], pred[p][c]; {
			case t && y:
				tp++
			case y:
				fp++
			case t:
				fn++
			}
		}
		sum += multilabelF1(tp, fp, fn)
	}
	return sum / float64(posts)
}

// multilabelPerCriterion returns the F1 and support (number of true
// positives in truth) of each criterion.
func multilabelPerCriterion(truth, pred [][]bool, crit int) (f1 []float64, support []int) {
	tp := make([]int, crit)
	fp := make([]int, crit)
	fn := make([]int, crit)
	for p := range truth {
		for c := range truth[p] {
			switch t, y := truth[p][c], pred[p][c]; {
			case t && y:
				tp[c]++
			case y:
				fp[c]++
			case t:
				fn[c]++
			}
		}
	}
	f1 = make([]float64, crit)
	support = make([]int, crit)
	for c := range f1 {
		f1[c] = multilabelF1(tp[c], fp[c], fn[c])
		support[c] = tp[c] + fn[c]
	}
	return f1, support
}

// MacroF1Criteria returns the unweighted mean over criteria of each
// criterion's F1 across posts (multilabel.macro_f1_criteria;
// scikit-learn's f1_score(average='macro')):
//
//	MacroF1Criteria = (1/C) Σ_c 2·TP_c / (2·TP_c + FP_c + FN_c)
//
// A criterion with no positive in truth or prediction has F1 0 and still
// counts in the mean, as in scikit-learn.
func MacroF1Criteria(truth, pred [][]bool) float64 {
	posts, crit := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	f1, _ := multilabelPerCriterion(truth, pred, crit)
	var sum float64
	for _, f := range f1 {
		sum += f
	}
	return sum / float64(crit)
}

// WeightedF1 returns the mean of the per-criterion F1 weighted by each
// criterion's support, its number of positive posts in truth
// (scikit-learn's f1_score(average='weighted')):
//
//	WeightedF1 = Σ_c n_c · F1_c / Σ_c n_c
//
// 0 when no post is positive for any criterion (scikit-learn's value).
func WeightedF1(truth, pred [][]bool) float64 {
	posts, crit := multilabelShape(truth, pred)
	if posts == 0 {
		return math.NaN()
	}
	f1, support := multilabelPerCriterion(truth, pred, crit)
	var sum float64
	total := 0
	for c, f := range f1 {
		sum += float64(support[c]) * f
		total += support[c]
	}
	if total == 0 {
		return 0
	}
	return sum / float64(total)
}
