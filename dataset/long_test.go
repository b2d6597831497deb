package dataset

import (
	"strings"
	"testing"
)

// TestLongLayout reads testdata/basic_long.csv, the table of basic.csv
// with one row per candidate (rows of a query not adjacent, a query-level
// row, a gold id that is not a candidate as a gold row without score):
// the Dataset is the hand-derived one of basic.csv.
func TestLongLayout(t *testing.T) {
	for _, name := range []string{"basic_long.csv", "basic_long.tsv", "basic_long.csv.gz"} {
		t.Run(name, func(t *testing.T) {
			var d *Dataset
			var err error
			switch name {
			case "basic_long.csv":
				d, err = Load(Spec{Systems: []SystemSpec{{Name: "full", Label: "Full pipeline", Input: testdata(name)}}})
				name = testdata(name)
			default:
				b := readTestdata(t, "basic_long.csv")
				if strings.Contains(name, "tsv") {
					b = toTSV(t, b)
				} else {
					b = gz(t, b)
				}
				d, err = loadAs(t, name, b)
			}
			if err != nil {
				t.Fatal(err)
			}
			want := wantBasic(name)
			sameDataset(t, d, want)
		})
	}
}

const longHdr = "post_id,candidate_uid,score,is_gold,ne_prob\n"

var longCases = []errCase{
	csvCase("long without score", "post_id,candidate_uid,is_gold\np,s1,1\n",
		"s.csv:1:1: missing column score: a header with candidate_uid is the long layout (one row per candidate), expected "+longColumnsText),
	csvCase("long without gold", "query_id,candidate_uid,score\np,s1,1\n",
		"s.csv:1:1: missing column is_gold (or rel): a header with candidate_uid is the long layout (one row per candidate), expected "+longColumnsText),
	csvCase("per-query value differs", longHdr+"p,s1,0.5,1,0.7\np,s2,0.4,0,0.6\n",
		`s.csv:3:12: ne_prob is "0.6" here but "0.7" on line 2, a row of the same query, expected one ne_prob per query (the same on every row of it, or empty)`),
	csvCase("candidate twice", longHdr+"p,s1,0.5,1,0.7\nq,s1,0.5,1,0.7\np,s1,0.4,0,0.7\n",
		`s.csv:4:3: candidate_uid "s1" appears twice in the same query (lines 2 and 4), expected one row per candidate`),
	csvCase("bad score", longHdr+"p,s1,nan,1,0.7\n",
		`s.csv:2:6: score is "nan", expected a finite number (a score must be a number; write an empty cell for a missing optional value)`),
	csvCase("empty score of a non-gold row", longHdr+"p,s1,,0,0.7\n",
		`s.csv:2:6: score is empty, expected a finite number (only a gold row with no node_prob and not selected may leave it empty: a gold id that is not a candidate)`),
	csvCase("is_gold not 0/1", longHdr+"p,s1,0.5,yes,0.7\n",
		`s.csv:2:10: is_gold is "yes", expected 0 or 1`),
	csvCase("score on a query-level row", longHdr+"p,,0.5,,0.7\n",
		`s.csv:2:4: score is "0.5" on a row without candidate_uid, expected it empty (a row with an empty candidate_uid gives only the query's own columns)`),
	csvCase("is_gold and rel", "post_id,candidate_uid,score,is_gold,rel\np,s1,1,1,1\n",
		"s.csv:1:37: columns is_gold and rel are both given, expected one of them: is_gold (0/1) or rel (a grade, 0 for not gold)"),
	csvCase("node_prob on some rows", "post_id,candidate_uid,score,is_gold,node_prob\np,s1,1,1,0.5\np,s2,1,0,\n",
		"s.csv:2:1: node_prob is given on 1 of the 2 candidate rows of this query, expected it on every candidate row of a query or on none"),
	csvCase("control character in candidate_uid", longHdr+"p,s\x1b1,0.5,1,0.7\n",
		`s.csv:2:3: candidate_uid is "s\x1b1": a control character (U+001B) at character 2, expected printable text (an id is written into CSV, HTML and the terminal; remove the character)`),
}

func TestLongErrors(t *testing.T) { runErrCases(t, longCases) }

// TestLongQueryLevelOnly: a query with only a query-level row has no
// candidates and no gold.
func TestLongQueryLevelOnly(t *testing.T) {
	d, err := loadOne(t, longHdr+"p,,,,0.3\nq,s1,0.5,1,0.9\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Queries) != 2 || d.Queries[0].ID != "p" || d.Queries[0].HasEvidence() || len(d.Systems[0].Rows[0].Candidates) != 0 || d.Systems[0].Rows[0].NEProb != 0.3 {
		t.Errorf("queries %+v rows %+v, want p without candidates nor gold, ne_prob 0.3", d.Queries, d.Systems[0].Rows)
	}
}
