package dataset

import (
	"math"
	"reflect"
	"testing"
)

// The Parquet tests of this file give the table parser typed values: a
// number read as a number, a boolean as a boolean, an integer id, and the
// messages about them name the row and column.

// typedRow is a classifier-only row with typed columns as polars writes
// them: an integer query id, a float fold (a column that held a null), a
// boolean label, a float32 probability.
type typedRow struct {
	QueryID     *int64   `parquet:"query_id,optional"`
	PostID      *string  `parquet:"post_id,optional"`
	CriterionID *string  `parquet:"criterion_id,optional"`
	Fold        *float64 `parquet:"fold,optional"`
	Split       *string  `parquet:"split,optional"`
	HasEvidence *bool    `parquet:"has_evidence,optional"`
	Label       *int64   `parquet:"label,optional"`
	NEProb      *float32 `parquet:"ne_prob,optional"`
}

// longParquetRow is a row of the long layout.
type longParquetRow struct {
	PostID *string  `parquet:"post_id,optional"`
	UID    *string  `parquet:"candidate_uid,optional"`
	Score  *float64 `parquet:"score,optional"`
	IsGold *int64   `parquet:"is_gold,optional"`
	NEProb *float64 `parquet:"ne_prob,optional"`
}

// bytesRow has a post_id of raw bytes (not necessarily UTF-8) and
// required lists.
type bytesRow struct {
	PostID     []byte    `parquet:"post_id"`
	GoldUIDs   []string  `parquet:"gold_uids,list"`
	Candidates []string  `parquet:"candidate_uids,list"`
	Scores     []float64 `parquet:"candidate_scores,list"`
}

// decimalRow has a DECIMAL score column (pandas' Decimal objects).
type decimalRow struct {
	PostID      string `parquet:"post_id"`
	HasEvidence bool   `parquet:"has_evidence"`
	NEScore     int64  `parquet:"ne_score,decimal(2:18)"`
}

func ptr[T any](x T) *T { return &x }

// TestParquetTypedValues: typed columns give the Dataset of the CSV a
// pandas or polars frame of the same values writes (integer ids in
// decimal, 1.0 for fold 1, true for 1, a float32 0.1 as 0.1).
func TestParquetTypedValues(t *testing.T) {
	rows := []typedRow{
		{QueryID: ptr[int64](7), Fold: ptr(1.0), Split: ptr("eval"), HasEvidence: ptr(true), NEProb: ptr[float32](0.1)},
		{QueryID: ptr[int64](8), Fold: ptr(1.0), Split: ptr("tune"), HasEvidence: ptr(false), NEProb: ptr[float32](0.7)},
		{QueryID: ptr[int64](9), Fold: ptr(0.0), Split: ptr("eval"), HasEvidence: ptr(false), NEProb: ptr[float32](0.25)},
	}
	csv := "query_id,fold,split,has_evidence,ne_prob\n7,1,eval,1,0.1\n8,1.0,tune,0,0.7\n9,0,eval,false,0.25\n"
	got, err := loadAs(t, "typed.parquet", parquetBytes(t, rows, 2))
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadAs(t, "typed.csv", csv)
	if err != nil {
		t.Fatal(err)
	}
	got.Systems[0].Source = want.Systems[0].Source // the file's name
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet:\n%+v\nCSV:\n%+v", got, want)
	}
}

// exportRow is a classifier's row that exports the candidate columns too,
// as lists, and a candidate_uids joined into one string.
type exportRow struct {
	PostID      *string   `parquet:"post_id,optional"`
	Candidates  *string   `parquet:"candidate_uids,optional"`
	Scores      []float64 `parquet:"candidate_scores,list"`
	HasEvidence *bool     `parquet:"has_evidence,optional"`
	NEScore     *float64  `parquet:"ne_score,optional"`
}

// TestParquetEmptyCandidates: a classifier's table with empty candidate
// columns (a null string, an empty list) is classifier-only, as in CSV; a
// value in one of them is an error at its row and column.
func TestParquetEmptyCandidates(t *testing.T) {
	rows := []exportRow{
		{PostID: ptr("p1"), HasEvidence: ptr(true), NEScore: ptr(2.5)},
		{PostID: ptr("p2"), Scores: []float64{}, HasEvidence: ptr(false), NEScore: ptr(-1.0)},
	}
	got, err := loadAs(t, "c.parquet", parquetBytes(t, rows, 1))
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadAs(t, "c.csv", "post_id,candidate_uids,candidate_scores,has_evidence,ne_score\np1,,,1,2.5\np2,,[],0,-1\n")
	if err != nil {
		t.Fatal(err)
	}
	got.Systems[0].Source = want.Systems[0].Source
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet:\n%+v\nCSV:\n%+v", got, want)
	}
	rows[1].Scores = []float64{0.5}
	rows[0].Candidates = ptr("a;b")
	_, err = loadAs(t, "c.parquet", parquetBytes(t, rows, 1))
	want1 := "c.parquet:1:2: row 1 (row group 1, row 1 in it), column candidate_uids: candidate_uids has a value but the table has no gold_uids column: a table with a label and a score whose candidate columns are empty on every row is classifier-only; give gold_uids for ranked queries, or leave candidate_uids empty\n" +
		"c.parquet:2:3: row 2 (row group 2, row 1 in it), column candidate_scores: candidate_scores has a value but the table has no gold_uids column: a table with a label and a score whose candidate columns are empty on every row is classifier-only; give gold_uids for ranked queries, or leave candidate_scores empty"
	if err == nil || err.Error() != want1 {
		t.Errorf("error:\n%v\nwant:\n%s", err, want1)
	}
}

func TestParquetValueErrors(t *testing.T) {
	s, f, i := ptr[string], ptr[float64], ptr[int64]
	ok := func(post string) typedRow {
		return typedRow{PostID: s(post), HasEvidence: ptr(true), NEProb: ptr[float32](0.5)}
	}
	with := func(r typedRow, edit func(*typedRow)) typedRow { edit(&r); return r }
	long := func(post, uid string, score float64, gold int64, ne *float64) longParquetRow {
		return longParquetRow{PostID: s(post), UID: s(uid), Score: f(score), IsGold: i(gold), NEProb: ne}
	}
	nan := math.NaN()
	cases := []struct {
		name, content string
		want          string
	}{
		{"fold 1.5", parquetBytes(t, []typedRow{with(ok("p1"), func(r *typedRow) { r.Fold = f(1.5) })}, 1),
			"s.parquet:1:4: row 1 (row group 1, row 1 in it), column fold: fold is 1.5, expected a non-negative integer"},
		{"ne_prob NaN", parquetBytes(t, []typedRow{with(ok("p1"), func(r *typedRow) { r.NEProb = ptr(float32(nan)) })}, 1),
			"s.parquet:1:8: row 1 (row group 1, row 1 in it), column ne_prob: ne_prob is NaN, expected a probability in [0, 1] (NaN is not a missing value: write a null for a missing optional value, e.g. fill_nan(None) in polars)"},
		{"ne_prob 2", parquetBytes(t, []typedRow{ok("p1"), with(ok("p2"), func(r *typedRow) { r.NEProb = ptr[float32](2) })}, 1),
			"s.parquet:2:8: row 2 (row group 2, row 1 in it), column ne_prob: ne_prob is 2, expected a probability in [0, 1]"},
		{"label 2", parquetBytes(t, []typedRow{with(ok("p1"), func(r *typedRow) { r.HasEvidence, r.Label = nil, i(2) })}, 1),
			"s.parquet:1:7: row 1 (row group 1, row 1 in it), column label: label is 2, expected 0 or 1"},
		{"split a number", parquetBytes(t, []typedRow{with(ok("p1"), func(r *typedRow) { r.Split = s("3") })}, 1),
			`s.parquet:1:5: row 1 (row group 1, row 1 in it), column split: split is "3", expected eval, tune, test, val, dev or train`},
		// The row named in the message is a row of the file (it was the
		// line of the CSV text the file was once transcoded into).
		{"criterion on some rows", parquetBytes(t, []typedRow{with(ok("p1"), func(r *typedRow) { r.CriterionID = s("c") }), ok("p2")}, 2),
			"s.parquet:2:1: row 2 (row group 1, row 2 in it): criterion_id is missing, but row 1 has one; expected criterion_id on every row or on none"},
		{"long: candidate twice", parquetBytes(t, []longParquetRow{long("p1", "a", 1, 1, nil), long("p1", "a", 2, 0, nil)}, 1),
			`s.parquet:2:2: row 2 (row group 2, row 1 in it), column candidate_uid: candidate_uid "a" appears twice in the same query (rows 1 and 2), expected one row per candidate`},
		{"long: two ne_prob", parquetBytes(t, []longParquetRow{long("p1", "a", 1, 1, f(0.2)), long("p1", "b", 2, 0, f(0.3))}, 1),
			"s.parquet:2:5: row 2 (row group 2, row 1 in it), column ne_prob: ne_prob is 0.3 here but 0.2 on row 1, a row of the same query, expected one ne_prob per query (the same on every row of it, or empty)"},
		{"long: is_gold 2", parquetBytes(t, []longParquetRow{long("p1", "a", 1, 2, nil)}, 1),
			"s.parquet:1:4: row 1 (row group 1, row 1 in it), column is_gold: is_gold is 2, expected 0 or 1"},
		{"long: NaN score", parquetBytes(t, []longParquetRow{long("p1", "a", nan, 1, nil)}, 1),
			"s.parquet:1:3: row 1 (row group 1, row 1 in it), column score: score is NaN, expected a finite number"},
		{"not UTF-8", parquetBytes(t, []bytesRow{{PostID: []byte("p\xe91"), GoldUIDs: []string{"a"}, Candidates: []string{"a"}, Scores: []float64{1}}}, 1),
			`s.parquet:1:1: row 1 (row group 1, row 1 in it), column post_id: invalid UTF-8 (byte 0xe9, which is "é" in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`},
		{"empty id", parquetBytes(t, []bytesRow{{PostID: []byte("p1"), GoldUIDs: []string{""}, Candidates: []string{"a"}, Scores: []float64{1}}}, 1),
			"s.parquet:1:2: row 1 (row group 1, row 1 in it), column gold_uids: gold_uids item 1 is an empty string, expected a non-empty id"},
		{"candidate twice", parquetBytes(t, []bytesRow{{PostID: []byte("p1"), GoldUIDs: []string{"a"}, Candidates: []string{"a", "a"}, Scores: []float64{1, 2}}}, 1),
			`s.parquet:1:3: row 1 (row group 1, row 1 in it), column candidate_uids: candidate_uids has "a" twice (items 1 and 2), expected distinct candidates`},
		// A DECIMAL's integers are not its numbers (250 for 2.50).
		{"decimal", parquetBytes(t, []decimalRow{{"p1", true, 250}}, 1),
			"s.parquet: column ne_score holds DECIMAL values, expected strings, integers, floats or booleans (cast it, e.g. df[col].astype(float))"},
		// A file of no rows (it ended in a panic when the messages were
		// placed through the CSV text).
		{"no rows", parquetBytes(t, []bytesRow{}, 1),
			"s.parquet: the file has no rows, expected one row per query"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.parquet"}}}, memFiles(map[string]string{"s.parquet": tc.content}))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// joinedRow has its lists joined into strings, as a frame whose list
// columns were written with .str.join(";") or json.dumps.
type joinedRow struct {
	PostID     string   `parquet:"post_id"`
	GoldUIDs   []string `parquet:"gold_uids,list"`
	Candidates string   `parquet:"candidate_uids"`
	Scores     string   `parquet:"candidate_scores"`
}

// TestParquetJoinedLists: a string column in place of a list is read as
// the CSV cell of the same text (s1;s2, or a JSON array).
func TestParquetJoinedLists(t *testing.T) {
	rows := []joinedRow{{"p1", []string{"b"}, "a;b", "0.5;0.75"}, {"p2", nil, `["a;x", "b"]`, "[1, 2]"}}
	got, err := loadAs(t, "j.parquet", parquetBytes(t, rows, 1))
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadAs(t, "j.csv", "post_id,gold_uids,candidate_uids,candidate_scores\np1,b,a;b,0.5;0.75\np2,,\"[\"\"a;x\"\", \"\"b\"\"]\",\"[1, 2]\"\n")
	if err != nil {
		t.Fatal(err)
	}
	got.Systems[0].Source = want.Systems[0].Source
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet:\n%+v\nCSV:\n%+v", got, want)
	}
	if c := got.Systems[0].Rows[1].Candidates; !reflect.DeepEqual(c, []string{"b", "a;x"}) {
		t.Errorf("p2's candidates %q, want b and a;x (ranked by score)", c)
	}
}
