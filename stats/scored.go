package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Scored is a binary-labelled, scored sample prepared for weighted
// evaluation: its items are sorted by score once, so that every weighted
// statistic of a bootstrap replicate comes from one linear pass over the
// items (see Eval), with no sorting and no allocation.
//
// Weights are per item, in the item order of the labels and scores given to
// NewScored, and are non-negative integers: the kernels compute the plain
// statistic of the data set in which item i appears w[i] times (see
// Plan.Weights). A nil weight slice means every weight is 1, which gives the
// full-sample statistic. The total weight must stay below 2³¹.
//
// A Scored is read-only after NewScored and safe for concurrent use. Its
// methods AUROC, AP, ... are conveniences that each make a full pass; a
// bootstrap that needs several statistics per replicate should give each
// worker its own Eval and Load it once per replicate.
type Scored struct {
	n int
	// rk[r] is the item at rank r (scores descending, ties by item index),
	// with its label in bit 31 and, in bit 30, whether rank r is the last
	// of its tie group.
	rk []uint32
	// score[k] is the score of tie group k (a maximal run of equal
	// scores), descending.
	score []float64
	// lab[i] is 1 for a positive item, 0 for a negative one (item order).
	lab []int32
	// p is a copy of the scores (item order).
	p []float64
	// sq[i] = (p[i] - y[i])², the Brier loss of item i.
	sq []float64

	onesOnce sync.Once
	ones     []int32

	binsMu sync.Mutex
	bins   map[int][]int32 // item bins per bin count (Scored.ECE)

	evals sync.Pool
}

const (
	labelBit = 1 << 31
	endBit   = 1 << 30
	itemMask = endBit - 1
)

// NewScored prepares the labels y (true = positive class, e.g. the query
// has evidence) and the scores p of the same items. Items are ranked by p
// descending; equal scores form a tie group, which the curve kernels treat
// as one threshold, as scikit-learn and pROC do. It panics if the lengths
// differ, if a score is NaN, or if there are 2³⁰ items or more.
func NewScored(y []bool, p []float64) *Scored {
	if len(y) != len(p) {
		panic("stats: NewScored: len(y) != len(p)")
	}
	n := len(p)
	if n >= endBit {
		panic("stats: NewScored: too many items")
	}
	s := &Scored{
		n:   n,
		rk:  make([]uint32, n),
		lab: make([]int32, n),
		p:   slices.Clone(p),
		sq:  make([]float64, n),
	}
	for i, v := range p {
		if math.IsNaN(v) {
			panic(fmt.Sprintf("stats: NewScored: NaN score at item %d", i))
		}
		d := v
		if y[i] {
			s.lab[i] = 1
			d = v - 1
		}
		s.sq[i] = d * d
		s.rk[i] = uint32(i)
	}
	slices.SortFunc(s.rk, func(a, b uint32) int {
		if c := cmp.Compare(p[b], p[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for r, i := range s.rk {
		if r+1 == n || p[s.rk[r+1]] != p[i] {
			s.rk[r] |= endBit
			s.score = append(s.score, p[i])
		}
		if y[i] {
			s.rk[r] |= labelBit
		}
	}
	s.evals.New = func() any { return s.NewEval() }
	return s
}

// Len returns the number of items.
func (s *Scored) Len() int { return s.n }

// unit returns w, or a slice of n ones when w is nil.
func (s *Scored) unit(w []int32) []int32 {
	if w != nil {
		if len(w) != s.n {
			panic(fmt.Sprintf("stats: %d weights for %d items", len(w), s.n))
		}
		return w
	}
	s.onesOnce.Do(func() {
		s.ones = make([]int32, s.n)
		for i := range s.ones {
			s.ones[i] = 1
		}
	})
	return s.ones
}

// eval borrows an Eval loaded with w from the pool.
func (s *Scored) eval(w []int32) *Eval {
	e := s.evals.Get().(*Eval)
	e.Load(w)
	return e
}

// AUROC returns the weighted area under the ROC curve; see Eval.AUROC.
func (s *Scored) AUROC(w []int32) float64 {
	e := s.eval(w)
	defer s.evals.Put(e)
	return e.AUROC()
}

// AP returns the weighted average precision; see Eval.AP.
func (s *Scored) AP(w []int32) float64 {
	e := s.eval(w)
	defer s.evals.Put(e)
	return e.AP()
}

// TPRAtGrid writes the ROC curve's TPR at each FPR of grid into out; see
// Eval.TPRAtGrid.
func (s *Scored) TPRAtGrid(w []int32, grid, out []float64) {
	e := s.eval(w)
	defer s.evals.Put(e)
	e.TPRAtGrid(grid, out)
}

// TPRAtFPR writes, for each FPR budget, the largest TPR with FPR <= budget
// into out; see Eval.TPRAtFPR.
func (s *Scored) TPRAtFPR(w []int32, budgets, out []float64) {
	e := s.eval(w)
	defer s.evals.Put(e)
	e.TPRAtFPR(budgets, out)
}

// PrecisionAtRecallGrid writes the interpolated precision at each recall of
// grid into out; see Eval.PrecisionAtRecallGrid.
func (s *Scored) PrecisionAtRecallGrid(w []int32, grid, out []float64) {
	e := s.eval(w)
	defer s.evals.Put(e)
	e.PrecisionAtRecallGrid(grid, out)
}

// Confusion returns the weighted confusion matrix of the rule "positive
// when p >= threshold"; see Eval.Confusion.
func (s *Scored) Confusion(w []int32, threshold float64) (tp, fp, tn, fn float64) {
	e := s.eval(w)
	defer s.evals.Put(e)
	return e.Confusion(threshold)
}

// Brier returns the weighted Brier score
//
//	Brier = Σ w_i (p_i - y_i)² / Σ w_i,
//
// NaN when the total weight is 0. Inside a bootstrap over groups,
// Calibration.Brier is the same value in O(groups).
func (s *Scored) Brier(w []int32) float64 {
	w = s.unit(w)
	var num float64
	var den int64
	for i, sq := range s.sq {
		wi := w[i]
		den += int64(wi)
		num += float64(wi) * sq
	}
	if den == 0 {
		return math.NaN()
	}
	return num / float64(den)
}

// binOf returns the equal-width calibration bin of probability p among m
// bins: the k with k/m <= p < (k+1)/m, the edges computed as
// float64(k)/float64(m); p = 1 falls into the last bin. Scores outside
// [0, 1] are clamped into the first or last bin.
func binOf(p float64, m int) int {
	fm := float64(m)
	k := int(math.Floor(p * fm))
	if k < 0 {
		return 0
	}
	if k > m-1 {
		return m - 1
	}
	// Settle rounding of p*m against the edges' own rounding.
	if p < float64(k)/fm {
		k--
	} else if k+1 <= m-1 && p >= float64(k+1)/fm {
		k++
	}
	return k
}

// binIndex returns the bin of every item for m equal-width bins, computing
// it on first use.
func (s *Scored) binIndex(m int) []int32 {
	s.binsMu.Lock()
	defer s.binsMu.Unlock()
	if b, ok := s.bins[m]; ok {
		return b
	}
	if s.bins == nil {
		s.bins = make(map[int][]int32)
	}
	b := make([]int32, s.n)
	for i, p := range s.p {
		b[i] = int32(binOf(p, m))
	}
	s.bins[m] = b
	return b
}

// ECE returns the weighted expected calibration error over m equal-width
// bins (bin k holds k/m <= p < (k+1)/m, edges computed as
// float64(k)/float64(m), the last bin also holds p = 1):
//
//	ECE = Σ_k (W_k / W) |ȳ_k - p̄_k| = Σ_k |Σ_{i∈k} w_i y_i - Σ_{i∈k} w_i p_i| / W
//
// with W_k the weight of bin k and W the total weight; empty bins add
// nothing. It is NaN when W is 0. Each item's bin is computed once per m
// and cached. It panics if m < 1. Inside a bootstrap over groups,
// Calibration.ECE is the same value in O(groups × bins).
func (s *Scored) ECE(w []int32, m int) float64 {
	if m < 1 {
		panic("stats: ECE: bins < 1")
	}
	w = s.unit(w)
	bins := s.binIndex(m)
	var stack [32]float64
	var acc []float64 // acc[k] = Σ w (y - p) over bin k
	if m <= len(stack) {
		acc = stack[:m]
	} else {
		acc = make([]float64, m)
	}
	var den int64
	for i, k := range bins {
		wi := w[i]
		if wi == 0 {
			continue
		}
		den += int64(wi)
		acc[k] += float64(wi) * (float64(s.lab[i]) - s.p[i])
	}
	if den == 0 {
		return math.NaN()
	}
	var e float64
	for _, a := range acc {
		e += math.Abs(a)
	}
	return e / float64(den)
}

// WeightedMean returns Σ w_i x_i / Σ w_i over the items whose x_i is not
// NaN. A NaN x_i marks an item outside the statistic's population (e.g. a
// ranking metric of a query without evidence) and is skipped with its
// weight. It is NaN when no weight is left. It panics if the lengths
// differ.
func WeightedMean(x []float64, w []int32) float64 {
	if len(x) != len(w) {
		panic("stats: WeightedMean: len(x) != len(w)")
	}
	var num float64
	var den int64
	for i, v := range x {
		if math.IsNaN(v) || w[i] == 0 {
			continue
		}
		num += float64(w[i]) * v
		den += int64(w[i])
	}
	if den == 0 {
		return math.NaN()
	}
	return num / float64(den)
}

// GroupedMean computes WeightedMean in O(number of groups) instead of
// O(number of items), for weights that are constant within each group, as
// the weights of a Plan with the same Group are. It keeps, per group, the
// sum and the count of the non-NaN values.
type GroupedMean struct {
	rep []int32   // one item of each non-empty group
	sum []float64 // Σ x over the group's non-NaN items
	cnt []int64   // number of non-NaN items in the group
	n   int
}

// NewGroupedMean prepares the per-item values x (NaN = not in the
// population) with their group indices (0..nGroups-1; nil means each item
// is its own group). It panics if the lengths differ or a group index is
// out of range.
func NewGroupedMean(x []float64, group []int32, nGroups int) *GroupedMean {
	if group == nil {
		group = make([]int32, len(x))
		for i := range group {
			group[i] = int32(i)
		}
		nGroups = len(x)
	}
	if len(group) != len(x) {
		panic("stats: NewGroupedMean: len(group) != len(x)")
	}
	rep := make([]int32, nGroups)
	for g := range rep {
		rep[g] = -1
	}
	sum := make([]float64, nGroups)
	cnt := make([]int64, nGroups)
	for i, g := range group {
		if g < 0 || int(g) >= nGroups {
			panic(fmt.Sprintf("stats: NewGroupedMean: group[%d] = %d outside [0, %d)", i, g, nGroups))
		}
		if rep[g] < 0 {
			rep[g] = int32(i)
		}
		if !math.IsNaN(x[i]) {
			sum[g] += x[i]
			cnt[g]++
		}
	}
	m := &GroupedMean{n: len(x)}
	// Keep only the groups holding at least one non-NaN value.
	for g := range rep {
		if cnt[g] > 0 {
			m.rep = append(m.rep, rep[g])
			m.sum = append(m.sum, sum[g])
			m.cnt = append(m.cnt, cnt[g])
		}
	}
	return m
}

// Mean returns the weighted mean of the values, reading the weight of each
// group from one of its items: Σ_g w_g S_g / Σ_g w_g n_g with S_g and n_g
// the sum and count of the group's non-NaN values. It equals
// WeightedMean(x, w) up to rounding when w is constant within groups; a
// nil w means all weights 1 (the full-sample mean). It is NaN when no weight
// is left.
func (m *GroupedMean) Mean(w []int32) float64 {
	if w != nil && len(w) != m.n {
		panic("stats: GroupedMean.Mean: wrong number of weights")
	}
	var num float64
	var den int64
	for g, i := range m.rep {
		c := int32(1)
		if w != nil {
			c = w[i]
		}
		if c == 0 {
			continue
		}
		num += float64(c) * m.sum[g]
		den += int64(c) * m.cnt[g]
	}
	if den == 0 {
		return math.NaN()
	}
	return num / float64(den)
}
