package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
)

// This file writes the inputs and paper.yaml of each workload.

// demoDir writes the demo dataset once and returns its folder.
func (b *bench) demoDir() (string, error) {
	if b.demo != "" {
		return b.demo, nil
	}
	dir := filepath.Join(b.dir, "demo")
	if out, err := exec.Command(b.bin, "demo", "-out", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("demo: %w: %s", err, out)
	}
	b.demo = dir
	return dir, nil
}

// demoConfig is workload (a): the demo as written.
func (b *bench) demoConfig() (string, error) {
	dir, err := b.demoDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "paper.yaml"), nil
}

// oneSystemConfig is workload (d): the demo's full system alone, with the
// demo's cutoffs and FPR budgets, 2,000 resamples of queries.
func (b *bench) oneSystemConfig() (string, error) {
	dir, err := b.demoDir()
	if err != nil {
		return "", err
	}
	cfg := `title: "Benchmark (d): one demo-scale system"
seed: 20260118
systems:
  - {name: full, label: "Full pipeline (3-state gate)", input: data/full.csv}
cutoffs: [1, 3, 5, 10, 20]
fpr_targets: [0.01, 0.03, 0.05, 0.1]
bootstrap: {resamples: 2000, unit: query}
`
	path := filepath.Join(dir, "paper_d.yaml")
	return path, os.WriteFile(path, []byte(cfg), 0o644)
}

// largeConfig is workload (b): 1,000,000 queries x 20 candidates.
func (b *bench) largeConfig() (string, error) {
	dir := filepath.Join(b.dir, "large")
	if err := writeLarge(dir, 1_000_000, 20); err != nil {
		return "", err
	}
	return filepath.Join(dir, "paper.yaml"), nil
}

// trecConfig is workload (c): a TREC run of 5,000 queries x 1,000
// documents. The cutoffs are those of the trec_eval measures compared
// (trec.go), and nDCG's gain is the grade, as in trec_eval.
func (b *bench) trecConfig() (string, error) {
	dir := filepath.Join(b.dir, "trec")
	if err := writeTREC(dir, 5_000, 1_000); err != nil {
		return "", err
	}
	cfg := "title: \"Benchmark (c): TREC run\"\nqrels: qrels.txt\nsystems:\n  - {name: run, format: trec, input: run.txt}\n" +
		"cutoffs: [5, 10, 15, 20, 30, 100, 200, 500, 1000]\ncontract: {ndcg_gain: linear}\nbootstrap: {resamples: 1000}\n"
	path := filepath.Join(dir, "paper.yaml")
	return path, os.WriteFile(path, []byte(cfg), 0o644)
}

// manyCriteriaConfig is workload (e): 2,000 criteria of 2 posts, each
// query with 3 candidates, the case whose per-query heat map once took
// 1.96 GB (a raster row of 24 px per criterion).
func (b *bench) manyCriteriaConfig() (string, error) {
	dir := filepath.Join(b.dir, "criteria")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	r := rand.New(rand.NewPCG(3, 4))
	var buf []byte
	buf = append(buf, "post_id,criterion_id,gold_uids,candidate_uids,candidate_scores,ne_prob\n"...)
	for p := range 2 {
		for c := range 2000 {
			gold := ""
			if r.IntN(2) == 0 {
				gold = "s" + strconv.Itoa(r.IntN(3))
			}
			buf = fmt.Appendf(buf, "P%d,C%d,%s,s0;s1;s2,%.3f;%.3f;%.3f,%.3f\n", p, c, gold, r.Float64(), r.Float64(), r.Float64(), r.Float64())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "crit.csv"), buf, 0o644); err != nil {
		return "", err
	}
	cfg := "title: \"Benchmark (e): 2,000 criteria\"\nsystems:\n  - {name: s, input: crit.csv}\nbootstrap: {resamples: 200}\n"
	path := filepath.Join(dir, "paper.yaml")
	return path, os.WriteFile(path, []byte(cfg), 0o644)
}

// writeLarge writes a one-system dataset of n queries (10 criteria per
// post, 5 folds, no tune rows so thresholds are cross-fitted) with k
// candidates each.
func writeLarge(dir string, n, k int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "big.csv"))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob\n")
	r := rand.New(rand.NewPCG(1, 2))
	var buf []byte
	for q := 0; q < n; q++ {
		post := q / 10
		buf = buf[:0]
		buf = append(buf, 'P')
		buf = strconv.AppendInt(buf, int64(post), 10)
		buf = append(buf, ",A."...)
		buf = strconv.AppendInt(buf, int64(q%10+1), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(post%5), 10)
		buf = append(buf, ",eval,"...)
		pos := r.Float64() < 0.0934
		nGold := 0
		if pos {
			nGold = 1 + r.IntN(3)
			for g := 0; g < nGold; g++ {
				if g > 0 {
					buf = append(buf, ';')
				}
				buf = append(buf, 's')
				buf = strconv.AppendInt(buf, int64(g), 10)
			}
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			buf = append(buf, 's')
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			s := r.NormFloat64()
			if c < nGold {
				s += 1.5
			}
			buf = strconv.AppendFloat(buf, float64(int(s*1000))/1000, 'f', -1, 64)
		}
		buf = append(buf, ',')
		for c := 0; c < k; c++ {
			if c > 0 {
				buf = append(buf, ';')
			}
			p := r.Float64() * 0.2
			if c < nGold {
				p += 0.5
			}
			buf = strconv.AppendFloat(buf, float64(int(p*1000))/1000, 'f', -1, 64)
		}
		buf = append(buf, ',')
		p := r.Float64() * 0.5
		if pos {
			p += 0.4
		}
		buf = strconv.AppendFloat(buf, float64(int(p*10000))/10000, 'f', -1, 64)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	cfg := "title: large benchmark\nsystems:\n  - {name: big, input: big.csv}\nbootstrap: {resamples: 1000}\n"
	return os.WriteFile(filepath.Join(dir, "paper.yaml"), []byte(cfg), 0o644)
}

// writeTREC writes run.txt, nq queries x nd documents, and qrels.txt into
// dir. Query q has 3-120 relevant documents of grade 1-3 and as many
// judged non-relevant ones; a tenth of its relevant documents (rounded
// down) are not retrieved. Document j of query q is docno "d<q>_<j>":
// 0 <= j < nRel are the relevant ones, nRel <= j < 2 nRel the judged
// non-relevant ones; the run retrieves j = nRel/10, ..., nRel/10 + nd - 1.
// Scores are normal, shifted up by half the grade, and rounded to 3
// decimals so that ties occur (both tools break them by docno, descending).
func writeTREC(dir string, nq, nd int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rf, err := os.Create(filepath.Join(dir, "run.txt"))
	if err != nil {
		return err
	}
	qf, err := os.Create(filepath.Join(dir, "qrels.txt"))
	if err != nil {
		rf.Close()
		return err
	}
	rw, qw := bufio.NewWriterSize(rf, 1<<20), bufio.NewWriterSize(qf, 1<<20)
	r := rand.New(rand.NewPCG(3, 4))
	type doc struct {
		j     int
		score float64
	}
	docs := make([]doc, nd)
	var buf []byte
	docno := func(buf []byte, q, j int) []byte {
		buf = append(buf, 'd')
		buf = strconv.AppendInt(buf, int64(q), 10)
		buf = append(buf, '_')
		return strconv.AppendInt(buf, int64(j), 10)
	}
	for q := 0; q < nq; q++ {
		qid := "q" + strconv.Itoa(q)
		nRel := 3 + r.IntN(118)
		grade := make([]int, 2*nRel)
		for j := 0; j < nRel; j++ {
			grade[j] = 1 + r.IntN(3)
		}
		for j, g := range grade {
			buf = append(buf[:0], qid...)
			buf = append(buf, " 0 "...)
			buf = docno(buf, q, j)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(g), 10)
			buf = append(buf, '\n')
			qw.Write(buf)
		}
		first := nRel / 10
		for i := range docs {
			j := first + i
			s := r.NormFloat64()
			if j < nRel {
				s += 0.5 * float64(grade[j])
			}
			docs[i] = doc{j, float64(int(s*1000)) / 1000}
		}
		slices.SortFunc(docs, func(a, b doc) int {
			if a.score != b.score {
				if a.score > b.score {
					return -1
				}
				return 1
			}
			return a.j - b.j
		})
		for rank, d := range docs {
			buf = append(buf[:0], qid...)
			buf = append(buf, " Q0 "...)
			buf = docno(buf, q, d.j)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(rank+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, d.score, 'f', -1, 64)
			buf = append(buf, " pbbench\n"...)
			rw.Write(buf)
		}
	}
	for _, w := range []*bufio.Writer{rw, qw} {
		if err := w.Flush(); err != nil {
			rf.Close()
			qf.Close()
			return err
		}
	}
	if err := rf.Close(); err != nil {
		qf.Close()
		return err
	}
	return qf.Close()
}
