package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"paperbundle/dataset"
	"paperbundle/internal/golden"
	hostile_ "paperbundle/internal/hostile"
	"paperbundle/metrics"
)

// perQueryFixture is a report whose per-query rows use every hostile
// string, and the criterion ids a spreadsheet would run as formulas, as
// system, query, post and criterion ids.
func perQueryFixture(t *testing.T) *Report {
	t.Helper()
	ids := append(hostile_.Strings(t), "-x", "=x", "+x", "@x", "'x", "'=x", "''", "'", "", "a,b", "a\"b", "line\nbreak")
	r := &Report{PerQueryColumns: []metrics.ID{metrics.RankRecall.At(10), "rank.mrr"},
		PerQueryFields: EvidenceFields{Label: true, Criteria: true, Candidates: true, Score: ScoreProb, State: true, SelectedK: true}}
	for i, s := range ids {
		r.PerQuery = append(r.PerQuery, Evidence{System: s, Query: s + "#q", Post: s, Criterion: s, Fold: i % 3, Label: i%3 == 1,
			NGold: i % 4, NCand: 10 + i, GoldInPool: i % 3, Difficulty: Num(float64(i) / 7), Score: NaN, State: dataset.State(i % 4),
			SelectedK: i % 5}.WithValues(Num(0.1*float64(i%10)), NaN))
		if i%2 == 0 {
			r.PerQuery[i].Score = Num(1 / float64(i+3))
			r.PerQuery[i].Difficulty = NaN
		}
	}
	return r
}

// TestPerQueryCSVRoundTrip: what WritePerQueryCSV writes,
// ReadPerQueryCSV reads back to the same rows, and writing those again
// gives the same bytes.
func TestPerQueryCSVRoundTrip(t *testing.T) {
	r := perQueryFixture(t)
	var first bytes.Buffer
	if err := r.WritePerQueryCSV(&first); err != nil {
		t.Fatal(err)
	}
	// A formula-like id is written with a leading ' (what a spreadsheet
	// shows as text), and read back without it.
	for _, want := range []string{"\n'-x,'-x#q,'-x,'-x,", "\n'=x,", "\n'+x,", "\n'@x,", "\n''x,", "\n''=x,"} {
		if !strings.Contains(first.String(), want) {
			t.Errorf("per_query_metrics.csv lacks %q", want)
		}
	}
	var back Report
	if err := back.ReadPerQueryCSV("per_query_metrics.csv", bytes.NewReader(first.Bytes())); err != nil {
		t.Fatal(err)
	}
	if len(back.PerQueryColumns) != 2 || back.PerQueryColumns[0] != "rank.recall@10" || back.PerQueryColumns[1] != "rank.mrr" {
		t.Fatalf("columns %q", back.PerQueryColumns)
	}
	if back.PerQueryFields != r.PerQueryFields {
		t.Errorf("fields %+v read back, wrote %+v", back.PerQueryFields, r.PerQueryFields)
	}
	if len(back.PerQuery) != len(r.PerQuery) {
		t.Fatalf("%d rows back, wrote %d", len(back.PerQuery), len(r.PerQuery))
	}
	same := func(a, b Num) bool { return a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b)) }
	for i, w := range r.PerQuery {
		g := back.PerQuery[i]
		if g.System != w.System || g.Query != w.Query || g.Post != w.Post || g.Criterion != w.Criterion || g.Fold != w.Fold || g.Label != w.Label ||
			g.NGold != w.NGold || g.NCand != w.NCand || g.GoldInPool != w.GoldInPool || !same(g.Difficulty, w.Difficulty) ||
			!same(g.Score, w.Score) || g.State != w.State || g.SelectedK != w.SelectedK ||
			!same(g.Value(0), w.Value(0)) || !same(g.Value(1), w.Value(1)) || !same(g.Value(2), NaN) {
			t.Errorf("row %d: read %+v, wrote %+v", i, g, w)
		}
	}
	var second bytes.Buffer
	if err := back.WritePerQueryCSV(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("written again, the bytes differ:\n%s", golden.Diff(first.Bytes(), second.Bytes()))
	}
}

// TestPerQueryCSVErrors: a malformed file is reported with its line and
// column and what was expected.
func TestPerQueryCSVErrors(t *testing.T) {
	head := "system,query_id,post_id,criterion_id,fold,label,n_gold,n_candidates,gold_in_pool,difficulty,ne_prob,state,selected_k,rank.mrr\n"
	for _, c := range []struct{ in, want string }{
		{"", "pq.csv:1:1: the file is empty"},
		{"system,query_id,post_id\n", "pq.csv:1:1: no fold column"},
		{strings.Replace(head, "post_id", "post", 1), `pq.csv:1:3: column "post" is neither an evidence column nor a metric id`},
		{head[:len(head)-1] + ",fold\n", `pq.csv:1:15: column "fold" appears twice`},
		{head + "s,q,p,c,x,1,1,2,1,,,,3,0.5\n", `pq.csv:2:9: fold "x" is not an integer`},
		{head + "s,q,p,c,0,2,1,2,1,,,,3,0.5\n", `pq.csv:2:11: label "2" is not a label, want 0 or 1`},
		{head + "s,q,p,c,0,1,1,2,1,,,maybe,3,0.5\n", `pq.csv:2:21: state "maybe" is not a gate state`},
		{head + "s,q,p,c,0,1,1,2,1,,,,3,abc\n", `pq.csv:2:24: rank.mrr "abc" is not a number`},
		{head + "s,q,p,c,0,1,1,2,1,,,,3\n", "pq.csv:2:1: wrong number of fields"},
		{head + "s,\"q,p\n", "pq.csv:2"},
	} {
		var r Report
		err := r.ReadPerQueryCSV("pq.csv", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// TestPerQueryCSVOlderFile: a file written before the label column reads
// with PerQueryFields.Label false (the paired tests then say the labels
// are missing instead of guessing them), its other columns as before.
func TestPerQueryCSVOlderFile(t *testing.T) {
	in := "system,query_id,post_id,criterion_id,fold,n_gold,n_candidates,gold_in_pool,difficulty,ne_prob,state,selected_k,rank.mrr\n" +
		"s,q,p,c,0,2,5,1,1.5,0.25,POS,3,0.5\n"
	var r Report
	if err := r.ReadPerQueryCSV("pq.csv", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	want := EvidenceFields{Criteria: true, Candidates: true, Score: ScoreProb, State: true, SelectedK: true}
	if r.PerQueryFields != want {
		t.Errorf("fields %+v, want %+v", r.PerQueryFields, want)
	}
	e := r.PerQuery[0]
	if e.NGold != 2 || e.Score != 0.25 || e.State != dataset.StatePOS || e.SelectedK != 3 || e.Value(0) != 0.5 || e.Label {
		t.Errorf("read %+v", e)
	}
}
