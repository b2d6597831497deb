package dataset

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	pqgzip "github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

var writeParquet = flag.Bool("write-parquet", false, "rewrite testdata/*.parquet from basic.csv and basic_long.csv")

// The fixtures testdata/basic.parquet and basic_long.parquet hold the
// tables of basic.csv and basic_long.csv as pandas writes them through
// pyarrow: optional scalar columns (a missing value is null), lists as
// three-level LIST groups with optional elements, fold an int64,
// has_evidence a double (pandas makes a column with a missing value
// float). No pandas or pyarrow could be installed where they were made,
// so they are written by parquet-go with that schema (go test -run
// TestWriteParquetFixtures -write-parquet ./dataset/).

type wideParquet struct {
	PostID      *string    `parquet:"post_id,optional"`
	CriterionID *string    `parquet:"criterion_id,optional"`
	Fold        *int64     `parquet:"fold,optional"`
	Split       *string    `parquet:"split,optional"`
	GoldUIDs    []*string  `parquet:"gold_uids,optional,list"`
	GoldRels    []*int64   `parquet:"gold_rels,optional,list"`
	Candidates  []*string  `parquet:"candidate_uids,optional,list"`
	Scores      []*float64 `parquet:"candidate_scores,optional,list"`
	NodeProbs   []*float64 `parquet:"node_probs,optional,list"`
	Selected    []*string  `parquet:"selected_uids,optional,list"`
	NEProb      *float64   `parquet:"ne_prob,optional"`
	State       *string    `parquet:"state,optional"`
	HasEvidence *float64   `parquet:"has_evidence,optional"`
	Notes       *string    `parquet:"notes,optional"`
}

type longParquet struct {
	PostID      *string  `parquet:"post_id,optional"`
	CriterionID *string  `parquet:"criterion_id,optional"`
	Fold        *int64   `parquet:"fold,optional"`
	Split       *string  `parquet:"split,optional"`
	UID         *string  `parquet:"candidate_uid,optional"`
	Score       *float64 `parquet:"score,optional"`
	Rel         *int64   `parquet:"rel,optional"`
	NodeProb    *float64 `parquet:"node_prob,optional"`
	Selected    *int64   `parquet:"selected,optional"`
	NEProb      *float64 `parquet:"ne_prob,optional"`
	State       *string  `parquet:"state,optional"`
	HasEvidence *float64 `parquet:"has_evidence,optional"`
	Notes       *string  `parquet:"notes,optional"`
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optInt(t testing.TB, s string) *int64 {
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return &n
}

func optFloat(t testing.TB, s string) *float64 {
	if s == "" {
		return nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return &x
}

// cellList reads a list cell of basic.csv: a JSON array or s1;s2.
func cellList(t testing.TB, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if s[0] == '[' {
		var v []any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(v))
		for i, x := range v {
			switch x := x.(type) {
			case string:
				out[i] = x
			case float64:
				out[i] = strconv.FormatFloat(x, 'g', -1, 64)
			}
		}
		return out
	}
	parts := strings.Split(s, ";")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func floats(t testing.TB, s []string) []float64 {
	if s == nil {
		return nil
	}
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = *optFloat(t, x)
	}
	return out
}

func ints(t testing.TB, s []string) []int64 {
	if s == nil {
		return nil
	}
	out := make([]int64, len(s))
	for i, x := range s {
		out[i] = *optInt(t, x)
	}
	return out
}

// ptrs makes the items of a list optional, as pyarrow writes them (nil
// stays nil: a null list).
func ptrs[T any](s []T) []*T {
	if s == nil {
		return nil
	}
	out := make([]*T, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func readCSVRecords(t *testing.T, name string) []map[string]string {
	return csvRecords(t, readTestdata(t, name))
}

// csvRecords reads a CSV text into one map per record, by column name.
func csvRecords(t testing.TB, text string) []map[string]string {
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = strings.TrimSpace(rec[i])
		}
		out = append(out, m)
	}
	return out
}

// wideRows turns the records of a wide CSV table into Parquet rows.
func wideRows(t testing.TB, recs []map[string]string) []wideParquet {
	var wide []wideParquet
	for _, m := range recs {
		sel := cellList(t, m["selected_uids"])
		if sel == nil {
			sel = []string{} // the column is given: an empty selection
		}
		wide = append(wide, wideParquet{optStr(m["post_id"]), optStr(m["criterion_id"]), optInt(t, m["fold"]), optStr(m["split"]),
			ptrs(cellList(t, m["gold_uids"])), ptrs(ints(t, cellList(t, m["gold_rels"]))), ptrs(cellList(t, m["candidate_uids"])),
			ptrs(floats(t, cellList(t, m["candidate_scores"]))), ptrs(floats(t, cellList(t, m["node_probs"]))), ptrs(sel),
			optFloat(t, m["ne_prob"]), optStr(m["state"]), optFloat(t, m["has_evidence"]), optStr(m["notes"])})
	}
	return wide
}

func TestWriteParquetFixtures(t *testing.T) {
	if !*writeParquet {
		t.Skip("run with -write-parquet to rewrite the fixtures")
	}
	wide := wideRows(t, readCSVRecords(t, "basic.csv"))
	var long []longParquet
	for _, m := range readCSVRecords(t, "basic_long.csv") {
		long = append(long, longParquet{optStr(m["post_id"]), optStr(m["criterion_id"]), optInt(t, m["fold"]), optStr(m["split"]),
			optStr(m["candidate_uid"]), optFloat(t, m["score"]), optInt(t, m["rel"]), optFloat(t, m["node_prob"]), optInt(t, m["selected"]),
			optFloat(t, m["ne_prob"]), optStr(m["state"]), optFloat(t, m["has_evidence"]), optStr(m["notes"])})
	}
	// Two row groups each, so that messages name a row group.
	writeFixture(t, "basic.parquet", wide, 4)
	writeFixture(t, "basic_long.parquet", long, 9)
}

func writeFixture[T any](t *testing.T, name string, rows []T, group int) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	for i := 0; i < len(rows); i += group {
		if _, err := w.Write(rows[i:min(i+group, len(rows))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(testdata(name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquet reads the Parquet fixtures (wide and long layouts, plain and
// gzip-compressed): each gives the hand-derived Dataset of basic.csv.
func TestParquet(t *testing.T) {
	for _, name := range []string{"basic.parquet", "basic_long.parquet", "basic.parquet.gz"} {
		t.Run(name, func(t *testing.T) {
			content := ""
			if strings.HasSuffix(name, ".gz") {
				content = gz(t, readTestdata(t, strings.TrimSuffix(name, ".gz")))
			} else {
				content = readTestdata(t, name)
			}
			d, err := loadAs(t, name, content)
			if err != nil {
				t.Fatal(err)
			}
			want := wantBasic(name)
			sameDataset(t, d, want)
		})
	}
}

// parquetBytes writes rows as a Parquet file, group rows per row group.
func parquetBytes[T any](t testing.TB, rows []T, group int) string {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	for i := 0; i < len(rows); i += group {
		if _, err := w.Write(rows[i:min(i+group, len(rows))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

type noScores struct {
	PostID     *string    `parquet:"post_id,optional"`
	GoldUIDs   []*string  `parquet:"gold_uids,optional,list"`
	Candidates []*string  `parquet:"candidate_uids,optional,list"`
	Other      []*float64 `parquet:"other,optional,list"`
}

func TestParquetErrors(t *testing.T) {
	str := func(s string) *string { return &s }
	f := func(x float64) *float64 { return &x }
	row := func(post string, scores ...*float64) wideParquet {
		r := wideParquet{PostID: str(post), GoldUIDs: []*string{}}
		for k := range scores {
			r.Candidates = append(r.Candidates, str("s"+strconv.Itoa(k)))
		}
		r.Scores = scores
		return r
	}
	nan := math.NaN()
	rows := []wideParquet{row("p1", f(1)), row("p2", f(1), f(2)), row("p3"), row("p4", f(0.5), f(nan)), row("p5", f(1), nil)}
	cases := []struct {
		name, content string
		want          string
	}{
		{"NaN score", parquetBytes(t, rows[:4], 2),
			`s.parquet:4:8: row 4 (row group 2, row 2 in it), column candidate_scores: candidate_scores item 2 is NaN, expected a finite number`},
		{"null item", parquetBytes(t, []wideParquet{rows[0], rows[4]}, 1),
			`s.parquet:2:8: row 2 (row group 2, row 1 in it), column candidate_scores: candidate_scores item 2 is null, expected a value (write an empty list, not a null item)`},
		{"no candidate_scores", parquetBytes(t, []noScores{{PostID: str("p")}}, 1),
			`s.parquet: missing column candidate_scores, expected columns post_id (or query_id), gold_uids, candidate_uids and candidate_scores`},
		{"not Parquet", "post_id,gold_uids\n",
			`s.parquet: not a Parquet file (it does not start and end with PAR1)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.parquet"}}}, memFiles(map[string]string{"s.parquet": tc.content}))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// TestParquetCodecs: the codecs pyarrow (snappy, its default; zstd, gzip)
// and polars (zstd, its default; lz4) write are read.
func TestParquetCodecs(t *testing.T) {
	rows := wideRows(t, readCSVRecords(t, "basic.csv"))
	for name, codec := range map[string]compress.Codec{
		"snappy": &snappy.Codec{}, "zstd": &zstd.Codec{}, "gzip": &pqgzip.Codec{}, "lz4": &lz4.Codec{},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			w := parquet.NewGenericWriter[wideParquet](&b, parquet.Compression(codec))
			if _, err := w.Write(rows); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			d, err := loadAs(t, "basic.parquet", b.String())
			if err != nil {
				t.Fatal(err)
			}
			if want := wantBasic("basic.parquet"); !reflect.DeepEqual(d, want) {
				t.Errorf("got\n%+v\nwant\n%+v", d, want)
			}
		})
	}
}

// The list columns as polars (arrow-rs) names their parts: an optional
// group, a repeated group "list", an optional leaf "item".
type polarsStrings struct {
	List []struct {
		Item *string `parquet:"item,optional"`
	} `parquet:"list"`
}

type polarsFloats struct {
	List []struct {
		Item *float64 `parquet:"item,optional"`
	} `parquet:"list"`
}

type polarsRow struct {
	PostID     *string        `parquet:"post_id,optional"`
	GoldUIDs   *polarsStrings `parquet:"gold_uids,optional"`
	Candidates *polarsStrings `parquet:"candidate_uids,optional"`
	Scores     *polarsFloats  `parquet:"candidate_scores,optional"`
}

// TestParquetPolarsLists reads list columns whose element is named item
// (polars) and a two-level list (a repeated leaf); a null list is empty.
func TestParquetPolarsLists(t *testing.T) {
	str := func(s string) *string { return &s }
	strs := func(ss ...string) *polarsStrings {
		l := &polarsStrings{}
		for _, s := range ss {
			l.List = append(l.List, struct {
				Item *string `parquet:"item,optional"`
			}{str(s)})
		}
		return l
	}
	flts := func(xs ...float64) *polarsFloats {
		l := &polarsFloats{}
		for _, x := range xs {
			l.List = append(l.List, struct {
				Item *float64 `parquet:"item,optional"`
			}{&x})
		}
		return l
	}
	rows := []polarsRow{
		{str("p1"), strs("s2"), strs("s1", "s2"), flts(0.2, 0.9)},
		{str("p2"), nil, strs("s1"), flts(0.5)},
	}
	d, err := loadAs(t, "polars.parquet", parquetBytes(t, rows, 1))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Systems[0].Rows[0]
	if !reflect.DeepEqual(d.Queries[0].Gold, []string{"s2"}) || !reflect.DeepEqual(r.Candidates, []string{"s2", "s1"}) || !reflect.DeepEqual(r.Scores, []float64{0.9, 0.2}) || d.Queries[1].HasEvidence() {
		t.Errorf("queries %+v, row 0 %+v", d.Queries, r)
	}

	type twoLevel struct {
		PostID     string    `parquet:"post_id"`
		GoldUIDs   []string  `parquet:"gold_uids"`
		Candidates []string  `parquet:"candidate_uids"`
		Scores     []float64 `parquet:"candidate_scores"`
	}
	d, err = loadAs(t, "two.parquet", parquetBytes(t, []twoLevel{{"p1", []string{"s1"}, []string{"s1", "s2"}, []float64{0.1, 0.3}}}, 1))
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Systems[0].Rows[0]; !reflect.DeepEqual(r.Candidates, []string{"s2", "s1"}) || !reflect.DeepEqual(r.Rel, []int{0, 1}) {
		t.Errorf("two-level lists: row %+v", r)
	}
}

// TestParquetIDsWithSeparators: ids holding ';', '"' or spaces at their
// ends stay whole.
func TestParquetIDsWithSeparators(t *testing.T) {
	str := func(s string) *string { return &s }
	f := func(x float64) *float64 { return &x }
	rows := []wideParquet{{PostID: str("p1"), GoldUIDs: []*string{str("a;b")}, Candidates: []*string{str("a;b"), str(` c"d `), str("[x")}, Scores: []*float64{f(1), f(2), f(3)}}}
	d, err := loadAs(t, "ids.parquet", parquetBytes(t, rows, 1))
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Systems[0].Rows[0]; !reflect.DeepEqual(r.Candidates, []string{"[x", ` c"d `, "a;b"}) || !reflect.DeepEqual(r.Rel, []int{0, 0, 1}) {
		t.Errorf("row %+v", r)
	}
}

// TestParquetHostileFooter: a footer whose list claims 2^31 - 1 items in
// a few bytes is refused before the library allocates the list (it ended
// the process out of memory).
func TestParquetHostileFooter(t *testing.T) {
	// Field 1, a list of strings, its size in a varint: 2^31 - 1.
	footer := []byte{0x19, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}
	if err := checkThrift(footer); err == nil {
		t.Error("a list of 2^31 - 1 items in 8 bytes passed")
	}
	var b bytes.Buffer
	b.WriteString("PAR1")
	b.Write(footer)
	b.Write([]byte{byte(len(footer)), 0, 0, 0})
	b.WriteString("PAR1")
	_, err := loadAs(t, "s.parquet", b.String())
	if err == nil || !strings.Contains(err.Error(), "a length in the file's footer is larger than the footer") {
		t.Errorf("error %v, want the footer refused", err)
	}
	// Nesting deeper than thriftDepth.
	deep := bytes.Repeat([]byte{0x1c}, 100) // field 1, a struct, again and again
	if err := checkThrift(deep); err == nil {
		t.Error("structs nested 100 deep passed")
	}
}

// TestParquetRowsAfterParsing: the checks that run after parsing
// (duplicate rows, folds, the same rows and gold in every system, grades)
// name a Parquet input's rows as "row N", as the parser's own messages do,
// and never "line N": a Parquet file has no lines. The rows below are
// numbered from 1 in file order; the CSV system's lines from 2 (its
// header is line 1).
func TestParquetRowsAfterParsing(t *testing.T) {
	// "line N" or "s.parquet:N" inside a message (not its position prefix)
	lineRef := regexp.MustCompile(`: .*(line [0-9]|s\.parquet:[0-9])`)
	row := func(post, crit string, fold int64, split, gold string) wideParquet {
		return wideParquet{PostID: ptr(post), CriterionID: ptr(crit), Fold: ptr(fold), Split: ptr(split),
			GoldUIDs: []*string{ptr(gold)}, Candidates: []*string{ptr("u1"), ptr("u2")}, Scores: []*float64{ptr(0.9), ptr(0.1)}}
	}
	// Two row groups of two rows, so that a row is not its place in a group.
	pq := func(rows ...wideParquet) string { return parquetBytes(t, rows, 2) }
	cases := []struct {
		name  string
		files map[string]string
		spec  Spec
		want  string
	}{
		{"duplicate row",
			map[string]string{"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), row("p2", "A", 0, "eval", "u1"), row("p1", "A", 0, "eval", "u2"))},
			Spec{},
			`s.parquet:3:1: row 3: duplicate row for query "p1/A" (fold 0, split eval): row 1 has it too, expected one row per (query, fold, split)`},
		{"eval in two folds",
			map[string]string{"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), row("p2", "A", 0, "tune", "u1"), row("p1", "B", 1, "eval", "u1"))},
			Spec{},
			`s.parquet:3:1: row 3: post "p1" has eval rows in fold 0 (row 1) and in fold 1, expected each post evaluated in exactly one fold`},
		{"eval and tune in a fold",
			map[string]string{"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), row("p2", "A", 0, "eval", "u1"), row("p1", "B", 0, "tune", "u1"))},
			Spec{},
			`s.parquet:3:1: row 3: post "p1" has both eval rows (row 1) and tune rows in fold 0, expected the tune and eval rows of a fold to share no post`},
		{"gold differs from a CSV system",
			map[string]string{
				"a.csv":     "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores\np1,A,0,eval,u1,u1;u2,0.9;0.1\np2,A,0,eval,u1,u1;u2,0.9;0.1\n",
				"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), row("p2", "A", 0, "eval", "u2")),
			},
			Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}}},
			`s.parquet:2:5: row 2: gold of query "p2/A" (fold 0, split eval) differs from a.csv:3: `},
		{"a CSV system's gold differs from a Parquet one",
			map[string]string{
				"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), row("p2", "A", 0, "eval", "u1")),
				"a.csv":     "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores\np1,A,0,eval,u1,u1;u2,0.9;0.1\np2,A,0,eval,u2,u1;u2,0.9;0.1\n",
			},
			Spec{Systems: []SystemSpec{{Name: "s", Input: "s.parquet"}, {Name: "a", Input: "a.csv"}}},
			// column 13: the byte where gold_uids starts on line 3, after "p2,A,0,eval,"
			`a.csv:3:13: gold of query "p2/A" (fold 0, split eval) differs from s.parquet row 2: `},
		{"grade above the limit",
			map[string]string{"s.parquet": pq(row("p1", "A", 0, "eval", "u1"), func() wideParquet {
				r := row("p2", "A", 0, "eval", "u1")
				r.GoldRels = []*int64{ptr(int64(2000))}
				return r
			}())},
			Spec{MaxGrade: 1023},
			`s.parquet:2:5: row 2: gold id "u1" of query "p2/A" has grade 2000, expected a grade <= 1023`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			if len(spec.Systems) == 0 {
				spec.Systems = []SystemSpec{{Name: "s", Input: "s.parquet"}}
			} else if len(spec.Systems) == 1 {
				spec.Systems = append(spec.Systems, SystemSpec{Name: "s", Input: "s.parquet"})
			}
			_, err := load(spec, memFiles(tc.files))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to start with:\n%s", err, tc.want)
			}
			if err != nil && lineRef.MatchString(err.Error()) {
				t.Errorf("a message names a line of a Parquet input:\n%v", err)
			}
		})
	}
}
