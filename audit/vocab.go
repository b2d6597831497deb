package audit

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"paperbundle/metrics"
	"paperbundle/report"
)

// mentionKind is what a mention names.
type mentionKind uint8

const (
	mSystem mentionKind = iota
	mMetric
	mSlice
	mSignif    // "significant", "significantly"
	mNotSignif // "insignificant", "non-significant"
)

// pattern is a word or phrase of the vocabulary: a system's label or
// name, a metric's title or id, a criterion, the significance words.
type pattern struct {
	text   string // lower-cased unless cs
	cs     bool   // matched case-sensitively (all-capital titles such as MAP)
	kind   mentionKind
	system string       // mSystem: the system's name
	ids    []metrics.ID // mMetric: the ids it may name
	slice  report.Slice // mSlice
}

// mention is a pattern found in a source's scan text.
type mention struct {
	start, end int
	p          *pattern
}

// vocabulary is every pattern of the current bundle and its older
// versions.
type vocabulary struct{ pats []*pattern }

// vocabBuilder collects patterns, one per (kind, text).
type vocabBuilder map[string]*pattern

// add adds text as a pattern of kind, or finds it, and lets fill record
// what it names.
func (vb vocabBuilder) add(text string, kind mentionKind, fill func(*pattern)) {
	text = strings.TrimSpace(text)
	if len(text) < 2 {
		return
	}
	cs := allCaps(text)
	if !cs {
		text = strings.ToLower(text)
	}
	k := string(rune('0'+kind)) + text
	p := vb[k]
	if p == nil {
		p = &pattern{text: text, cs: cs, kind: kind}
		vb[k] = p
	}
	fill(p)
}

// newVocabulary collects the patterns of the given reports.
func newVocabulary(reps []*report.Report) *vocabulary {
	vb := vocabBuilder{}
	for _, r := range reps {
		vb.systems(r)
		vb.metrics(r)
	}
	for _, w := range []string{"significant", "significantly"} {
		vb.add(w, mSignif, func(*pattern) {})
	}
	for _, w := range []string{"insignificant", "non-significant", "nonsignificant", "not significant", "not significantly", "no significant"} {
		vb.add(w, mNotSignif, func(*pattern) {})
	}
	v := &vocabulary{}
	for _, p := range vb {
		v.pats = append(v.pats, p)
	}
	sort.Slice(v.pats, func(i, j int) bool {
		if v.pats[i].text != v.pats[j].text {
			return v.pats[i].text < v.pats[j].text
		}
		return v.pats[i].kind < v.pats[j].kind
	})
	return v
}

// systems adds a report's systems: every form of the label, and the
// name when it is not a plain lower-case word.
func (vb vocabBuilder) systems(r *report.Report) {
	for _, s := range r.Systems {
		name := s.Name
		sys := func(p *pattern) { p.system = name }
		for _, form := range labelForms(s.Label) {
			vb.add(form, mSystem, sys)
		}
		if strings.ContainsFunc(name, func(c rune) bool { return !unicode.IsLower(c) }) && !strings.Contains(name, ":") {
			vb.add(name, mSystem, sys) // dynamic_k, BM25; never a plain word like "full"
		}
	}
}

// metrics adds a report's metric ids and titles, and its criteria.
func (vb vocabBuilder) metrics(r *report.Report) {
	seen := map[metrics.ID]bool{}
	for _, m := range r.Metrics {
		if m.Slice.Kind() == "criterion" && m.Slice.Value() != "macro" {
			sl := m.Slice
			vb.add(sl.Value(), mSlice, func(p *pattern) { p.slice = sl })
		}
		if seen[m.ID] {
			continue
		}
		seen[m.ID] = true
		id := m.ID
		met := func(p *pattern) { p.ids = appendID(p.ids, id) }
		vb.add(string(id), mMetric, met)
		if id.Base().Family() == "data" {
			continue // "queries", "positive rate": words of any sentence, and counts the dataset has too
		}
		for _, form := range labelForms(metrics.Title(id)) {
			vb.add(form, mMetric, met)
		}
		if id == metrics.NEAUROC.ID() {
			vb.add("AUC", mMetric, met)
			vb.add("ROC AUC", mMetric, met)
		}
	}
}

func appendID(ids []metrics.ID, id metrics.ID) []metrics.ID {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

// labelForms are the ways a label is written in a text: as it is, without
// a trailing parenthesis ("Full pipeline (3-state gate)": "Full
// pipeline"), and without a leading "+ " ("+ Reranker": "Reranker").
func labelForms(label string) []string {
	out := []string{label}
	if i := strings.Index(label, " ("); i > 0 && strings.HasSuffix(label, ")") {
		out = append(out, label[:i])
	}
	for _, f := range out {
		if t, ok := strings.CutPrefix(f, "+ "); ok {
			out = append(out, t)
		}
	}
	return out
}

// allCaps reports whether a word is written in capitals only (AUROC, MAP,
// ECE): such a title is matched as written, so that "map" in prose is
// not MAP.
func allCaps(s string) bool {
	upper := 0
	for _, c := range s {
		if unicode.IsLower(c) {
			return false
		}
		if unicode.IsUpper(c) {
			upper++
		}
	}
	return upper >= 2
}

// find returns the mentions in text, sorted by start; where two overlap
// the longer is kept (nDCG@10 inside rank.ndcg@10 is the id).
func (v *vocabulary) find(text []byte) []mention {
	lower := asciiLower(text)
	var all []mention
	for _, p := range v.pats {
		hay := lower
		if p.cs {
			hay = text
		}
		needle := []byte(p.text)
		for off := 0; ; {
			i := bytes.Index(hay[off:], needle)
			if i < 0 {
				break
			}
			s, e := off+i, off+i+len(needle)
			if (s == 0 || !wordBefore(hay[:s])) && (e == len(hay) || !wordAfter(hay[e:])) {
				all = append(all, mention{start: s, end: e, p: p})
			}
			off = s + 1
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		if all[i].end != all[j].end {
			return all[i].end > all[j].end
		}
		return all[i].p.kind < all[j].p.kind
	})
	var out []mention
	for _, m := range all {
		if n := len(out); n > 0 && m.start < out[n-1].end {
			if m.start == out[n-1].start && m.end == out[n-1].end && m.p.kind != out[n-1].p.kind {
				out = append(out, m) // a label that is also a metric title: both
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// wordBefore and wordAfter report whether the text before or after a
// mention continues a word (a letter, non-ASCII ones too, a digit, _ or
// @): a mention must not start or end inside one.
func wordBefore(b []byte) bool {
	if c := b[len(b)-1]; c < 0x80 {
		return wordByte(c)
	}
	r, _ := utf8.DecodeLastRune(b)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func wordAfter(b []byte) bool {
	if b[0] < 0x80 {
		return wordByte(b[0])
	}
	r, _ := utf8.DecodeRune(b)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// wordByte reports whether an ASCII byte continues a word.
func wordByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '@'
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
