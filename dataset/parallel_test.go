package dataset

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The parallel paths of Load (tables and runs parsed in chunks, queries
// ranked and records sorted on all cores) must give what one core gives:
// the same Dataset and the same errors. These tests force them on inputs
// of a few lines.

// setParallel makes every parallel path of Load run (on) or none (off),
// whatever the size of the input, until the returned function is called.
func setParallel(on bool) (restore func()) {
	saved := []int{tableChunkMin, tableChunks, runChunkMin, runChunks, parallelMin}
	if on {
		tableChunkMin, tableChunks, runChunkMin, runChunks, parallelMin = 1, 3, 1, 3, 1
	} else {
		tableChunkMin, tableChunks, runChunkMin, runChunks, parallelMin = 1<<62, 0, 1<<62, 0, 1<<62
	}
	return func() {
		tableChunkMin, tableChunks, runChunkMin, runChunks, parallelMin = saved[0], saved[1], saved[2], saved[3], saved[4]
	}
}

// loadBoth loads spec from files on one core and in parallel and fails
// when the results differ.
func loadBoth(t *testing.T, spec Spec, files map[string]string) {
	t.Helper()
	restore := setParallel(false)
	a, errA := load(spec, memFiles(files))
	restore()
	restore = setParallel(true)
	b, errB := load(spec, memFiles(files))
	restore()
	if (errA == nil) != (errB == nil) {
		t.Fatalf("one core: %v\nparallel: %v", errA, errB)
	}
	if errA != nil {
		if errA.Error() != errB.Error() {
			t.Fatalf("errors differ:\n one core: %s\n parallel: %s", errA, errB)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("datasets differ:\n one core: %+v\n parallel: %+v", a, b)
	}
}

func TestParallelSame(t *testing.T) {
	for _, cases := range [][]errCase{csvCases, jsonlCases, trecCases, systemCases} {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				spec := Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv"}}}
				if tc.spec != nil {
					spec = *tc.spec
				}
				loadBoth(t, spec, tc.files)
			})
		}
	}

	// Valid inputs of some size: a table in both formats, and a run.
	var csvBuf, jsonlBuf, runBuf, qrelsBuf bytes.Buffer
	if err := writeTable(&csvBuf, 300, 20, false, 7); err != nil {
		t.Fatal(err)
	}
	if err := writeTable(&jsonlBuf, 300, 20, true, 7); err != nil {
		t.Fatal(err)
	}
	if err := writeRun(&runBuf, 300, 20, 7); err != nil {
		t.Fatal(err)
	}
	if err := writeQrels(&qrelsBuf, 300, 7); err != nil {
		t.Fatal(err)
	}
	t.Run("table csv", func(t *testing.T) {
		loadBoth(t, Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv"}}}, map[string]string{"s.csv": csvBuf.String()})
	})
	t.Run("table jsonl", func(t *testing.T) {
		loadBoth(t, Spec{Systems: []SystemSpec{{Name: "s", Input: "s.jsonl"}}}, map[string]string{"s.jsonl": jsonlBuf.String()})
	})
	t.Run("two systems", func(t *testing.T) {
		spec := Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}, {Name: "b", Input: "b.jsonl"}}}
		loadBoth(t, spec, map[string]string{"a.csv": csvBuf.String(), "b.jsonl": jsonlBuf.String()})
	})
	t.Run("trec", func(t *testing.T) {
		// Ties and a run out of rank order for some queries.
		run := strings.Replace(runBuf.String(), " 1 9.9", " 1 0.0", -1)
		loadBoth(t, *trecSpec(nil), map[string]string{"qrels.txt": qrelsBuf.String(), "r.txt": run})
	})
}

func TestSortFunc(t *testing.T) {
	defer func(m int) { parallelMin = m }(parallelMin)
	parallelMin = 8
	rng := rand.New(rand.NewPCG(1, 2))
	type item struct{ key, i int }
	byKey := func(a, b item) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	}
	for _, n := range []int{0, 1, 7, 8, 9, 100, 1000} {
		for _, keys := range []int{3, 1 << 30} {
			s := make([]item, n)
			for i := range s {
				s[i] = item{rng.IntN(keys), i}
			}
			want := slices.Clone(s)
			slices.SortFunc(want, byKey)
			sortFunc(s, byKey)
			if !slices.Equal(s, want) {
				t.Fatalf("n = %d: sortFunc differs from slices.SortFunc", n)
			}
		}
	}
}

// TestRankTREC compares rankTREC with a full sort, on scores in rank order
// (ties sorted by docno only) and out of it.
func TestRankTREC(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 50 {
		scores := make([]float64, n)
		docs := make([]string, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(4))
			docs[i] = "d" + string(rune('a'+rng.IntN(26))) + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		}
		for _, ranked := range []bool{false, true} {
			if ranked {
				slices.SortFunc(scores, func(a, b float64) int { return cmp.Compare(b, a) })
			}
			want := identity(nil, n)
			slices.SortFunc(want, func(i, j int) int {
				if c := cmp.Compare(scores[j], scores[i]); c != 0 {
					return c
				}
				return strings.Compare(docs[j], docs[i])
			})
			if got := rankTREC(nil, scores, docs); !slices.Equal(got, want) {
				t.Fatalf("scores %v, docs %v: got %v, want %v", scores, docs, got, want)
			}
		}
	}
}

// TestParallelFiles loads the fixtures from disk, where a large input is
// read with one ReadAt per core.
func TestParallelFiles(t *testing.T) {
	specs := []Spec{
		{Systems: []SystemSpec{{Name: "a", Input: testdata("basic.csv")}, {Name: "b", Input: testdata("basic.jsonl")}}},
		{Systems: []SystemSpec{{Name: "s", Input: testdata("bad.csv")}}},
		{
			Qrels:   testdata("trec/qrels.txt"),
			Queries: testdata("trec/queries.csv"),
			Systems: []SystemSpec{
				{Name: "a", Input: testdata("trec/run_a.txt"), Format: "trec", NEProbs: testdata("trec/ne_a.csv")},
				{Name: "b", Input: testdata("trec/run_b.txt"), Format: "trec", NEProbs: testdata("trec/ne_b.csv")},
			},
		},
	}
	for _, spec := range specs {
		restore := setParallel(false)
		a, errA := Load(spec)
		restore()
		restore = setParallel(true)
		b, errB := Load(spec)
		restore()
		if !reflect.DeepEqual(a, b) || fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%s: one core and parallel differ:\n %+v, %v\n %+v, %v", spec.Systems[0].Input, a, errA, b, errB)
		}
	}
}
