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
func (p *tableParser) longHeader(h header) (longColumns, bool) {
	var lc longColumns
	for i := range lc.q {
		lc.q[i] = -1
	}
	for i := range lc.l {
		lc.l[i] = -1
	}
	ok := true
	for i, name := range h.names {
		var j *int
		if col, known := longColByName(name); known {
			j = &lc.l[col]
		} else if col, known := columnByName(name); known && isLongQueryCol(col) {
			j = &lc.q[col]
		} else {
			continue // unknown columns (and the wide layout's lists) are ignored
		}
		if *j >= 0 {
			p.add(h.at(i), "column %s appears twice (fields %d and %d), expected it once", strings.TrimSpace(name), *j+1, i+1)
			ok = false
			continue
		}
		*j = i
	}
	if msg := longMissing(func(col column) bool { return lc.q[col] >= 0 }, func(col longCol) bool { return lc.l[col] >= 0 }); msg != "" {
		p.add(h.at(-1), "%s", msg)
		ok = false
	}
	if lc.l[lcIsGold] >= 0 && lc.l[lcRel] >= 0 {
		p.add(h.at(lc.l[lcRel]), "columns is_gold and rel are both given, expected one of them: is_gold (0/1) or rel (a grade, 0 for not gold)")
		ok = false
	}
	if lc.q[colNEProb] >= 0 && lc.q[colNEScore] >= 0 {
		p.add(h.at(lc.q[colNEScore]), "columns ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)")
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
		return missingMsg(missing, !isClassifier(hasF), "a header with") + renameHint(header, missing)
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
	v  value
	at position
}

// longQuery gathers the rows of one query of a long table.
type longQuery struct {
	line        int                  // its first row
	q           [numColumns]longCell // the per-query values (the first non-empty of each)
	first, last int32                // its first and last candidate rows in longRows (-1: none)
	uids        map[string]int       // candidate -> its line
}

// longRows holds the candidate rows of a long table until their queries
// are read, in chunks of a fixed size (growing never copies them), each
// row linked to the next row of its query: a query's rows need not be
// adjacent, and a slice per query would grow (and copy) row by row.
type longRows struct {
	chunks [][]longRow
	n      int32
}

// longRow is a candidate row of a long table.
type longRow struct {
	cells [numLongCols]longCell
	next  int32 // the next row of the same query, or -1
}

const longChunk = 1024

// add stores a row and returns its index.
func (rs *longRows) add(cells *[numLongCols]longCell) int32 {
	if rs.n%longChunk == 0 {
		rs.chunks = append(rs.chunks, make([]longRow, longChunk))
	}
	k := rs.n
	rs.chunks[k/longChunk][k%longChunk] = longRow{cells: *cells, next: -1}
	rs.n++
	return k
}

// at returns row k.
func (rs *longRows) at(k int32) *longRow { return &rs.chunks[k/longChunk][k%longChunk] }

// longKey is the identity of a query of a long table: its fold, split,
// post, criterion and query id as written (the split in lower case; a
// typed value as its id, the decimal of a number).
type longKey struct{ post, crit, query, fold, split string }

// readLong reads the rows of a long table into the table: the rows
// grouped by query (fold, split, post, criterion, query id as written),
// each query then checked and ranked as one row of the wide layout, in
// the order of their first rows.
func (p *tableParser) readLong(src rowSource, lc *longColumns) {
	var rows longRows
	byKey := map[longKey]*longQuery{}
	var order []*longQuery
	get := func(i int) longCell {
		if i < 0 {
			return longCell{}
		}
		v, at := src.value(i)
		if v.kind == valueList {
			p.add(at, "the value is a list, expected one value (the long layout has one row per candidate)")
			v = value{}
		}
		return longCell{v, at}
	}
	// Scratch for the current row: every cell is set on every row.
	var q [numColumns]longCell
	var row [numLongCols]longCell
	for !p.c.full() && src.next() {
		for _, col := range longQueryCols {
			q[col] = get(lc.q[col])
		}
		k := longKey{q[colPost].v.id(), q[colCriterion].v.id(), q[colQuery].v.id(), q[colFold].v.id(), strings.ToLower(q[colSplit].v.id())}
		g := byKey[k]
		if g == nil {
			g = &longQuery{line: src.start(), uids: map[string]int{}, first: -1, last: -1}
			byKey[k] = g
			order = append(order, g)
		}
		for _, col := range longQueryCols {
			v := q[col]
			if v.v.empty() {
				continue
			}
			if have := g.q[col]; have.v.empty() {
				g.q[col] = v
			} else if !have.v.same(v.v) {
				p.add(v.at, "%s is %s here but %s on %s %d, a row of the same query, expected one %s per query (the same on every row of it, or empty)", col, v.v.show(), have.v.show(), p.rowWord(), have.at.line, col)
			}
		}
		for col := range numLongCols {
			row[col] = get(lc.l[col])
		}
		p.longRow(&rows, g, &row)
	}
	if p.c.full() {
		return
	}
	hasSel := lc.l[lcSelected] >= 0
	for _, g := range order {
		if p.c.full() {
			return
		}
		p.longQuery(&rows, g, hasSel)
	}
}

// longRow adds a candidate row to the rows of its query g; a query-level
// row (no candidate_uid) is only checked.
func (p *tableParser) longRow(rows *longRows, g *longQuery, row *[numLongCols]longCell) {
	uid := row[lcUID]
	if uid.v.empty() {
		// A query-level row: no candidate, so nothing per candidate.
		for _, col := range []longCol{lcScore, lcIsGold, lcRel, lcNodeProb, lcSelected} {
			v := row[col]
			if v.v.empty() || isZero(v.v) && (col == lcIsGold || col == lcRel || col == lcSelected) {
				continue
			}
			p.add(v.at, "%s is %s on a row without candidate_uid, expected it empty (a row with an empty candidate_uid gives only the query's own columns)", col, v.v.show())
			break
		}
		return
	}
	id := uid.v.id()
	if i := controlAt(id, false); i >= 0 {
		p.add(uid.at, "%s", controlMsg("candidate_uid", []byte(id), i))
		return
	}
	if prev, dup := g.uids[id]; dup {
		p.add(uid.at, "candidate_uid %q appears twice in the same query (%ss %d and %d), expected one row per candidate", clip(id), p.rowWord(), prev, uid.at.line)
		return
	}
	g.uids[id] = uid.at.line
	row[lcUID].v = text(id)
	k := rows.add(row)
	if g.last >= 0 {
		rows.at(g.last).next = k
	} else {
		g.first = k
	}
	g.last = k
}

// isZero reports whether v is 0 (the text 0, or a number that is 0).
func isZero(v value) bool {
	switch v.kind {
	case valueText:
		return v.s == "0"
	case valueInt, valueBool:
		return v.i64() == 0
	case valueFloat:
		return v.num() == 0
	}
	return false
}

// longQuery turns the gathered rows of one query into the raw row of the
// wide layout and finishes it.
func (p *tableParser) longQuery(rows *longRows, g *longQuery, hasSel bool) {
	p.raw.reset(g.line)
	p.pending = 0
	r := &p.raw
	r.cands = true
	if v := g.q[colSplit]; !v.v.empty() {
		r.at[colSplit] = v.at
		p.scalar(colSplit, v.v)
		if r.train {
			p.t.trainRows++
			return
		}
	}
	for _, col := range longQueryCols {
		if v := g.q[col]; !v.v.empty() && col != colSplit {
			r.at[col] = v.at
			p.scalar(col, v.v)
		}
	}
	// The lists are made of the candidate rows; their errors point at the
	// query's first row.
	for _, col := range []column{colGold, colCandidates, colScores} {
		r.at[col] = position{g.line, 0}
	}
	r.hasSel = hasSel
	for k := g.first; k >= 0; k = rows.at(k).next {
		p.longCandidate(&rows.at(k).cells)
	}
	if n := len(r.nodeProbs); n > 0 && n != len(r.candidates) {
		p.errRow("node_prob is given on %d of the %d candidate rows of this query, expected it on every candidate row of a query or on none", n, len(r.candidates))
	}
	if p.pending == 0 {
		p.finish()
	}
}

// longCandidate adds one candidate row of the current query to the raw
// row: its gold grade, its score and node probability, whether it is
// selected.
func (p *tableParser) longCandidate(row *[numLongCols]longCell) {
	r := &p.raw
	bad := func(at position, format string, args ...any) {
		p.add(at, format, args...)
		p.pending++
	}
	uid := row[lcUID].v.s
	grade := 0
	if v := row[lcIsGold]; !v.v.empty() {
		b, ok := v.v.bool01()
		if !ok {
			bad(v.at, "is_gold is %s, expected 0 or 1", v.v.show())
		} else if b {
			grade = 1
		}
	}
	if v := row[lcRel]; !v.v.empty() {
		n, ok := v.v.integer()
		if !ok || n < 0 {
			bad(v.at, "rel is %s, expected an integer >= 0 (0: not gold)", v.v.show())
		} else {
			grade = n
		}
	}
	if grade > 0 {
		r.gold = append(r.gold, uid)
		r.goldRels = append(r.goldRels, grade)
	}
	sc := row[lcScore]
	if sc.v.empty() {
		// A gold id the system did not retrieve: gold, not a candidate.
		if sel := row[lcSelected].v; grade > 0 && row[lcNodeProb].v.empty() && (sel.empty() || isZero(sel)) {
			return
		}
		bad(sc.at, "score is empty, expected a finite number (only a gold row with no node_prob and not selected may leave it empty: a gold id that is not a candidate)")
		return
	}
	x, msg := sc.v.float()
	if msg != "" {
		if msg != msgHex {
			msg = "expected a finite number"
		}
		bad(sc.at, "score is %s, %s%s", sc.v.show(), msg, sc.v.hint())
	}
	r.candidates = append(r.candidates, uid)
	r.scores = append(r.scores, x)
	if v := row[lcNodeProb]; !v.v.empty() {
		x, msg := v.v.prob()
		if msg != "" {
			bad(v.at, "node_prob is %s, %s%s", v.v.show(), msg, v.v.hint())
		}
		r.nodeProbs = append(r.nodeProbs, x)
	}
	if v := row[lcSelected]; !v.v.empty() {
		b, ok := v.v.bool01()
		if !ok {
			bad(v.at, "selected is %s, expected 0 or 1", v.v.show())
		} else if b {
			r.selected = append(r.selected, uid)
		}
	}
}
