package stats

import (
	"fmt"
	"math"
)

// Calibration computes the weighted Brier score and expected calibration
// error of bootstrap replicates in O(groups × bins) instead of O(items),
// for weights that are constant within each group, as the weights of a
// Plan with the same Group are. Both statistics are sums over items, so it
// keeps, per group, the item count, the sum of (p - y)² and, per calibration
// bin the group touches, the sum of y - p; a replicate then weighs each
// group by its multiplicity. The results equal Scored.Brier and Scored.ECE
// on the same weights, up to rounding.
//
// A Calibration is read-only and safe for concurrent use.
type Calibration struct {
	n     int
	nBins int
	rep   []int32   // one item of each non-empty group
	cnt   []int64   // items of the group
	sq    []float64 // Σ (p - y)² over the group
	start []int32   // entries of group g: start[g] .. start[g+1]
	bin   []int32   // calibration bin of an entry
	d     []float64 // Σ (y - p) over the group's items in that bin
}

// NewCalibration prepares labels y and probabilities p with their group
// indices (0..nGroups-1; nil means each item is its own group) for m
// equal-width bins, binned as Scored.ECE bins them (edges k/m). It panics if
// the lengths differ, a group index is out of range, a probability is NaN
// or m < 1.
func NewCalibration(y []bool, p []float64, group []int32, nGroups, m int) *Calibration {
	if m < 1 {
		panic("stats: NewCalibration: bins < 1")
	}
	bin := make([]int32, len(p))
	for i, v := range p {
		bin[i] = int32(binOf(v, m))
	}
	return NewCalibrationBins(y, p, group, nGroups, bin, m)
}

// NewCalibrationBins is NewCalibration with the caller's bin of each item
// (0..nBins-1), e.g. equal-mass bins whose edges were fixed on the full
// sample.
func NewCalibrationBins(y []bool, p []float64, group []int32, nGroups int, bin []int32, nBins int) *Calibration {
	n := len(p)
	if len(y) != n || len(bin) != n {
		panic("stats: NewCalibrationBins: length mismatch")
	}
	if group == nil {
		group = make([]int32, n)
		for i := range group {
			group[i] = int32(i)
		}
		nGroups = n
	}
	if len(group) != n {
		panic("stats: NewCalibrationBins: len(group) != len(p)")
	}
	// Items of each group (CSR).
	first := make([]int32, nGroups+1)
	for i, g := range group {
		if g < 0 || int(g) >= nGroups {
			panic(fmt.Sprintf("stats: NewCalibrationBins: group[%d] = %d outside [0, %d)", i, g, nGroups))
		}
		if bin[i] < 0 || int(bin[i]) >= nBins {
			panic(fmt.Sprintf("stats: NewCalibrationBins: bin[%d] = %d outside [0, %d)", i, bin[i], nBins))
		}
		if math.IsNaN(p[i]) {
			panic(fmt.Sprintf("stats: NewCalibrationBins: NaN probability at item %d", i))
		}
		first[g+1]++
	}
	for g := range nGroups {
		first[g+1] += first[g]
	}
	items := make([]int32, n)
	fill := append([]int32(nil), first[:nGroups]...)
	for i, g := range group {
		items[fill[g]] = int32(i)
		fill[g]++
	}
	c := &Calibration{n: n, nBins: nBins, start: []int32{0}}
	acc := make([]float64, nBins)
	used := make([]bool, nBins)
	var touched []int32
	for g := range nGroups {
		its := items[first[g]:first[g+1]]
		if len(its) == 0 {
			continue
		}
		var sq float64
		touched = touched[:0]
		for _, i := range its {
			yi := 0.0
			if y[i] {
				yi = 1
			}
			sq += (p[i] - yi) * (p[i] - yi)
			b := bin[i]
			if !used[b] {
				used[b] = true
				touched = append(touched, b)
			}
			acc[b] += yi - p[i]
		}
		for _, b := range touched {
			c.bin = append(c.bin, b)
			c.d = append(c.d, acc[b])
			acc[b], used[b] = 0, false
		}
		c.rep = append(c.rep, its[0])
		c.cnt = append(c.cnt, int64(len(its)))
		c.sq = append(c.sq, sq)
		c.start = append(c.start, int32(len(c.bin)))
	}
	return c
}

// check panics unless w is nil or has one weight per item.
func (c *Calibration) check(w []int32) {
	if w != nil && len(w) != c.n {
		panic(fmt.Sprintf("stats: Calibration: %d weights for %d items", len(w), c.n))
	}
}

// Brier returns the weighted Brier score Σ w_i (p_i - y_i)² / Σ w_i (nil w:
// all weights 1), NaN when the total weight is 0.
func (c *Calibration) Brier(w []int32) float64 {
	c.check(w)
	var num float64
	var den int64
	for g, i := range c.rep {
		m := int32(1)
		if w != nil {
			m = w[i]
		}
		if m == 0 {
			continue
		}
		num += float64(m) * c.sq[g]
		den += int64(m) * c.cnt[g]
	}
	if den == 0 {
		return math.NaN()
	}
	return num / float64(den)
}

// ECE returns the weighted expected calibration error
// Σ_k |Σ_{i∈k} w_i (y_i - p_i)| / Σ w_i over the bins (see Scored.ECE; nil
// w: all weights 1), NaN when the total weight is 0.
func (c *Calibration) ECE(w []int32) float64 {
	c.check(w)
	var stack [64]float64
	var acc []float64
	if c.nBins <= len(stack) {
		acc = stack[:c.nBins]
	} else {
		acc = make([]float64, c.nBins)
	}
	var den int64
	for g, i := range c.rep {
		m := int32(1)
		if w != nil {
			m = w[i]
		}
		if m == 0 {
			continue
		}
		den += int64(m) * c.cnt[g]
		fm := float64(m)
		for e := c.start[g]; e < c.start[g+1]; e++ {
			acc[c.bin[e]] += fm * c.d[e]
		}
	}
	if den == 0 {
		return math.NaN()
	}
	var s float64
	for _, a := range acc {
		s += math.Abs(a)
	}
	return s / float64(den)
}
