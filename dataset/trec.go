package dataset

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file reads the TREC inputs (docs/input-format.md section 2): run files,
// the qrels file, and the two optional CSV side tables (queries, and per-system
// ne_probs).

// textField is one white-space separated field of a line.
type textField struct {
	b   []byte
	col int // 1-based byte column
}

// splitFields splits b at runs of spaces and tabs (trec_eval's separators,
// isSpace), keeping each field's column. plain reports that every other
// byte of b is printable ASCII (0x21 to 0x7E): such a line is valid UTF-8
// and holds no control character, so its caller may skip those checks,
// which would each pass over the line again.
func splitFields(dst []textField, b []byte) (fields []textField, plain bool) {
	dst = dst[:0]
	var other byte
	for i := 0; i < len(b); {
		for i < len(b) && byteClass[b[i]] == classSpace {
			i++
		}
		if i >= len(b) {
			break
		}
		start := i
		for ; i < len(b); i++ {
			c := byteClass[b[i]]
			if c == classSpace {
				break
			}
			other |= c
		}
		dst = append(dst, textField{b: b[start:i], col: start + 1})
	}
	return dst, other == 0
}

// The classes of byteClass: printable ASCII, a separator (isSpace), and
// any other byte (a control character, DEL, or part of a multi-byte
// UTF-8 sequence).
const (
	classPrintable byte = 0
	classSpace     byte = 1
	classOther     byte = 2
)

// byteClass is the class of each byte value for splitFields.
var byteClass = func() (t [256]byte) {
	for c := range t {
		switch {
		case isSpace(byte(c)):
			t[c] = classSpace
		case c < 0x21 || c > 0x7e:
			t[c] = classOther
		}
	}
	return t
}()

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// runQuery is the ranking of one query in a run, in file order.
type runQuery struct {
	qid    string
	line   int // first line of the query
	docs   []string
	scores []float64
	at     []position // where each docno is; dropped after the checks
}

// run is a parsed TREC run file.
type run struct {
	file    string
	queries []*runQuery // in order of first appearance
	byQID   map[string]*runQuery
}

// parseRun reads a TREC run: lines "qid Q0 docno rank score tag". The Q0,
// rank and tag fields are ignored, as trec_eval ignores them, and so are
// fields after the sixth; a line whose first non-blank character is '#' is
// a comment (ir_metadata headers live there). The same (qid, docno) twice
// is an error.
//
// A large run (runChunkMin bytes or more) is read whole and its lines
// parsed in one chunk per core; the chunks are joined in file order, so
// the queries, their documents and the errors are those of one pass.
func parseRun(file string, rd io.Reader, c *collector) (*run, error) {
	var parts []*runPart
	if data, ok, err := readIfLarge(rd, runChunkMin); err != nil {
		return nil, err
	} else if ok {
		n := chunkCount(runChunks, len(data), runChunkMin)
		chunks := splitAtLines(data, n, false)
		parts = make([]*runPart, len(chunks))
		var wg sync.WaitGroup
		for k, ch := range chunks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lr := newBytesLineReader(ch.data)
				lr.n = ch.line - 1
				parts[k] = parseRunLines(file, lr)
			}()
		}
		wg.Wait()
	} else {
		parts = []*runPart{parseRunLines(file, newLineReader(rd))}
	}
	rn := &run{file: file, byQID: make(map[string]*runQuery)}
	lines := 0
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
		for _, e := range p.c.list {
			c.push(e)
		}
		lines += p.lines
		for _, q := range p.queries {
			if m := rn.byQID[q.qid]; m != nil {
				m.docs = append(m.docs, q.docs...)
				m.scores = append(m.scores, q.scores...)
				m.at = append(m.at, q.at...)
				continue
			}
			rn.byQID[q.qid] = q
			rn.queries = append(rn.queries, q)
		}
	}
	if lines == 0 {
		c.add(file, 1, 1, "file is empty, expected run lines: qid Q0 docno rank score tag")
	}
	// The queries' documents are checked on all cores, each range of
	// queries with a collector of its own, and the errors taken in query
	// order.
	dups := make([]collector, ranges(len(rn.queries), lines))
	inRanges(len(rn.queries), lines, func(k, lo, hi int) {
		var look lookup
		for _, q := range rn.queries[lo:hi] {
			if i, j := look.reset(q.docs); j >= 0 {
				at, first := q.at[j], q.at[i]
				dups[k].add(file, at.line, at.col, "document %q appears twice for query %q (lines %d and %d), expected each (qid, docno) once", clip(q.docs[j]), clip(q.qid), first.line, at.line)
			}
			q.at = nil
		}
	})
	for _, d := range dups {
		for _, e := range d.list {
			c.push(e)
		}
	}
	return rn, nil
}

// runChunkMin is the size from which parseRun parses a run in parallel
// chunks (a variable for the tests, which set it low).
var runChunkMin = 8 << 20

// runChunks is the number of chunks of a large run; 0 means one per core.
var runChunks = 0

// runPart is what one chunk of a run's lines holds.
type runPart struct {
	queries []*runQuery // in order of first appearance in the chunk
	lines   int         // non-blank lines
	c       collector
	err     error
}

// lineProblem reports a line of a TREC file that is not valid UTF-8 or
// holds a control character other than a separator, at the first such
// byte (shift: the byte order mark removed from line 1), and whether it
// found one.
func lineProblem(c *collector, file string, line, shift int, b []byte) bool {
	if i := invalidUTF8(b); i >= 0 {
		c.add(file, line, shift+i+1, "%s", utf8Msg(b, i))
		return true
	}
	if i := controlAt(b, true); i >= 0 {
		c.add(file, line, shift+utf8.RuneCount(b[:i])+1, "%s", controlMsg("the line", b, i))
		return true
	}
	return false
}

// parseRunLines parses the run lines lr reads; lr.n is the number of the
// line before the first. It stops after MaxErrors errors.
func parseRunLines(file string, lr *lineReader) *runPart {
	p := &runPart{}
	byQID := map[string]*runQuery{}
	var (
		in interner
		fs []textField
		q  *runQuery // the query of the line before
		// streak counts the lines of q in a row. A new query's lists get
		// room for as many documents (a run holds about as many for every
		// query); the room given adds up to at most the number of lines.
		streak int
		docs   docnoStreak
	)
	c := &p.c
	for !c.full() {
		b, ok := lr.next()
		if !ok {
			break
		}
		var plain bool
		fs, plain = splitFields(fs, b)
		if len(fs) == 0 || isComment(fs) {
			continue
		}
		p.lines++
		shift := 0
		if lr.n == 1 {
			shift = lr.bomShift
		}
		if !plain && lineProblem(c, file, lr.n, shift, b) {
			continue
		}
		if len(fs) < 6 {
			c.add(file, lr.n, 1, "run line has %d fields, expected 6: qid Q0 docno rank score tag", len(fs))
			continue
		}
		score, msg := parseFloat(string(fs[4].b))
		if msg != "" {
			c.add(file, lr.n, fs[4].col+shift, "score is %q, %s", clipBytes(fs[4].b), msg)
			continue
		}
		if q != nil && string(fs[0].b) == q.qid {
			streak++
		} else {
			docs.flush(q)
			qid := in.getBytes(fs[0].b)
			q = byQID[qid]
			if q == nil {
				q = &runQuery{qid: qid, line: lr.n}
				q.docs = make([]string, 0, streak)
				q.scores = make([]float64, 0, streak)
				q.at = make([]position, 0, streak)
				byQID[qid] = q
				p.queries = append(p.queries, q)
			}
			streak = 1
		}
		docs.add(q, fs[2].b)
		q.scores = append(q.scores, score)
		q.at = append(q.at, position{lr.n, fs[2].col + shift})
	}
	docs.flush(q)
	p.err = lr.err
	return p
}

// docnoStreak gathers the docnos of a query's lines in a row, end to end,
// with where each ends: flush makes them one string, which the documents
// are slices of (one allocation for the streak instead of one a line).
type docnoStreak struct {
	docnos []byte
	ends   []int
}

// add appends a document to q, its docno to be filled in by flush.
func (s *docnoStreak) add(q *runQuery, docno []byte) {
	q.docs = append(q.docs, "")
	s.docnos = append(s.docnos, docno...)
	s.ends = append(s.ends, len(s.docnos))
}

// flush fills in the docnos of the documents added to q since the last
// flush.
func (s *docnoStreak) flush(q *runQuery) {
	if len(s.ends) == 0 {
		return
	}
	all, start := string(s.docnos), 0
	docs := q.docs[len(q.docs)-len(s.ends):]
	for j, end := range s.ends {
		docs[j] = all[start:end]
		start = end
	}
	s.docnos, s.ends = s.docnos[:0], s.ends[:0]
}

// qrelsQuery is the judgments of one query: every judged document in file
// order, with its grade. A grade below 0 marks a document in the pool but
// not judged (trec_eval's convention); loader.trecGold picks the relevant
// ones at the relevance level.
type qrelsQuery struct {
	qid  string
	line int
	docs []string
	rels []int

	// At the relevance level of the load (setLevel): the relevant
	// documents in file order, their grades, and how many are judged
	// non-relevant.
	gold   []string
	grades []int
	nonRel int
	// gains is the grade of every judged document with a grade above 0,
	// in file order, when some of them are below the relevance level
	// (trec_eval's ndcg gives those their gain too); nil when they are
	// all relevant, as at level 1: the gains are then grades.
	gains []int
}

// qrels is a parsed TREC qrels file.
type qrels struct {
	file    string
	queries []*qrelsQuery
	byQID   map[string]*qrelsQuery
}

// parseQrels reads TREC qrels: lines "qid iter docno rel", as trec_eval 10
// reads them; a line whose first non-blank character is '#' is a comment.
// Every judgment is kept (bpref and the unjudged fraction need the judged
// non-relevant documents); the same (qid, docno) twice is an error.
func parseQrels(file string, rd io.Reader, c *collector, maxGrade int) (*qrels, error) {
	qr := &qrels{file: file, byQID: make(map[string]*qrelsQuery)}
	lr := newLineReader(rd)
	type judged struct {
		docs []string
		at   []position
	}
	var (
		in    interner
		fs    []textField
		lines int
		all   = make(map[*qrelsQuery]*judged)
		look  lookup
		mem   slab[string]
		q     *qrelsQuery // the query of the line before, and its judgments
		j     *judged
	)
	for !c.full() {
		b, ok := lr.next()
		if !ok {
			break
		}
		var plain bool
		fs, plain = splitFields(fs, b)
		if len(fs) == 0 || isComment(fs) {
			continue
		}
		lines++
		shift := 0
		if lr.n == 1 {
			shift = lr.bomShift
		}
		if !plain && lineProblem(c, file, lr.n, shift, b) {
			continue
		}
		if len(fs) != 4 {
			c.add(file, lr.n, 1, "qrels line has %d fields, expected 4: qid iter docno rel", len(fs))
			continue
		}
		rel, ok := parseInt(string(fs[3].b))
		if !ok {
			c.add(file, lr.n, fs[3].col+shift, "relevance is %q, expected an integer", clipBytes(fs[3].b))
			continue
		}
		if maxGrade > 0 && rel > maxGrade {
			c.add(file, lr.n, fs[3].col+shift, "relevance is %d, %s", rel, gradeHint(maxGrade))
			continue
		}
		if q == nil || string(fs[0].b) != q.qid {
			qid := in.getBytes(fs[0].b)
			q = qr.byQID[qid]
			if q == nil {
				q = &qrelsQuery{qid: qid, line: lr.n}
				qr.byQID[qid] = q
				qr.queries = append(qr.queries, q)
				all[q] = &judged{}
			}
			j = all[q]
		}
		doc := string(fs[2].b)
		j.docs = append(j.docs, doc)
		j.at = append(j.at, position{lr.n, fs[2].col + shift})
		q.rels = append(q.rels, rel) // aligned with j.docs
	}
	if lr.err != nil {
		return nil, lr.err
	}
	if lines == 0 {
		c.add(file, 1, 1, "file is empty, expected qrels lines: qid iter docno rel")
	}
	for _, q := range qr.queries {
		j := all[q]
		if a, b := look.reset(j.docs); b >= 0 {
			at := j.at[b]
			c.add(file, at.line, at.col, "document %q is judged twice for query %q (lines %d and %d), expected each (qid, docno) once", clip(j.docs[b]), clip(q.qid), j.at[a].line, at.line)
		}
		q.docs = orderStrings(&mem, j.docs, nil)
	}
	return qr, nil
}

// isComment reports whether a line's fields make a comment: its first
// non-blank character is '#'.
func isComment(fs []textField) bool {
	return len(fs[0].b) > 0 && fs[0].b[0] == '#'
}

// setLevel sets the gold of every query at relevance level level (trec_eval's
// -l): the documents judged rel >= level in file order with their grades,
// and the count of those judged non-relevant (0 <= rel < level), as
// trec_eval counts them for bpref. A level below 1 is taken as 1.
//
// The gains of nDCG do not depend on the level: trec_eval's ndcg and
// ndcg_cut give every judged document its grade as gain, and build the
// ideal ranking from every judged grade above 0, whatever -l says. When a
// query has documents graded between 1 and level-1, their grades go to
// gains beside the relevant ones.
func (qr *qrels) setLevel(level int) {
	level = max(level, 1)
	for _, q := range qr.queries {
		q.gold, q.grades, q.nonRel, q.gains = nil, nil, 0, nil
		below := false // a document graded 1 .. level-1
		for i, r := range q.rels {
			switch {
			case r >= level:
				q.gold = append(q.gold, q.docs[i])
				q.grades = append(q.grades, r)
			case r >= 0:
				q.nonRel++
				below = below || r > 0
			}
		}
		if below {
			for _, r := range q.rels {
				if r > 0 {
					q.gains = append(q.gains, r)
				}
			}
		}
	}
}

// queryInfo is one row of the queries table.
type queryInfo struct {
	post, criterion string
	fold            int
	split           Split
	train           bool
	line            int
}

// queryTable is the optional queries CSV of TREC inputs: query_id,
// post_id, criterion_id, fold, split.
type queryTable struct {
	file        string
	byID        map[string]*queryInfo
	hasPost     bool
	hasCriteria bool
	hasFolds    bool
	trainRows   int
}

// parseQueriesCSV reads the queries table. query_id is required and unique;
// the other columns are optional and read as in the per-query table.
func parseQueriesCSV(file string, rd io.Reader, c *collector) (*queryTable, error) {
	src, err := openCSV(file, rd, c)
	if src == nil {
		return nil, err
	}
	idx := map[column]int{}
	for i, name := range src.header {
		col, ok := columnByName(name)
		if !ok {
			continue
		}
		switch col {
		case colQuery, colPost, colCriterion, colFold, colSplit:
		default:
			continue
		}
		if j, dup := idx[col]; dup {
			at := src.headerPos(i)
			c.add(file, at.line, at.col, "column %s appears twice (fields %d and %d), expected it once", col, j+1, i+1)
			return nil, nil
		}
		idx[col] = i
	}
	if _, ok := idx[colQuery]; !ok {
		c.add(file, 1, 1, "missing column query_id, expected a header with query_id and optionally post_id, criterion_id, fold, split")
		return nil, nil
	}
	qt := &queryTable{file: file, byID: make(map[string]*queryInfo), hasCriteria: true}
	_, qt.hasFolds = idx[colFold]
	p := newTableParser(file, c) // for its scalar parsers and presence checks
	for src.next() {
		p.raw.reset(src.line)
		p.pending = 0
		for _, col := range []column{colQuery, colPost, colCriterion, colFold, colSplit} {
			i, ok := idx[col]
			if !ok {
				continue
			}
			s, at := src.cell(i)
			p.raw.at[col] = at
			p.textScalar(col, s)
		}
		r := &p.raw
		if p.pending > 0 {
			continue
		}
		if r.query == "" {
			at := p.raw.at[colQuery]
			c.add(file, at.line, at.col, "query_id is empty, expected the qid used in the run and qrels files")
			continue
		}
		if prev, dup := qt.byID[r.query]; dup {
			c.add(file, r.line, 1, "query %q is listed twice (lines %d and %d), expected one row per query", clip(r.query), prev.line, r.line)
			continue
		}
		info := &queryInfo{fold: r.fold, split: r.split, train: r.train, line: r.line}
		if r.train {
			qt.trainRows++
		} else {
			p.track(&p.posts, colPost, r.post != "")
			p.track(&p.crits, colCriterion, r.criterion != "")
		}
		if r.post != "" {
			info.post = p.in.get(r.post)
			qt.hasPost = true
		}
		if r.criterion != "" {
			info.criterion = p.in.get(r.criterion)
		} else if !r.train {
			qt.hasCriteria = false
		}
		qt.byID[strings.Clone(r.query)] = info
	}
	if src.ioErr != nil {
		return nil, src.ioErr
	}
	if src.rows == 0 {
		c.add(file, src.afterHeader(), 1, "no data rows after the header, expected one row per query")
	}
	return qt, nil
}

// neProb is one row of an ne_probs table.
type neProb struct {
	p    float64
	line int
}

// parseNEProbsCSV reads a per-system ne_probs table: query_id, ne_prob.
func parseNEProbsCSV(file string, rd io.Reader, c *collector) (map[string]neProb, error) {
	src, err := openCSV(file, rd, c)
	if src == nil {
		return nil, err
	}
	qi, pi := -1, -1
	for i, name := range src.header {
		col, ok := columnByName(name)
		switch {
		case ok && col == colQuery && qi < 0:
			qi = i
		case ok && col == colNEProb && pi < 0:
			pi = i
		}
	}
	if qi < 0 || pi < 0 {
		var missing []string
		if qi < 0 {
			missing = append(missing, "query_id")
		}
		if pi < 0 {
			missing = append(missing, "ne_prob")
		}
		c.add(file, 1, 1, "missing column %s, expected a header with query_id and ne_prob", strings.Join(missing, ", "))
		return nil, nil
	}
	out := make(map[string]neProb)
	for src.next() {
		q, qat := src.cell(qi)
		s, sat := src.cell(pi)
		if q == "" {
			c.add(file, qat.line, qat.col, "query_id is empty, expected the qid used in the run")
			continue
		}
		if i := controlAt(q, false); i >= 0 {
			c.add(file, qat.line, qat.col, "%s", controlMsg("query_id", []byte(q), i))
			continue
		}
		x, msg := parseProb(s)
		if msg != "" {
			c.add(file, sat.line, sat.col, "ne_prob is %q, %s", clip(s), msg)
			continue
		}
		if prev, dup := out[q]; dup {
			c.add(file, src.line, 1, "query %q is listed twice (lines %d and %d), expected one ne_prob per query", clip(q), prev.line, src.line)
			continue
		}
		out[strings.Clone(q)] = neProb{p: x, line: src.line}
	}
	if src.ioErr != nil {
		return nil, src.ioErr
	}
	if src.rows == 0 {
		c.add(file, src.afterHeader(), 1, "no data rows after the header, expected one row per query")
	}
	return out, nil
}
