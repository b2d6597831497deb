package dataset

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// memFiles is an opener over in-memory files, for tests.
func memFiles(files map[string]string) opener {
	return func(name string) (io.ReadCloser, error) {
		s, ok := files[name]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return io.NopCloser(strings.NewReader(s)), nil
	}
}

func testdata(name string) string { return filepath.Join("testdata", name) }

// wantBasic is the Dataset that testdata/basic.csv and basic.jsonl describe.
// Worked out by hand from the files (rules in docs/input-format.md section 1):
//
//   - order: fold 0 eval (P1/A.1, P1/A.2), fold 0 tune (P3/A.1 from "val",
//     P3/A.2 from "dev"), fold 1 eval (P2/A.1, P2/A.2); the train row is
//     dropped and counted.
//   - P1/A.1: scores s1 .1, s2 .9, s3 .5, s4 .9 rank as s2, s4 (tie at .9
//     keeps list order), s3, s1; gold s2 (grade 2), s3 (grade 1).
//   - P1/A.2: JSON-array cells; s3 .8 first, then the tie s1, s2 in order.
//   - P2/A.1: tie .5/.5 keeps s1, s2; gold_rels [3].
//   - P2/A.2: spaces around ';' items are trimmed; 2E-3 > 1e-3 > -1.
//   - P3/A.1: already ranked; gold s9 is not a candidate (allowed).
func wantBasic(source string) *Dataset {
	sel := func(ids ...string) []string { return ids }
	return &Dataset{
		Queries: []Query{
			{ID: "P1/A.1", Post: "P1", Criterion: "A.1", Fold: 0, Split: SplitEval, Gold: []string{"s2", "s3"}, GoldRels: []int{2, 1}},
			{ID: "P1/A.2", Post: "P1", Criterion: "A.2", Fold: 0, Split: SplitEval},
			{ID: "P3/A.1", Post: "P3", Criterion: "A.1", Fold: 0, Split: SplitTune, Gold: []string{"s9"}, GoldRels: []int{1}},
			{ID: "P3/A.2", Post: "P3", Criterion: "A.2", Fold: 0, Split: SplitTune},
			{ID: "P2/A.1", Post: "P2", Criterion: "A.1", Fold: 1, Split: SplitEval, Gold: []string{"s1"}, GoldRels: []int{3}},
			{ID: "P2/A.2", Post: "P2", Criterion: "A.2", Fold: 1, Split: SplitEval, Gold: []string{"s2", "s1"}, GoldRels: []int{1, 1}},
		},
		Systems: []System{{
			Name: "full", Label: "Full pipeline", Source: source,
			Rows: []Row{
				{Candidates: []string{"s2", "s4", "s3", "s1"}, Scores: []float64{0.9, 0.9, 0.5, 0.1}, Rel: []int{2, 0, 1, 0},
					NodeProbs: []float64{0.2, 0.4, 0.3, 0.1}, Selected: sel("s2"), HasSelected: true, NEProb: 0.7, HasNEProb: true, NEScore: 0.7, HasNEScore: true, State: StatePOS},
				{Candidates: []string{"s3", "s1", "s2"}, Scores: []float64{0.8, 0.3, 0.3}, Rel: []int{0, 0, 0},
					HasSelected: true, NEProb: 0.1, HasNEProb: true, NEScore: 0.1, HasNEScore: true, State: StateNEG},
				{Candidates: []string{"s1", "s2"}, Scores: []float64{2, 1}, Rel: []int{0, 0}, NodeProbs: []float64{0.5, 0.5},
					HasSelected: true, NEProb: 1, HasNEProb: true, NEScore: 1, HasNEScore: true},
				{Candidates: []string{"s1"}, Scores: []float64{0}, Rel: []int{0}, HasSelected: true, NEProb: 0.2, HasNEProb: true, NEScore: 0.2, HasNEScore: true},
				{Candidates: []string{"s1", "s2"}, Scores: []float64{0.5, 0.5}, Rel: []int{3, 0},
					HasSelected: true, NEProb: 0.4, HasNEProb: true, NEScore: 0.4, HasNEScore: true, State: StateUncertain},
				{Candidates: []string{"s2", "s1", "s3"}, Scores: []float64{0.002, 0.001, -1}, Rel: []int{1, 1, 0},
					HasSelected: true, NEProb: 0, HasNEProb: true, NEScore: 0, HasNEScore: true},
			},
		}},
		HasCriteria:      true,
		HasPosts:         true,
		HasNEProb:        true,
		HasFolds:         true,
		HasNEScore:       true,
		HasCandidates:    true,
		TrainRowsIgnored: 1,
		Notes: []string{
			"1 row with split train ignored (1 in " + source + ").",
			"selected_uids given (full): the pipeline's own selections are used where given, instead of the Dynamic-K policy.",
			"state given (full): the pipeline's own gate states are used where given.",
		},
	}
}

// TestLoadTable loads the same table as CSV and as JSON Lines; both must
// give the hand-derived Dataset.
func TestLoadTable(t *testing.T) {
	for _, name := range []string{"basic.csv", "basic.jsonl"} {
		t.Run(name, func(t *testing.T) {
			path := testdata(name)
			d, err := Load(Spec{Systems: []SystemSpec{{Name: "full", Label: "Full pipeline", Input: path}}})
			if err != nil {
				t.Fatal(err)
			}
			want := wantBasic(path)
			sameDataset(t, d, want)
		})
	}
}

// TestDefaults checks the identity defaults of a per-query table: query_id
// alone makes each query its own group; post_id without criterion_id makes the
// post the query id; fold 0 and split eval when absent.
func TestDefaults(t *testing.T) {
	tests := []struct {
		file        string
		want        []Query
		hasPosts    bool
		hasFolds    bool
		hasCriteria bool
	}{
		{
			file: "query_only.csv",
			want: []Query{
				{ID: "q1", Post: "q1"},
				{ID: "q2", Post: "q2", Gold: []string{"d1"}, GoldRels: []int{1}},
			},
		},
		{
			file: "post_only.csv",
			want: []Query{
				{ID: "P1", Post: "P1", Fold: 0, Gold: []string{"d1"}, GoldRels: []int{1}},
				{ID: "custom", Post: "P2", Fold: 1},
			},
			hasPosts: true, hasFolds: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			d, err := Load(Spec{Systems: []SystemSpec{{Name: "s", Input: testdata(tt.file)}}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Queries, tt.want) {
				t.Errorf("queries:\n got %+v\nwant %+v", d.Queries, tt.want)
			}
			if d.HasPosts != tt.hasPosts || d.HasFolds != tt.hasFolds || d.HasCriteria != tt.hasCriteria || d.HasNEProb {
				t.Errorf("HasPosts, HasFolds, HasCriteria, HasNEProb = %v, %v, %v, %v; want %v, %v, %v, false",
					d.HasPosts, d.HasFolds, d.HasCriteria, d.HasNEProb, tt.hasPosts, tt.hasFolds, tt.hasCriteria)
			}
			if d.Systems[0].Label != "s" {
				t.Errorf("label = %q, want the name", d.Systems[0].Label)
			}
		})
	}
}

// loadOne loads a single CSV system held in memory.
func loadOne(t *testing.T, csv string) (*Dataset, error) {
	t.Helper()
	return load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv"}}}, memFiles(map[string]string{"s.csv": csv}))
}

// TestRanking checks the order of the per-query table: score descending,
// ties in list order, node probabilities and grades moved with their
// candidate.
func TestRanking(t *testing.T) {
	tests := []struct {
		cands, scores, probs string
		gold                 string
		wantCands            []string
		wantScores           []float64
		wantProbs            []float64
		wantRel              []int
	}{
		{"a;b;c;d", "1;2;2;1", "0.1;0.2;0.3;0.4", "d", []string{"b", "c", "a", "d"}, []float64{2, 2, 1, 1}, []float64{0.2, 0.3, 0.1, 0.4}, []int{0, 0, 0, 1}},
		{"a;b;c", "0;0;0", "", "b;c", []string{"a", "b", "c"}, []float64{0, 0, 0}, nil, []int{0, 1, 1}},
		{"a;b;c", "-1;-0.5;-2", "", "", []string{"b", "a", "c"}, []float64{-0.5, -1, -2}, nil, []int{0, 0, 0}},
		{"a;b", "1e300;-1e300", "1;0", "a", []string{"a", "b"}, []float64{1e300, -1e300}, []float64{1, 0}, []int{1, 0}},
		{"a", "5", "", "", []string{"a"}, []float64{5}, nil, []int{0}},
		{"", "", "", "x", nil, nil, nil, nil},
	}
	for _, tt := range tests {
		d, err := loadOne(t, "post_id,gold_uids,candidate_uids,candidate_scores,node_probs\nP,"+tt.gold+","+tt.cands+","+tt.scores+","+tt.probs+"\n")
		if err != nil {
			t.Errorf("%s / %s: %v", tt.cands, tt.scores, err)
			continue
		}
		r := d.Systems[0].Rows[0]
		if !reflect.DeepEqual(r.Candidates, tt.wantCands) || !reflect.DeepEqual(r.Scores, tt.wantScores) ||
			!reflect.DeepEqual(r.NodeProbs, tt.wantProbs) || !reflect.DeepEqual(r.Rel, tt.wantRel) {
			t.Errorf("%s / %s: got %v %v %v %v, want %v %v %v %v", tt.cands, tt.scores,
				r.Candidates, r.Scores, r.NodeProbs, r.Rel, tt.wantCands, tt.wantScores, tt.wantProbs, tt.wantRel)
		}
	}
}

// TestRankingLong checks ranking above the insertion-sort size: 40
// candidates whose scores are c40 > c39 > ... with every pair tied.
func TestRankingLong(t *testing.T) {
	var cands, scores, want []string
	for i := 0; i < 40; i++ {
		cands = append(cands, "c"+itoa(i))
		scores = append(scores, itoa(i/2))
	}
	// Score k is held by c(2k) and c(2k+1); descending scores, list order
	// within a tie: c38 c39 c36 c37 ... c0 c1.
	for k := 19; k >= 0; k-- {
		want = append(want, "c"+itoa(2*k), "c"+itoa(2*k+1))
	}
	d, err := loadOne(t, "post_id,gold_uids,candidate_uids,candidate_scores\nP,c0,"+strings.Join(cands, ";")+","+strings.Join(scores, ";")+"\n")
	if err != nil {
		t.Fatal(err)
	}
	r := d.Systems[0].Rows[0]
	if !reflect.DeepEqual(r.Candidates, want) {
		t.Errorf("got %v\nwant %v", r.Candidates, want)
	}
	if r.Rel[38] != 1 || r.Candidates[38] != "c0" {
		t.Errorf("gold c0 should be at rank 39 with grade 1, got %v at %v", r.Rel, r.Candidates)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestListSyntax checks the spellings of a list cell in CSV.
func TestListSyntax(t *testing.T) {
	tests := []struct {
		cell string
		want []string
	}{
		{`a;b`, []string{"a", "b"}},
		{` a ; b `, []string{"a", "b"}},
		{`a`, []string{"a"}},
		{``, nil},
		{`"[""a"",""b""]"`, []string{"a", "b"}},
		{`"[ ""a"" , 7 ]"`, []string{"a", "7"}},
		{`"[""a;b""]"`, []string{"a;b"}},
		{`"[""a,b"", ""c\""d""]"`, []string{"a,b", `c"d`}},
		{`[]`, nil},
		{`"a ;b;c"`, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		d, err := loadOne(t, "post_id,gold_uids,candidate_uids,candidate_scores\nP,"+tt.cell+",,\n")
		if err != nil {
			t.Errorf("%s: %v", tt.cell, err)
			continue
		}
		if got := d.Queries[0].Gold; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.cell, got, tt.want)
		}
	}
}

// TestSplits checks split spellings: test is eval; val, dev are tune;
// train rows are counted and dropped; case does not matter.
func TestSplits(t *testing.T) {
	d, err := loadOne(t, "query_id,split,gold_uids,candidate_uids,candidate_scores\n"+
		"a,test,,,\nb,VAL,,,\nc,Dev,,,\nd,train,,,\ne,TRAIN,,,\nf,,,,\ng,Tune,,,\nh,EVAL,,,\n")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Split{}
	for _, q := range d.Queries {
		got[q.ID] = q.Split
	}
	want := map[string]Split{"a": SplitEval, "b": SplitTune, "c": SplitTune, "f": SplitEval, "g": SplitTune, "h": SplitEval}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("splits = %v, want %v", got, want)
	}
	if d.TrainRowsIgnored != 2 {
		t.Errorf("TrainRowsIgnored = %d, want 2", d.TrainRowsIgnored)
	}
}

// TestSeveralSystems checks that rows are aligned to the queries whatever
// each file's row order, and that HasNEProb needs ne_prob everywhere.
func TestSeveralSystems(t *testing.T) {
	files := map[string]string{
		"a.csv": "post_id,fold,split,gold_uids,candidate_uids,candidate_scores,ne_prob\n" +
			"P2,1,eval,x,x;y,1;2,0.5\nP1,0,eval,,x,1,0.25\nP2,0,tune,x,x,1,0.75\n",
		"b.jsonl": `{"post_id":"P1","fold":0,"split":"eval","gold_uids":[],"candidate_uids":["z"],"candidate_scores":[3]}` + "\n" +
			`{"post_id":"P2","fold":0,"split":"tune","gold_uids":["x"],"candidate_uids":["x"],"candidate_scores":[9],"ne_prob":0.1}` + "\n" +
			`{"post_id":"P2","fold":1,"gold_uids":["x"],"candidate_uids":["y","x"],"candidate_scores":[3,4]}` + "\n",
	}
	spec := Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}, {Name: "b", Input: "b.jsonl"}}}
	d, err := load(spec, memFiles(files))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, q := range d.Queries {
		ids = append(ids, q.ID+"@"+itoa(q.Fold)+q.Split.String())
	}
	if want := []string{"P1@0eval", "P2@0tune", "P2@1eval"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("queries %v, want %v", ids, want)
	}
	wantA := [][]string{{"x"}, {"x"}, {"y", "x"}}
	wantB := [][]string{{"z"}, {"x"}, {"x", "y"}}
	for i := range d.Queries {
		if got := d.Systems[0].Rows[i].Candidates; !reflect.DeepEqual(got, wantA[i]) {
			t.Errorf("a row %d: %v, want %v", i, got, wantA[i])
		}
		if got := d.Systems[1].Rows[i].Candidates; !reflect.DeepEqual(got, wantB[i]) {
			t.Errorf("b row %d: %v, want %v", i, got, wantB[i])
		}
	}
	if d.HasNEProb {
		t.Error("HasNEProb = true, but system b lacks ne_prob on two rows")
	}
	if want := "System b gives ne_prob on 1 of 3 rows: NE-gate metrics need it on every row."; !contains(d.Notes, want) {
		t.Errorf("notes %q lack %q", d.Notes, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLoadTREC loads two TREC runs with qrels, a queries table and
// ne_probs. Expected values follow trec_eval's documented semantics:
//
//   - qrels: q1 gold d1 (1), d3 (2), d2 judged 0 is not relevant; q2 has
//     only a rel -1 judgment (in the pool, not judged: trec_eval's
//     convention), so it is evaluated with no gold and d5 is unjudged; q9 is not in
//     either run.
//   - run a, q1: d3 0.9, then d1, d2, d10 tied at 0.5 in docno-descending
//     byte order: d2 > d10 > d1. Ranking: d3 d2 d10 d1, grades 2 0 0 1.
//   - run a, q3: d1 and d2 tied at 2 (2e0): d2 then d1, grades 0 1.
//   - run a has q7 and run b has q8, neither in the qrels: one run query
//     without qrels each; q9 is one qrels query without run for each.
//   - queries.csv makes q3 a tune query of fold 0 and q2 ("test") eval.
func TestLoadTREC(t *testing.T) {
	spec := Spec{
		Qrels:   testdata("trec/qrels.txt"),
		Queries: testdata("trec/queries.csv"),
		Systems: []SystemSpec{
			{Name: "a", Input: testdata("trec/run_a.txt"), Format: "trec", NEProbs: testdata("trec/ne_a.csv")},
			{Name: "b", Label: "B", Input: testdata("trec/run_b.txt"), Format: "TREC", NEProbs: testdata("trec/ne_b.csv")},
		},
	}
	d, err := Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	wantQ := []Query{
		{ID: "q1", Post: "P1", Criterion: "A.1", Fold: 0, Split: SplitEval, Gold: []string{"d1", "d3"}, GoldRels: []int{1, 2}, TREC: true, NonRel: 1},
		{ID: "q2", Post: "P1", Criterion: "A.2", Fold: 0, Split: SplitEval, TREC: true},
		{ID: "q3", Post: "P2", Criterion: "A.1", Fold: 0, Split: SplitTune, Gold: []string{"d1"}, GoldRels: []int{1}, TREC: true},
	}
	if !reflect.DeepEqual(d.Queries, wantQ) {
		t.Errorf("queries:\n got %+v\nwant %+v", d.Queries, wantQ)
	}
	wantA := []Row{
		{Candidates: []string{"d3", "d2", "d10", "d1"}, Scores: []float64{0.9, 0.5, 0.5, 0.5}, Rel: []int{2, 0, 0, 1}, Judged: []bool{true, true, false, true}, NEProb: 0.8, HasNEProb: true, NEScore: 0.8, HasNEScore: true},
		{Candidates: []string{"d5"}, Scores: []float64{1}, Rel: []int{0}, Judged: []bool{false}, Pooled: []bool{true}, NEProb: 0.1, HasNEProb: true, NEScore: 0.1, HasNEScore: true},
		{Candidates: []string{"d2", "d1"}, Scores: []float64{2, 2}, Rel: []int{0, 1}, Judged: []bool{false, true}, NEProb: 0.6, HasNEProb: true, NEScore: 0.6, HasNEScore: true},
	}
	wantB := []Row{
		{Candidates: []string{"d1", "d3", "d2"}, Scores: []float64{3, 2, 1}, Rel: []int{1, 2, 0}, Judged: []bool{true, true, true}, NEProb: 0.9, HasNEProb: true, NEScore: 0.9, HasNEScore: true},
		{Candidates: []string{"d6", "d5"}, Scores: []float64{8, 7}, Rel: []int{0, 0}, Judged: []bool{false, false}, Pooled: []bool{false, true}, NEProb: 0.3, HasNEProb: true, NEScore: 0.3, HasNEScore: true},
		{Candidates: []string{"d2"}, Scores: []float64{-0.5}, Rel: []int{0}, Judged: []bool{false}, NEProb: 0.2, HasNEProb: true, NEScore: 0.2, HasNEScore: true},
	}
	if !reflect.DeepEqual(d.Systems[0].Rows, wantA) {
		t.Errorf("run a:\n got %+v\nwant %+v", d.Systems[0].Rows, wantA)
	}
	if !reflect.DeepEqual(d.Systems[1].Rows, wantB) {
		t.Errorf("run b:\n got %+v\nwant %+v", d.Systems[1].Rows, wantB)
	}
	if d.Systems[1].Label != "B" || d.Systems[0].Label != "a" {
		t.Errorf("labels %q, %q", d.Systems[0].Label, d.Systems[1].Label)
	}
	if want := map[string]int{"a": 1, "b": 1}; !reflect.DeepEqual(d.RunQueriesWithoutQrels, want) || !reflect.DeepEqual(d.QrelsQueriesWithoutRun, want) {
		t.Errorf("RunQueriesWithoutQrels %v, QrelsQueriesWithoutRun %v, want %v for both", d.RunQueriesWithoutQrels, d.QrelsQueriesWithoutRun, want)
	}
	if !d.HasPosts || !d.HasCriteria || !d.HasFolds || !d.HasNEProb || d.TrainRowsIgnored != 1 {
		t.Errorf("HasPosts %v HasCriteria %v HasFolds %v HasNEProb %v TrainRowsIgnored %d, want true true true true 1",
			d.HasPosts, d.HasCriteria, d.HasFolds, d.HasNEProb, d.TrainRowsIgnored)
	}
}

// TestLoadTRECAlone loads a run and qrels without a queries table: every
// evaluated qid is its own post, in fold 0, eval.
func TestLoadTRECAlone(t *testing.T) {
	d, err := Load(Spec{
		Qrels:   testdata("trec/qrels.txt"),
		Systems: []SystemSpec{{Name: "a", Input: testdata("trec/run_a.txt"), Format: "trec"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range d.Queries {
		if q.Post != q.ID || q.Fold != 0 || q.Split != SplitEval || q.Criterion != "" {
			t.Errorf("query %+v: want its own post, fold 0, eval, no criterion", q)
		}
		got = append(got, q.ID)
	}
	if want := []string{"q1", "q2", "q3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("queries %v, want %v", got, want)
	}
	if d.HasPosts || d.HasFolds || d.HasCriteria || d.HasNEProb {
		t.Errorf("flags HasPosts %v HasFolds %v HasCriteria %v HasNEProb %v, want all false", d.HasPosts, d.HasFolds, d.HasCriteria, d.HasNEProb)
	}
}

// TestOpenError checks that a missing input is an input error naming the
// file, and that Load's error is an ErrorList.
func TestOpenError(t *testing.T) {
	_, err := Load(Spec{Systems: []SystemSpec{{Name: "s", Input: testdata("no-such-file.csv")}}})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T), want an ErrorList", err, err)
	}
	want := testdata("no-such-file.csv") + ": cannot open the file: no such file or directory, expected an existing file"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	_, err = Load(Spec{Systems: []SystemSpec{{Name: "s", Input: "testdata"}}})
	if want := "testdata: cannot open the file: it is a directory, expected a file"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}

	// With NamedBy, the error points at the key of the configuration that
	// names the file.
	named := func(p string) (Place, bool) {
		if p == "testdata" {
			return Place{File: "paper.yaml", Line: 4, Column: 12, Key: "systems[1].input"}, true
		}
		return Place{}, false
	}
	_, err = Load(Spec{NamedBy: named, Systems: []SystemSpec{{Name: "a", Input: testdata("basic.csv")}, {Name: "s", Input: "testdata"}}})
	want = "paper.yaml:4:12: systems[1].input: cannot open testdata: it is a directory, expected a file (a relative path is read from the folder of paper.yaml)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// sameDataset reports where d differs from want: the first differing
// queries and rows of the first system, then the rest of the Dataset.
func sameDataset(t *testing.T, d, want *Dataset) {
	t.Helper()
	if reflect.DeepEqual(d, want) {
		return
	}
	for i := range want.Queries {
		if i < len(d.Queries) && !reflect.DeepEqual(d.Queries[i], want.Queries[i]) {
			t.Errorf("query %d:\n got %+v\nwant %+v", i, d.Queries[i], want.Queries[i])
		}
		if i < len(d.Systems[0].Rows) && !reflect.DeepEqual(d.Systems[0].Rows[i], want.Systems[0].Rows[i]) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, d.Systems[0].Rows[i], want.Systems[0].Rows[i])
		}
	}
	dc, wc := *d, *want
	dc.Queries, wc.Queries = nil, nil
	dc.Systems, wc.Systems = nil, nil
	t.Errorf("dataset:\n got %+v\nwant %+v", dc, wc)
}
