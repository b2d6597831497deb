package report

import (
	"math"

	"paperbundle/metrics"
)

// sumStat is one metric value computed from column sums.
type sumStat struct {
	key  metricKey
	pop  metrics.Population
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

// scratchFor returns a scratch vector long enough for eval of every
// statistic in sts: its length is the largest number of columns one
// statistic reads (a calibration error reads three columns per bin, so
// the length follows calibration.bins, not the table's width).
func scratchFor(sts []*sumStat) []float64 {
	n := 0
	for _, st := range sts {
		n = max(n, len(st.cols))
	}
	return make([]float64, n)
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
