package dataset

import (
	"reflect"
	"strings"
	"testing"
)

// TestClassifierOnly loads classifier-only tables: a label and an NE-gate
// score per row, no candidate lists. Expected values by hand from the
// files: the label is has_evidence (or label, or gold_uids when given), a
// row's NEScore is its ne_score, or its ne_prob when it gives one.
func TestClassifierOnly(t *testing.T) {
	t.Run("label and ne_score, CSV", func(t *testing.T) {
		d, err := loadOne(t, "query_id,label,ne_score\nq1,1,2.07\nq2,0,-1.5\nq3,1,0\n")
		if err != nil {
			t.Fatal(err)
		}
		if d.HasCandidates || d.HasNEProb || !d.HasNEScore {
			t.Errorf("HasCandidates %v, HasNEProb %v, HasNEScore %v; want false, false, true", d.HasCandidates, d.HasNEProb, d.HasNEScore)
		}
		var labels []bool
		var scores []float64
		for i, q := range d.Queries {
			labels = append(labels, q.HasEvidence())
			r := d.Systems[0].Rows[i]
			if r.HasNEProb || !r.HasNEScore || len(r.Candidates) != 0 {
				t.Errorf("row %d: %+v, want a score and no probability, no candidates", i, r)
			}
			scores = append(scores, r.NEScore)
		}
		if want := []bool{true, false, true}; !reflect.DeepEqual(labels, want) {
			t.Errorf("labels %v, want %v", labels, want)
		}
		if want := []float64{2.07, -1.5, 0}; !reflect.DeepEqual(scores, want) {
			t.Errorf("scores %v, want %v", scores, want)
		}
		found := false
		for _, n := range d.Notes {
			if strings.Contains(n, "scores are not probabilities") {
				found = true
			}
		}
		if !found {
			t.Errorf("notes %q lack \"scores are not probabilities\"", d.Notes)
		}
	})
	t.Run("has_evidence and ne_prob, JSON Lines", func(t *testing.T) {
		files := map[string]string{"s.jsonl": `{"post_id":"p1","has_evidence":1,"ne_prob":0.9}` + "\n" + `{"post_id":"p2","has_evidence":false,"ne_prob":0.2}` + "\n"}
		d, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.jsonl"}}}, memFiles(files))
		if err != nil {
			t.Fatal(err)
		}
		if d.HasCandidates || !d.HasNEProb || !d.HasNEScore {
			t.Errorf("HasCandidates %v, HasNEProb %v, HasNEScore %v; want false, true, true", d.HasCandidates, d.HasNEProb, d.HasNEScore)
		}
		if !d.Queries[0].HasEvidence() || d.Queries[1].HasEvidence() {
			t.Errorf("labels %v %v, want true false", d.Queries[0].HasEvidence(), d.Queries[1].HasEvidence())
		}
		if r := d.Systems[0].Rows[0]; r.NEProb != 0.9 || r.NEScore != 0.9 {
			t.Errorf("row 0: NEProb %v NEScore %v, want 0.9 0.9", r.NEProb, r.NEScore)
		}
	})
	t.Run("gold_uids as the label", func(t *testing.T) {
		d, err := loadOne(t, "post_id,gold_uids,ne_prob\np1,s1;s2,0.8\np2,,0.1\n")
		if err != nil {
			t.Fatal(err)
		}
		if !d.Queries[0].HasEvidence() || d.Queries[1].HasEvidence() || d.Queries[0].Label {
			t.Errorf("queries %+v, want evidence from gold on p1 only", d.Queries)
		}
	})
	t.Run("two systems with different labels", func(t *testing.T) {
		files := map[string]string{"a.csv": "post_id,label,ne_score\np1,1,3\n", "b.csv": "post_id,label,ne_score\np1,0,3\n"}
		_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}, {Name: "b", Input: "b.csv"}}}, memFiles(files))
		if err == nil || !strings.Contains(err.Error(), "the label (has_evidence) is 0 here and 1 there") {
			t.Errorf("error %v, want the labels named", err)
		}
	})
}

var classifierCases = []errCase{
	csvCase("ne_prob and ne_score", "post_id,label,ne_prob,ne_score\np,1,0.5,2\n",
		"s.csv:1:23: columns ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)"),
	csvCase("ne_score not finite", "post_id,label,ne_score\np,1,inf\n",
		`s.csv:2:5: ne_score is "inf", expected a finite number (a logit, a margin or any real score)`),
	csvCase("label and has_evidence disagree", "post_id,label,has_evidence,ne_score\np,1,0,2\n",
		"s.csv:2:3: label is 1 but has_evidence is 0, expected the same value in both (each is the label)"),
	csvCase("label empty", "post_id,label,ne_score\np,,2\n",
		"s.csv:2:1: has_evidence (or label) is empty, expected 0 or 1: without gold_uids it is the label of the row"),
	csvCase("label not 0/1", "post_id,label,ne_score\np,yes please,2\n",
		`s.csv:2:3: label is "yes please", expected 0 or 1`),
	csvCase("classifier without a score", "post_id,label\np,1\n",
		"s.csv:1:1: missing column ne_prob (or ne_score), expected a header with post_id (or query_id), has_evidence or label (0/1), and ne_prob (a probability) or ne_score (any finite score) (a classifier-only table)"),
	csvCase("a classifier's own column names", "id,label,score\nq1,1,2.07\n",
		"s.csv:1:1: missing columns post_id (or query_id) and ne_prob (or ne_score), expected a header with post_id (or query_id), has_evidence or label (0/1), and ne_prob (a probability) or ne_score (any finite score) (a classifier-only table); rename id to query_id, score to ne_score (ne_prob if it is a probability)"),
	csvCase("candidate_uids without candidate_scores", "post_id,gold_uids,candidate_uids\np,,\n",
		"s.csv:1:1: missing column candidate_scores, expected a header with post_id (or query_id), gold_uids, candidate_uids and candidate_scores"),
	jsonlCase("jsonl both scores", `{"post_id":"p","label":1,"ne_prob":0.5,"ne_score":2}`+"\n",
		"s.jsonl:1:"+col(`{"post_id":"p","label":1,"ne_prob":0.5,"ne_score":2}`, `2}`)+": ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)"),
	jsonlCase("jsonl mixed layouts", `{"post_id":"p","label":1,"ne_score":2}`+"\n"+`{"post_id":"q","gold_uids":[],"candidate_uids":[],"candidate_scores":[]}`+"\n",
		"s.jsonl:2:48: candidate_uids is given, but line 1 has none; expected candidate_uids on every row or on none"),
}

func TestClassifierErrors(t *testing.T) { runErrCases(t, classifierCases) }

// TestEmptyCandidateColumns: a table with a label and a score whose
// candidate columns exist but are empty on every row (a pipeline that
// exports every column) is a classifier-only table, not a ranked table
// lacking gold_uids; a candidate cell with a value there is an error at
// that cell.
func TestEmptyCandidateColumns(t *testing.T) {
	ds, err := loadOne(t, "query_id,label,ne_prob,candidate_uids,candidate_scores,node_probs\nq1,1,0.9,,,\nq2,0,0.2,,,\nq3,1,0.6,[],[],\n")
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasCandidates || len(ds.Queries) != 3 || !ds.Queries[0].Label && !ds.Queries[1].Label && !ds.Queries[2].Label {
		t.Fatalf("HasCandidates %v, %d queries, labels %v %v %v", ds.HasCandidates, len(ds.Queries), ds.Queries[0].Label, ds.Queries[1].Label, ds.Queries[2].Label)
	}
	_, err = loadOne(t, "query_id,label,ne_prob,candidate_uids,candidate_scores\nq1,1,0.9,,\nq2,0,0.2,d1,0.5\n")
	if err == nil || !strings.Contains(err.Error(), ":3:10: candidate_uids has a value but the table has no gold_uids column") {
		t.Fatalf("err = %v", err)
	}
}

// TestEmptyCandidateKeysJSONL: the JSON Lines form of
// TestEmptyCandidateColumns.
func TestEmptyCandidateKeysJSONL(t *testing.T) {
	jl := `{"query_id": "q1", "label": 1, "ne_prob": 0.9, "candidate_uids": [], "candidate_scores": []}` + "\n" +
		`{"query_id": "q2", "label": 0, "ne_prob": 0.2, "candidate_uids": [], "candidate_scores": []}` + "\n"
	ds, err := load(Spec{Systems: []SystemSpec{{Name: "s", Input: "s.jsonl"}}}, memFiles(map[string]string{"s.jsonl": jl}))
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasCandidates || len(ds.Queries) != 2 {
		t.Fatalf("HasCandidates %v, %d queries", ds.HasCandidates, len(ds.Queries))
	}
}
