package dataset

import (
	"fmt"
	"strings"
)

// This file turns one row of a per-query table (docs/input-format.md), read
// from CSV, TSV, JSON Lines or Parquet, into a validated record. The formats
// differ only in how a value is given (text to parse, or a typed value:
// cell.go); all fill a rawRow through the same checks of each column, and
// finish checks and ranks it.

// column is a known column of the per-query table.
type column uint8

const (
	colPost column = iota
	colCriterion
	colQuery
	colFold
	colSplit
	colGold
	colGoldRels
	colCandidates
	colScores
	colNodeProbs
	colSelected
	colNEProb
	colState
	colHasEvidence
	colLabel
	colNEScore
	numColumns
)

var columnNames = [numColumns]string{
	colPost:        "post_id",
	colCriterion:   "criterion_id",
	colQuery:       "query_id",
	colFold:        "fold",
	colSplit:       "split",
	colGold:        "gold_uids",
	colGoldRels:    "gold_rels",
	colCandidates:  "candidate_uids",
	colScores:      "candidate_scores",
	colNodeProbs:   "node_probs",
	colSelected:    "selected_uids",
	colNEProb:      "ne_prob",
	colState:       "state",
	colHasEvidence: "has_evidence",
	colLabel:       "label",
	colNEScore:     "ne_score",
}

func (c column) String() string { return columnNames[c] }

// columnByName finds a column by its name, ignoring case and surrounding
// space.
func columnByName(name string) (column, bool) {
	name = strings.TrimSpace(name)
	for c, n := range columnNames {
		if strings.EqualFold(n, name) {
			return column(c), true
		}
	}
	return 0, false
}

const requiredColumns = "post_id (or query_id), gold_uids, candidate_uids and candidate_scores"

// classifierColumns are the columns of a classifier-only table.
const classifierColumns = "post_id (or query_id), has_evidence or label (0/1), and ne_prob (a probability) or ne_score (any finite score)"

// b01 writes a 0/1 value.
func b01(v bool) string {
	if v {
		return "1"
	}
	return "0"
}

// record is one validated (query, fold, split) row of one input file.
type record struct {
	Query
	row    Row
	line   int      // where the row starts in its system's file
	goldAt position // where its gold_uids value is (zero for TREC)

	// Where the identity of the query (post, fold, split) was read: the
	// table row itself, or the queries table of TREC inputs.
	idFile string
	idLine int
}

// records is an append-only list of records stored in fixed-size chunks,
// so that growing it never copies the records already read.
type records struct {
	chunks [][]record
	n      int
}

const recordChunk = 1024

// add appends a zero record and returns it.
func (rs *records) add() *record {
	if rs.n%recordChunk == 0 {
		rs.chunks = append(rs.chunks, make([]record, recordChunk))
	}
	r := &rs.chunks[rs.n/recordChunk][rs.n%recordChunk]
	rs.n++
	return r
}

func (rs *records) len() int { return rs.n }

// at returns record i.
func (rs *records) at(i int) *record { return &rs.chunks[i/recordChunk][i%recordChunk] }

// join moves the records of o to the end of rs. When rs ends where a chunk
// ends, o's chunks are taken as they are; else the records are copied.
func (rs *records) join(o *records) {
	if rs.n%recordChunk == 0 {
		rs.chunks = append(rs.chunks[:rs.n/recordChunk], o.chunks...)
		rs.n += o.n
		*o = records{}
		return
	}
	for i := 0; i < o.n; {
		if rs.n%recordChunk == 0 {
			rs.chunks = append(rs.chunks, make([]record, recordChunk))
		}
		dst := rs.chunks[rs.n/recordChunk][rs.n%recordChunk:]
		src := o.chunks[i/recordChunk][i%recordChunk:]
		k := copy(dst, src[:min(len(src), o.n-i)])
		rs.n += k
		i += k
		if i%recordChunk == 0 {
			o.chunks[i/recordChunk-1] = nil // copied: let it go
		}
	}
	*o = records{}
}

// table is what a per-query table file yields.
type table struct {
	file      string
	recs      records
	trainRows int

	hasPost     bool // some row gives post_id
	hasCriteria bool // every row gives criterion_id
	hasFolds    bool // the fold column (or field) is given
	hasSelected bool // some row gives selected_uids
	hasState    bool // some row gives state

	// classifier is true for a classifier-only table: a label and an
	// NE-gate score per row, no candidate lists.
	classifier bool
	hasNEScore bool // some row gives ne_score
}

// join adds the rows of u, read after those of t, to t.
func (t *table) join(u *table) {
	t.recs.join(&u.recs)
	t.trainRows += u.trainRows
	t.hasPost = t.hasPost || u.hasPost
	t.hasCriteria = t.hasCriteria && u.hasCriteria
	t.hasFolds = t.hasFolds || u.hasFolds
	t.hasSelected = t.hasSelected || u.hasSelected
	t.hasState = t.hasState || u.hasState
	t.classifier = t.classifier || u.classifier
	t.hasNEScore = t.hasNEScore || u.hasNEScore
}

// rawRow is one row as spelled in the input, before the checks that involve
// several of its values. Its strings point into the row's own line (or CSV
// record, or Parquet value), which build's record then shares; the slices
// are scratch space reused from row to row.
type rawRow struct {
	line int
	at   [numColumns]position // where each value is; zero when the column is absent

	post, criterion, query string
	fold                   int
	split                  Split
	train                  bool

	gold       []string
	goldRels   []int
	candidates []string
	scores     []float64
	nodeProbs  []float64 // nil when absent
	selected   []string
	hasSel     bool

	neProb  float64
	hasNE   bool
	neScore float64 // ne_score, a score with no probability meaning
	hasNESc bool
	state   State
	hasEv   bool // has_evidence was given
	evValue bool
	hasLab  bool // label was given
	labVal  bool
	label   bool // without gold_uids: the row's label (has_evidence or label) is 1

	// cands is true when the row gives candidate_uids or
	// candidate_scores (the wide layout), false for a classifier-only row.
	cands bool
}

func (r *rawRow) reset(line int) {
	*r = rawRow{
		line:       line,
		gold:       r.gold[:0],
		goldRels:   r.goldRels[:0],
		candidates: r.candidates[:0],
		scores:     r.scores[:0],
		nodeProbs:  r.nodeProbs[:0],
		selected:   r.selected[:0],
	}
}

// presence tracks whether an optional id column is given on every row or
// on none (criterion_id, post_id).
type presence struct {
	known    bool
	given    bool
	line     int
	reported bool
}

// conflicts reports whether the rows that gave pr and those that gave q
// disagree: one set gives the column, the other does not.
func (pr presence) conflicts(q presence) bool {
	return pr.known && q.known && pr.given != q.given
}

// follow makes pr the presence of its rows followed by those that gave q,
// when the two do not conflict.
func (pr *presence) follow(q presence) {
	if !pr.known {
		*pr = q
	}
}

// tableParser holds the state of reading one per-query table.
type tableParser struct {
	file string
	c    *collector
	t    *table

	raw     rawRow
	js      jsonScanner
	in      interner
	look    lookup
	perm    []int
	mem     arena
	posts   presence
	crits   presence
	layout  presence // candidate lists given (wide) or not (classifier-only)
	pending int      // errors reported for the current row
	// place names the rows and columns of a binary table (nil for text).
	place placer
	// mustBeEmpty are the candidate columns of a classifier-only table
	// that a pipeline exported empty (emptyCandidates): every cell must be.
	mustBeEmpty []emptyColumn
}

// emptyColumn is a column that must be empty on every row, and its field.
type emptyColumn struct {
	col   column
	field int
}

func newTableParser(file string, c *collector) *tableParser {
	return &tableParser{file: file, c: c, t: &table{file: file, hasCriteria: true}}
}

// placer names where a value of a binary table is (its row and column),
// for a message that starts with it: the positions of a binary table are
// not lines and bytes. A text table has none.
type placer interface {
	where(at position) string
}

// add reports a problem at at: a line and byte of a text table, or a row
// and column of a binary one. Column 0 is the row as a whole.
func (p *tableParser) add(at position, format string, args ...any) {
	col := max(at.col, 1)
	if at.line <= 0 {
		col = 0
	}
	if p.place != nil {
		if w := p.place.where(at); w != "" {
			p.c.add(p.file, at.line, col, "%s: %s", w, fmt.Sprintf(format, args...))
			return
		}
	}
	p.c.add(p.file, at.line, col, format, args...)
}

// rowWord is what a row of the table is called in a message: a line of
// a text table, a row of a binary one.
func (p *tableParser) rowWord() string {
	if p.place != nil {
		return "row"
	}
	return "line"
}

// errAt reports a problem with value col of the current row.
func (p *tableParser) errAt(col column, format string, args ...any) {
	at := p.raw.at[col]
	if at.line == 0 {
		at = position{p.raw.line, 0}
	}
	p.add(at, format, args...)
	p.pending++
}

// errRow reports a problem with the current row as a whole.
func (p *tableParser) errRow(format string, args ...any) {
	p.add(position{p.raw.line, 0}, format, args...)
	p.pending++
}

// --- values of a cell -------------------------------------------------------

// idValue reads the value of an id column (post_id, criterion_id,
// query_id) into the raw row.
func (p *tableParser) idValue(col column, v value) {
	s := v.id()
	if i := controlAt(s, false); i >= 0 {
		p.errAt(col, "%s", controlMsg(col.String(), []byte(s), i))
		return
	}
	switch col {
	case colPost:
		p.raw.post = s
	case colCriterion:
		p.raw.criterion = s
	default:
		p.raw.query = s
	}
}

// textScalar reads a non-list text cell into the raw row.
func (p *tableParser) textScalar(col column, s string) { p.scalar(col, text(s)) }

// scalar reads the value of a non-list column into the raw row, with the
// checks of its column; an absent value leaves the column unset.
func (p *tableParser) scalar(col column, v value) {
	if v.empty() {
		return
	}
	r := &p.raw
	switch col {
	case colPost, colCriterion, colQuery:
		p.idValue(col, v)
	case colFold:
		n, ok := v.integer()
		if !ok || n < 0 {
			p.errAt(col, "fold is %s, expected a non-negative integer%s", v.show(), v.hint()+v.nanHint())
			return
		}
		r.fold = n
	case colSplit:
		sp, train, ok := parseSplit(v.s)
		if !ok || v.kind != valueText {
			p.errAt(col, "split is %s, %s", v.show(), splitExpected)
			return
		}
		r.split, r.train = sp, train
	case colState:
		st, ok := parseState(v.s)
		if !ok || v.kind != valueText {
			p.errAt(col, "state is %s, expected NEG, UNCERTAIN or POS", v.show())
			return
		}
		r.state = st
	case colNEProb:
		x, msg := v.prob()
		if msg != "" {
			p.errAt(col, "ne_prob is %s, %s%s", v.show(), msg, v.hint()+v.nanHint())
			return
		}
		r.neProb, r.hasNE = x, true
	case colNEScore:
		x, msg := v.float()
		if msg != "" {
			if msg != msgHex {
				msg = "expected a finite number (a logit, a margin or any real score)"
			}
			p.errAt(col, "ne_score is %s, %s%s", v.show(), msg, v.hint()+v.nanHint())
			return
		}
		r.neScore, r.hasNESc = x, true
	case colHasEvidence, colLabel:
		b, ok := v.bool01()
		if !ok {
			p.errAt(col, "%s is %s, expected 0 or 1", col, v.show())
			return
		}
		if col == colLabel {
			r.hasLab, r.labVal = true, b
		} else {
			r.hasEv, r.evValue = true, b
		}
	}
}

// textList parses a list CSV cell: ';'-separated items, or a JSON array
// when the cell starts with '['. An empty cell is an empty list.
func (p *tableParser) textList(col column, s string) {
	r := &p.raw
	if col == colSelected {
		r.hasSel = true
	}
	if s == "" {
		return
	}
	if s[0] == '[' {
		p.js.reset(s)
		p.js.i = 1
		n := p.pending
		p.jsonItems(col, 0, false)
		if p.pending > n {
			return
		}
		if !p.js.failed() && !p.js.atEnd() {
			p.js.fail(p.js.i, "unexpected %s after the list", p.js.found())
		}
		if p.js.failed() {
			p.errAt(col, "%s is not a valid JSON array: %s (at byte %d of the cell)%s", col, p.js.err, p.js.errPos+1, listHint(s))
		}
		return
	}
	for item := 1; ; item++ {
		v, rest, more := strings.Cut(s, ";")
		v = strings.TrimSpace(v)
		if v == "" {
			p.errAt(col, "%s item %d is empty, expected a value (items are separated by ';', with nothing after the last)", col, item)
			return
		}
		if !p.listItem(col, item, text(v)) {
			return
		}
		if !more {
			return
		}
		s = rest
	}
}

// items reads a list given as typed values (a Parquet list), item by
// item, as listItem reads every list. A null item is an error: a list
// with nothing in it is an empty list, not a null.
func (p *tableParser) items(col column, vs []value) {
	if col == colSelected {
		p.raw.hasSel = true
	}
	for k, v := range vs {
		if v.kind == valueNull {
			p.errAt(col, "%s item %d is null, expected a value (write an empty list, not a null item)", col, k+1)
			return
		}
		if !p.listItem(col, k+1, v) {
			return
		}
	}
}

// listItem appends item number item of a list to the raw row, with the
// checks of its column. It reports false after an error.
func (p *tableParser) listItem(col column, item int, v value) bool {
	r := &p.raw
	if item > MaxListItems {
		p.errAt(col, "%s has more than %d items, the maximum of a list, expected one query's candidates (is a separator missing between rows?)", col, MaxListItems)
		return false
	}
	if isIDList(col) {
		id := v.id()
		if id == "" {
			// (The text formats say this in their own words first.)
			p.errAt(col, "%s item %d is an empty string, expected a non-empty id", col, item)
			return false
		}
		if i := controlAt(id, false); i >= 0 {
			p.errAt(col, "%s", controlMsg(fmt.Sprintf("%s item %d", col, item), []byte(id), i))
			return false
		}
		switch col {
		case colGold:
			r.gold = append(r.gold, id)
		case colCandidates:
			r.candidates = append(r.candidates, id)
		default:
			r.selected = append(r.selected, id)
		}
		return true
	}
	switch col {
	case colScores:
		x, msg := v.float()
		if msg != "" {
			if msg != msgHex {
				msg = "expected a finite number"
			}
			p.errAt(col, "%s item %d is %s, %s%s", col, item, v.show(), msg, v.hint())
			return false
		}
		r.scores = append(r.scores, x)
	case colNodeProbs:
		x, msg := v.prob()
		if msg != "" {
			p.errAt(col, "%s item %d is %s, %s%s", col, item, v.show(), msg, v.hint())
			return false
		}
		r.nodeProbs = append(r.nodeProbs, x)
	case colGoldRels:
		n, ok := v.integer()
		if !ok || n < 1 {
			p.errAt(col, "%s item %d is %s, expected an integer >= 1%s", col, item, v.show(), v.hint())
			return false
		}
		r.goldRels = append(r.goldRels, n)
	}
	return true
}

// isListColumn reports whether col holds a list.
func isListColumn(col column) bool {
	switch col {
	case colGold, colGoldRels, colCandidates, colScores, colNodeProbs, colSelected:
		return true
	}
	return false
}

// isIDList reports whether col holds a list of ids (strings).
func isIDList(col column) bool {
	return col == colGold || col == colCandidates || col == colSelected
}

// --- values spelled as JSON -----------------------------------------------

// track checks that an optional id column is given on every row or on
// none.
func (p *tableParser) track(pr *presence, col column, given bool) {
	if !pr.known {
		*pr = presence{known: true, given: given, line: p.raw.line}
		return
	}
	if pr.given == given || pr.reported {
		return
	}
	pr.reported = true
	if given {
		p.errAt(col, "%s is given, but %s %d has none; expected %s on every row or on none", col, p.rowWord(), pr.line, col)
	} else {
		p.errRow("%s is missing, but %s %d has one; expected %s on every row or on none", col, p.rowWord(), pr.line, col)
	}
}

// finish checks the relations between the values of the current row and,
// when all is well, ranks it and appends it to the table.
func (p *tableParser) finish() {
	r := &p.raw
	if r.train {
		p.t.trainRows++
		return
	}
	p.track(&p.posts, colPost, r.post != "")
	p.track(&p.crits, colCriterion, r.criterion != "")
	if r.post == "" && r.query == "" {
		p.errRow("post_id and query_id are both empty, expected at least one of them")
	}
	if len(r.goldRels) > 0 && len(r.goldRels) != len(r.gold) {
		p.errAt(colGoldRels, "gold_rels has %s but gold_uids has %d, expected one grade per gold id", plural(len(r.goldRels), "value"), len(r.gold))
	}
	if i, j := p.look.reset(r.gold); j >= 0 {
		p.errAt(colGold, "gold_uids has %q twice (items %d and %d), expected distinct ids", clip(r.gold[j]), i+1, j+1)
	}
	p.track(&p.layout, colCandidates, r.cands)
	evCol, ev, evGiven := colHasEvidence, r.evValue, r.hasEv
	if r.hasLab {
		if r.hasEv && r.labVal != r.evValue {
			p.errAt(colLabel, "label is %s but has_evidence is %s, expected the same value in both (each is the label)", b01(r.labVal), b01(r.evValue))
		}
		evCol, ev, evGiven = colLabel, r.labVal, true
	}
	goldGiven := r.at[colGold].line > 0
	switch {
	case goldGiven && evGiven && ev != (len(r.gold) > 0):
		if ev {
			p.errAt(evCol, "%s is 1 but gold_uids is empty, expected %s = 1 exactly when gold_uids is not empty (a table without candidate lists may leave out gold_uids: %s is then the label)", evCol, evCol, evCol)
		} else {
			p.errAt(evCol, "%s is 0 but gold_uids has %s, expected %s = 1 exactly when gold_uids is not empty", evCol, plural(len(r.gold), "id"), evCol)
		}
	case !goldGiven && !evGiven:
		p.errAt(colHasEvidence, "has_evidence (or label) is empty, expected 0 or 1: without gold_uids it is the label of the row")
	}
	r.label = !goldGiven && ev
	if r.hasNE && r.hasNESc {
		p.errAt(colNEScore, "ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)")
	}
	n := len(r.candidates)
	if len(r.scores) != n {
		hint := ""
		for _, c := range r.candidates {
			if strings.Contains(c, ",") {
				hint = fmt.Sprintf(" (the id %q holds a comma: lists are separated by ';')", clip(c))
				break
			}
		}
		p.errAt(colScores, "candidate_scores has %s but candidate_uids has %d, expected one score per candidate%s", plural(len(r.scores), "value"), n, hint)
	}
	if len(r.nodeProbs) > 0 && len(r.nodeProbs) != n {
		p.errAt(colNodeProbs, "node_probs has %s but candidate_uids has %d, expected one probability per candidate", plural(len(r.nodeProbs), "value"), n)
	}
	if i, j := p.look.reset(r.selected); j >= 0 {
		p.errAt(colSelected, "selected_uids has %q twice (items %d and %d), expected distinct ids", clip(r.selected[j]), i+1, j+1)
	}
	if i, j := p.look.reset(r.candidates); j >= 0 {
		p.errAt(colCandidates, "candidate_uids has %q twice (items %d and %d), expected distinct candidates", clip(r.candidates[j]), i+1, j+1)
	} else {
		for k, s := range r.selected {
			if p.look.find(s) < 0 {
				p.errAt(colSelected, "selected_uids item %d %q is not among candidate_uids, expected a subset of the candidates", k+1, clip(s))
				break
			}
		}
	}
	if p.pending > 0 {
		return
	}
	*p.t.recs.add() = p.build()
}

// build makes the record of a valid raw row: post and criterion interned,
// candidates ranked by score (descending, ties in list order) with
// their node probabilities, and each ranked candidate's gold grade.
func (p *tableParser) build() record {
	r := &p.raw
	t := p.t
	var q Query
	if r.post != "" {
		q.Post = p.in.get(r.post)
		t.hasPost = true
	}
	if r.criterion != "" {
		q.Criterion = p.in.get(r.criterion)
	} else {
		t.hasCriteria = false
	}
	switch {
	case r.query != "":
		q.ID = strings.Clone(r.query)
	case q.Criterion != "":
		q.ID = q.Post + "/" + q.Criterion
	default:
		q.ID = q.Post
	}
	if q.Post == "" {
		q.Post = q.ID
	}
	q.Fold, q.Split = r.fold, r.split
	q.Label = r.label
	if !r.cands {
		t.classifier = true
	}
	q.Gold = internStrings(&p.mem.goldStrs, &p.in, r.gold, nil)
	if len(q.Gold) > 0 {
		q.GoldRels = p.mem.goldInts.take(len(q.Gold))
		for i := range q.GoldRels {
			q.GoldRels[i] = 1
		}
		copy(q.GoldRels, r.goldRels)
	}

	perm := rankByScore(p.perm, r.scores)
	if perm != nil {
		p.perm = perm
	}
	row := Row{
		Candidates: internStrings(&p.mem.strs, &p.in, r.candidates, perm),
		Scores:     permuteFloats(&p.mem.floats, r.scores, perm),
		NodeProbs:  permuteFloats(&p.mem.floats, r.nodeProbs, perm),
		NEProb:     r.neProb,
		HasNEProb:  r.hasNE,
		NEScore:    r.neProb,
		HasNEScore: r.hasNE,
		State:      r.state,
	}
	if r.hasNESc {
		row.NEScore, row.HasNEScore = r.neScore, true
		t.hasNEScore = true
	}
	if len(row.Candidates) > 0 {
		row.Rel = p.mem.ints.take(len(row.Candidates))
		p.look.reset(q.Gold)
		for i, id := range row.Candidates {
			if g := p.look.find(id); g >= 0 {
				row.Rel[i] = q.GoldRels[g]
			}
		}
	}
	if r.hasSel {
		row.HasSelected = true
		row.Selected = internStrings(&p.mem.strs, &p.in, r.selected, nil)
		t.hasSelected = true
	}
	if r.state != StateNone {
		t.hasState = true
	}
	return record{Query: q, row: row, line: r.line, goldAt: r.at[colGold], idFile: p.file, idLine: r.line}
}
