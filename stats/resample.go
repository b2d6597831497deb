package stats

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"

	"paperbundle/internal/par"
)

// Plan describes a bootstrap: which items move together, how many
// replicates to draw and from which seed.
//
// Replicate b draws NGroups groups uniformly with replacement. The number of
// times group g is drawn is its multiplicity c_g, and every item i of the
// group receives the weight w_i = c_{Group[i]}. A weighted statistic
// evaluated with w equals the plain statistic evaluated on the resampled
// data set in which item i appears w_i times. The weights of a replicate sum
// to the resample's size: n for unit = query, and on average n (varying
// with the sizes of the drawn groups) for unit = post.
type Plan struct {
	// Group is the group (cluster, e.g. post) index of each item, in
	// 0..NGroups-1. Every group should hold at least one item: an empty
	// group is still drawn, and only shrinks the resample. A nil Group
	// means that each item is its own group (unit = query); there are then
	// NGroups items.
	Group []int32
	// NGroups is the number of groups (with a nil Group, the number of
	// items).
	NGroups int
	// B is the number of replicates.
	B int
	// Seed selects the random streams; see Plan.Weights.
	Seed uint64
	// Workers is the number of goroutines Run uses; 0 means
	// runtime.GOMAXPROCS(0). The results do not depend on it.
	Workers int
}

// NItems returns the number of items the plan resamples: len(Group), or
// NGroups when Group is nil.
func (p Plan) NItems() int {
	if p.Group == nil {
		return p.NGroups
	}
	return len(p.Group)
}

// validate panics when the plan is malformed. It is a programmer's error.
func (p Plan) validate() {
	if p.NGroups < 0 || p.B < 0 || p.Workers < 0 {
		panic(fmt.Sprintf("stats: invalid plan: NGroups=%d B=%d Workers=%d", p.NGroups, p.B, p.Workers))
	}
	if p.Group != nil && p.NGroups == 0 && len(p.Group) > 0 {
		panic("stats: invalid plan: items but no groups")
	}
	for i, g := range p.Group {
		if g < 0 || int(g) >= p.NGroups {
			panic(fmt.Sprintf("stats: invalid plan: Group[%d] = %d outside [0, %d)", i, g, p.NGroups))
		}
	}
}

func (p Plan) workers(jobs int) int {
	w := p.Workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, jobs))
}

// splitMix64 returns the k-th output (k >= 1) of the SplitMix64 generator
// started from state s: the finaliser applied to s + k*0x9E3779B97F4A7C15.
func splitMix64(s, k uint64) uint64 {
	z := s + k*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// streamSeed returns the two PCG seed words of stream k of seed: the
// (2k+1)-th and (2k+2)-th outputs of SplitMix64 started from seed.
func streamSeed(seed uint64, k int) (hi, lo uint64) {
	u := uint64(k)
	return splitMix64(seed, 2*u+1), splitMix64(seed, 2*u+2)
}

// drawCounts sets c[g] to the number of times group g is drawn in replicate b:
// len(c) draws of rand.New(rand.NewPCG(streamSeed(seed, b))).IntN(len(c)),
// each done here by the same steps as math/rand/v2 (its PCG, then a mask
// for a power of two, else Lemire's multiply with rejection), so that the
// draws are the same numbers (TestCountsAsIntN) without an interface call
// per draw and with the generator's state in registers (pcgNext).
func drawCounts(seed uint64, b int, c []int32) {
	sh, sl := streamSeed(seed, b)
	clear(c)
	n := uint64(len(c))
	var x uint64
	if n&(n-1) == 0 {
		for range n {
			x, sh, sl = pcgNext(sh, sl)
			c[x&(n-1)]++
		}
		return
	}
	thresh := -n % n // 2⁶⁴ mod n
	for range n {
		x, sh, sl = pcgNext(sh, sl)
		hi, lo := bits.Mul64(x, n)
		if lo < thresh {
			hi, sh, sl = redraw(sh, sl, n, thresh)
		}
		c[hi]++
	}
}

// pcgNext is one draw of math/rand/v2's PCG from the state (hi, lo): the
// 128-bit LCG step, then the DXSM output of the new state. It returns the
// output and the new state. (rand.PCG keeps its state behind a pointer,
// loaded and stored at every draw: a chain of stores and reloads the
// draws then wait on.) TestPCGNext checks it against rand.PCG.
func pcgNext(hi, lo uint64) (x, nhi, nlo uint64) {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	x = h
	x ^= x >> 32
	x *= cheapMul
	x ^= x >> 48
	x *= l | 1
	return x, h, l
}

// redraw is the rejection loop of Lemire's method (rare: thresh/2⁶⁴ of the
// draws): it draws again until the low word of the product is at least
// thresh and returns the high word and the generator's state.
func redraw(hi, lo, n, thresh uint64) (v, nhi, nlo uint64) {
	for {
		var x uint64
		x, hi, lo = pcgNext(hi, lo)
		v, l := bits.Mul64(x, n)
		if l >= thresh {
			return v, hi, lo
		}
	}
}

// expand sets w[i] = c[group[i]].
func expand(group []int32, c, w []int32) {
	w = w[:len(group)]
	for i, g := range group {
		w[i] = c[g]
	}
}

// Counts writes into dst (length NGroups) the multiplicity of each group in
// replicate b. See Plan.Weights for the random stream.
func (p Plan) Counts(b int, dst []int32) {
	if len(dst) != p.NGroups {
		panic("stats: Counts: len(dst) != NGroups")
	}
	drawCounts(p.Seed, b, dst)
}

// Weights writes into dst (length NItems) the item weights of replicate b,
// exactly as Run passes them to its function.
//
// Replicate b uses the generator rand.New(rand.NewPCG(hi, lo)), where hi and
// lo are the outputs number 2b+1 and 2b+2 of SplitMix64 started from Seed
// (output k is mix(Seed + k*0x9E3779B97F4A7C15), mix being SplitMix64's
// finaliser). It draws NGroups times r.IntN(NGroups); each draw adds one to
// that group's multiplicity.
func (p Plan) Weights(b int, dst []int32) {
	if len(dst) != p.NItems() {
		panic("stats: Weights: len(dst) != NItems")
	}
	if p.Group == nil {
		p.Counts(b, dst)
		return
	}
	c := make([]int32, p.NGroups)
	p.Counts(b, c)
	expand(p.Group, c, dst)
}

// Replicates is a B x NStat matrix of replicate statistics: row b holds the
// statistics of replicate b (or of left-out group b, for Plan.Jackknife).
type Replicates struct {
	B     int // number of rows (replicates)
	NStat int // number of statistics per replicate
	data  []float64
}

// At returns statistic j of replicate b.
func (r *Replicates) At(b, j int) float64 { return r.data[b*r.NStat+j] }

// Row returns the statistics of replicate b. The slice aliases the matrix
// and must not be modified.
func (r *Replicates) Row(b int) []float64 { return r.data[b*r.NStat : (b+1)*r.NStat : (b+1)*r.NStat] }

// Column returns a new slice with statistic j of every replicate, in
// replicate order.
func (r *Replicates) Column(j int) []float64 {
	if j < 0 || j >= r.NStat {
		panic("stats: Column: index out of range")
	}
	col := make([]float64, r.B)
	for b := range col {
		col[b] = r.data[b*r.NStat+j]
	}
	return col
}

// Sub returns, for every replicate, statistic i minus statistic j: the
// replicate distribution of a paired difference when both statistics were
// computed by the same function call. A NaN operand gives NaN.
func (r *Replicates) Sub(i, j int) []float64 {
	d := r.Column(i)
	for b := range d {
		d[b] -= r.data[b*r.NStat+j]
	}
	return d
}

// Diff returns a.Column(j) - b.Column(j) replicate by replicate. It is the
// paired bootstrap distribution of a difference when a and b were produced
// by Run with the same Plan (same Group, NGroups, B and Seed): replicate k
// of both then used the same weights. It panics if the replicate counts
// differ.
func Diff(a, b *Replicates, j int) []float64 {
	if a.B != b.B {
		panic("stats: Diff: different numbers of replicates")
	}
	d := a.Column(j)
	for k := range d {
		d[k] -= b.data[k*b.NStat+j]
	}
	return d
}

// Run evaluates f on every replicate of the plan and returns the B x nStat
// matrix of its outputs.
//
// f(b, w, out) receives the replicate index b, the item weights w of
// replicate b (see Plan.Weights; len(w) = NItems) and out, the nStat
// statistics of row b to fill; out starts as all NaN. Run calls f
// concurrently from plan.Workers goroutines, so f must be safe for
// concurrent use and must not keep w or out after returning; use RunWorkers
// when f needs scratch memory. The result does not depend on the number of
// workers.
//
// Paired comparisons: compute the statistic of both systems (and their
// difference) in one f, e.g. out[0] = s1.AUROC(w), out[1] = s2.AUROC(w),
// out[2] = out[0] - out[1]; or call Run twice with the same plan and use
// Diff. Both give the same numbers.
func Run(plan Plan, nStat int, f func(b int, w []int32, out []float64)) *Replicates {
	return RunWorkers(plan, nStat, func() func(b int, w []int32, out []float64) { return f })
}

// RunWorkers is Run for functions that need scratch memory: each worker
// goroutine calls newF once and uses the returned function for all the
// replicates it evaluates, so a closure may own its scratch buffers.
func RunWorkers(plan Plan, nStat int, newF func() func(b int, w []int32, out []float64)) *Replicates {
	return run(plan, nStat, newF, true)
}

// RunCounts is RunWorkers for functions that read the group multiplicities
// of each replicate rather than item weights: f(b, c, out) receives c with
// len(c) = NGroups, c[g] the number of times group g is drawn (see
// Plan.Counts). Item i's weight is c[Group[i]]; kernels built for groups
// (Scored.Grouped, per-group sums) read c directly and save expanding it in
// every replicate. With a nil Group, c is the item weights, as in
// RunWorkers.
func RunCounts(plan Plan, nStat int, newF func() func(b int, c []int32, out []float64)) *Replicates {
	return run(plan, nStat, newF, false)
}

// RunCountBatches is RunCounts for functions that evaluate several
// consecutive replicates at once, so that a pass over a large table serves
// all of them: f(b0, cnt, out) evaluates replicates b0, b0+1, ...,
// b0+len(out)/nStat-1; cnt holds their group multiplicities one after the
// other (NGroups each) and out their statistics (nStat each, all NaN on
// entry). Batches hold at most batch replicates. The multiplicities of a
// replicate do not depend on the batching nor on the number of workers.
func RunCountBatches(plan Plan, nStat, batch int, newF func() func(b0 int, cnt []int32, out []float64)) *Replicates {
	plan.validate()
	if nStat < 0 || batch < 1 {
		panic("stats: RunCountBatches: negative nStat or batch < 1")
	}
	res := &Replicates{B: plan.B, NStat: nStat, data: make([]float64, plan.B*nStat)}
	nb := (plan.B + batch - 1) / batch
	par.Jobs(plan.workers(nb), nb, func() func(int) {
		f := newF()
		G := plan.NGroups
		c := make([]int32, batch*G)
		return func(k int) {
			b0 := k * batch
			b1 := min(b0+batch, plan.B)
			for b := b0; b < b1; b++ {
				drawCounts(plan.Seed, b, c[(b-b0)*G:(b-b0+1)*G])
			}
			out := res.data[b0*nStat : b1*nStat : b1*nStat]
			for j := range out {
				out[j] = math.NaN()
			}
			f(b0, c[:(b1-b0)*G], out)
		}
	})
	return res
}

func run(plan Plan, nStat int, newF func() func(b int, w []int32, out []float64), items bool) *Replicates {
	if nStat < 0 {
		panic("stats: Run: negative nStat")
	}
	// One replicate per batch; item weights expanded from the counts
	// when f takes them.
	return RunCountBatches(plan, nStat, 1, func() func(int, []int32, []float64) {
		f := newF()
		if !items || plan.Group == nil {
			return f
		}
		w := make([]int32, len(plan.Group))
		return func(b int, c []int32, out []float64) {
			expand(plan.Group, c, w)
			f(b, w, out)
		}
	})
}

// Jackknife evaluates f once per group with that group left out and returns
// the NGroups x nStat matrix of its outputs (row g: group g left out). f
// receives weights w with w_i = 0 for the items of group g and 1 for every
// other item, so the weighted kernels of this package compute the
// leave-one-group-out statistics. The rows are the jack argument of BCa.
// Calls run concurrently as in Run; the cost is NGroups full evaluations.
func (p Plan) Jackknife(nStat int, f func(g int, w []int32, out []float64)) *Replicates {
	p.validate()
	return p.jackknife(nStat, f, true)
}

// JackknifeCounts is Jackknife for functions that read group
// multiplicities, as RunCounts: row g's f receives c with c[g] = 0 and 1
// for every other group.
func (p Plan) JackknifeCounts(nStat int, f func(g int, c []int32, out []float64)) *Replicates {
	p.validate()
	return p.jackknife(nStat, f, false)
}

func (p Plan) jackknife(nStat int, f func(g int, w []int32, out []float64), byItem bool) *Replicates {
	if !byItem {
		// One group per "item": the counts themselves.
		p.Group = nil
	}
	n := p.NItems()
	// Items of each group, in CSR form.
	start := make([]int32, p.NGroups+1)
	items := make([]int32, n)
	if p.Group == nil {
		for i := range items {
			items[i] = int32(i)
			start[i+1] = int32(i + 1)
		}
	} else {
		for _, g := range p.Group {
			start[g+1]++
		}
		for g := range p.NGroups {
			start[g+1] += start[g]
		}
		fill := append([]int32(nil), start[:p.NGroups]...)
		for i, g := range p.Group {
			items[fill[g]] = int32(i)
			fill[g]++
		}
	}
	res := &Replicates{B: p.NGroups, NStat: nStat, data: make([]float64, p.NGroups*nStat)}
	par.Jobs(p.workers(p.NGroups), p.NGroups, func() func(int) {
		w := make([]int32, n)
		for i := range w {
			w[i] = 1
		}
		return func(g int) {
			idx := items[start[g]:start[g+1]]
			for _, i := range idx {
				w[i] = 0
			}
			out := res.data[g*nStat : (g+1)*nStat : (g+1)*nStat]
			for j := range out {
				out[j] = math.NaN()
			}
			f(g, w, out)
			for _, i := range idx {
				w[i] = 1
			}
		}
	})
	return res
}
