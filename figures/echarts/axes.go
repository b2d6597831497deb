package echarts

import (
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/opts"

	"paperbundle/figures"
)

// This file holds the ends and the tick step of a fixed value axis: ends
// at round numbers (at most three significant digits) a little beyond the
// spec's range, ticks every round step, and no label at an end that falls
// between two ticks (it would collide with the tick label beside it).

// niceStep is the smallest of 1, 2 and 5 times a power of ten that is at
// least x (x > 0).
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// sigDigits is the number of significant digits of v as the option writes
// it (0 for 0).
func sigDigits(v float64) int {
	if v == 0 {
		return 0
	}
	mant, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	return len(strings.Replace(mant, ".", "", 1))
}

// roundOut rounds v away from the inside of the axis (down for the
// minimum, up for the maximum) to a multiple of step; when that takes more
// than three significant digits (a narrow range far from 0), to three
// significant digits of v instead.
func roundOut(v, step float64, up bool) float64 {
	r := clean(math.Floor(v/step+1e-9) * step)
	if up {
		r = clean(math.Ceil(v/step-1e-9) * step)
	}
	if sigDigits(r) <= 3 {
		return r
	}
	p := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	if up {
		return clean(math.Ceil(v/p-1e-9) * p)
	}
	return clean(math.Floor(v/p+1e-9) * p)
}

// clean drops the binary noise of a product such as 3 * 0.1.
func clean(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if r == 0 {
		return 0 // no -0
	}
	return r
}

// niceAxis is the rounded range of a fixed linear axis and the step of
// the ticks echarts will draw on it.
type niceAxis struct {
	min, max, step float64
	// onMin and onMax: the end is a tick (its label is shown).
	onMin, onMax bool
}

// fixedAxis rounds the fixed range [lo, hi] of a linear axis outward to a
// fiftieth of the range. echarts then draws ticks at the multiples of
// tickStep of the range, plus both ends.
func fixedAxis(a *figures.Axis) niceAxis {
	lo, hi := a.Min, a.Max
	fine := niceStep((hi - lo) / 50)
	n := niceAxis{min: roundOut(lo, fine, false), max: roundOut(hi, fine, true)}
	n.step = tickStep(n.min, n.max)
	on := func(v float64) bool {
		q := v / n.step
		return math.Abs(q-math.Round(q)) < 1e-6
	}
	n.onMin, n.onMax = on(n.min), on(n.max)
	return n
}

// tickStep is the tick step echarts chooses on a value axis from min to
// max (its default of 5 splits, rounded to 1, 2, 3 or 5 times a power of
// ten as its numberUtil.nice does).
func tickStep(min, max float64) float64 {
	raw := (max - min) / 5
	e := math.Floor(math.Log10(raw))
	p := math.Pow(10, e)
	f := raw / p
	switch {
	case f < 1.5:
		f = 1
	case f < 2.5:
		f = 2
	case f < 4:
		f = 3
	case f < 7:
		f = 5
	default:
		f = 10
	}
	return clean(f * p)
}

// endLabels hides the label of an end that is not a tick.
func (n niceAxis) endLabels(l *opts.AxisLabel) *opts.AxisLabel {
	if n.onMin && n.onMax {
		return l
	}
	if l == nil {
		l = &opts.AxisLabel{}
	}
	l.ShowMinLabel, l.ShowMaxLabel = opts.Bool(n.onMin), opts.Bool(n.onMax)
	return l
}
