package audit

import (
	"slices"
	"sort"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// context is what the words around a number name: the systems, metrics
// and criteria of its cell, else its row or sentence, else its column's
// header, nearest first.
type context struct {
	systems []string
	metrics []metrics.ID
	slices  []report.Slice
	bound   bool // after "above", "below", "<", "by" ...: a bound or a change, not a value
	ref     bool // after "Section", "Table", "Eq." ...: a number of the document
}

// refWords come before numbers of the document itself, never values.
var refWords = map[string]bool{"section": true, "sec": true, "sections": true, "table": true, "tab": true,
	"tables": true, "figure": true, "fig": true, "figures": true, "eq": true, "equation": true, "chapter": true,
	"appendix": true, "page": true, "pages": true, "pp": true, "line": true, "lines": true, "step": true,
	"version": true, "ref": true, "item": true, "footnote": true, "theorem": true, "lemma": true,
	"algorithm": true, "part": true, "row": true, "column": true, "§": true, "listing": true, "definition": true}

// boundWords come before a number that is a bound, a target, a change or
// an approximation rather than a value: it may still match one, but never
// makes a mismatch.
var boundWords = map[string]bool{"above": true, "below": true, "over": true, "under": true, "least": true,
	"most": true, "than": true, "by": true, "exceeds": true, "exceed": true, "exceeding": true, "target": true,
	"threshold": true, "within": true, "to": true, "from": true, "between": true, "until": true,
	"up": true, "reach": true, "goal": true, "about": true, "approximately": true, "around": true,
	"roughly": true, "nearly": true, "almost": true, "~": true, "≈": true, "budget": true, "alpha": true, "α": true, "γ": true, "τ": true,
	"k": true, "tau": true, "gamma": true, "seed": true, "<": true, ">": true, "≥": true, "≤": true}

// contextOf returns the context of the number at text offset at, in cell
// c of segment g, from the mentions of the source (sorted by start).
func contextOf(text []byte, at int, g *segment, c int, ms []mention) context {
	var cx context
	cell := g.cells[c]
	in := func(lo, hi int) []mention { return mentionsIn(ms, lo, hi) }
	scopes := [][]mention{in(cell[0], cell[1])}
	if cell[0] != g.start || cell[1] != g.end {
		scopes = append(scopes, in(g.start, g.end))
	}
	if g.header != nil && c < len(g.header.cells) {
		hc := g.header.cells[c]
		scopes = append(scopes, in(hc[0], hc[1]))
	}
	for _, sc := range scopes {
		if cx.metrics == nil {
			cx.metrics = nearestMetrics(sc, at)
		}
		if cx.systems == nil {
			cx.systems = nearestSystems(sc, at)
		}
		if cx.slices == nil {
			for _, m := range sc {
				if m.p.kind == mSlice {
					cx.slices = append(cx.slices, m.p.slice)
				}
			}
		}
	}
	w := previousWord(text, at, g.start)
	cx.ref = refWords[w]
	cx.bound = boundWords[w]
	return cx
}

// mentionsIn returns the mentions that start in [lo, hi).
func mentionsIn(ms []mention, lo, hi int) []mention {
	i := sort.Search(len(ms), func(i int) bool { return ms[i].start >= lo })
	j := sort.Search(len(ms), func(i int) bool { return ms[i].start >= hi })
	return ms[i:j]
}

// byDistance calls f on the mentions (sorted by start) in order of
// their distance to at, a preceding one first on a tie: the ones before
// at and the ones after, each already in order of distance, merged.
func byDistance(ms []mention, at int, f func(mention)) {
	dist := func(m mention) int {
		if m.end <= at {
			return at - m.end
		}
		return m.start - at
	}
	r := sort.Search(len(ms), func(i int) bool { return ms[i].start >= at })
	l := r - 1
	for l >= 0 || r < len(ms) {
		if r >= len(ms) || l >= 0 && dist(ms[l]) <= dist(ms[r]) {
			f(ms[l])
			l--
		} else {
			f(ms[r])
			r++
		}
	}
}

func nearestMetrics(ms []mention, at int) []metrics.ID {
	var out []metrics.ID
	byDistance(ms, at, func(m mention) {
		if m.p.kind == mMetric {
			for _, id := range m.p.ids {
				out = appendID(out, id)
			}
		}
	})
	return out
}

func nearestSystems(ms []mention, at int) []string {
	var out []string
	byDistance(ms, at, func(m mention) {
		if m.p.kind == mSystem && !slices.Contains(out, m.p.system) {
			out = append(out, m.p.system)
		}
	})
	return out
}

// previousWord returns the word before text[at] in lower case (a
// relation sign such as < counts as a word), looking no further back than
// lo.
func previousWord(text []byte, at, lo int) string {
	i := at
	for i > lo && (text[i-1] == ' ' || text[i-1] == '(' || text[i-1] == '[' || text[i-1] == '\n' || text[i-1] == ':') {
		i--
	}
	if i > lo {
		switch text[i-1] {
		case '<', '>', '=', '~':
			return string(text[i-1])
		}
		for _, sym := range []string{"≥", "≤", "≈", "§", "α", "γ", "τ"} {
			if strings.HasSuffix(string(text[max(lo, i-len(sym)):i]), sym) {
				return sym
			}
		}
	}
	j := i
	for j > lo && text[j-1] == '.' {
		j--
	}
	k := j
	for k > lo && (isLetter(text[k-1]) || text[k-1] == '-') {
		k--
	}
	return strings.ToLower(string(text[k:j]))
}

// hasContext reports whether the context names anything.
func (cx context) hasContext() bool { return len(cx.systems) > 0 || len(cx.metrics) > 0 }
