// Package demo generates the deterministic demo dataset (docs/demo-dataset.md):
// a synthetic evidence-retrieval study that looks like the real one the metric
// contracts were written for, so that `make paper` can build a full bundle on a
// fresh machine with no data of its own.
//
// Its place in the pipeline is in front of everything else: demo writes
// inputs (a paper.yaml and one per-query CSV per system), which then go
// through the ordinary path
//
//	inputs -> dataset -> report.Compute -> renderers -> bundle
//
// exactly as a user's files would. Nothing downstream knows the data is
// synthetic, and demo imports no other package of this module.
//
// # The study
//
// 1,477 posts (P0001..P1477) are each judged against 10 criteria (A.1..A.10),
// giving 14,770 queries. A query asks: which sentences of this post are
// evidence for this criterion? Its candidate pool is every sentence of the
// post (8 to 40 of them, mean about 20). Exactly 1,379 queries (9.34%) have
// evidence, 1 to 5 gold sentences with graded relevance 1-3; prevalence falls
// from about 20% for A.1 to 2% for A.10.
//
// Posts are split into 5 post-disjoint folds of 295, 295, 295, 295 and 297
// posts. Every query is evaluated once, in its post's fold (split eval). For
// each fold, 30% of its training posts (the posts of the other four folds)
// are held out as that fold's tune rows, on which thresholds are chosen.
//
// Six systems follow a module ablation ladder
// (retriever, + reranker, + graph reranker, + Dynamic-K, + NE gate, full
// pipeline), each scoring the same rows a little better than the one before.
// docs/demo-dataset.md describes the generative model.
//
// # Determinism
//
// Every random draw comes from a math/rand/v2 PCG stream derived from the
// seed, a purpose label and the indices of what is being drawn (a post, a
// fold, a system), never from the global source; the same seed therefore
// gives the same bytes, whatever the order in which rows are produced.
package demo

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// DefaultSeed is the seed used when Options.Seed is zero. It is the seed of
// the example paper.yaml (docs/configuration.md).
const DefaultSeed uint64 = 20260118

// Shape of the generated study (docs/demo-dataset.md).
const (
	NumPosts      = 1477 // posts P0001..P1477
	NumCriteria   = 10   // criteria A.1..A.10
	NumFolds      = 5    // outer cross-validation folds, numbered 0..4
	NumPositives  = 1379 // eval queries with evidence: 9.34% of 14,770
	MinSentences  = 8    // sentences per post, at least
	MaxSentences  = 40   // sentences per post, at most
	MaxGold       = 5    // gold sentences per positive query, at most
	TuneFraction  = 0.3  // share of a fold's training posts given as tune rows
	NumQueries    = NumPosts * NumCriteria
	postIDDigits  = 4
	sentIDDigits  = 2
	scoreDecimals = 3 // candidate_scores are rounded to 3 decimals (ties happen)
	probDecimals  = 4 // node_probs and ne_prob are rounded to 4 decimals
)

// FoldSizes is the number of posts evaluated in each fold (foldSizes of
// NumPosts).
var FoldSizes = foldSizes(NumPosts)

// foldSizes cuts n posts into NumFolds folds: n/NumFolds each, the rest in
// the last fold.
func foldSizes(n int) [NumFolds]int {
	var out [NumFolds]int
	for f := range out {
		out[f] = n / NumFolds
	}
	out[NumFolds-1] += n % NumFolds
	return out
}

// numPositives is the number of eval queries with evidence in a study of n
// posts: NumPositives for NumPosts, in the same proportion otherwise.
func numPositives(n int) int {
	if n == NumPosts {
		return NumPositives
	}
	return int(math.Round(float64(NumPositives) * float64(n) / NumPosts))
}

// Options controls Generate and Write.
type Options struct {
	// Seed drives every random choice; zero means DefaultSeed.
	Seed uint64
	// Posts is the number of posts; zero means NumPosts. A smaller study
	// keeps the same shape (5 folds with tune rows, 10 criteria, the six
	// systems, positives in the same proportion, about 9.34%) with fewer
	// rows: the end-to-end tests use it (see Reduced). Posts below
	// MinPosts are raised to it.
	Posts int
	// Resamples is the bootstrap resamples written in paper.yaml; zero
	// means 10,000.
	Resamples int
}

// MinPosts is the smallest study Options.Posts gives: 20 posts per fold.
const MinPosts = 100

// Reduced is the smaller demo of the end-to-end tests: the same code paths
// as the full demo (5 folds with tune rows, 6 systems, every section of
// the report), a fifth of the posts and 200 resamples. `paperbundle demo`,
// `make paper` and `make bench` use the full demo.
func Reduced() Options { return Options{Posts: 300, Resamples: 200} }

func (o Options) seed() uint64 {
	if o.Seed == 0 {
		return DefaultSeed
	}
	return o.Seed
}

func (o Options) posts() int {
	if o.Posts == 0 {
		return NumPosts
	}
	return max(o.Posts, MinPosts)
}

func (o Options) resamples() int {
	if o.Resamples <= 0 {
		return 10000
	}
	return o.Resamples
}

// Split values of Query.Split, as written in the split column.
const (
	SplitEval = "eval"
	SplitTune = "tune"
)

// Data is the demo dataset in memory: the rows shared by every system and,
// for each system, its output on those rows.
type Data struct {
	Seed    uint64
	Posts   []Post   // in id order
	Queries []Query  // one per (post, criterion, fold, split), in file order
	Systems []System // in ladder order, retriever first
}

// Post is one post of the study.
type Post struct {
	ID        string   // P0001..P1477
	Fold      int      // the fold whose eval rows hold this post
	Sentences []string // sentence ids P0001_s01.., the candidate pool of its queries
}

// Query is one row of every system file without the system's outputs: the
// (post, criterion, fold, split) key and the gold, which is a property of
// (post, criterion) and so the same in every row where the query appears.
type Query struct {
	ID        string // post_id + "/" + criterion_id
	Post      string
	Criterion string
	Fold      int
	Split     string   // SplitEval or SplitTune
	Gold      []string // gold sentence ids, in sentence order; empty for a negative query
	GoldRels  []int    // grade 1-3 of each gold sentence
}

// HasEvidence reports whether q has at least one gold sentence.
func (q *Query) HasEvidence() bool { return len(q.Gold) > 0 }

// System is one pipeline configuration of the ablation ladder.
type System struct {
	Name  string // file name stem: data/<Name>.csv
	Label string
	Rows  []Row // Rows[i] is the output for Data.Queries[i]
}

// Row is one system's output on one query. Candidates are in the order the
// file lists them, a shuffle of the post's sentences, not ranked.
type Row struct {
	Candidates []string
	Scores     []float64 // rounded to 3 decimals; ranking = descending
	NodeProbs  []float64 // per-candidate evidence probability, 4 decimals
	NEProb     float64   // probability that the query has evidence, 4 decimals
}

// Generate builds the demo dataset in memory. Write renders the same data.
func Generate(opt Options) (*Data, error) {
	g := newGenerator(opt.seed(), opt.posts())
	d := &Data{Seed: g.seed, Posts: make([]Post, len(g.posts))}
	for i := range g.posts {
		p := &g.posts[i]
		d.Posts[i] = Post{ID: p.id, Fold: p.fold, Sentences: p.sentences}
	}
	nRows := len(g.instances) * NumCriteria
	d.Queries = make([]Query, 0, nRows)
	d.Systems = make([]System, len(ladder))
	for s, sp := range ladder {
		d.Systems[s] = System{Name: sp.name, Label: sp.label, Rows: make([]Row, 0, nRows)}
	}
	g.each(false, func(inst rowInstance, qs []Query, rows [][]Row) {
		d.Queries = append(d.Queries, qs...)
		for s := range d.Systems {
			d.Systems[s].Rows = append(d.Systems[s].Rows, rows[s]...)
		}
	})
	return d, nil
}

// Write writes the demo dataset into dir: dir/paper.yaml and one CSV per
// system, dir/data/<system>.csv. dir and dir/data are created if needed;
// existing files of the same names are replaced.
func Write(dir string, opt Options) (err error) {
	if dir == "" {
		return errors.New("demo: no output directory")
	}
	dataDir := filepath.Join(dir, "data")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	seed := opt.seed()
	if err := writeFile(filepath.Join(dir, "paper.yaml"), func(w *bufio.Writer) error {
		_, err := w.WriteString(paperYAML(seed, opt.resamples()))
		return err
	}); err != nil {
		return err
	}

	files := make([]*os.File, len(ladder))
	ws := make([]*bufio.Writer, len(ladder))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close() // already closed on success; this only cleans up on error
			}
		}
	}()
	for s, sp := range ladder {
		f, err := os.Create(filepath.Join(dataDir, sp.name+".csv"))
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		files[s] = f
		ws[s] = bufio.NewWriterSize(f, 1<<16)
		ws[s].WriteString(csvHeader)
	}

	g := newGenerator(seed, opt.posts())
	var buf []byte
	var werr error
	g.each(true, func(inst rowInstance, qs []Query, rows [][]Row) {
		if werr != nil {
			return
		}
		for s := range rows {
			for i := range qs {
				buf = appendRow(buf[:0], &qs[i], &rows[s][i])
				if _, err := ws[s].Write(buf); err != nil {
					werr = err
					return
				}
			}
		}
	})
	if werr != nil {
		return fmt.Errorf("demo: %w", werr)
	}
	for s, f := range files {
		if err := ws[s].Flush(); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		err := f.Close()
		files[s] = nil
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	return nil
}

// writeFile creates path, lets fill write it through a buffer, and checks
// every error including Close's.
func writeFile(path string, fill func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	w := bufio.NewWriter(f)
	if err := fill(w); err != nil {
		f.Close()
		return fmt.Errorf("demo: %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("demo: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}
