package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The default-seed dataset is generated once and shared by the tests.
var (
	defaultOnce sync.Once
	defaultData *Data
	defaultErr  error
)

func defaultDemo(t testing.TB) *Data {
	t.Helper()
	defaultOnce.Do(func() { defaultData, defaultErr = Generate(Options{}) })
	if defaultErr != nil {
		t.Fatal(defaultErr)
	}
	return defaultData
}

type pcKey struct{ post, crit string }

// TestStatistics checks the generated study against the shape
// docs/demo-dataset.md describes.
func TestStatistics(t *testing.T) {
	d := defaultDemo(t)
	if d.Seed != DefaultSeed {
		t.Errorf("Seed = %d, want %d", d.Seed, DefaultSeed)
	}

	postByID := checkPosts(t, d)
	st := checkRows(t, d, postByID)
	checkPrevalence(t, st.posByCrit)
	checkFolds(t, st, postByID)
	checkSystems(t, d, postByID)
}

// rowStats carries what checkRows counts to the later checks.
type rowStats struct {
	evalFold             map[string]int    // post -> fold of its eval rows
	tunePosts, evalPosts []map[string]bool // by fold: posts with tune, eval rows
	nTune                int               // tune rows
	posByCrit            map[string]int    // positive eval queries by criterion
}

// checkPosts checks the posts and their sentences and returns the posts by id.
func checkPosts(t *testing.T, d *Data) map[string]*Post {
	t.Helper()
	// Posts and their sentences.
	if len(d.Posts) != NumPosts {
		t.Fatalf("%d posts, want %d", len(d.Posts), NumPosts)
	}
	postByID := make(map[string]*Post, len(d.Posts))
	var sentSum int
	for i := range d.Posts {
		p := &d.Posts[i]
		if want := fmt.Sprintf("P%04d", i+1); p.ID != want {
			t.Fatalf("post %d has id %q, want %q", i, p.ID, want)
		}
		postByID[p.ID] = p
		n := len(p.Sentences)
		if n < 8 || n > 40 {
			t.Errorf("post %s has %d sentences, want 8-40", p.ID, n)
		}
		sentSum += n
		for j, s := range p.Sentences {
			if want := fmt.Sprintf("%s_s%02d", p.ID, j+1); s != want {
				t.Fatalf("post %s sentence %d is %q, want %q", p.ID, j, s, want)
			}
		}
	}
	meanSent := float64(sentSum) / NumPosts
	t.Logf("sentences per post: mean %.2f", meanSent)
	if meanSent < 18 || meanSent > 22 {
		t.Errorf("mean sentences per post = %.2f, want in [18, 22]", meanSent)
	}
	return postByID
}

// checkRows checks the rows: every (post, criterion) once in eval, with one
// gold everywhere; the counts of eval, tune and positive rows.
func checkRows(t *testing.T, d *Data, postByID map[string]*Post) rowStats {
	t.Helper()
	// Rows: every (post, criterion) once in eval, with one gold everywhere.
	evalFold := map[string]int{} // post -> fold of its eval rows
	evalSeen := map[pcKey]bool{} // (post, criterion) with an eval row
	goldAt := map[pcKey]int{}    // (post, criterion) -> first row
	tunePosts := make([]map[string]bool, NumFolds)
	evalPosts := make([]map[string]bool, NumFolds)
	for f := range NumFolds {
		tunePosts[f], evalPosts[f] = map[string]bool{}, map[string]bool{}
	}
	var nEval, nTune, nPos, nGold, candEval int
	posByCrit := map[string]int{}
	for i := range d.Queries {
		q := &d.Queries[i]
		if q.ID != q.Post+"/"+q.Criterion {
			t.Fatalf("row %d: query id %q, want %q", i, q.ID, q.Post+"/"+q.Criterion)
		}
		if q.Fold < 0 || q.Fold >= NumFolds {
			t.Fatalf("row %d: fold %d", i, q.Fold)
		}
		p := postByID[q.Post]
		if p == nil {
			t.Fatalf("row %d: unknown post %q", i, q.Post)
		}
		k := pcKey{q.Post, q.Criterion}
		if j, ok := goldAt[k]; ok {
			if p := &d.Queries[j]; !slices.Equal(p.Gold, q.Gold) || !slices.Equal(p.GoldRels, q.GoldRels) {
				t.Fatalf("row %d: gold of %s is %v %v here and %v %v in row %d", i, q.ID, q.Gold, q.GoldRels, p.Gold, p.GoldRels, j)
			}
		} else {
			goldAt[k] = i
		}
		if len(q.Gold) != len(q.GoldRels) {
			t.Fatalf("row %d: %d gold, %d rels", i, len(q.Gold), len(q.GoldRels))
		}
		if len(q.Gold) > 0 && (len(q.Gold) < 1 || len(q.Gold) > 5) {
			t.Errorf("row %d: %d gold sentences, want 1-5", i, len(q.Gold))
		}
		for j, u := range q.Gold {
			if !slices.Contains(p.Sentences, u) {
				t.Fatalf("row %d: gold %q is not a sentence of %s", i, u, p.ID)
			}
			if j > 0 && q.Gold[j-1] >= u {
				t.Fatalf("row %d: gold not in sentence order or duplicated: %v", i, q.Gold)
			}
			if r := q.GoldRels[j]; r < 1 || r > 3 {
				t.Fatalf("row %d: grade %d, want 1-3", i, r)
			}
		}
		switch q.Split {
		case SplitEval:
			nEval++
			candEval += len(p.Sentences)
			if evalSeen[k] {
				t.Fatalf("row %d: %s evaluated twice", i, q.ID)
			}
			evalSeen[k] = true
			if f, ok := evalFold[q.Post]; ok && f != q.Fold {
				t.Fatalf("post %s evaluated in folds %d and %d", q.Post, f, q.Fold)
			}
			evalFold[q.Post] = q.Fold
			evalPosts[q.Fold][q.Post] = true
			if q.HasEvidence() {
				nPos++
				nGold += len(q.Gold)
				posByCrit[q.Criterion]++
			}
		case SplitTune:
			nTune++
			tunePosts[q.Fold][q.Post] = true
		default:
			t.Fatalf("row %d: split %q", i, q.Split)
		}
	}
	t.Logf("rows: %d eval, %d tune; positives %d (%.2f%%), %.2f gold per positive, %.2f candidates per eval query",
		nEval, nTune, nPos, 100*float64(nPos)/float64(nEval), float64(nGold)/float64(nPos), float64(candEval)/float64(nEval))
	if nEval != NumQueries || len(evalSeen) != NumQueries {
		t.Errorf("%d eval rows (%d distinct queries), want %d", nEval, len(evalSeen), NumQueries)
	}
	if nPos != 1379 {
		t.Errorf("%d positive eval queries, want 1379", nPos)
	}
	if got := fmt.Sprintf("%.2f%%", 100*float64(nPos)/float64(nEval)); got != "9.34%" {
		t.Errorf("positive rate %s, want 9.34%%", got)
	}
	if m := float64(candEval) / float64(nEval); m < 18 || m > 22 {
		t.Errorf("mean candidates per eval query = %.2f, want about 20", m)
	}
	return rowStats{evalFold: evalFold, tunePosts: tunePosts, evalPosts: evalPosts, nTune: nTune, posByCrit: posByCrit}
}

// checkPrevalence checks the criterion-dependent prevalence.
func checkPrevalence(t *testing.T, posByCrit map[string]int) {
	t.Helper()
	// Criterion-dependent prevalence, A.1 highest down to A.10.
	var prev []string
	for c := 1; c <= NumCriteria; c++ {
		prev = append(prev, fmt.Sprintf("A.%d %.1f%%", c, 100*float64(posByCrit[fmt.Sprintf("A.%d", c)])/NumPosts))
		if c > 1 && posByCrit[fmt.Sprintf("A.%d", c)] >= posByCrit[fmt.Sprintf("A.%d", c-1)] {
			t.Errorf("prevalence of A.%d (%d) not below A.%d (%d)", c, posByCrit[fmt.Sprintf("A.%d", c)], c-1, posByCrit[fmt.Sprintf("A.%d", c-1)])
		}
	}
	t.Logf("prevalence: %s", strings.Join(prev, ", "))
	if r := float64(posByCrit["A.1"]) / NumPosts; r < 0.18 || r > 0.22 {
		t.Errorf("A.1 prevalence %.3f, want about 0.20", r)
	}
	if r := float64(posByCrit["A.10"]) / NumPosts; r < 0.015 || r > 0.025 {
		t.Errorf("A.10 prevalence %.3f, want about 0.02", r)
	}
}

// checkFolds checks the fold sizes, post-disjointness and tune rows.
func checkFolds(t *testing.T, st rowStats, postByID map[string]*Post) {
	t.Helper()
	evalFold, tunePosts, evalPosts, nTune := st.evalFold, st.tunePosts, st.evalPosts, st.nTune
	// Folds: sizes, post-disjointness, tune rows.
	if len(evalFold) != NumPosts {
		t.Errorf("%d posts evaluated, want every one of %d", len(evalFold), NumPosts)
	}
	sizes := make([]int, NumFolds)
	for f := range NumFolds {
		sizes[f] = len(evalPosts[f])
		training := NumPosts - sizes[f]
		if want := int(math.Round(0.3 * float64(training))); len(tunePosts[f]) != want {
			t.Errorf("fold %d: %d tune posts, want 30%% of %d = %d", f, len(tunePosts[f]), training, want)
		}
		for p := range tunePosts[f] {
			if evalPosts[f][p] {
				t.Errorf("fold %d: post %s has both eval and tune rows", f, p)
			}
		}
	}
	for id, f := range evalFold {
		if postByID[id].Fold != f {
			t.Errorf("post %s: Post.Fold %d, evaluated in fold %d", id, postByID[id].Fold, f)
		}
	}
	t.Logf("fold sizes (posts): %v; tune rows: %d", sizes, nTune)
	if !slices.Equal(sizes, []int{295, 295, 295, 295, 297}) {
		t.Errorf("fold sizes %v, want [295 295 295 295 297]", sizes)
	}
	if nTune < 17000 || nTune > 18500 {
		t.Errorf("%d tune rows, want about 17,700", nTune)
	}
}

// checkSystems checks the outputs of the six systems.
func checkSystems(t *testing.T, d *Data, postByID map[string]*Post) {
	t.Helper()
	// System outputs.
	if len(d.Systems) != 6 {
		t.Fatalf("%d systems, want 6", len(d.Systems))
	}
	for s := range d.Systems {
		sys := &d.Systems[s]
		if len(sys.Rows) != len(d.Queries) {
			t.Fatalf("%s: %d rows for %d queries", sys.Name, len(sys.Rows), len(d.Queries))
		}
		var ties, ne0, ne1, top1Gold, posQ int
		var sorted []string
		var sortedScores []float64
		for i := range sys.Rows {
			r, q := &sys.Rows[i], &d.Queries[i]
			p := postByID[q.Post]
			if len(r.Candidates) != len(p.Sentences) || len(r.Scores) != len(r.Candidates) || len(r.NodeProbs) != len(r.Candidates) {
				t.Fatalf("%s row %d: %d candidates, %d scores, %d node probs for %d sentences",
					sys.Name, i, len(r.Candidates), len(r.Scores), len(r.NodeProbs), len(p.Sentences))
			}
			sorted = append(sorted[:0], r.Candidates...)
			slices.Sort(sorted)
			if !slices.Equal(sorted, p.Sentences) {
				t.Fatalf("%s row %d: candidates are not the sentences of %s", sys.Name, i, p.ID)
			}
			for j, x := range r.Scores {
				if x != math.Round(x*1000)/1000 || math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s row %d: score %v not rounded to 3 decimals", sys.Name, i, x)
				}
				if pr := r.NodeProbs[j]; !(pr >= 0 && pr <= 1) {
					t.Fatalf("%s row %d: node prob %v outside [0, 1]", sys.Name, i, pr)
				}
			}
			sortedScores = append(sortedScores[:0], r.Scores...)
			slices.Sort(sortedScores)
			if len(slices.Compact(sortedScores)) < len(r.Scores) {
				ties++
			}
			if !(r.NEProb >= 0 && r.NEProb <= 1) {
				t.Fatalf("%s row %d: ne_prob %v outside [0, 1]", sys.Name, i, r.NEProb)
			}
			switch r.NEProb {
			case 0:
				ne0++
			case 1:
				ne1++
			}
			if q.HasEvidence() {
				posQ++
				if slices.Contains(q.Gold, r.Candidates[0]) {
					top1Gold++
				}
			}
		}
		t.Logf("%-10s rows with tied scores %5d, ne_prob exactly 0: %3d, exactly 1: %3d, first listed candidate is gold: %.1f%%",
			sys.Name, ties, ne0, ne1, 100*float64(top1Gold)/float64(posQ))
		if ties == 0 {
			t.Errorf("%s: no tied scores; the demo should exercise tie handling", sys.Name)
		}
		// The list order is a shuffle, not the answer: the first listed
		// candidate is gold about as often as a random sentence is
		// (≈ 2.1/20 ≈ 10%).
		if f := float64(top1Gold) / float64(posQ); f > 0.2 {
			t.Errorf("%s: first listed candidate is gold in %.0f%% of positive rows: input order leaks the answer", sys.Name, 100*f)
		}
		if s == len(d.Systems)-1 && (ne0 == 0 || ne1 == 0) {
			t.Errorf("%s: %d ne_prob = 0 and %d ne_prob = 1, want a few of each", sys.Name, ne0, ne1)
		}
	}
}

// TestTuneRowsOwnDraw checks that a post's tune rows are scored by another
// model than its eval row: same gold, different scores.
func TestTuneRowsOwnDraw(t *testing.T) {
	d := defaultDemo(t)
	full := d.Systems[len(d.Systems)-1]
	evalRow := map[pcKey]int{}
	for i, q := range d.Queries {
		if q.Split == SplitEval {
			evalRow[pcKey{q.Post, q.Criterion}] = i
		}
	}
	var same, n int
	for i, q := range d.Queries {
		if q.Split != SplitTune {
			continue
		}
		e := evalRow[pcKey{q.Post, q.Criterion}]
		n++
		if full.Rows[i].NEProb == full.Rows[e].NEProb && slices.Equal(full.Rows[i].Candidates, full.Rows[e].Candidates) {
			same++
		}
	}
	if same > n/100 {
		t.Errorf("%d of %d tune rows repeat their eval row's output", same, n)
	}
}

// aurocMW is the AUROC of scores against labels by the Mann-Whitney
// statistic, ties counting one half:
//
//	AUROC = (R₊ - n₊(n₊+1)/2) / (n₊·n₋)
//
// with R₊ the sum of the mid-ranks of the positives.
func aurocMW(scores []float64, pos []bool) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	var rPos, nPos float64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && scores[idx[j]] == scores[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // mean of the 1-based ranks i+1..j
		for _, k := range idx[i:j] {
			if pos[k] {
				rPos += mid
				nPos++
			}
		}
		i = j
	}
	nNeg := float64(len(scores)) - nPos
	return (rPos - nPos*(nPos+1)/2) / (nPos * nNeg)
}

// recallAt is |gold in the top k| / |gold|, ranking by score descending
// with ties in list order.
func recallAt(k int, r *Row, gold []string) float64 {
	idx := make([]int, len(r.Scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.Scores[idx[a]] > r.Scores[idx[b]] })
	hit := 0
	for _, i := range idx[:min(k, len(idx))] {
		if slices.Contains(gold, r.Candidates[i]) {
			hit++
		}
	}
	return float64(hit) / float64(len(gold))
}

// ladderStats returns, per system, the AUROC of ne_prob over all eval rows
// and the mean Recall@10 over positive eval rows.
func ladderStats(d *Data) (auroc, recall []float64) {
	var pos []bool
	var evalIdx []int
	for i, q := range d.Queries {
		if q.Split == SplitEval {
			evalIdx = append(evalIdx, i)
			pos = append(pos, q.HasEvidence())
		}
	}
	for _, sys := range d.Systems {
		ps := make([]float64, len(evalIdx))
		var sum float64
		var n int
		for k, i := range evalIdx {
			ps[k] = sys.Rows[i].NEProb
			if q := &d.Queries[i]; q.HasEvidence() {
				sum += recallAt(10, &sys.Rows[i], q.Gold)
				n++
			}
		}
		auroc = append(auroc, aurocMW(ps, pos))
		recall = append(recall, sum/float64(n))
	}
	return auroc, recall
}

// TestAUROCHelper checks the test's own AUROC helper on a hand calculation:
// scores 0.1 0.4 0.35 0.8 0.4 with labels 0 0 1 1 1. Positive-negative
// pairs: (0.35,0.1) win, (0.35,0.4) lose, (0.8,·) two wins, (0.4,0.1) win,
// (0.4,0.4) tie = 1/2; total 4.5 of 6 = 0.75.
func TestAUROCHelper(t *testing.T) {
	const tol = 1e-12
	got := aurocMW([]float64{0.1, 0.4, 0.35, 0.8, 0.4}, []bool{false, false, true, true, true})
	if math.Abs(got-0.75) > tol {
		t.Errorf("aurocMW = %v, want 0.75", got)
	}
	// Recall@2 with a tie at the cut: list order decides (b before c).
	r := &Row{Candidates: []string{"a", "b", "c"}, Scores: []float64{0.1, 0.5, 0.5}}
	if got := recallAt(2, r, []string{"c", "a"}); math.Abs(got-0.5) > tol {
		t.Errorf("recallAt = %v, want 0.5", got)
	}
}

// TestLadder checks that every system of the ablation ladder beats the one
// before it on NE AUROC and on Recall@10, and that the endpoints land near
// the targets of the assignment (retriever AUROC ≈ 0.75, full AUROC ≈ 0.90,
// full Recall@10 ≈ 0.93). Other seeds are checked too unless -short.
func TestLadder(t *testing.T) {
	seeds := []uint64{DefaultSeed}
	if !testing.Short() {
		seeds = append(seeds, 1, 7)
	}
	for _, seed := range seeds {
		var d *Data
		if seed == DefaultSeed {
			d = defaultDemo(t)
		} else {
			var err error
			if d, err = Generate(Options{Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		auroc, recall := ladderStats(d)
		for s, sys := range d.Systems {
			t.Logf("seed %d %-10s AUROC %.4f  Recall@10 %.4f", seed, sys.Name, auroc[s], recall[s])
			if s == 0 {
				continue
			}
			if !(auroc[s] > auroc[s-1]) {
				t.Errorf("seed %d: AUROC of %s (%.4f) not above %s (%.4f)", seed, sys.Name, auroc[s], d.Systems[s-1].Name, auroc[s-1])
			}
			if !(recall[s] > recall[s-1]) {
				t.Errorf("seed %d: Recall@10 of %s (%.4f) not above %s (%.4f)", seed, sys.Name, recall[s], d.Systems[s-1].Name, recall[s-1])
			}
		}
		last := len(d.Systems) - 1
		if a := auroc[0]; a < 0.72 || a > 0.80 {
			t.Errorf("seed %d: retriever AUROC %.3f, want about 0.75", seed, a)
		}
		if a := auroc[last]; a < 0.87 || a > 0.93 {
			t.Errorf("seed %d: full AUROC %.3f, want about 0.90", seed, a)
		}
		if r := recall[last]; r < 0.90 || r > 0.96 {
			t.Errorf("seed %d: full Recall@10 %.3f, want about 0.93", seed, r)
		}
	}
}

func ExampleGenerate() {
	d, err := Generate(Options{})
	if err != nil {
		panic(err)
	}
	var eval, pos int
	for _, q := range d.Queries {
		if q.Split == SplitEval {
			eval++
			if q.HasEvidence() {
				pos++
			}
		}
	}
	fmt.Println(len(d.Posts), "posts,", eval, "eval queries,", pos, "with evidence")
	for _, s := range d.Systems {
		fmt.Printf("%s: %s\n", s.Name, s.Label)
	}
	// Output:
	// 1477 posts, 14770 eval queries, 1379 with evidence
	// retriever: Retriever only
	// reranker: + Reranker
	// graph: + Graph reranker
	// dynamic_k: + Dynamic-K
	// ne_gate: + NE gate
	// full: Full pipeline (3-state gate)
}

func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if err := Write(dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendFixed checks the integer formatter against
// strconv.FormatFloat(x, 'f', -1, 64) on values rounded as the generator
// rounds them.
func TestAppendFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []float64{0, 1, -1, 0.5, 0.0001, 0.9999, 0.1, 0.01, 0.001, -0.001, 12.34, -3.5, 100, 0.3, 0.7, 0.29, 1.005}
	for range 200000 {
		cases = append(cases, r.NormFloat64()*3, r.Float64())
	}
	for _, d := range []int{scoreDecimals, probDecimals} {
		for _, x := range cases {
			x = roundTo(x, d)
			want := strconv.FormatFloat(x, 'f', -1, 64)
			if got := string(appendFixed(nil, x, d)); got != want {
				t.Fatalf("appendFixed(%v, %d) = %q, want %q", x, d, got, want)
			}
		}
	}
}

// TestReduced: the smaller demo of the end-to-end tests keeps the shape
// of the full one: 300 posts in 5 folds of 60, each fold with eval and
// tune rows, the six systems, every criterion with positives, and
// 1379 x 300 / 1477 = 280.1, so 280 positive queries; its paper.yaml asks
// for 200 resamples.
func TestReduced(t *testing.T) {
	d, err := Generate(Reduced())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Posts) != 300 || len(d.Systems) != 6 {
		t.Fatalf("%d posts and %d systems, want 300 and 6", len(d.Posts), len(d.Systems))
	}
	if got := foldSizes(300); got != [NumFolds]int{60, 60, 60, 60, 60} {
		t.Errorf("fold sizes %v", got)
	}
	if got := foldSizes(NumPosts); got != [NumFolds]int{295, 295, 295, 295, 297} {
		t.Errorf("fold sizes of the full demo %v", got)
	}
	type fs struct {
		fold  int
		split string
	}
	rows := map[fs]int{}
	pos := map[string]int{}
	for _, q := range d.Queries {
		rows[fs{q.Fold, q.Split}]++
		if q.Split == SplitEval && q.HasEvidence() {
			pos[q.Criterion]++
		}
	}
	for f := range NumFolds {
		if rows[fs{f, SplitEval}] != 60*NumCriteria || rows[fs{f, SplitTune}] == 0 {
			t.Errorf("fold %d: %d eval and %d tune rows", f, rows[fs{f, SplitEval}], rows[fs{f, SplitTune}])
		}
	}
	total := 0
	for c := 1; c <= NumCriteria; c++ {
		if pos[fmt.Sprintf("A.%d", c)] == 0 {
			t.Errorf("criterion A.%d has no positive query", c)
		}
		total += pos[fmt.Sprintf("A.%d", c)]
	}
	if total != 280 {
		t.Errorf("%d positive queries, want 280", total)
	}
	dir := t.TempDir()
	if err := Write(dir, Reduced()); err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(filepath.Join(dir, "paper.yaml"))
	if err != nil || !strings.Contains(string(y), "bootstrap: {resamples: 200,") {
		t.Errorf("paper.yaml of the reduced demo: %v\n%s", err, y)
	}
}
