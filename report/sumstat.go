package report

import "math"

// sumStat is one metric value computed from column sums.
type sumStat struct {
	key  metricKey
	pop  string
	cols []int
	f    func(s []float64) float64
	nCol int // column whose full-sample sum is the population size n
	// den lists the columns whose full-sample sums add up to the count a
	// ratio of counts is divided by (Metric.Denominator); nil for a mean
	// of per-query values and for statistics that are not one ratio.
	den  []int
	perQ int  // column of per-query values (for comparisons), -1 if none
	boot bool // bootstrap a CI
}

// eval applies st to a vector of all column sums.
func (st *sumStat) eval(all []float64, scratch []float64) float64 {
	scratch = scratch[:len(st.cols)]
	for k, j := range st.cols {
		scratch[k] = all[j]
	}
	return st.f(scratch)
}

// ratio is Σnum / Σden, undefined when Σden = 0.
func ratio(s []float64) float64 {
	if s[1] == 0 {
		return math.NaN()
	}
	return s[0] / s[1]
}

// nan is an undefined value.
var nan = math.NaN()

func isNaN(x float64) bool { return math.IsNaN(x) }
