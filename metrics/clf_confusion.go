package metrics

import "math"

// Confusion is a 2x2 confusion matrix of a binary decision: the counts of
// true positives, true negatives, false positives and false negatives.
// Its rate methods return NaN when their denominator is 0 (a 0/0 ratio is
// undefined, stored as null and shown as "n/a", never as 0; docs/metrics.md).
type Confusion struct {
	TP, TN, FP, FN int
}

// ConfusionAt counts the confusion matrix of the rule "predicted positive
// when p >= threshold" (docs/metrics.md "Thresholds") for labels y. A NaN score is never
// predicted positive. It panics when y and p differ in length.
func ConfusionAt(y []bool, p []float64, threshold float64) Confusion {
	clfCheckLen(len(y), len(p))
	var c Confusion
	for i, v := range p {
		switch hit := v >= threshold; {
		case y[i] && hit:
			c.TP++
		case y[i]:
			c.FN++
		case hit:
			c.FP++
		default:
			c.TN++
		}
	}
	return c
}

// Add returns the cell-wise sum of c and d, the pooled matrix of two
// disjoint populations (held-out operating points pool their
// folds by summing counts).
func (c Confusion) Add(d Confusion) Confusion {
	return Confusion{TP: c.TP + d.TP, TN: c.TN + d.TN, FP: c.FP + d.FP, FN: c.FN + d.FN}
}

// N returns the population size TP + TN + FP + FN.
func (c Confusion) N() int { return c.TP + c.TN + c.FP + c.FN }

// clfRatio returns a/b, NaN when b is 0.
func clfRatio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Sensitivity returns the true positive rate (recall) TP / (TP + FN); NaN
// without positives.
func (c Confusion) Sensitivity() float64 { return clfRatio(c.TP, c.TP+c.FN) }

// Specificity returns the true negative rate TN / (TN + FP); NaN without
// negatives.
func (c Confusion) Specificity() float64 { return clfRatio(c.TN, c.TN+c.FP) }

// FPR returns the false positive rate FP / (FP + TN); NaN without
// negatives.
func (c Confusion) FPR() float64 { return clfRatio(c.FP, c.FP+c.TN) }

// FNR returns the false negative rate FN / (FN + TP); NaN without
// positives.
func (c Confusion) FNR() float64 { return clfRatio(c.FN, c.FN+c.TP) }

// Precision returns the positive predictive value TP / (TP + FP); NaN when
// nothing is predicted positive (scikit-learn's precision_score returns 0
// there with a warning).
func (c Confusion) Precision() float64 { return clfRatio(c.TP, c.TP+c.FP) }

// NPV returns the negative predictive value TN / (TN + FN); NaN when
// nothing is predicted negative.
func (c Confusion) NPV() float64 { return clfRatio(c.TN, c.TN+c.FN) }

// F1 returns the harmonic mean of precision and recall in count form,
//
//	F1 = 2 TP / (2 TP + FP + FN),
//
// which is defined (and 0) when precision or recall alone is undefined but
// TP = 0 with some error. It is NaN only when TP + FP + FN = 0 (no positive
// row and none predicted), where scikit-learn's f1_score returns 0.
func (c Confusion) F1() float64 { return clfRatio(2*c.TP, 2*c.TP+c.FP+c.FN) }

// MCC returns Matthews' correlation coefficient
//
//	MCC = (TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)).
//
// It is NaN when any of the four marginals is 0 (one class absent, or one
// decision never made). scikit-learn's matthews_corrcoef returns 0 there;
// we return NaN because every 0/0 ratio is undefined here (docs/metrics.md).
func (c Confusion) MCC() float64 {
	a := float64(c.TP + c.FP)
	b := float64(c.TP + c.FN)
	d := float64(c.TN + c.FP)
	e := float64(c.TN + c.FN)
	if a == 0 || b == 0 || d == 0 || e == 0 {
		return math.NaN()
	}
	num := float64(c.TP)*float64(c.TN) - float64(c.FP)*float64(c.FN)
	return num / (math.Sqrt(a) * math.Sqrt(b) * math.Sqrt(d) * math.Sqrt(e))
}

// BalancedAccuracy returns (Sensitivity + Specificity) / 2; NaN when either
// class is absent (scikit-learn's balanced_accuracy_score then averages the
// recall of the class present and warns).
func (c Confusion) BalancedAccuracy() float64 {
	return (c.Sensitivity() + c.Specificity()) / 2
}

// Accuracy returns (TP + TN) / N; NaN for an empty matrix.
func (c Confusion) Accuracy() float64 { return clfRatio(c.TP+c.TN, c.N()) }

// confusionValues are the values of a confusion matrix by the name a
// confusion metric ends with (ne.tp, ne.heldout_tp and e2e.tp are all
// "tp"; the held-out TPR is the sensitivity).
var confusionValues = map[string]func(Confusion) float64{
	"tp":                func(c Confusion) float64 { return float64(c.TP) },
	"tn":                func(c Confusion) float64 { return float64(c.TN) },
	"fp":                func(c Confusion) float64 { return float64(c.FP) },
	"fn":                func(c Confusion) float64 { return float64(c.FN) },
	"sensitivity":       Confusion.Sensitivity,
	"tpr":               Confusion.Sensitivity,
	"recall":            Confusion.Sensitivity,
	"specificity":       Confusion.Specificity,
	"fpr":               Confusion.FPR,
	"fnr":               Confusion.FNR,
	"precision":         Confusion.Precision,
	"npv":               Confusion.NPV,
	"f1":                Confusion.F1,
	"mcc":               Confusion.MCC,
	"balanced_accuracy": Confusion.BalancedAccuracy,
}

// ConfusionValue returns how the confusion metric b (ne.X, ne.heldout_X,
// e2e.X) is read from a confusion matrix; ok is false for any other
// metric, including the in-sample ne.tpr@fpr=X (the best TPR over the
// thresholds that meet the budget, not one confusion matrix).
func ConfusionValue(b Base) (f func(Confusion) float64, ok bool) {
	name := string(b)
	if b == NETPR {
		return nil, false
	}
	for _, pre := range []string{"ne.heldout_", "ne.", "e2e."} {
		if len(name) > len(pre) && name[:len(pre)] == pre {
			f, ok = confusionValues[name[len(pre):]]
			return f, ok
		}
	}
	return nil, false
}
