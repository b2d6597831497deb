// Package paired compares one metric between two sides measured on the
// same queries: two systems of one bundle (report's comparisons) or one
// system in two versions of a bundle (compare.Diff). It decides the test
// from the metric registry's test kind (metrics.TestKind) and computes the
// difference, the test's p, the number of pairs and, for a mean of
// per-query values, the wins, ties and losses with Cohen's d and d_z.
//
// The sides are given as evidence: each query's label, score, gate state
// and the metric's per-query values, aligned query by query. Scored
// statistics are recomputed with the stats kernels the report's bootstrap
// uses (stats.Scored, metrics.Confusion), never with formulas of their own.
// One set of defaults (Options) serves both callers.
package paired

import (
	"math"

	"paperbundle/dataset"
	"paperbundle/metrics"
	"paperbundle/stats"
)

// Defaults of Options.
const (
	// DefaultPermutations is the number of sign-flip permutations of a
	// permutation test.
	DefaultPermutations = 10000
	// DefaultResamples is the number of paired bootstrap resamples when
	// the bundle's settings give none (bootstrap.resamples: 0).
	DefaultResamples = 2000
)

// Options are the settings of every test. The seed is the bundle's seed
// (the newer bundle's between versions), the same for every metric and
// pair, so that two metrics with identical per-query values get identical
// p-values.
type Options struct {
	Permutations int    // sign-flip permutations (0: DefaultPermutations)
	Resamples    int    // paired bootstrap resamples (0: DefaultResamples)
	Seed         uint64 // seed of the permutations and resamples
	Workers      int    // bootstrap workers (0: GOMAXPROCS); results do not depend on it
	// Memo, when not nil, keeps the bootstrap sums of the confusion cells
	// of two sides (by their Keys) at one threshold, which every
	// confusion metric at that threshold reads.
	Memo *Memo
}

func (o Options) withDefaults() Options {
	if o.Permutations <= 0 {
		o.Permutations = DefaultPermutations
	}
	if o.Resamples <= 0 {
		o.Resamples = DefaultResamples
	}
	return o
}

// Test names the test that decided a comparison.
type Test string

const (
	None        Test = ""
	Permutation Test = "permutation" // paired sign-flip permutation test of per-query values
	DeLong      Test = "delong"      // DeLong's test for two correlated ROC curves
	Bootstrap   Test = "bootstrap"   // p from the paired bootstrap distribution of the difference
)

// Result is one comparison of side X with side Y (the difference is
// X − Y). A result with Test None is not a test; Reason says why.
type Result struct {
	Test   Test
	Reason string
	Diff   float64 // X − Y on the pairs tested (Means), NaN otherwise
	P      float64
	N      int // pairs: queries with a value on both sides
	// Means only (WTL true): wins of X, ties, losses, Cohen's d, d_z.
	WTL                bool
	Wins, Ties, Losses int
	D, Dz              float64
	// DeLong only: the z statistic and the difference's standard error
	// with posts as clusters (information, not the test).
	Z, SEClustered float64
}

func untested(reason string) Result { return Result{Reason: reason, Diff: math.NaN(), P: math.NaN()} }

// Side is one side's evidence on the paired queries, index-aligned with
// the other side's. Fields a metric does not read may be nil.
type Side struct {
	Values []float64       // the metric's per-query values, NaN outside its population
	Label  []bool          // the query has evidence
	Score  []float64       // NE score, NaN where none
	Prob   bool            // Score is a probability (ne_prob)
	State  []dataset.State // the clinical gate's state (StateNone: none)
	Fold   []int           // the query's fold (held-out thresholds)
	// Threshold returns the side's tune-chosen threshold of fold for FPR
	// budget: a query is flagged when its score is at least t (+Inf when
	// no score met the budget); ok is false for a fold without a
	// threshold, whose queries are outside the held-out population.
	Threshold func(fold int, budget float64) (t float64, ok bool)
	Bins      int // equal-width calibration bins of the side's settings
	// Key names the side's evidence for Options.Memo ("" : not kept):
	// two sides with the same keys must hold the same evidence.
	Key string
}

// Pairs are two sides on the same queries and the post of each query
// (groups 0..NGroups-1): a post's queries are flipped or resampled together.
type Pairs struct {
	X, Y    Side
	Group   []int32
	NGroups int
}

// Compare compares metric id between p.X and p.Y from their evidence, by
// the registry's test kind:
//
//   - TestMean: the permutation test of the per-query values (Means);
//   - TestDeLong: DeLong's test on the labels and scores;
//   - TestScored, TestGate: the paired bootstrap of the statistic
//     recomputed from labels and scores, or labels and states;
//   - TestBootstrap: not a test from evidence (the replicates are not
//     kept), and TestListed: never a test.
func Compare(id metrics.ID, p Pairs, opt Options) Result {
	opt = opt.withDefaults()
	switch metrics.TestOf(id) {
	case metrics.TestMean:
		if p.X.Values == nil || p.Y.Values == nil {
			return untested("no per-query values of this metric")
		}
		return Means(id, p.X.Values, p.Y.Values, p.Group, opt)
	case metrics.TestDeLong:
		y, sx, sy, reason := scored(p)
		if reason != "" {
			return untested(reason)
		}
		return DeLongTest(y, sx, sy, nil, 0)
	case metrics.TestScored, metrics.TestGate:
		if value, ok := metrics.ConfusionValue(id.Base()); ok && metrics.TestOf(id) == metrics.TestScored {
			return confusionTest(id, value, p, opt)
		}
		fx, fy, keep, g, ng, reason := statistics(id, p)
		if reason != "" {
			return untested(reason)
		}
		return bootstrapped(fx, fy, g, ng, len(keep), opt)
	case metrics.TestListed:
		return untested("a test statistic or p-value: listed, not tested")
	}
	return untested("a statistic of the report's bootstrap: the bundles do not keep what it is computed from")
}

// Means is the permutation test of per-query values x and y (NaN outside
// the population) on the queries where both are defined, with the wins,
// ties and losses of x (by the metric's direction), Cohen's d and d_z.
// It is not a test when no pair is left or both sides are constant.
func Means(id metrics.ID, x, y []float64, group []int32, opt Options) Result {
	opt = opt.withDefaults()
	var xa, xb []float64
	var grp []int32
	for i := range x {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			xa, xb = append(xa, x[i]), append(xb, y[i])
			if group != nil {
				grp = append(grp, group[i])
			}
		}
	}
	if len(xa) == 0 {
		return untested("no query with a value on both sides")
	}
	if Constant(xa) && Constant(xb) {
		return untested("both sides are constant")
	}
	g, ng := compactGroups(grp)
	r := Result{Test: Permutation, N: len(xa), Diff: mean(xa) - mean(xb), WTL: true}
	r.P = stats.PermutationTest(xa, xb, g, ng, opt.Permutations, opt.Seed)
	higher := metrics.MustDef(id).Direction != metrics.Lower
	for i := range xa {
		switch {
		case xa[i] == xb[i]:
			r.Ties++
		case (xa[i] > xb[i]) == higher:
			r.Wins++
		default:
			r.Losses++
		}
	}
	r.D, r.Dz = stats.CohensD(xa, xb), stats.CohensDz(xa, xb)
	return r
}

// DeLongTest is DeLong's paired test of the AUROC of scores sx against
// sy on labels y; with groups, also the difference's clustered standard
// error. Not a test when both score vectors are constant or the test is
// undefined (one class only).
func DeLongTest(y []bool, sx, sy []float64, group []int32, nGroups int) Result {
	if len(y) == 0 {
		return untested("no query with a score on both sides")
	}
	if Constant(sx) && Constant(sy) {
		return untested("both sides' scores are constant")
	}
	ax, ay, z, p := stats.DeLongPaired(y, sx, sy)
	if math.IsNaN(p) {
		return untested("DeLong undefined (one class only, or identical scores)")
	}
	r := Result{Test: DeLong, Diff: ax - ay, P: p, N: len(y), Z: z, SEClustered: math.NaN()}
	if group != nil {
		r.SEClustered = stats.DeLongClusteredSE(y, sx, sy, group, nGroups)
	}
	return r
}

// Replicates is the test of a statistic from the paired bootstrap
// replicates d of its difference (stats.BootstrapP); not a test when no
// replicate is defined.
func Replicates(d []float64) Result {
	p := stats.BootstrapP(d)
	if math.IsNaN(p) {
		return untested("the metric is undefined on every resample")
	}
	return Result{Test: Bootstrap, Diff: math.NaN(), P: p, N: len(d)}
}

// bootstrapped runs the paired bootstrap of fx − fy, statistics of n
// queries whose posts are g (ng of them, resampled whole), and tests it
// with Replicates; N is the number of queries.
func bootstrapped(fx, fy stat, g []int32, ng, n int, opt Options) Result {
	plan := stats.Plan{Group: g, NGroups: ng, B: opt.Resamples, Seed: opt.Seed, Workers: opt.Workers}
	reps := stats.RunCounts(plan, 1, func() func(int, []int32, []float64) {
		x, y := fx(), fy()
		return func(_ int, cnt []int32, out []float64) { out[0] = x(cnt) - y(cnt) }
	})
	r := Replicates(reps.Column(0))
	if r.Test != None {
		r.N = n
	}
	return r
}

// Constant reports whether every defined value of x is the same (true for
// no defined value).
func Constant(x []float64) bool {
	first := math.NaN()
	for _, v := range x {
		if math.IsNaN(v) {
			continue
		}
		if math.IsNaN(first) {
			first = v
			continue
		}
		if v != first {
			return false
		}
	}
	return true
}

// mean is the mean of x (NaN when empty).
func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// compactGroups renumbers group ids to 0..n-1 in order of appearance (nil
// stays nil: every query its own group).
func compactGroups(g []int32) ([]int32, int) {
	if g == nil {
		return nil, 0
	}
	m := map[int32]int32{}
	out := make([]int32, len(g))
	for i, x := range g {
		y, ok := m[x]
		if !ok {
			y = int32(len(m))
			m[x] = y
		}
		out[i] = y
	}
	return out, len(m)
}

// groupsOf returns the groups of the queries keep, renumbered 0..ng-1
// (each query its own group without groups).
func groupsOf(g []int32, keep []int) ([]int32, int) {
	sub := make([]int32, len(keep))
	for k, i := range keep {
		sub[k] = int32(k)
		if g != nil {
			sub[k] = g[i]
		}
	}
	return compactGroups(sub)
}
