package dataset

import (
	"reflect"
	"slices"
	"testing"
)

// TestTRECConventions reads TREC files as trec_eval 10 does: '#' lines are
// comments in runs and qrels (also after blanks), fields after the sixth of
// a run line are ignored, the relevance level moves the gold, and
// MissingRunZero adds an empty row for a qrels query the run lacks.
//
//	qrels: q1 d1 2, d2 1, d3 0, d4 -1 (pooled, not judged); q2 d1 1
//	run:   q1 d4 0.9, d2 0.8, d1 0.7, d9 0.6 (q2 absent)
//
// At level 1: gold d1 (2), d2 (1); d3 judged non-relevant: NonRel 1;
// ranked d4 d2 d1 d9 with grades 0 1 2 0, judged F T T F.
// At level 2: gold d1 only; d2 and d3 judged non-relevant: NonRel 2;
// grades 0 0 2 0.
func TestTRECConventions(t *testing.T) {
	files := map[string]string{
		"qrels.txt": "# ir_metadata: header\nq1 0 d1 2\n  # indented comment\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 -1\nq2 0 d1 1\n",
		"r.txt":     "#run header\nq1 Q0 d4 1 0.9 tag extra fields here\nq1 Q0 d2 2 0.8 tag\n\t# comment\nq1 Q0 d1 3 0.7 tag x\nq1 Q0 d9 4 0.6 tag\n",
	}
	for _, tc := range []struct {
		name     string
		trec     TREC
		gold     []string
		rels     []int
		nonRel   int
		rowRel   []int
		rows     int
		conv     TRECConventions
		qrelsOnl int
	}{
		{"level 1", TREC{}, []string{"d1", "d2"}, []int{2, 1}, 1, []int{0, 1, 2, 0}, 1, TRECConventions{1, "zero", "skip"}, 1},
		{"level 2", TREC{RelevanceLevel: 2, NoRelevant: "skip"}, []string{"d1"}, []int{2}, 2, []int{0, 0, 2, 0}, 1, TRECConventions{2, "skip", "skip"}, 1},
		{"missing run zero", TREC{MissingRunZero: true}, []string{"d1", "d2"}, []int{2, 1}, 1, []int{0, 1, 2, 0}, 2, TRECConventions{1, "zero", "zero"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := *trecSpec(func(s *Spec) { s.TREC = tc.trec })
			d, err := load(spec, memFiles(files))
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Queries) != tc.rows {
				t.Fatalf("%d queries, want %d", len(d.Queries), tc.rows)
			}
			q := d.Queries[0]
			if !reflect.DeepEqual(q.Gold, tc.gold) || !reflect.DeepEqual(q.GoldRels, tc.rels) || q.NonRel != tc.nonRel || !q.TREC {
				t.Errorf("q1 gold %v %v nonrel %d, want %v %v %d", q.Gold, q.GoldRels, q.NonRel, tc.gold, tc.rels, tc.nonRel)
			}
			row := d.Systems[0].Rows[0]
			if want := []string{"d4", "d2", "d1", "d9"}; !reflect.DeepEqual(row.Candidates, want) {
				t.Errorf("candidates %v, want %v", row.Candidates, want)
			}
			if !reflect.DeepEqual(row.Rel, tc.rowRel) {
				t.Errorf("rel %v, want %v", row.Rel, tc.rowRel)
			}
			if want := []bool{false, true, true, false}; !reflect.DeepEqual(row.Judged, want) {
				t.Errorf("judged %v, want %v", row.Judged, want)
			}
			if tc.rows == 2 {
				q2, r2 := d.Queries[1], d.Systems[0].Rows[1]
				if q2.ID != "q2" || len(q2.Gold) != 1 || len(r2.Candidates) != 0 {
					t.Errorf("q2 %+v row %+v, want gold d1 and no candidates", q2, r2)
				}
			}
			if d.TRECConventions == nil || *d.TRECConventions != tc.conv {
				t.Errorf("conventions %+v, want %+v", d.TRECConventions, tc.conv)
			}
			if d.QrelsQueriesWithoutRun["r"] != tc.qrelsOnl {
				t.Errorf("qrels queries without run %v", d.QrelsQueriesWithoutRun)
			}
		})
	}
}

// Two runs that cover different qrels queries. With missing_run: skip
// each run keeps its own queries: the run without q2 has a row for it
// marked Absent (in none of its metrics), and a note names q2; with zero
// the run without q2 has an empty row for it that scores 0.
func TestTRECRunsCoverDifferentQueries(t *testing.T) {
	files := map[string]string{
		"qrels.txt": "q1 0 d1 1\nq2 0 d1 1\nq3 0 d1 1\n",
		"a.txt":     "q1 Q0 d1 1 0.5 t\nq2 Q0 d1 1 0.5 t\n",
		"b.txt":     "q1 Q0 d1 1 0.5 t\n",
	}
	spec := Spec{Qrels: "qrels.txt", Systems: []SystemSpec{{Name: "a", Input: "a.txt", Format: "trec"}, {Name: "b", Input: "b.txt", Format: "trec"}}}
	d, err := load(spec, memFiles(files))
	if err != nil {
		t.Fatal(err)
	}
	// q3 is in no run: no row. q2 is a's only.
	if len(d.Queries) != 2 || !d.PerSystemQueries || d.Systems[0].Rows[1].Absent || !d.Systems[1].Rows[1].Absent ||
		d.Systems[1].Rows[0].Absent || len(d.Systems[1].Rows[1].Candidates) != 0 || len(d.Queries[1].Gold) != 1 {
		t.Errorf("skip: queries %+v, rows %+v", d.Queries, d.Systems)
	}
	want := `b.txt: 2 qrels queries not in the run, left out of this system ("q2", "q3"); system b is evaluated on its own 1 query, and each comparison with it on the queries both systems have (missing_run: skip; trec_eval without -c stops with an error there, with -c it scores them 0).`
	if !slices.Contains(d.Notes, want) {
		t.Errorf("skip: notes %q lack %q", d.Notes, want)
	}
	spec.TREC.MissingRunZero = true
	d, err = load(spec, memFiles(files))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Queries) != 3 || d.PerSystemQueries || len(d.Systems[1].Rows[1].Candidates) != 0 || len(d.Systems[0].Rows[1].Candidates) != 1 {
		t.Errorf("zero: queries %+v, rows %+v", d.Queries, d.Systems)
	}
}
