package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

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
	r := &Report{PerQueryColumns: []metrics.ID{metrics.RankRecall.At(10), "rank.mrr"}}
	for i, s := range ids {
		r.PerQuery = append(r.PerQuery, PerQuery{System: s, Query: s + "#q", Post: s, Criterion: s, Fold: i % 3,
			NGold: i % 4, NCand: 10 + i, GoldInPool: i % 3, Difficulty: Num(float64(i) / 7), NEProb: NaN, State: "POS",
			SelectedK: i % 5, Values: []Num{Num(0.1 * float64(i%10)), NaN}})
		if i%2 == 0 {
			r.PerQuery[i].NEProb = Num(1 / float64(i+3))
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
	if len(back.PerQuery) != len(r.PerQuery) {
		t.Fatalf("%d rows back, wrote %d", len(back.PerQuery), len(r.PerQuery))
	}
	same := func(a, b Num) bool { return a == b || math.IsNaN(float64(a)) && math.IsNaN(float64(b)) }
	for i, w := range r.PerQuery {
		g := back.PerQuery[i]
		if g.System != w.System || g.Query != w.Query || g.Post != w.Post || g.Criterion != w.Criterion || g.Fold != w.Fold ||
			g.NGold != w.NGold || g.NCand != w.NCand || g.GoldInPool != w.GoldInPool || !same(g.Difficulty, w.Difficulty) ||
			!same(g.NEProb, w.NEProb) || g.State != w.State || g.SelectedK != w.SelectedK ||
			len(g.Values) != 2 || !same(g.Values[0], w.Values[0]) || !same(g.Values[1], w.Values[1]) {
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
	head := strings.Join(PerQueryHeader, ",") + ",rank.mrr\n"
	for _, c := range []struct{ in, want string }{
		{"", "pq.csv:1:1: the file is empty"},
		{"system,query\n", "pq.csv:1:1: 2 columns"},
		{strings.Replace(head, "post_id", "post", 1), `pq.csv:1:3: column 3 is "post", want "post_id"`},
		{head + "s,q,p,c,x,1,2,1,,,,3,0.5\n", `pq.csv:2:9: fold "x" is not an integer`},
		{head + "s,q,p,c,0,1,2,1,,,,3,abc\n", `pq.csv:2:22: rank.mrr "abc" is not a number`},
		{head + "s,q,p,c,0,1,2,1,,,,3\n", "pq.csv:2:1: wrong number of fields"},
		{head + "s,\"q,p\n", "pq.csv:2"},
	} {
		var r Report
		err := r.ReadPerQueryCSV("pq.csv", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
