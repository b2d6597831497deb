package dataset

import (
	"fmt"
	"io"
	"strings"
)

// The TREC side of Load: the qrels and queries files shared by the runs,
// each run's lines turned into the rows of its queries, the rows a run
// lacks when runs cover different queries, and the notes that say what
// was matched.

// readTRECShared reads the qrels and queries files shared by TREC systems.
func (ld *loader) readTRECShared() error {
	if ld.spec.Qrels == "" {
		var names []string
		file := ""
		for _, ss := range ld.spec.Systems {
			if f, _ := formatOf(ss); f == "trec" {
				names = append(names, ss.Name)
				if file == "" {
					file = ss.Input
				}
			}
		}
		ld.c.add(file, 0, 0, "no qrels file, expected a top-level qrels: for the TREC systems %s", strings.Join(names, ", "))
		return nil
	}
	err := ld.withFile(&ld.c, ld.spec.Qrels, func(r io.Reader) error {
		q, err := parseQrels(ld.spec.Qrels, r, &ld.c, ld.spec.MaxGrade)
		if q != nil {
			q.setLevel(ld.spec.TREC.RelevanceLevel)
		}
		ld.qrels = q
		return err
	})
	if err != nil || ld.spec.Queries == "" {
		return err
	}
	err = ld.withFile(&ld.c, ld.spec.Queries, func(r io.Reader) error {
		q, err := parseQueriesCSV(ld.spec.Queries, r, &ld.c)
		ld.queries = q
		return err
	})
	return err
}

// trecRecords turns a run into records: the run queries that have qrels
// (and are not train queries), ranked as trec_eval ranks them.
//
// Each query is ranked on its own: consecutive ranges of queries on all
// cores, each with records and errors of its own, joined in run order.
func (ld *loader) trecRecords(src *source, rn *run, ne map[string]neProb, c *collector) {
	type part struct {
		recs       records
		c          collector
		runNoQrels int
	}
	docs := 0
	for _, q := range rn.queries {
		docs += len(q.docs)
	}
	parts := make([]part, ranges(len(rn.queries), docs))
	inRanges(len(rn.queries), docs, func(k, lo, hi int) {
		pt := &parts[k]
		pt.runNoQrels = ld.trecRange(&pt.recs, rn.queries[lo:hi], rn.file, src.spec.NEProbs, ne, &pt.c)
	})
	for k := range parts {
		pt := &parts[k]
		src.recs.join(&pt.recs)
		src.runNoQrels += pt.runNoQrels
		for _, e := range pt.c.list {
			c.push(e)
		}
	}
	var missing []*runQuery
	for _, g := range ld.qrels.queries {
		if rn.byQID[g.qid] == nil {
			src.qrelsNoRun++
			src.noRunIDs = append(src.noRunIDs, g.qid)
			missing = append(missing, &runQuery{qid: g.qid, line: g.line})
		}
	}
	if ld.spec.TREC.MissingRunZero && len(missing) > 0 {
		// A qrels query with no run line ranks nothing and scores 0
		// (trec_eval -c); its errors point at its qrels line.
		var pt part
		ld.trecRange(&pt.recs, missing, ld.qrels.file, src.spec.NEProbs, ne, &pt.c)
		src.recs.join(&pt.recs)
		for _, e := range pt.c.list {
			c.push(e)
		}
	}
	if src.recs.len() == 0 && len(c.list) == 0 {
		c.add(rn.file, 0, 0, "none of the %d run queries is evaluated (in the qrels file %s and not a train query), expected at least one", len(rn.queries), ld.qrels.file)
	}
}

// unionTREC gives every TREC run a row for each query another run is
// evaluated on and it has no line for, marked Row.Absent, under
// trec.missing_run: skip (with zero every run already has every qrels
// query). Each run is then evaluated on its own queries, as trec_eval
// without -c evaluates a run on the queries it has, and every system has
// the same rows, as the rest of the load and the report expect. Table
// systems are left as they are: they must cover the same rows as the
// others.
func (ld *loader) unionTREC(srcs []*source) {
	if ld.spec.TREC.MissingRunZero || ld.qrels == nil {
		return
	}
	var runs []*source
	for _, src := range srcs {
		if src.format == "trec" {
			runs = append(runs, src)
		}
	}
	if len(runs) < 2 {
		return
	}
	has := make([]map[string]bool, len(runs))
	var union []string // evaluated by some run, in qrels order
	in := map[string]bool{}
	for k, src := range runs {
		has[k] = make(map[string]bool, src.recs.len())
		for i := range src.recs.len() {
			id := src.recs.at(i).ID
			has[k][id] = true
			in[id] = true
		}
	}
	for _, g := range ld.qrels.queries {
		if in[g.qid] {
			union = append(union, g.qid)
		}
	}
	for k, src := range runs {
		var missing []*runQuery
		for _, qid := range union {
			if !has[k][qid] {
				g := ld.qrels.byQID[qid]
				missing = append(missing, &runQuery{qid: qid, line: g.line})
			}
		}
		src.own, src.absent = len(has[k]), len(missing)
		if len(missing) == 0 {
			continue
		}
		// The rows point at the queries' qrels lines; they need no
		// ne_prob (they are in none of this system's metrics).
		var recs records
		var c collector
		ld.trecRange(&recs, missing, ld.qrels.file, "", nil, &c)
		for i := range recs.len() {
			recs.at(i).row.Absent = true
		}
		src.recs.join(&recs)
		for _, e := range c.list {
			ld.c.push(e)
		}
		ld.checkDuplicates(src, &ld.c) // sorts the rows again
	}
}

// trecRange adds the records of run queries qs (of the run file file) to
// recs, reports to c, and returns how many of qs have no qrels. neFile
// names the ne_probs table ne, when given.
func (ld *loader) trecRange(recs *records, qs []*runQuery, file, neFile string, ne map[string]neProb, c *collector) (noQrels int) {
	qr, qt := ld.qrels, ld.queries
	level := max(ld.spec.TREC.RelevanceLevel, 1)
	var judgedMem slab[bool]
	var (
		perm []int
		look lookup
		mem  arena
	)
	for _, q := range qs {
		g := qr.byQID[q.qid]
		if g == nil {
			noQrels++
			continue
		}
		query := Query{ID: q.qid, Post: q.qid, Split: SplitEval, Gold: g.gold, GoldRels: g.grades, GainRels: g.gains, NonRel: g.nonRel, TREC: true}
		idFile, idLine := file, q.line
		if qt != nil {
			info := qt.byID[q.qid]
			if info == nil {
				c.add(file, q.line, 1, "query %q has qrels but no row in %s, expected a row for every evaluated query there", clip(q.qid), qt.file)
				continue
			}
			if info.train {
				continue
			}
			if info.post != "" {
				query.Post = info.post
			}
			query.Criterion, query.Fold, query.Split = info.criterion, info.fold, info.split
			idFile, idLine = qt.file, info.line
		}
		row := Row{}
		if ne != nil {
			v, ok := ne[q.qid]
			if !ok {
				c.add(file, q.line, 1, "query %q has no row in %s, expected an ne_prob for every evaluated query there", clip(q.qid), neFile)
				continue
			}
			row.NEProb, row.HasNEProb = v.p, true
			row.NEScore, row.HasNEScore = v.p, true
		}
		perm = rankTREC(perm, q.scores, q.docs)
		row.Candidates = orderStrings(&mem.strs, q.docs, perm)
		row.Scores = permuteFloats(&mem.floats, q.scores, perm)
		row.Rel = mem.ints.take(len(row.Candidates))
		// Judged is never nil for a TREC row, even with no candidates
		// (missing_run: zero): nil means a table row, without judgments.
		row.Judged = judgedMem.take(len(row.Candidates))
		if row.Judged == nil {
			row.Judged = []bool{}
		}
		if g.gains != nil {
			row.Gain = mem.ints.take(len(row.Candidates))
		}
		look.reset(g.docs)
		for i, d := range row.Candidates {
			if k := look.find(d); k >= 0 && g.rels[k] < 0 {
				if row.Pooled == nil {
					row.Pooled = make([]bool, len(row.Candidates))
				}
				row.Pooled[i] = true
			} else if k >= 0 {
				row.Judged[i] = true
				if g.rels[k] >= level {
					row.Rel[i] = g.rels[k]
				}
				if row.Gain != nil {
					row.Gain[i] = g.rels[k]
				}
			}
		}
		*recs.add() = record{Query: query, row: row, line: q.line, idFile: idFile, idLine: idLine}
	}
	return noQrels
}

// trecNotes records, for the TREC systems, the run and qrels queries left
// unmatched and the TREC conventions in force, with their notes.
func (ld *loader) trecNotes(d *Dataset, srcs []*source) {
	for _, src := range srcs {
		if src.format != "trec" {
			continue
		}
		// The run as paper.yaml names it (the same in a build and in
		// verify's recomputation from the bundle's copy).
		run := src.spec.Source
		if run == "" {
			run = src.spec.Input
		}
		if d.RunQueriesWithoutQrels == nil {
			d.RunQueriesWithoutQrels = make(map[string]int)
			d.QrelsQueriesWithoutRun = make(map[string]int)
		}
		d.RunQueriesWithoutQrels[src.spec.Name] = src.runNoQrels
		d.QrelsQueriesWithoutRun[src.spec.Name] = src.qrelsNoRun
		if d.TRECConventions == nil {
			t := ld.spec.TREC
			d.TRECConventions = &TRECConventions{RelevanceLevel: max(t.RelevanceLevel, 1), NoRelevant: "zero", MissingRun: "skip"}
			if t.NoRelevant == "skip" {
				d.TRECConventions.NoRelevant = "skip"
			}
			if t.MissingRunZero {
				d.TRECConventions.MissingRun = "zero"
			}
			tc := d.TRECConventions
			d.Notes = append(d.Notes, fmt.Sprintf("TREC conventions: relevance level %d (a document is relevant when its qrels grade is at least %d, trec_eval -l); no_relevant: %s; missing_run: %s.", tc.RelevanceLevel, tc.RelevanceLevel, tc.NoRelevant, tc.MissingRun))
		}
		if src.runNoQrels > 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("%s: %s without qrels not evaluated (as trec_eval).", run, plural(src.runNoQrels, "run query")))
		}
		if src.qrelsNoRun > 0 {
			if ld.spec.TREC.MissingRunZero {
				d.Notes = append(d.Notes, fmt.Sprintf("%s: %s not in the run, evaluated with no documents retrieved and scored 0 (missing_run: zero, as trec_eval -c).", run, plural(src.qrelsNoRun, "qrels query")))
				continue
			}
			own := ""
			if src.absent > 0 {
				// Other runs are evaluated on some of them.
				d.PerSystemQueries = true
				own = fmt.Sprintf("; system %s is evaluated on its own %s, and each comparison with it on the queries both systems have", src.spec.Name, plural(src.own, "query"))
			}
			d.Notes = append(d.Notes, fmt.Sprintf("%s: %s not in the run, left out of this system (%s)%s (missing_run: skip; trec_eval without -c stops with an error there, with -c it scores them 0).", run, plural(src.qrelsNoRun, "qrels query"), quoteIDs(src.noRunIDs, 10), own))
		}
	}
}
