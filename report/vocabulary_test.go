package report

import "testing"

// TestSay: the evidence-retrieval words of the bundle's own text in the
// words of each kind, whole phrases only, the first letter's case kept;
// ids, keys and longer words that contain a phrase are left alone.
func TestSay(t *testing.T) {
	for _, tc := range []struct {
		kind     InputKind
		in, want string
	}{
		{KindTREC, "30 with evidence (96.8%).", "30 with a relevant document (96.8%)."},
		{KindTREC, "Evidence found in the top 10", "Relevant documents found in the top 10"},
		{KindTREC, "3 gold items are missing; post post", "3 relevant documents are missing; query query"},
		{KindTREC, "reference_system posts_per_fold gold_uids rank.ndcg@10", "reference_system posts_per_fold gold_uids rank.ndcg@10"},
		{KindTREC, "Share of the first K sentences that are evidence.", "Share of the first K documents that are relevant."},
		{KindTREC, "2 systems; the primary system", "2 runs; the primary run"},
		{KindClassifier, "NE gate: classification", "Classifier: discrimination"},
		{KindClassifier, "How well the NE gate separates queries with evidence from queries without", "How well the classifier separates positive cases from cases without"},
		{KindClassifier, "10,000 resamples of posts", "10,000 resamples of cases"},
		{KindEvidence, "30 with evidence; NE gate; posts", "30 with evidence; NE gate; posts"},
	} {
		if got := VocabularyOf(tc.kind).Say(tc.in); got != tc.want {
			t.Errorf("%s: Say(%q) = %q, want %q", tc.kind, tc.in, got, tc.want)
		}
		if !hasWord(tc.want, tc.want) {
			t.Errorf("hasWord(%q) false", tc.want)
		}
	}
	if VocabularyOf(KindTREC).Say(VocabularyOf(KindTREC).Say("evidence sentences")) != "relevant documents" {
		t.Error("Say is not idempotent")
	}
}

// TestSayAllKeeps: SayAll leaves the fields named in keep, by name or as
// Type.Field, and rewrites the others, in slices and pointers too.
func TestSayAllKeeps(t *testing.T) {
	type cell struct{ Text, Note string }
	type page struct {
		Title  string
		Label  string
		Cells  []cell
		Ptr    *cell
		Counts map[string]string
	}
	p := page{Title: "posts", Label: "gold run", Cells: []cell{{"post", "post"}}, Ptr: &cell{"evidence", "evidence"}, Counts: map[string]string{"k": "gold"}}
	VocabularyOf(KindTREC).SayAll(&p, "Label", "cell.Text")
	want := page{Title: "queries", Label: "gold run", Cells: []cell{{"post", "query"}}, Ptr: &cell{"evidence", "relevant documents"}, Counts: map[string]string{"k": "relevant"}}
	if p.Title != want.Title || p.Label != want.Label || p.Cells[0] != want.Cells[0] || *p.Ptr != *want.Ptr || p.Counts["k"] != "relevant" {
		t.Errorf("SayAll = %+v %+v, want %+v %+v", p, *p.Ptr, want, *want.Ptr)
	}
}

// TestSayGrouped: when post_id groups several eval rows of a TREC or
// classifier input, a post is a group of queries (of cases) that the
// bootstrap draws whole, never one query or one case; evidence
// retrieval's words are the same grouped or not.
func TestSayGrouped(t *testing.T) {
	for _, tc := range []struct {
		kind     InputKind
		in, want string
	}{
		{KindClassifier, "percentile bootstrap, 10,000 resamples of posts, 95% confidence level",
			"percentile bootstrap, 10,000 resamples of case groups (the cases of a group drawn together), 95% confidence level"},
		{KindClassifier, "Every post is evaluated in exactly one fold; 200 posts", "Every case group is evaluated in exactly one fold; 200 case groups"},
		{KindClassifier, "the bootstrap resamples only 12 eval posts; 40 queries", "the bootstrap resamples only 12 eval case groups; 40 cases"},
		{KindTREC, "1 resample of posts; Posts per fold", "1 resample of query groups (the queries of a group drawn together); Query groups per fold"},
		{KindEvidence, "10,000 resamples of posts", "10,000 resamples of posts"},
	} {
		v := GroupedVocabularyOf(tc.kind)
		if got := v.Say(tc.in); got != tc.want {
			t.Errorf("%s: Say(%q) = %q, want %q", tc.kind, tc.in, got, tc.want)
		}
		if again := v.Say(tc.want); again != tc.want {
			t.Errorf("%s: Say is not idempotent: %q -> %q", tc.kind, tc.want, again)
		}
	}
	// The report decides: fewer posts than eval queries is grouped.
	r := &Report{Settings: Settings{InputKind: KindClassifier}, Dataset: DatasetSummary{Posts: 200, EvalQueries: 400}}
	if !r.Vocabulary().Grouped || r.Vocabulary().Say("posts") != "case groups" {
		t.Errorf("200 posts of 400 cases: Vocabulary() = %+v, want grouped", r.Vocabulary())
	}
	r.Dataset.Posts = 400
	if r.Vocabulary().Grouped || r.Vocabulary().Say("posts") != "cases" {
		t.Errorf("400 posts of 400 cases: Vocabulary() grouped")
	}
}
