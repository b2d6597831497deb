package dataset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// This file holds the consistency checks of a load: duplicate rows within a
// system, the same gold in every system, and the fold leakage checks.

// keyCmp orders records by their identity (fold, split, query id).
func keyCmp(a, b *record) int {
	return cmpIdentity(recordKey{id: a.ID, fold: a.Fold, split: a.Split}, recordKey{id: b.ID, fold: b.Fold, split: b.Split})
}

// recordKey is the identity of record i of a source, copied out of the
// record so that sorting reads a small array rather than the records.
type recordKey struct {
	id    string
	fold  int
	split Split
	i     int
}

// cmpIdentity orders keys by (fold, split, query id), ignoring i.
func cmpIdentity(a, b recordKey) int {
	if c := cmp.Compare(a.fold, b.fold); c != 0 {
		return c
	}
	if c := cmp.Compare(a.split, b.split); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// cmpRecordKey orders keys as keyCmp orders their records; ties
// (duplicates) keep file order through the index tie-breaker.
func cmpRecordKey(a, b recordKey) int {
	if c := cmpIdentity(a, b); c != 0 {
		return c
	}
	return cmp.Compare(a.i, b.i)
}

// checkDuplicates sorts a source's records by key and reports rows that
// repeat a (query, fold, split).
func (ld *loader) checkDuplicates(src *source, c *collector) {
	recs := &src.recs
	n := recs.len()
	keys := make([]recordKey, n)
	inRanges(n, n, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			r := recs.at(i)
			keys[i] = recordKey{id: r.ID, fold: r.Fold, split: r.Split, i: i}
		}
	})
	if !slices.IsSortedFunc(keys, cmpRecordKey) {
		sortFunc(keys, cmpRecordKey)
	}
	src.order = make([]int, n)
	for k, key := range keys {
		src.order[k] = key.i
		if k == 0 {
			continue
		}
		if prev := keys[k-1]; prev.fold == key.fold && prev.split == key.split && prev.id == key.id {
			a, b := recs.at(prev.i), recs.at(key.i)
			c.add(b.idFile, b.idLine, 1, "%sduplicate row for query %q (fold %d, split %s): %s has it too, expected one row per (query, fold, split)", ld.rowPrefix(b.idFile, b.idLine), clip(b.ID), b.Fold, b.Split, ld.rowName(a.idFile, a.idLine))
		}
	}
}

// rowName names row n of file in a message: "line n" of a text input,
// "row n" of a Parquet one, whose positions are rows.
func (ld *loader) rowName(file string, n int) string {
	if ld.rows[file] {
		return fmt.Sprintf("row %d", n)
	}
	return fmt.Sprintf("line %d", n)
}

// rowIn names row n of file in a message about another file: "file:n" of
// a text input, "file row n" of a Parquet one.
func (ld *loader) rowIn(file string, n int) string {
	if ld.rows[file] {
		return fmt.Sprintf("%s row %d", file, n)
	}
	return fmt.Sprintf("%s:%d", file, n)
}

// rowPrefix starts a message about row n of a Parquet input with "row n: ",
// as the parser's own messages about its rows start (a message about a
// text input starts with its file:line:col position alone).
func (ld *loader) rowPrefix(file string, n int) string {
	if ld.rows[file] && n > 0 {
		return fmt.Sprintf("row %d: ", n)
	}
	return ""
}

// mismatch remembers the first (lowest line) of one kind of difference
// between two systems, and how many there are.
type mismatch struct {
	n    int
	line int
	emit func()
}

func (m *mismatch) see(line int, emit func()) {
	m.n++
	if m.emit == nil || line < m.line {
		m.line, m.emit = line, emit
	}
}

func (m *mismatch) more() string {
	if m.n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", m.n-1)
}

// compare checks that src covers the same (query, fold, split) rows as the
// first system, with the same post, criterion and gold. For each kind of
// difference it reports the first differing row, by line.
func (ld *loader) compare(first, src *source) {
	fa, fb := first.spec.Input, src.spec.Input
	var missing, extra, ident, gold mismatch
	i, j := 0, 0
	for i < len(first.order) || j < len(src.order) {
		var a, b *record
		if i < len(first.order) {
			a = first.recs.at(first.order[i])
		}
		if j < len(src.order) {
			b = src.recs.at(src.order[j])
		}
		c := 0
		switch {
		case a == nil:
			c = 1
		case b == nil:
			c = -1
		default:
			c = keyCmp(a, b)
		}
		switch {
		case c < 0:
			hint := ""
			if src.format == "trec" && ld.qrels != nil && ld.qrels.byQID[a.ID] != nil {
				hint = " (or trec.missing_run: zero, which scores a qrels query a run lacks 0, as trec_eval -c)"
			}
			missing.see(a.line, func() {
				ld.c.add(fa, a.line, 1, "%sthe row of query %q (fold %d, split %s) is missing from %s (system %s)%s, expected every system to cover the same (query, fold, split) rows%s", ld.rowPrefix(fa, a.line), clip(a.ID), a.Fold, a.Split, fb, src.spec.Name, missing.more(), hint)
			})
			i++
		case c > 0:
			hint := ""
			if first.format == "trec" && ld.qrels != nil && ld.qrels.byQID[b.ID] != nil {
				hint = " (or trec.missing_run: zero, which scores a qrels query a run lacks 0, as trec_eval -c)"
			}
			extra.see(b.line, func() {
				ld.c.add(fb, b.line, 1, "%squery %q (fold %d, split %s) is not in %s (the first system, %s)%s, expected every system to cover the same (query, fold, split) rows%s", ld.rowPrefix(fb, b.line), clip(b.ID), b.Fold, b.Split, fa, first.spec.Name, extra.more(), hint)
			})
			j++
		default:
			if a.Post != b.Post || a.Criterion != b.Criterion {
				ident.see(b.line, func() {
					ld.c.add(fb, b.line, 1, "%squery %q (fold %d, split %s) has post %q, criterion %q, but %s has post %q, criterion %q, expected the same in every system%s", ld.rowPrefix(fb, b.line), clip(b.ID), b.Fold, b.Split, clip(b.Post), clip(b.Criterion), ld.rowIn(fa, a.line), clip(a.Post), clip(a.Criterion), ident.more())
				})
			}
			if d := goldDiff(&a.Query, &b.Query); d != "" {
				gold.see(b.line, func() {
					col := b.goldAt.col
					if col == 0 {
						col = 1
					}
					ld.c.consistency(fb, b.line, col, "%sgold of query %q (fold %d, split %s) differs from %s: %s, expected the same gold in every system%s", ld.rowPrefix(fb, b.line), clip(b.ID), b.Fold, b.Split, ld.rowIn(fa, a.line), d, gold.more())
				})
			}
			i++
			j++
		}
	}
	for _, m := range []*mismatch{&missing, &extra, &ident, &gold} {
		if m.emit != nil {
			m.emit()
		}
	}
}

// goldDiff describes how b's gold differs from a's ("" when identical).
// Gold is a set: the same ids with the same grades agree in any order
// (a long table sorted by each system's scores lists them differently).
func goldDiff(a, b *Query) string {
	if len(a.Gold) != len(b.Gold) {
		return fmt.Sprintf("gold_uids has %d ids here and %d there", len(b.Gold), len(a.Gold))
	}
	grade := func(q *Query, k int) int {
		if k < len(q.GoldRels) {
			return q.GoldRels[k]
		}
		return 1
	}
	there := make(map[string]int, len(a.Gold))
	for k, id := range a.Gold {
		there[id] = grade(a, k)
	}
	for k, id := range b.Gold {
		g, ok := there[id]
		switch {
		case !ok:
			return fmt.Sprintf("gold id %q is here and not there", clip(id))
		case g != grade(b, k):
			return fmt.Sprintf("gold id %q has grade %d here and %d there", clip(id), grade(b, k), g)
		}
	}
	if a.Label != b.Label {
		return fmt.Sprintf("the label (has_evidence) is %s here and %s there", b01(b.Label), b01(a.Label))
	}
	return ""
}

// checkFolds runs the fold leakage checks (docs/input-format.md) on the first
// system (every other system has the same rows): a post is evaluated in at
// most one fold, and within a fold its rows are all eval or all tune.
func (ld *loader) checkFolds(src *source) {
	type postFold struct {
		post string
		fold int
	}
	type evalAt struct {
		fold, line int
		reported   bool
	}
	evalFold := make(map[string]*evalAt)
	evalLine := make(map[postFold]int)
	reported := make(map[postFold]bool)
	// src.order is by (fold, split, id): a fold's eval rows come before its
	// tune rows. A row of the same post and fold as the row checked before
	// it has nothing new to tell (the ids of a post's queries usually sort
	// together), which saves most map look-ups.
	var last *record
	for _, k := range src.order {
		r := src.recs.at(k)
		if r.Split != SplitEval {
			continue
		}
		if last != nil && r.Post == last.Post && r.Fold == last.Fold {
			continue
		}
		last = r
		if e := evalFold[r.Post]; e == nil {
			evalFold[r.Post] = &evalAt{fold: r.Fold, line: r.idLine}
		} else if e.fold != r.Fold && !e.reported {
			e.reported = true
			ld.c.consistency(r.idFile, r.idLine, 1, "%spost %q has eval rows in fold %d (%s) and in fold %d, expected each post evaluated in exactly one fold", ld.rowPrefix(r.idFile, r.idLine), clip(r.Post), e.fold, ld.rowName(r.idFile, e.line), r.Fold)
		}
		if _, ok := evalLine[postFold{r.Post, r.Fold}]; !ok {
			evalLine[postFold{r.Post, r.Fold}] = r.idLine
		}
	}
	last = nil
	for _, k := range src.order {
		r := src.recs.at(k)
		if r.Split != SplitTune {
			continue
		}
		if last != nil && r.Post == last.Post && r.Fold == last.Fold {
			continue
		}
		last = r
		key := postFold{r.Post, r.Fold}
		if line, ok := evalLine[key]; ok && !reported[key] {
			reported[key] = true
			ld.c.consistency(r.idFile, r.idLine, 1, "%spost %q has both eval rows (%s) and tune rows in fold %d, expected the tune and eval rows of a fold to share no post", ld.rowPrefix(r.idFile, r.idLine), clip(r.Post), ld.rowName(r.idFile, line), r.Fold)
		}
	}
}
