package dataset

import (
	"fmt"
	"strings"
)

// This file reads the long layout of a per-query table: one row per
// candidate (the natural shape of a pandas or polars frame), recognised by
// a header with candidate_uid (singular) and score. The rows of a query are
// gathered (they may come in any order, and need not be adjacent), turned
// into the raw row of the wide layout, and checked and ranked by the same
// code (finish), so that the same data in either layout gives the same
// Dataset.

// longCol is a per-candidate column of the long layout.
type longCol uint8

const (
	lcUID longCol = iota
	lcScore
	lcIsGold
	lcRel
	lcNodeProb
	lcSelected
	numLongCols
)

var longColNames = [numLongCols]string{
	lcUID:      "candidate_uid",
	lcScore:    "score",
	lcIsGold:   "is_gold",
	lcRel:      "rel",
	lcNodeProb: "node_prob",
	lcSelected: "selected",
}

func (c longCol) String() string { return longColNames[c] }

// longColByName finds a per-candidate column by name, ignoring case and
// surrounding space.
func longColByName(name string) (longCol, bool) {
	name = strings.TrimSpace(name)
	for c, n := range longColNames {
		if strings.EqualFold(n, name) {
			return longCol(c), true
		}
	}
	return 0, false
}

// longQueryCols are the per-query columns of the long layout: the same on
// every row of a query (or empty on some of them).
var longQueryCols = []column{colPost, colCriterion, colQuery, colFold, colSplit, colNEProb, colNEScore, colState, colHasEvidence, colLabel}

// longColumns holds where each column of a long table is (-1: absent).
type longColumns struct {
	q [numColumns]int
	l [numLongCols]int
}

// isLongHeader reports whether a header is read as the long layout: it
// has candidate_uid.
func isLongHeader(header []string) bool {
	for _, h := range header {
		if c, ok := longColByName(h); ok && c == lcUID {
			return true
		}
	}
	return false
}

// longHeader finds the columns of a long table; it reports false when a
// required column is missing or one is given twice (the errors are
// reported).
func longHeader(src *csvSource, c *collector) (longColumns, bool) {
	var lc longColumns
	for i := range lc.q {
		lc.q[i] = -1
	}
	for i := range lc.l {
		lc.l[i] = -1
	}
	ok := true
	for i, name := range src.header {
		var j *int
		if col, known := longColByName(name); known {
			j = &lc.l[col]
		} else if col, known := columnByName(name); known && isLongQueryCol(col) {
			j = &lc.q[col]
		} else {
			continue // unknown columns (and the wide layout's lists) are ignored
		}
		if *j >= 0 {
			at := src.headerPos(i)
			c.add(src.file, at.line, at.col, "column %s appears twice (fields %d and %d), expected it once", strings.TrimSpace(name), *j+1, i+1)
			ok = false
			continue
		}
		*j = i
	}
	if msg := longMissing(func(col column) bool { return lc.q[col] >= 0 }, func(col longCol) bool { return lc.l[col] >= 0 }); msg != "" {
		c.add(src.file, 1, 1, "%s", msg)
		ok = false
	}
	if lc.l[lcIsGold] >= 0 && lc.l[lcRel] >= 0 {
		at := src.headerPos(lc.l[lcRel])
		c.add(src.file, at.line, at.col, "columns is_gold and rel are both given, expected one of them: is_gold (0/1) or rel (a grade, 0 for not gold)")
		ok = false
	}
	if lc.q[colNEProb] >= 0 && lc.q[colNEScore] >= 0 {
		at := src.headerPos(lc.q[colNEScore])
		c.add(src.file, at.line, at.col, "columns ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)")
		ok = false
	}
	return lc, ok
}

// longMissing is the message for a long table's header that lacks a
// required column ("" when it has them all), given which columns it has.
func longMissing(hasQ func(column) bool, hasL func(longCol) bool) string {
	var missing []string
	if !hasQ(colPost) && !hasQ(colQuery) {
		missing = append(missing, "post_id (or query_id)")
	}
	if !hasL(lcScore) {
		missing = append(missing, "score")
	}
	if !hasL(lcIsGold) && !hasL(lcRel) {
		missing = append(missing, "is_gold (or rel)")
	}
	if len(missing) == 0 {
		return ""
	}
	list := strings.Join(missing, ", ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[:i] + " and " + list[i+2:]
	}
	what := "column"
	if len(missing) > 1 {
		what = "columns"
	}
	return fmt.Sprintf("missing %s %s: a header with candidate_uid is the long layout (one row per candidate), expected %s", what, list, longColumnsText)
}

// HeaderProblem says what the header of a per-query table (CSV, TSV or
// Parquet column names) lacks for the layout it comes closest to: the
// long layout when it has candidate_uid, else the wide or the
// classifier-only layout; "" when it fits one.
func HeaderProblem(header []string) string {
	if isLongHeader(header) {
		q, l := map[column]bool{}, map[longCol]bool{}
		for _, h := range header {
			if c, ok := longColByName(h); ok {
				l[c] = true
			} else if c, ok := columnByName(h); ok {
				q[c] = true
			}
		}
		return longMissing(func(c column) bool { return q[c] }, func(c longCol) bool { return l[c] })
	}
	has := map[column]bool{}
	for _, h := range header {
		if c, ok := columnByName(h); ok {
			has[c] = true
		}
	}
	hasF := func(c column) bool { return has[c] }
	var idx [numColumns]int
	for c := range idx {
		idx[c] = -1
		if has[column(c)] {
			idx[c] = c
		}
	}
	if emptyCandidates(idx) {
		// The candidate columns of a classifier's table, empty (the
		// reader checks every cell).
		hasF = func(c column) bool { return has[c] && !isCandidateColumn(c) }
	}
	if missing := missingColumns(hasF); len(missing) > 0 {
		return missingMsg(missing, !isClassifier(hasF)) + renameHint(header, missing)
	}
	return ""
}

const longColumnsText = "post_id (or query_id), candidate_uid, score and is_gold (or rel), and optionally criterion_id, fold, split, node_prob, selected, ne_prob, state"

func isLongQueryCol(col column) bool {
	for _, c := range longQueryCols {
		if c == col {
			return true
		}
	}
	return false
}

// longCell is a cell of a long table and where it is.
type longCell struct {
	s  string
	at position
}

// longQuery gathers the rows of one query of a long table.
type longQuery struct {
	line int                     // its first row
	q    [numColumns]longCell    // the per-query values (the first non-empty of each)
	rows [][numLongCols]longCell // the candidate rows, in file order
	uids map[string]int          // candidate -> its line
}

// readLong reads the records of a long table into the table: the rows
// grouped by query (fold, split, post, criterion, query id as written),
// each query then checked and ranked as one row of the wide layout, in
// the order of their first rows.
func (p *tableParser) readLong(src *csvSource, lc *longColumns) {
	type key struct{ post, crit, query, fold, split string }
	byKey := map[key]*longQuery{}
	var order []*longQuery
	get := func(col column) longCell {
		i := lc.q[col]
		if i < 0 {
			return longCell{}
		}
		s, at := src.cell(i)
		return longCell{s, at}
	}
	for src.next() {
		var q [numColumns]longCell
		for _, col := range longQueryCols {
			q[col] = get(col)
		}
		k := key{q[colPost].s, q[colCriterion].s, q[colQuery].s, q[colFold].s, strings.ToLower(q[colSplit].s)}
		g := byKey[k]
		if g == nil {
			g = &longQuery{line: src.line, uids: map[string]int{}}
			byKey[k] = g
			order = append(order, g)
		}
		for _, col := range longQueryCols {
			v := q[col]
			if v.s == "" {
				continue
			}
			if have := g.q[col]; have.s == "" {
				g.q[col] = v
			} else if have.s != v.s {
				p.c.add(p.file, v.at.line, v.at.col, "%s is %q here but %q on line %d, a row of the same query, expected one %s per query (the same on every row of it, or empty)", col, clip(v.s), clip(have.s), have.at.line, col)
			}
		}
		var row [numLongCols]longCell
		for col := range numLongCols {
			if i := lc.l[col]; i >= 0 {
				s, at := src.cell(i)
				row[col] = longCell{s, at}
			}
		}
		uid := row[lcUID]
		if uid.s == "" {
			// A query-level row: no candidate, so nothing per candidate.
			for _, col := range []longCol{lcScore, lcIsGold, lcRel, lcNodeProb, lcSelected} {
				v := row[col]
				if v.s == "" || v.s == "0" && (col == lcIsGold || col == lcRel || col == lcSelected) {
					continue
				}
				p.c.add(p.file, v.at.line, v.at.col, "%s is %q on a row without candidate_uid, expected it empty (a row with an empty candidate_uid gives only the query's own columns)", col, clip(v.s))
				break
			}
			continue
		}
		if i := controlAt(uid.s, false); i >= 0 {
			p.c.add(p.file, uid.at.line, uid.at.col, "%s", controlMsg("candidate_uid", []byte(uid.s), i))
			continue
		}
		if prev, dup := g.uids[uid.s]; dup {
			p.c.add(p.file, uid.at.line, uid.at.col, "candidate_uid %q appears twice in the same query (lines %d and %d), expected one row per candidate", clip(uid.s), prev, uid.at.line)
			continue
		}
		g.uids[uid.s] = uid.at.line
		g.rows = append(g.rows, row)
	}
	if p.c.full() {
		return
	}
	hasSel := lc.l[lcSelected] >= 0
	for _, g := range order {
		if p.c.full() {
			return
		}
		p.longQuery(g, hasSel)
	}
}

// longQuery turns the gathered rows of one query into the raw row of the
// wide layout and finishes it.
func (p *tableParser) longQuery(g *longQuery, hasSel bool) {
	p.raw.reset(g.line)
	p.pending = 0
	r := &p.raw
	r.cands = true
	first := position{g.line, 1}
	if v := g.q[colSplit]; v.s != "" {
		r.at[colSplit] = v.at
		p.textScalar(colSplit, v.s)
		if r.train {
			p.t.trainRows++
			return
		}
	}
	for _, col := range longQueryCols {
		if v := g.q[col]; v.s != "" && col != colSplit {
			r.at[col] = v.at
			p.textScalar(col, v.s)
		}
	}
	// The lists are made of the candidate rows; their errors point at the
	// query's first row.
	for _, col := range []column{colGold, colCandidates, colScores} {
		r.at[col] = first
	}
	r.hasSel = hasSel
	for _, row := range g.rows {
		uid := row[lcUID].s
		grade := 0
		if v := row[lcIsGold]; v.s != "" {
			b, ok := parseBool(v.s)
			if !ok {
				p.c.add(p.file, v.at.line, v.at.col, "is_gold is %q, expected 0 or 1", clip(v.s))
				p.pending++
			} else if b {
				grade = 1
			}
		}
		if v := row[lcRel]; v.s != "" {
			n, ok := parseInt(v.s)
			if !ok || n < 0 {
				p.c.add(p.file, v.at.line, v.at.col, "rel is %q, expected an integer >= 0 (0: not gold)", clip(v.s))
				p.pending++
			} else {
				grade = n
			}
		}
		if grade > 0 {
			r.gold = append(r.gold, uid)
			r.goldRels = append(r.goldRels, grade)
		}
		sc := row[lcScore]
		if sc.s == "" {
			// A gold id the system did not retrieve: gold, not a
			// candidate.
			if grade > 0 && row[lcNodeProb].s == "" && (row[lcSelected].s == "" || row[lcSelected].s == "0") {
				continue
			}
			p.c.add(p.file, sc.at.line, sc.at.col, "score is empty, expected a finite number (only a gold row with no node_prob and not selected may leave it empty: a gold id that is not a candidate)")
			p.pending++
			continue
		}
		x, msg := parseFloat(sc.s)
		if msg != "" {
			if msg != msgHex {
				msg = "expected a finite number"
			}
			p.c.add(p.file, sc.at.line, sc.at.col, "score is %q, %s%s", clip(sc.s), msg, numberHint(sc.s))
			p.pending++
		}
		r.candidates = append(r.candidates, uid)
		r.scores = append(r.scores, x)
		if v := row[lcNodeProb]; v.s != "" {
			x, msg := parseProb(v.s)
			if msg != "" {
				p.c.add(p.file, v.at.line, v.at.col, "node_prob is %q, %s%s", clip(v.s), msg, numberHint(v.s))
				p.pending++
			}
			r.nodeProbs = append(r.nodeProbs, x)
		}
		if v := row[lcSelected]; v.s != "" {
			b, ok := parseBool(v.s)
			if !ok {
				p.c.add(p.file, v.at.line, v.at.col, "selected is %q, expected 0 or 1", clip(v.s))
				p.pending++
			} else if b {
				r.selected = append(r.selected, uid)
			}
		}
	}
	if n := len(r.nodeProbs); n > 0 && n != len(r.candidates) {
		p.errRow("node_prob is given on %d of the %d candidate rows of this query, expected it on every candidate row of a query or on none", n, len(r.candidates))
	}
	if p.pending == 0 {
		p.finish()
	}
}
