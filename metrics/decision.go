package metrics

// Decision-curve analysis (Vickers and Elkin, 2006) for the NE gate
// probability: the net benefit of acting on the model at a threshold
// probability, against acting on every query and on none.

import (
	"math"
	"sort"
)

// NetBenefit returns the net benefit of the model and of "treat all" at
// each threshold probability t of thresholds, with the rule "positive when
// p >= t":
//
//	NB_model(t)     = TP(t)/n − FP(t)/n · t/(1 − t)
//	NB_treatAll(t)  = n₊/n − n₋/n · t/(1 − t)
//
// "Treat none" has net benefit 0 at every t and is not returned. A
// threshold outside [0, 1), NaN included, gives NaN in both slices (the
// odds t/(1 − t) are undefined or negative there); an empty sample gives
// NaN everywhere. It panics on a NaN probability. O((n + m) log n) for m
// thresholds.
func NetBenefit(y []bool, p []float64, thresholds []float64) (model, treatAll []float64) {
	pos, neg := clfSplit(y, p)
	n := float64(len(p))
	model = make([]float64, len(thresholds))
	treatAll = make([]float64, len(thresholds))
	for i, t := range thresholds {
		if !(t >= 0 && t < 1) || len(p) == 0 {
			model[i], treatAll[i] = math.NaN(), math.NaN()
			continue
		}
		w := t / (1 - t)
		tp := len(pos) - sort.SearchFloat64s(pos, t) // rows with p >= t
		fp := len(neg) - sort.SearchFloat64s(neg, t)
		model[i] = float64(tp)/n - float64(fp)/n*w
		treatAll[i] = float64(len(pos))/n - float64(len(neg))/n*w
	}
	return model, treatAll
}
