package figures

import (
	"math"
	"strconv"
)

// LogCutoffSpan is the factor by which the largest cutoff of a Recall@K
// or Precision@K figure must exceed the smallest for its K axis to be
// drawn on a log scale: trec_eval's cutoffs 5 ... 1000 (a factor of 200)
// on a linear axis crowd K = 5 ... 30 into its first 3%, while 1 ... 20
// (a factor of 20) still read well on a linear one.
const LogCutoffSpan = 20

// LogCutoffs reports whether cutoffs from lo to hi (lo > 0) are drawn on
// a log axis: when hi is more than LogCutoffSpan times lo.
func LogCutoffs(lo, hi float64) bool { return lo > 0 && hi/lo > LogCutoffSpan }

// labelGap is the smallest distance between two labelled cutoffs on a log
// K axis, as a fraction of the axis' span in log10 units: a label takes at
// most four digits, and the narrowest K axis (a paper column) gives a
// decade about 80 pt, so labels a tenth of the span apart keep clear of
// each other on every K axis we draw.
const labelGap = 0.1

// cutoffAxis is the K axis of Recall@K and Precision@K over the sorted,
// distinct cutoffs ks. On a linear axis every cutoff is a labelled tick,
// and the ends are half a unit beyond the first and last. On a log axis
// (LogCutoffs) every cutoff is a tick; a cutoff is labelled when it is at
// least labelGap of the span from the label before it (the largest always
// is, taking the place of a label too close before it), and the ends lie
// a little beyond the first and last cutoff, at two significant digits,
// so the markers at the ends are drawn whole.
func cutoffAxis(label string, ks []int) Axis {
	lo, hi := float64(ks[0]), float64(ks[len(ks)-1])
	if !LogCutoffs(lo, hi) {
		return Axis{Label: label, Ticks: intTicks(ks), Fixed: true, Min: lo - 0.5, Max: hi + 0.5}
	}
	span := math.Log10(hi / lo)
	pad := math.Pow(10, 0.04*span)
	a := Axis{Label: label, Log: true, Fixed: true, Min: round2Sig(lo/pad, false), Max: round2Sig(hi*pad, true)}
	last := -1 // index of the last labelled tick
	for i, k := range ks {
		v := float64(k)
		t := Tick{Value: v}
		switch {
		case last < 0 || math.Log10(v/a.Ticks[last].Value) >= labelGap*span:
			t.Label = strconv.Itoa(k)
		case i == len(ks)-1:
			a.Ticks[last].Label = ""
			t.Label = strconv.Itoa(k)
		}
		if t.Label != "" {
			last = i
		}
		a.Ticks = append(a.Ticks, t)
	}
	return a
}

// round2Sig rounds v > 0 to two significant digits, up or down.
func round2Sig(v float64, up bool) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v))-1)
	r := math.Floor(v/p+1e-9) * p
	if up {
		r = math.Ceil(v/p-1e-9) * p
	}
	x, _ := strconv.ParseFloat(strconv.FormatFloat(r, 'g', 12, 64), 64)
	return x
}
