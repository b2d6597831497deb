package dataset

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// writeTable writes a synthetic per-query table shaped like the demo: posts
// of 10 criteria, nCand candidates per query, scores rounded to 3 decimals
// (so ties occur), node probabilities, ne_prob, 5 folds, and one tune row
// for every second query. With jsonl it writes JSON Lines instead of CSV.
func writeTable(w io.Writer, queries, nCand int, jsonl bool, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 1))
	bw := bufio.NewWriter(w)
	if !jsonl {
		bw.WriteString("post_id,criterion_id,query_id,fold,split,gold_uids,gold_rels,candidate_uids,candidate_scores,node_probs,ne_prob,has_evidence\n")
	}
	list := func(n int, item func(i int) string, sep string) string {
		b := make([]byte, 0, n*12)
		for i := 0; i < n; i++ {
			if i > 0 {
				b = append(b, sep...)
			}
			b = append(b, item(i)...)
		}
		return string(b)
	}
	for q := 0; q < queries; q++ {
		post := fmt.Sprintf("P%06d", q/10)
		crit := fmt.Sprintf("A.%d", q%10+1)
		fold := (q / 10) % 5
		nGold := 0
		if rng.IntN(10) == 0 {
			nGold = 1 + rng.IntN(4)
		}
		for _, split := range []string{"eval", "tune"} {
			if split == "tune" {
				if q%2 == 1 {
					continue
				}
				fold = (fold + 1) % 5
			}
			cand := func(i int) string { return post + "_s" + strconv.Itoa(i) }
			gold := func(i int) string { return cand(i * 3) }
			score := func(int) string { return strconv.FormatFloat(float64(rng.IntN(1000))/1000, 'f', -1, 64) }
			prob := func(int) string { return strconv.FormatFloat(float64(rng.IntN(10000))/10000, 'f', -1, 64) }
			ne := prob(0)
			ev := "0"
			if nGold > 0 {
				ev = "1"
			}
			if jsonl {
				quote := func(f func(int) string) func(int) string {
					return func(i int) string { return `"` + f(i) + `"` }
				}
				fmt.Fprintf(bw, `{"post_id":%q,"criterion_id":%q,"query_id":"%s/%s","fold":%d,"split":%q,"gold_uids":[%s],"candidate_uids":[%s],"candidate_scores":[%s],"node_probs":[%s],"ne_prob":%s,"has_evidence":%s}`+"\n",
					post, crit, post, crit, fold, split, list(nGold, quote(gold), ","), list(nCand, quote(cand), ","),
					list(nCand, score, ","), list(nCand, prob, ","), ne, ev)
				continue
			}
			fmt.Fprintf(bw, "%s,%s,%s/%s,%d,%s,%s,%s,%s,%s,%s,%s,%s\n",
				post, crit, post, crit, fold, split, list(nGold, gold, ";"), list(nGold, func(int) string { return "1" }, ";"),
				list(nCand, cand, ";"), list(nCand, score, ";"), list(nCand, prob, ";"), ne, ev)
		}
	}
	return bw.Flush()
}

func benchmarkLoad(b *testing.B, queries int, jsonl bool) {
	name := "table.csv"
	if jsonl {
		name = "table.jsonl"
	}
	path := filepath.Join(b.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeTable(f, queries, 20, jsonl, 1); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	spec := Spec{Systems: []SystemSpec{{Name: "s", Input: path}}}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		d, err := Load(spec)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Queries) == 0 {
			b.Fatal("no queries")
		}
	}
}

// BenchmarkLoadCSV loads one system file of demo size (about 32,000 rows of
// 20 candidates, ~9 MB) and a 10x smaller one.
func BenchmarkLoadCSV(b *testing.B) {
	for _, q := range []int{2_000, 21_000} {
		b.Run(fmt.Sprintf("queries=%d", q), func(b *testing.B) { benchmarkLoad(b, q, false) })
	}
}

// BenchmarkLoadJSONL is BenchmarkLoadCSV for the same table in JSON Lines.
func BenchmarkLoadJSONL(b *testing.B) {
	for _, q := range []int{2_000, 21_000} {
		b.Run(fmt.Sprintf("queries=%d", q), func(b *testing.B) { benchmarkLoad(b, q, true) })
	}
}

// BenchmarkLoadTREC loads a run of 1,000 queries x 1,000 documents with
// qrels, the shape of a learning-to-rank study's TREC inputs.
func BenchmarkLoadTREC(b *testing.B) {
	dir := b.TempDir()
	runPath, qrelsPath := filepath.Join(dir, "run.txt"), filepath.Join(dir, "qrels.txt")
	rng := rand.New(rand.NewPCG(2, 2))
	rf, _ := os.Create(runPath)
	qf, _ := os.Create(qrelsPath)
	rw, qw := bufio.NewWriter(rf), bufio.NewWriter(qf)
	for q := 0; q < 1000; q++ {
		for d := 0; d < 1000; d++ {
			fmt.Fprintf(rw, "q%d Q0 doc%d %d %.3f run\n", q, d, d+1, rng.Float64())
			if d%20 == 0 {
				fmt.Fprintf(qw, "q%d 0 doc%d %d\n", q, d, rng.IntN(3))
			}
		}
	}
	for _, w := range []*bufio.Writer{rw, qw} {
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	rf.Close()
	qf.Close()
	st, _ := os.Stat(runPath)
	spec := Spec{Qrels: qrelsPath, Systems: []SystemSpec{{Name: "r", Input: runPath, Format: "trec"}}}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(spec); err != nil {
			b.Fatal(err)
		}
	}
}
