package report

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Vocabulary is the words of one kind of input, chosen once from
// Report.Kind and used by every renderer: evidence retrieval speaks of
// posts, criteria, evidence sentences, the NE gate and the clinical
// gate; TREC runs of queries, documents, relevant documents, runs and
// judgments; a classifier of cases, positives and negatives and the
// classifier's score. The bundle's own texts are written
// in the evidence-retrieval words; Say puts them in the kind's. Metric ids,
// JSON keys, column names of the input and config values are never
// changed.
type Vocabulary struct {
	Kind InputKind
	// Unit is what one row of the evaluation is (post-level rows are
	// queries; a classifier's rows are cases); Units its plural.
	Unit, Units string
	// Items is what a ranking ranks (sentences, documents; "" for a
	// classifier); Relevant the ones that count (evidence sentences,
	// relevant documents, positives).
	Items, Relevant string
	// System is what one compared input is called (system, run).
	System string
	// Grouped: the words of a TREC or classifier input whose post_id
	// groups several eval rows (see groupPairs).
	Grouped bool
	rules   []wordRule
}

// wordRule replaces one phrase of the evidence-retrieval words.
type wordRule struct {
	re    *regexp.Regexp
	to    string
	lower string // the phrase in lower case: a text without it is skipped unread by re
	upper bool   // the phrase starts with a capital (NE gate): a capital in the text says nothing
}

// vocabularies are the words of each kind, and the phrases Say replaces,
// longest first (a phrase is matched whole, at word boundaries, in any
// case of its first letter).
var vocabularies = map[InputKind]struct {
	unit, units, items, relevant, system string
	pairs                                []string
}{
	KindEvidence: {"query", "queries", "sentences", "evidence sentences", "system", nil},
	KindTREC: {"query", "queries", "documents", "relevant documents", "run", []string{
		"evidence sentences", "relevant documents",
		"evidence sentence", "relevant document",
		"that are evidence", "that are relevant",
		"gold evidence sentences", "relevant documents",
		"gold sentences", "relevant documents",
		"gold items", "relevant documents",
		"gold item", "relevant document",
		"gold grades", "relevance grades",
		"the same gold", "the same relevance judgments",
		"other gold", "other relevance judgments",
		"gold evidence", "relevant documents",
		"without evidence", "without a relevant document",
		"with evidence", "with a relevant document",
		"has evidence", "has a relevant document",
		"have evidence", "have a relevant document",
		"positive queries", "queries with a relevant document",
		"positive query", "query with a relevant document",
		"no-evidence queries", "queries without a relevant document",
		"evidence queries", "queries with a relevant document",
		"evidence cases", "queries with a relevant document",
		"of evidence", "of relevant documents",
		"its evidence", "its relevant documents",
		"the evidence", "the relevant documents",
		"evidence", "relevant documents",
		"sentences", "documents",
		"sentence", "document",
		"|gold|", "|rel|",
		"gold", "relevant",
		"posts", "queries",
		"post", "query",
		"reviewer", "reader",
		"systems", "runs",
		"system", "run",
	}},
	KindClassifier: {"case", "cases", "", "positives", "classifier", []string{
		"NE gate: classification", "Classifier: discrimination",
		"NE gate: calibration", "Calibration",
		"Three-state clinical gate and deployment", "Clinical gate",
		"Three-state clinical gate", "Clinical gate",
		"evidence queries", "positive cases",
		"evidence cases", "positive cases",
		"queries with evidence", "positive cases",
		"queries without evidence", "negative cases",
		"query has evidence", "case is positive",
		"queries that have evidence", "positive cases",
		"without evidence", "negative",
		"with evidence", "positive",
		"has evidence", "is positive",
		"have evidence", "are positive",
		"NE gate", "classifier",
		"NE-gate", "classifier",
		"evidence", "positive",
		"posts", "cases",
		"post", "case",
		"queries", "cases",
		"query", "case",
		"gold", "label",
		"systems", "classifiers",
		"system", "classifier",
	}},
}

// groupPairs are the words of a post for a TREC or classifier input whose
// post_id groups several eval rows: a post is then a group of queries (of
// cases) that share a post_id, kept in one fold and resampled together by
// the bootstrap, never one query or one case. They come before the kind's
// own pairs, which would make a post a query (a case).
var groupPairs = map[InputKind][]string{
	KindTREC: {
		"resamples of posts", "resamples of query groups (the queries of a group drawn together)",
		"resample of posts", "resample of query groups (the queries of a group drawn together)",
		"posts", "query groups",
		"post", "query group",
	},
	KindClassifier: {
		"resamples of posts", "resamples of case groups (the cases of a group drawn together)",
		"resample of posts", "resample of case groups (the cases of a group drawn together)",
		"posts", "case groups",
		"post", "case group",
	},
}

// Vocabulary returns the words of the report's kind of input; a TREC or
// classifier input whose post_id groups several eval rows (fewer posts
// than eval queries) calls a post a query group (a case group).
func (r *Report) Vocabulary() Vocabulary {
	if r.Grouped() {
		return GroupedVocabularyOf(r.Kind())
	}
	return VocabularyOf(r.Kind())
}

// Grouped reports whether the eval rows fall into fewer groups (posts)
// than rows: some post_id holds two or more queries.
func (r *Report) Grouped() bool {
	return r.Dataset.Posts > 0 && r.Dataset.Posts < r.Dataset.EvalQueries
}

// VocabularyOf returns the words of kind k (evidence retrieval's for an
// unknown kind), each query (case) its own group.
func VocabularyOf(k InputKind) Vocabulary { return vocabularyOf(vocabKey{k, false}) }

// GroupedVocabularyOf returns the words of kind k when post_id groups
// several eval rows (see groupPairs); evidence retrieval's words are the
// same either way.
func GroupedVocabularyOf(k InputKind) Vocabulary { return vocabularyOf(vocabKey{k, true}) }

// vocabKey names one compiled vocabulary.
type vocabKey struct {
	kind    InputKind
	grouped bool
}

func vocabularyOf(k vocabKey) Vocabulary {
	if v, ok := compiled()[k]; ok {
		return v
	}
	return compiled()[vocabKey{KindEvidence, false}]
}

// compiled are the vocabularies with their rules compiled, once, when
// first asked for: compiling the rules' expressions takes about 10 ms,
// which every command would otherwise pay at start-up, before it can
// handle an interrupt.
var compiled = sync.OnceValue(func() map[vocabKey]Vocabulary {
	m := map[vocabKey]Vocabulary{}
	for k := range vocabularies {
		for _, g := range []bool{false, true} {
			m[vocabKey{k, g}] = compileVocabulary(k, g)
		}
	}
	return m
})

// compileVocabulary builds the vocabulary of kind k from its table, with
// the group words first when grouped.
func compileVocabulary(k InputKind, grouped bool) Vocabulary {
	w := vocabularies[k]
	v := Vocabulary{Kind: k, Unit: w.unit, Units: w.units, Items: w.items, Relevant: w.relevant, System: w.system}
	pairs := w.pairs
	if grouped && len(pairs) > 0 {
		v.Grouped = true
		pairs = append(slices.Clone(groupPairs[k]), pairs...)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		first, _ := utf8.DecodeRuneInString(pairs[i])
		v.rules = append(v.rules, wordRule{re: phraseRE(pairs[i]), to: pairs[i+1], lower: strings.ToLower(pairs[i]), upper: unicode.IsUpper(first)})
	}
	return v
}

// phraseRE matches phrase whole, its first letter in either case.
func phraseRE(phrase string) *regexp.Regexp {
	r, n := utf8.DecodeRuneInString(phrase)
	first := regexp.QuoteMeta(string(r))
	if unicode.IsLetter(r) {
		first = "[" + string(unicode.ToLower(r)) + string(unicode.ToUpper(r)) + "]"
	}
	pre, post := `(^|[^\p{L}\p{N}_])`, `($|[^\p{L}\p{N}_])`
	return regexp.MustCompile(pre + "(" + first + regexp.QuoteMeta(phrase[n:]) + ")" + post)
}

// Say writes s, a text of the bundle in the evidence-retrieval words, in
// the vocabulary's words; evidence retrieval's own vocabulary returns s.
func (v Vocabulary) Say(s string) string {
	if len(v.rules) == 0 || s == "" {
		return s
	}
	lower := strings.ToLower(s)
	for _, r := range v.rules {
		if !strings.Contains(lower, r.lower) || !r.re.MatchString(s) {
			continue
		}
		// Matches share no boundary character with the next one only
		// when run twice: "post post" has two.
		for range 2 {
			s = r.re.ReplaceAllStringFunc(s, func(m string) string {
				sub := r.re.FindStringSubmatch(m)
				to := r.to
				// Capitalised in the text (or a capital phrase at its start):
				// so is the replacement.
				if first, _ := utf8.DecodeRuneInString(sub[2]); unicode.IsUpper(first) && (!r.upper || sub[1] == "") {
					t, n := utf8.DecodeRuneInString(to)
					to = string(unicode.ToUpper(t)) + to[n:]
				}
				return sub[1] + to + sub[3]
			})
		}
		lower = strings.ToLower(s)
	}
	return s
}

// SayAll rewrites, with Say, every exported string field (and string in a
// slice, array, map value or pointer) reachable from ptr, a pointer to a
// struct, except the fields named in keep ("Label" any field so named,
// "Cell.Text" the field Text of a struct type named Cell) and everything
// below them: the
// user's own text (system names and labels), ids, anchors and numbers
// are named there by the caller. Evidence retrieval's vocabulary changes
// nothing.
func (v Vocabulary) SayAll(ptr any, keep ...string) {
	if len(v.rules) == 0 {
		return
	}
	skip := map[string]bool{}
	for _, k := range keep {
		skip[k] = true
	}
	v.sayValue(reflect.ValueOf(ptr), skip)
}

func (v Vocabulary) sayValue(x reflect.Value, skip map[string]bool) {
	switch x.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !x.IsNil() {
			v.sayValue(x.Elem(), skip)
		}
	case reflect.Struct:
		t := x.Type()
		for i := range x.NumField() {
			f := t.Field(i)
			if f.IsExported() && !skip[f.Name] && !skip[t.Name()+"."+f.Name] {
				v.sayValue(x.Field(i), skip)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range x.Len() {
			v.sayValue(x.Index(i), skip)
		}
	case reflect.Map:
		if x.Type().Elem().Kind() != reflect.String {
			for _, k := range x.MapKeys() {
				e := reflect.New(x.Type().Elem()).Elem()
				e.Set(x.MapIndex(k))
				v.sayValue(e, skip)
				x.SetMapIndex(k, e)
			}
			return
		}
		for _, k := range x.MapKeys() {
			x.SetMapIndex(k, reflect.ValueOf(v.Say(x.MapIndex(k).String())).Convert(x.Type().Elem()))
		}
	case reflect.String:
		// Written only when the words change: a text already in the
		// kind's words is left alone (and not written at all).
		if x.CanSet() {
			if said := v.Say(x.String()); said != x.String() {
				x.SetString(said)
			}
		}
	}
}

// sayModel writes the report's own sentences (warnings, checks, notes,
// reasons) in the words of its kind of input, once, when the report is
// computed; metrics_master.json keeps them so.
func (c *computer) sayModel() {
	v := c.rep.Vocabulary()
	if len(v.rules) == 0 {
		return
	}
	for i, w := range c.rep.Warnings {
		c.rep.Warnings[i] = v.Say(w)
	}
	for i := range c.rep.Checks {
		c.rep.Checks[i].Detail = v.Say(c.rep.Checks[i].Detail)
	}
	for i, n := range c.rep.Dataset.Notes {
		c.rep.Dataset.Notes[i] = v.Say(n)
	}
	for i := range c.rep.Capabilities.Absent {
		a := &c.rep.Capabilities.Absent[i]
		a.Reason = v.Say(a.Reason)
	}
}

// Expects reports whether a user of the vocabulary's kind of input could
// expect capability x, so that its absence is worth saying: a TREC user
// does not expect an NE gate, Dynamic-K, a clinical gate or per-criterion
// results, a classifier's user no ranking, Dynamic-K or per-post results.
// metrics_master.json keeps every absent capability with its reason.
func (v Vocabulary) Expects(x Capability) bool {
	switch v.Kind {
	case KindTREC:
		switch x {
		case NEGate, Calibration, FixedTau, HeldOut, DynamicK, ClinicalGate, EndToEnd, PerCriterion, PerPost:
			return false
		}
	case KindClassifier:
		switch x {
		case Ranking, Strata, DynamicK, EndToEnd, PerCriterion, PerPost:
			return false
		}
	}
	return true
}

// hasWord reports whether s holds the phrase at word boundaries, in any
// case (for tests of the words of a kind).
func hasWord(s, phrase string) bool {
	return phraseRE(strings.ToLower(phrase)).MatchString(strings.ToLower(s))
}

// SayMarkdown is Say on Markdown text, leaving `code spans` (config keys
// and values, ids, column names) as they are.
func (v Vocabulary) SayMarkdown(s string) string {
	if len(v.rules) == 0 {
		return s
	}
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = v.Say(parts[i])
	}
	return strings.Join(parts, "`")
}
