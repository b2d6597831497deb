package demo

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// systemParams is the generative model of one system of the ladder.
//
// Ranking. The latent score of candidate sentence j of a query q is
//
//	x_j = m_j + √ρ·z_j + √(1-ρ)·e_j,   z_j, e_j ~ N(0, 1),  ρ = rankRho
//
// with z_j shared by every system (what all models find hard) and e_j the
// system's own noise. m_j = 0 for a sentence that is not gold; for a gold
// sentence of grade g with strength s_j = h_q · u_j · (1 + 0.3·(g-1)) (h_q
// and u_j log-normal difficulties of the query and of the sentence, shared
// by every system), m_j = Rank·s_j when the sentence states the evidence
// explicitly and Implicit·s_j when only implicitly (implicitShare). Later
// systems raise Implicit faster than Rank: recovering implicit evidence
// from context is what the graph reranker and its successors add.
// candidate_scores = ScoreA + ScoreB·x_j, rounded to 3 decimals.
//
// node_probs. The node model treats x_j as binormal with separation Rank
// and a prior π_q = min(0.5, ne_prob·meanGold/n) spread over the n
// candidates; node_prob_j = σ(nodeTemp·(logit π_q + Rank·x_j - Rank²/2)),
// rounded to 4 decimals. It is calibrated up to nodeTemp and to the
// implicit sentences it overrates.
//
// NE gate. The latent evidence score of a query is
//
//	y_q = δ_q·NE + √ρ'·v_q + √(1-ρ')·w_q,   ρ' = neRho
//
// with δ_q = 0 for a query without evidence, explicitGain for a positive
// whose evidence is explicit (explicitShare of them, a property of the
// query) and subtleGain otherwise. ne_prob is the posterior of y_q under
// that mixture and the criterion's prevalence π_c, miscalibrated on the
// logit scale by Slope (overconfidence) and Shift:
//
//	ne_prob = σ(Slope · (logit π_c + log LR(y_q)) + Shift)
//
// set to exactly 1 above σ(satHigh) and exactly 0 below σ(satLow) (a
// saturating model), otherwise rounded to 4 decimals.
type systemParams struct {
	name, label    string
	rank, implicit float64
	ne             float64
	scoreA, scoreB float64
	slope, shift   float64
}

// ladder is the module ablation ladder (retriever, + reranker, + graph
// reranker, + Dynamic-K, + NE gate, full pipeline), weakest
// first. Parameters were chosen so that the full system lands near the
// demo's targets (nDCG@10 ≈ 0.85, Recall@10 ≈ 0.93, AUROC ≈ 0.90,
// AUPRC ≈ 0.6, ECE < 0.05) and the retriever near AUROC 0.75.
var ladder = []systemParams{
	{name: "retriever", label: "Retriever only", rank: 1.70, implicit: 0.15, ne: 0.75, scoreA: 0.45, scoreB: 0.12, slope: 1.30, shift: 0.15},
	{name: "reranker", label: "+ Reranker", rank: 2.10, implicit: 0.25, ne: 0.95, scoreA: 0, scoreB: 1.5, slope: 1.25, shift: 0.10},
	{name: "graph", label: "+ Graph reranker", rank: 2.50, implicit: 0.35, ne: 1.15, scoreA: 0, scoreB: 1.5, slope: 1.20, shift: 0.10},
	{name: "dynamic_k", label: "+ Dynamic-K", rank: 2.80, implicit: 0.45, ne: 1.35, scoreA: 0, scoreB: 1.5, slope: 1.15, shift: 0.05},
	{name: "ne_gate", label: "+ NE gate", rank: 3.10, implicit: 0.55, ne: 1.65, scoreA: 0, scoreB: 1.5, slope: 1.10, shift: 0.05},
	{name: "full", label: "Full pipeline (3-state gate)", rank: 3.40, implicit: 0.65, ne: 1.90, scoreA: 0, scoreB: 1.5, slope: 1.05, shift: 0.0},
}

const (
	rankRho  = 0.98 // share of candidate-score noise variance common to all systems
	neRho    = 0.75 // share of NE-latent noise variance common to all systems
	satHigh  = 6.5  // ne_prob is saturated to 1 above σ(satHigh) ≈ 0.9985
	satLow   = -7.3 // and to 0 below σ(satLow) ≈ 0.0007
	nodeTemp = 0.85 // node_probs logit scale: mildly underconfident
	meanGold = 2.1  // expected gold count of a positive query, known to the node model

	goldSpread    = 0.3 // log-sd of the per-sentence difficulty u_j
	explicitShare = 0.5 // share of positive queries whose evidence is explicit
	explicitGain  = 1.5 // NE separation of an explicit positive, times NE
	subtleGain    = 0.5 // NE separation of a subtle positive, times NE
)

// prevalenceWeights gives the relative prevalence of the criteria A.1..A.10;
// NumPositives is shared out in these proportions (largest remainder).
var prevalenceWeights = [NumCriteria]float64{0.200, 0.165, 0.135, 0.110, 0.090, 0.075, 0.060, 0.045, 0.034, 0.020}

var (
	// implicitShare is the probability that a gold sentence of grade 1, 2,
	// 3 states the evidence only implicitly: weak evidence is more often
	// implicit.
	implicitShare = [3]float64{0.32, 0.10, 0.03}

	// goldCountCDF and gradeCDF are the cumulative distributions of the
	// number of gold sentences (1..5) of a positive query and of a gold
	// grade (1..3).
	goldCountCDF = [MaxGold]float64{0.42, 0.70, 0.85, 0.94, 1}
	gradeCDF     = [3]float64{0.65, 0.90, 1}
)

// gpost is a post with everything that does not depend on the system.
type gpost struct {
	id        string
	fold      int
	sentences []string
	queryIDs  [NumCriteria]string // id + "/" + criterion
	severity  float64             // post-level latent: severe posts meet more criteria
	crit      [NumCriteria]gcrit
}

// gcrit is the gold of one (post, criterion).
type gcrit struct {
	positive bool
	h        float64 // query difficulty multiplier of the gold signal
	explicit bool    // a positive whose evidence is explicit: easy for the NE gate
	gold     []int   // sentence indices, ascending
	rels     []int   // grades aligned with gold
	goldIDs  []string
	signal   []float64 // s_j per sentence index, 0 for non-gold
	implicit []bool    // per sentence index: gold that states the evidence only implicitly
}

// rowInstance is one (post, fold, split): the ten query rows of a post in
// one fold.
type rowInstance struct {
	post  int
	fold  int
	split string
}

type generator struct {
	seed      uint64
	posts     []gpost
	criteria  [NumCriteria]string
	prior     [NumCriteria]float64 // π_c = positives / posts
	instances []rowInstance        // in file order
}

func newGenerator(seed uint64, posts int) *generator {
	g := &generator{seed: seed, posts: make([]gpost, posts)}
	for c := range g.criteria {
		g.criteria[c] = "A." + strconv.Itoa(c+1)
	}
	g.makePosts()
	g.assignFolds()
	g.choosePositives()
	g.makeGold()
	g.layoutRows()
	return g
}

// mix64 is the splitmix64 finaliser, a bijective bit mixer.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// stream returns the PCG stream for a purpose and the indices of what it
// draws. Distinct (purpose, keys) give independent-looking streams, and a
// stream does not depend on which other streams were used before it.
func (g *generator) stream(purpose string, keys ...uint64) *rand.Rand {
	h := uint64(14695981039346656037) // FNV-1a of the purpose
	for i := 0; i < len(purpose); i++ {
		h ^= uint64(purpose[i])
		h *= 1099511628211
	}
	a := mix64(g.seed ^ mix64(h))
	for _, k := range keys {
		a = mix64(a ^ mix64(k+0x632be59bd9b4e019))
	}
	return rand.New(rand.NewPCG(a, mix64(a^0xd1b54a32d192ed03)))
}

func (g *generator) makePosts() {
	for i := range g.posts {
		r := g.stream("post", uint64(i))
		p := &g.posts[i]
		p.id = "P" + pad(i+1, postIDDigits)
		for c := range p.queryIDs {
			p.queryIDs[c] = p.id + "/" + g.criteria[c]
		}
		// Log-normal with median 19.3, clamped to [8, 40]: mean ≈ 20.
		n := int(math.Round(math.Exp(math.Log(19.3) + 0.38*r.NormFloat64())))
		n = min(max(n, MinSentences), MaxSentences)
		p.sentences = make([]string, n)
		for j := range p.sentences {
			p.sentences[j] = p.id + "_s" + pad(j+1, sentIDDigits)
		}
		p.severity = r.NormFloat64()
	}
}

// assignFolds shuffles the posts and cuts the shuffle into FoldSizes.
func (g *generator) assignFolds() {
	order := g.stream("folds").Perm(len(g.posts))
	at := 0
	for f, size := range foldSizes(len(g.posts)) {
		for _, i := range order[at : at+size] {
			g.posts[i].fold = f
		}
		at += size
	}
}

// positiveCounts shares the positives of a study of posts posts
// (numPositives) out over the criteria in proportion to
// prevalenceWeights, by largest remainder (ties to the lower criterion).
func positiveCounts(posts int) [NumCriteria]int {
	var sum float64
	for _, w := range prevalenceWeights {
		sum += w
	}
	var counts [NumCriteria]int
	var rem [NumCriteria]float64
	total := numPositives(posts)
	left := total
	for c, w := range prevalenceWeights {
		q := float64(total) * w / sum
		counts[c] = int(q)
		rem[c] = q - float64(counts[c])
		left -= counts[c]
	}
	idx := make([]int, NumCriteria)
	for c := range idx {
		idx[c] = c
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case rem[a] > rem[b]:
			return -1
		case rem[a] < rem[b]:
			return 1
		}
		return a - b
	})
	for _, c := range idx[:left] {
		counts[c]++
	}
	return counts
}

// choosePositives picks, for each criterion, exactly its share of positive
// posts: the top posts by severity plus Gumbel noise, so that positives
// cluster in severe posts without being a deterministic function of them.
func (g *generator) choosePositives() {
	n := len(g.posts)
	counts := positiveCounts(n)
	keys := make([]float64, n)
	idx := make([]int, n)
	for c := range NumCriteria {
		r := g.stream("positives", uint64(c))
		for i := range keys {
			u := r.Float64()
			for u == 0 {
				u = r.Float64()
			}
			keys[i] = 0.8*g.posts[i].severity - math.Log(-math.Log(u))
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case keys[a] > keys[b]:
				return -1
			case keys[a] < keys[b]:
				return 1
			}
			return a - b
		})
		for _, i := range idx[:counts[c]] {
			g.posts[i].crit[c].positive = true
		}
		g.prior[c] = float64(counts[c]) / float64(n)
	}
}

func drawCDF(r *rand.Rand, cdf []float64) int {
	u := r.Float64()
	for i, p := range cdf {
		if u < p {
			return i
		}
	}
	return len(cdf) - 1
}

// makeGold draws, for every (post, criterion), the query difficulty and, for
// a positive, its gold sentences, grades and per-sentence strengths.
func (g *generator) makeGold() {
	for i := range g.posts {
		p := &g.posts[i]
		r := g.stream("gold", uint64(i))
		n := len(p.sentences)
		perm := make([]int, n)
		for c := range NumCriteria {
			q := &p.crit[c]
			q.h = math.Exp(0.3 * r.NormFloat64())
			if !q.positive {
				continue
			}
			q.explicit = r.Float64() < explicitShare
			ng := 1 + drawCDF(r, goldCountCDF[:])
			for j := range perm {
				perm[j] = j
			}
			for j := 0; j < ng; j++ { // partial Fisher-Yates
				k := j + r.IntN(n-j)
				perm[j], perm[k] = perm[k], perm[j]
			}
			q.gold = slices.Clone(perm[:ng])
			slices.Sort(q.gold)
			q.rels = make([]int, ng)
			q.goldIDs = make([]string, ng)
			q.signal = make([]float64, n)
			q.implicit = make([]bool, n)
			for k, j := range q.gold {
				q.rels[k] = 1 + drawCDF(r, gradeCDF[:])
				u := math.Exp(goldSpread * r.NormFloat64())
				q.implicit[j] = r.Float64() < implicitShare[q.rels[k]-1]
				q.goldIDs[k] = p.sentences[j]
				q.signal[j] = q.h * u * (1 + 0.3*float64(q.rels[k]-1))
			}
		}
	}
}

// layoutRows lists the row instances in file order: by fold, eval rows
// before tune rows, posts in id order. The tune posts of fold f are a
// TuneFraction share of its training posts, drawn by a seeded shuffle.
func (g *generator) layoutRows() {
	for f := range NumFolds {
		var train []int
		for i := range g.posts {
			if g.posts[i].fold == f {
				g.instances = append(g.instances, rowInstance{post: i, fold: f, split: SplitEval})
			} else {
				train = append(train, i)
			}
		}
		r := g.stream("tune", uint64(f))
		r.Shuffle(len(train), func(a, b int) { train[a], train[b] = train[b], train[a] })
		tune := train[:int(math.Round(TuneFraction*float64(len(train))))]
		slices.Sort(tune)
		for _, i := range tune {
			g.instances = append(g.instances, rowInstance{post: i, fold: f, split: SplitTune})
		}
	}
}

// each calls fn for every row instance, in file order, with its ten queries
// and, per system, the ten rows. With reuse, the slices handed to fn are
// overwritten by the next call and fn must not keep them; without it they
// are fresh on every call.
func (g *generator) each(reuse bool, fn func(inst rowInstance, qs []Query, rows [][]Row)) {
	const maxCells = NumCriteria * MaxSentences
	vs := make([]float64, NumCriteria)
	zsBuf := make([]float64, maxCells)
	order := make([]int, MaxSentences)
	var (
		qs     []Query
		rows   [][]Row
		cands  [][]string
		scores [][]float64
		nodes  [][]float64
	)
	alloc := func(cells int) {
		qs = make([]Query, NumCriteria)
		rows = make([][]Row, len(ladder))
		cands = make([][]string, len(ladder))
		scores = make([][]float64, len(ladder))
		nodes = make([][]float64, len(ladder))
		for s := range ladder {
			rows[s] = make([]Row, NumCriteria)
			cands[s] = make([]string, cells)
			scores[s] = make([]float64, cells)
			nodes[s] = make([]float64, cells)
		}
	}
	if reuse {
		alloc(maxCells)
	}
	for _, inst := range g.instances {
		p := &g.posts[inst.post]
		n := len(p.sentences)
		split := uint64(0)
		if inst.split == SplitTune {
			split = 1
		}
		if !reuse {
			alloc(NumCriteria * n)
		}
		for c := range qs {
			q := &p.crit[c]
			qs[c] = Query{
				ID:        p.queryIDs[c],
				Post:      p.id,
				Criterion: g.criteria[c],
				Fold:      inst.fold,
				Split:     inst.split,
				Gold:      q.goldIDs,
				GoldRels:  q.rels,
			}
		}

		// Draws shared by every system: v_q, then z_j, per criterion.
		shared := g.stream("shared", uint64(inst.post), uint64(inst.fold), split)
		zs := zsBuf[:NumCriteria*n]
		for c := range NumCriteria {
			vs[c] = shared.NormFloat64()
			for j := range n {
				zs[c*n+j] = shared.NormFloat64()
			}
		}

		for s := range ladder {
			sp := &ladder[s]
			r := g.stream("system", uint64(s), uint64(inst.post), uint64(inst.fold), split)
			for c := range NumCriteria {
				q := &p.crit[c]
				row := &rows[s][c]
				row.Candidates = cands[s][c*n : (c+1)*n : (c+1)*n]
				row.Scores = scores[s][c*n : (c+1)*n : (c+1)*n]
				row.NodeProbs = nodes[s][c*n : (c+1)*n : (c+1)*n]

				g.drawRow(r, sp, q, row, c, vs[c], zs[c*n:(c+1)*n], order[:n], p.sentences)
			}
		}
		fn(inst, qs, rows)
	}
}

// drawRow draws the row of one system for one criterion of a post from r:
// the NE-gate probability, then the shuffled candidates with their scores
// and node probabilities. v is the criterion's shared draw v_q and zs its
// shared draws z_j, one per sentence; order is scratch of one int per
// sentence. The order of the draws from r is part of the demo's bytes.
func (g *generator) drawRow(r *rand.Rand, sp *systemParams, q *gcrit, row *Row, c int, v float64, zs []float64, order []int, sentences []string) {
	n := len(sentences)
	rankShared, rankOwn := math.Sqrt(rankRho), math.Sqrt(1-rankRho)
	neShared, neOwn := math.Sqrt(neRho), math.Sqrt(1-neRho)
	// NE gate.
	y := neShared*v + neOwn*r.NormFloat64()
	switch {
	case q.explicit:
		y += explicitGain * sp.ne
	case q.positive:
		y += subtleGain * sp.ne
	}
	l := sp.slope*(logit(g.prior[c])+logLR(y, sp.ne)) + sp.shift
	var ne float64
	switch {
	case l > satHigh:
		ne = 1
	case l >= satLow:
		ne = roundTo(sigmoid(l), probDecimals)
	}
	row.NEProb = ne

	// Candidates, in a shuffled order.
	for j := range order {
		order[j] = j
	}
	r.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })

	// Node model prior: the query's evidence probability spread
	// over the expected number of gold sentences.
	pi := min(0.5, ne*meanGold/float64(n))
	pi = min(max(pi, 1e-6), 1-1e-6)
	base := logit(pi) - sp.rank*sp.rank/2
	for k, j := range order {
		x := rankShared*zs[j] + rankOwn*r.NormFloat64()
		switch {
		case q.signal == nil:
		case q.implicit[j]:
			x += sp.implicit * q.signal[j]
		default:
			x += sp.rank * q.signal[j]
		}
		row.Candidates[k] = sentences[j]
		row.Scores[k] = roundTo(sp.scoreA+sp.scoreB*x, scoreDecimals)
		row.NodeProbs[k] = roundTo(sigmoid(nodeTemp*(base+sp.rank*x)), probDecimals)
	}
}

// logLR is the log likelihood ratio of the NE latent y under the positive
// class, an explicitShare mixture of N(explicitGain·ne, 1) and
// N(subtleGain·ne, 1), against the negative class, N(0, 1). It is
// increasing in y.
func logLR(y, ne float64) float64 {
	a, b := explicitGain*ne, subtleGain*ne
	return math.Log(explicitShare*math.Exp(a*y-a*a/2) + (1-explicitShare)*math.Exp(b*y-b*b/2))
}

func logit(p float64) float64 { return math.Log(p / (1 - p)) }

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// roundTo rounds x to d decimals, half away from zero, and never returns
// negative zero (which would print as "-0").
func roundTo(x float64, d int) float64 {
	p := math.Pow10(d)
	x = math.Round(x*p) / p
	if x == 0 {
		return 0
	}
	return x
}

// pad formats i in decimal with at least width digits.
func pad(i, width int) string {
	s := strconv.Itoa(i)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
