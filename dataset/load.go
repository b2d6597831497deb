package dataset

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// SystemSpec names the input of one system. Paths are already resolved
// (package config resolves them against the folder of paper.yaml).
type SystemSpec struct {
	Name    string // identifier, e.g. "full"
	Label   string // display name; Name when empty
	Input   string // per-query table (.csv, .jsonl) or TREC run
	Format  string // "csv", "jsonl" or "trec"; "" = from Input's extension (.jsonl, .ndjson: jsonl; else csv)
	NEProbs string // TREC only: CSV with columns query_id, ne_prob; "" = none
	Source  string // the input as the user named it, for provenance; Input when empty
}

// Spec is everything Load reads. The first system is the primary one: it
// defines the set of (query, fold, split) rows every other system must
// cover with identical gold.
type Spec struct {
	Systems []SystemSpec
	Qrels   string // TREC qrels shared by every TREC system
	Queries string // optional TREC queries table: query_id, post_id, criterion_id, fold, split
	TREC    TREC   // conventions of TREC inputs

	// NamedBy, when not nil, says where the configuration names an input
	// (given its path as Load opens it). A file that cannot be opened is
	// then reported at that place, with the key that named it, so that
	// the message points at what the user has to change.
	NamedBy func(path string) (Place, bool)

	// MaxGrade, when positive, is the largest gold grade accepted: a
	// grade above it (gold_rels, rel, a qrels grade) is an input error
	// naming it. Under exponential nDCG gain it is MaxExpGrade, the
	// largest grade whose gain 2^grade − 1 is finite in float64.
	MaxGrade int

	// Open, when not nil, opens each input file instead of OpenFile: the
	// one place every byte Load parses comes through, so that a caller
	// can hash and copy exactly what is parsed (the reader it returns
	// may wrap OpenFile's). Load reads each file it opens once, from the
	// start, and closes it.
	Open func(path string) (io.ReadCloser, error)
}

// TREC holds the conventions of TREC inputs (the trec: key of paper.yaml),
// trec_eval's where it has one.
type TREC struct {
	// RelevanceLevel: a document is relevant when its qrels grade is at
	// least this (trec_eval -l); 0 means 1.
	RelevanceLevel int
	// NoRelevant is "zero" (a judged query with no relevant document is
	// ranked and scores 0, as trec_eval) or "skip" (it is left out of the
	// ranking population). Load only records it; "" means zero.
	NoRelevant string
	// MissingRunZero adds, for a qrels query a run has no line for, a row
	// with no candidates, so that it scores 0 (trec_eval -c); false leaves
	// the query out of that system.
	MissingRunZero bool
}

// Place is where a configuration names an input: a key path such as
// systems[0].input and its position in the configuration file (Line 0
// when unknown).
type Place struct {
	File         string
	Line, Column int
	Key          string
}

// Load reads and validates the inputs of spec and returns the Dataset.
//
// Input problems are returned together as an ErrorList of up to MaxErrors
// *InputError values, each naming file, line and column; any other error
// is an I/O failure while reading. Input files that cannot be opened are
// input errors (the path is wrong), not I/O failures.
func Load(spec Spec) (*Dataset, error) {
	if spec.Open != nil {
		return load(spec, spec.Open)
	}
	return load(spec, OpenFile)
}

// OpenFile opens an input file as Load does; a directory is refused here
// so that it reads as a wrong path rather than as an I/O failure.
func OpenFile(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("is a directory, expected a file")}
	}
	return f, nil
}

// opener opens an input file; tests substitute in-memory files.
type opener func(name string) (io.ReadCloser, error)

// source is one system's input after parsing.
type source struct {
	spec   SystemSpec
	format string
	recs   records
	order  []int // recs sorted by key (fold, split, query id)

	tab *table // per-query table inputs

	// TREC inputs.
	runNoQrels, qrelsNoRun int
	noRunIDs               []string // the qrels queries with no run line, in qrels order
	absent                 int      // rows added by unionTREC (Row.Absent)
	own                    int      // queries the run is evaluated on, with absent rows
}

// loader carries the state of one Load.
type loader struct {
	spec Spec
	open opener
	c    collector
	// rows holds the inputs whose positions are rows, not lines (Parquet):
	// the messages written after parsing name their rows as the parser's
	// own messages do (rowName, rowIn, rowPrefix). Filled before the
	// systems are read, read only after.
	rows map[string]bool

	qrels   *qrels
	queries *queryTable
	// sharedOK is false when the qrels or queries file had errors: runs
	// are then only checked, not turned into records.
	sharedOK bool
	// shared is closed once the qrels and queries files are read (by a
	// goroutine of their own, beside the runs, which need them only once
	// parsed), sharedErr is that read's failure; nil without TREC systems.
	shared    chan struct{}
	sharedErr error
}

// waitShared waits until the qrels and queries files are read: ld.qrels,
// ld.queries, ld.sharedOK and ld.c are then the loader's again.
func (ld *loader) waitShared() {
	if ld.shared != nil {
		<-ld.shared
	}
}

func load(spec Spec, open opener) (*Dataset, error) {
	if len(spec.Systems) == 0 {
		return nil, errors.New("dataset: no systems to load")
	}
	ld := &loader{spec: spec, open: open}
	srcs := make([]*source, len(spec.Systems))
	var notes []string
	anyTREC := false
	for i, ss := range spec.Systems {
		f, err := formatOf(ss)
		if err != nil {
			if ss.Format == "" {
				// A path that cannot be opened is the first thing to fix.
				r, oerr := ld.open(ss.Input)
				if oerr != nil {
					ld.openError(&ld.c, ss.Input, oerr)
					continue
				}
				r.Close()
			}
			ld.c.add(ss.Input, 0, 0, "system %s: %v", ss.Name, err)
			continue
		}
		srcs[i] = &source{spec: ss, format: f}
		if f == "parquet" {
			if ld.rows == nil {
				ld.rows = map[string]bool{}
			}
			ld.rows[ss.Input] = true
		}
		if f == "trec" {
			anyTREC = true
		} else if ss.NEProbs != "" {
			notes = append(notes, fmt.Sprintf("ne_probs of system %s ignored: it is read only for format trec, a per-query table gives ne_prob in its own column.", ss.Name))
		}
	}
	if anyTREC {
		ld.shared = make(chan struct{})
		go func() {
			defer close(ld.shared)
			ld.sharedErr = ld.readTRECShared()
			ld.sharedOK = len(ld.c.list) == 0
		}()
	} else {
		if spec.Qrels != "" {
			notes = append(notes, fmt.Sprintf("qrels file %s ignored: it is read only for systems with format trec.", spec.Qrels))
		}
		if spec.Queries != "" {
			notes = append(notes, fmt.Sprintf("queries file %s ignored: it is read only for systems with format trec.", spec.Queries))
		}
	}
	err := ld.readSystems(srcs) // waits for the shared files
	if ld.sharedErr != nil {
		return nil, ld.sharedErr
	}
	if err != nil {
		return nil, err
	}
	if len(ld.c.list) == 0 {
		ld.checkGrades(srcs)
	}
	if len(ld.c.list) == 0 {
		ld.unionTREC(srcs)
		for _, src := range srcs[1:] {
			ld.compare(srcs[0], src)
		}
		ld.checkFolds(srcs[0])
	}
	if len(ld.c.list) > 0 {
		return nil, ld.c.list
	}
	d := ld.assemble(srcs)
	d.Notes = append(notes, d.Notes...)
	return d, nil
}

// readSystems parses the systems' inputs concurrently, at most GOMAXPROCS
// at a time, each with its own error collector, and then merges the
// errors in system order, so the result does not depend on scheduling.
// A system that parsed cleanly also gets its duplicate-row check.
func (ld *loader) readSystems(srcs []*source) error {
	cs := make([]collector, len(srcs))
	errs := make([]error, len(srcs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, src := range srcs {
		if src == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = ld.readSystem(src, &cs[i])
			if errs[i] == nil && len(cs[i].list) == 0 {
				ld.checkDuplicates(src, &cs[i])
			}
		}()
	}
	wg.Wait()
	ld.waitShared() // its errors come before the systems'
	for i := range srcs {
		if errs[i] != nil {
			return errs[i]
		}
		for _, e := range cs[i].list {
			ld.c.push(e)
		}
	}
	return nil
}

// Formats lists the input formats a system may have (its format: key).
const Formats = "csv, tsv, jsonl, parquet or trec"

// extensionsText names the extensions FormatOf knows, for messages.
const extensionsText = ".csv, .tsv, .jsonl, .ndjson or .parquet, each also compressed as .gz (.csv.gz)"

// FormatOf returns the format an input's name implies: .csv is csv,
// .tsv and .tab tsv, .jsonl and .ndjson jsonl, .parquet and .pq parquet,
// each also with .gz after it (gzip-compressed); "" for any other name.
func FormatOf(input string) string {
	name := strings.ToLower(input)
	name = strings.TrimSuffix(name, ".gz")
	switch filepath.Ext(name) {
	case ".csv":
		return "csv"
	case ".tsv", ".tab":
		return "tsv"
	case ".jsonl", ".ndjson":
		return "jsonl"
	case ".parquet", ".pq":
		return "parquet"
	}
	return ""
}

// Gzipped reports whether an input is read as gzip-compressed: its name
// ends in .gz (any case).
func Gzipped(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), ".gz")
}

// formatOf returns the input format of a system.
func formatOf(ss SystemSpec) (string, error) {
	switch f := strings.ToLower(ss.Format); f {
	case "csv", "tsv", "jsonl", "parquet", "trec":
		return f, nil
	case "":
		if f := FormatOf(ss.Input); f != "" {
			return f, nil
		}
		return "", fmt.Errorf("cannot tell the format of %s from its name, expected format: %s on the system, or a name ending in %s", clip(filepath.Base(ss.Input)), Formats, extensionsText)
	}
	return "", fmt.Errorf("format %q is not supported, expected %s", clip(ss.Format), Formats)
}

// withFile opens name and calls read with it. A file that cannot be opened
// is an input error; read's error is an I/O failure.
func (ld *loader) withFile(c *collector, name string, read func(io.Reader) error) error {
	return ld.withFileAs(c, name, true, read)
}

// withFileAs is withFile; text says the parser reads text (every format
// but Parquet), whose first bytes are then checked for a binary file
// under a text name and for line ends a parser would not see (sniffText).
func (ld *loader) withFileAs(c *collector, name string, text bool, read func(io.Reader) error) error {
	f, err := ld.open(name)
	if err != nil {
		ld.openError(c, name, err)
		return nil
	}
	var r io.Reader = f
	if Gzipped(name) {
		// The file's own (compressed) bytes are what the caller's Open
		// reads, hashes and copies; the parser reads them decompressed,
		// within the limits of an input.
		zr, zerr := gzip.NewReader(f)
		if zerr != nil {
			f.Close()
			c.push(gzipError(name, zerr))
			return nil
		}
		r = &gunzip{zr: zr, file: name}
	}
	lr := newLimitReader(name, r)
	if g, ok := r.(*gunzip); ok {
		g.lr = lr
	}
	var in io.Reader = lr
	if text {
		br := bufio.NewReaderSize(lr, sniffBytes)
		if ie := sniffText(name, br, Gzipped(name)); ie != nil {
			f.Close()
			c.push(ie)
			return nil
		}
		in = &sniffedReader{Reader: br, lr: lr}
	}
	err = read(in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	var ie *InputError
	if errors.As(err, &ie) {
		c.push(ie) // a maximum of limits.go: a problem of the input
		return nil
	}
	if err != nil {
		return fmt.Errorf("dataset: reading %s: %w", name, err)
	}
	return nil
}

// openError reports an input file that cannot be opened: at the key of
// the configuration that names it when Spec.NamedBy knows it, else as a
// problem of the file.
func (ld *loader) openError(c *collector, name string, err error) {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	want := "expected an existing file"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		want = "expected a file you can read"
	case strings.Contains(msg, "is a directory"):
		msg, want = "it is a directory", "expected a file"
	}
	if ld.spec.NamedBy != nil {
		if at, ok := ld.spec.NamedBy(name); ok {
			rel := ""
			if !filepath.IsAbs(name) {
				rel = " (a relative path is read from the folder of " + filepath.Base(at.File) + ")"
			}
			c.add(at.File, at.Line, at.Column, "%s: cannot open %s: %s, %s%s", at.Key, name, msg, want, rel)
			return
		}
	}
	c.add(name, 0, 0, "cannot open the file: %s, %s", msg, want)
}

// readSystem parses one system's input into records, reporting to c.
func (ld *loader) readSystem(src *source, c *collector) error {
	name := src.spec.Input
	switch src.format {
	case "csv", "tsv", "jsonl", "parquet":
		err := ld.withFileAs(c, name, src.format != "parquet", func(r io.Reader) error {
			var t *table
			var err error
			switch src.format {
			case "csv":
				t, err = parseTableCSV(name, r, c)
			case "tsv":
				t, err = parseTableDelimited(name, r, '\t', c)
			case "parquet":
				t, err = parseTableParquet(name, r, c)
			default:
				t, err = parseTableJSONL(name, r, c)
			}
			src.tab = t
			return err
		})
		if err != nil || src.tab == nil {
			return err
		}
		src.recs = src.tab.recs
		src.tab.recs = records{}
		if src.recs.len() == 0 && len(c.list) == 0 {
			if n := src.tab.trainRows; n > 0 {
				c.add(name, 0, 0, "all %d rows have split train, expected eval or tune rows", n)
			} else {
				c.add(name, 0, 0, "no data rows, expected one row per query")
			}
		}
		return nil
	}

	var rn *run
	err := ld.withFile(c, name, func(r io.Reader) error {
		var err error
		rn, err = parseRun(name, r, c)
		return err
	})
	if err != nil || rn == nil {
		return err
	}
	var ne map[string]neProb
	if src.spec.NEProbs != "" {
		err := ld.withFile(c, src.spec.NEProbs, func(r io.Reader) error {
			var err error
			ne, err = parseNEProbsCSV(src.spec.NEProbs, r, c)
			return err
		})
		if err != nil || ne == nil {
			return err
		}
	}
	ld.waitShared()
	if ld.qrels == nil || !ld.sharedOK || len(c.list) > 0 {
		return nil
	}
	ld.trecRecords(src, rn, ne, c)
	return nil
}

// finalCmp is the order of Dataset.Queries: fold, split (eval first),
// post, criterion, query id.
func finalCmp(a, b *Query) int {
	if c := cmp.Compare(a.Fold, b.Fold); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Split, b.Split); c != 0 {
		return c
	}
	if c := strings.Compare(a.Post, b.Post); c != 0 {
		return c
	}
	if c := strings.Compare(a.Criterion, b.Criterion); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// assemble builds the Dataset from sources that passed every check: all
// have the same keys, so their key orders align row for row.
func (ld *loader) assemble(srcs []*source) *Dataset {
	first := srcs[0]
	queries, pos := finalOrder(first)
	d := &Dataset{Queries: queries, Systems: make([]System, len(srcs))}
	assembleSystems(d, srcs, pos)
	switch {
	case first.tab != nil:
		d.HasPosts = first.tab.hasPost
		d.HasCriteria = first.tab.hasCriteria
		d.HasFolds = first.tab.hasFolds
	case ld.queries != nil:
		d.HasPosts = ld.queries.hasPost
		d.HasCriteria = ld.queries.hasCriteria
		d.HasFolds = ld.queries.hasFolds
	}
	ld.inputNotes(d, srcs)
	ld.trecNotes(d, srcs)
	return d
}

// finalOrder returns the queries of the first source in final order and
// pos, where pos[j] is the key-order position of the j-th query in final
// order (the same for every source, since all have the same keys).
func finalOrder(first *source) (queries []Query, pos []int) {
	n := len(first.order)
	// The queries in key order, then pos[j], the key-order position of the
	// j-th query in final order. The keys are distinct, so finalCmp (which
	// ends with the query id) is a total order.
	keyed := make([]Query, n)
	inRanges(n, n, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			keyed[p] = first.recs.at(first.order[p]).Query
		}
	})
	pos = identity(nil, n)
	byFinal := func(i, j int) int { return finalCmp(&keyed[i], &keyed[j]) }
	queries = keyed
	if !slices.IsSortedFunc(pos, byFinal) {
		sortFunc(pos, byFinal)
		queries = make([]Query, n)
		for j, p := range pos {
			queries[j] = keyed[p]
		}
	}
	return queries, pos
}

// assembleSystems fills d.Systems with the rows of each source in final
// order, sets HasCandidates, HasNEProb and HasNEScore, and adds the notes on
// partial or score-only NE-gate columns.
func assembleSystems(d *Dataset, srcs []*source, pos []int) {
	n := len(d.Queries)
	d.HasNEProb, d.HasNEScore = true, true
	var scoreOnly []string // systems whose NE-gate scores are ne_score
	for k, src := range srcs {
		if src.tab == nil || !src.tab.classifier {
			d.HasCandidates = true
		}
		shown := src.spec.Source
		if shown == "" {
			shown = src.spec.Input
		}
		sys := System{Name: src.spec.Name, Label: src.spec.Label, Source: shown, Rows: make([]Row, n)}
		if sys.Label == "" {
			sys.Label = sys.Name
		}
		withNE := make([]int, ranges(n, n)) // rows with ne_prob, by range
		withSc := make([]int, ranges(n, n)) // rows with ne_prob or ne_score
		absent := make([]int, ranges(n, n)) // rows the system is not evaluated on
		inRanges(n, n, func(part, lo, hi int) {
			for j := lo; j < hi; j++ {
				r := &sys.Rows[j]
				*r = src.recs.at(src.order[pos[j]]).row
				if r.HasNEProb {
					withNE[part]++
				}
				if r.HasNEScore {
					withSc[part]++
				}
				if r.Absent {
					absent[part]++
				}
			}
		})
		if a := sumInts(absent); a > 0 && src.spec.NEProbs != "" && sumInts(withNE) == n-a {
			// Every row it is evaluated on has an ne_prob: the NE gate
			// is left out because the systems' query sets differ, not
			// for a missing ne_prob.
			d.HasNEProb, d.HasNEScore = false, false
			d.Notes = append(d.Notes, fmt.Sprintf("System %s is not evaluated on %s that other runs are (missing_run: skip): the NE-gate metrics, which compare every system on one set of queries, are not computed; missing_run: zero computes them on every qrels query.", sys.Name, plural(a, "query")))
			d.Systems[k] = sys
			src.recs = records{}
			continue
		}
		sc := sumInts(withSc)
		if sc < n {
			d.HasNEScore = false
		}
		if src.tab != nil && src.tab.hasNEScore {
			scoreOnly = append(scoreOnly, sys.Name)
			if sc < n {
				d.Notes = append(d.Notes, fmt.Sprintf("System %s gives ne_prob or ne_score on %d of %d rows: NE-gate metrics need one on every row.", sys.Name, sc, n))
			}
		}
		if ne := sumInts(withNE); ne < n {
			d.HasNEProb = false
			if ne > 0 && !(src.tab != nil && src.tab.hasNEScore) {
				d.Notes = append(d.Notes, fmt.Sprintf("System %s gives ne_prob on %d of %d rows: NE-gate metrics need it on every row.", sys.Name, ne, n))
			}
		}
		d.Systems[k] = sys
		src.recs = records{} // let the parsed records go
	}

	if d.HasNEScore && !d.HasNEProb && len(scoreOnly) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("ne_score given (%s): scores are not probabilities, so calibration, the Brier score, fixed probability thresholds and the clinical gate are not computed; the rank-based NE-gate metrics are (AUROC, AUPRC, ROC and PR curves, TPR at FPR, held-out operating points, DeLong).", strings.Join(scoreOnly, ", ")))
	}
}

// inputNotes counts the ignored train rows and adds the notes on train
// rows, pipeline selections, pipeline gate states and a missing post_id.
func (ld *loader) inputNotes(d *Dataset, srcs []*source) {
	var train []string
	if ld.queries != nil && ld.queries.trainRows > 0 {
		d.TrainRowsIgnored += ld.queries.trainRows
		train = append(train, fmt.Sprintf("%d in %s", ld.queries.trainRows, ld.queries.file))
	}
	var selected, states []string
	for _, src := range srcs {
		if src.tab == nil {
			continue
		}
		if t := src.tab.trainRows; t > 0 {
			d.TrainRowsIgnored += t
			train = append(train, fmt.Sprintf("%d in %s", t, src.spec.Input))
		}
		if src.tab.hasSelected {
			selected = append(selected, src.spec.Name)
		}
		if src.tab.hasState {
			states = append(states, src.spec.Name)
		}
	}
	if d.TrainRowsIgnored > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%s with split train ignored (%s).", plural(d.TrainRowsIgnored, "row"), strings.Join(train, ", ")))
	}
	if len(selected) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("selected_uids given (%s): the pipeline's own selections are used where given, instead of the Dynamic-K policy.", strings.Join(selected, ", ")))
	}
	if len(states) > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("state given (%s): the pipeline's own gate states are used where given.", strings.Join(states, ", ")))
	}
	if !d.HasPosts {
		d.Notes = append(d.Notes, "No post_id: each query is its own group (folds and the cluster bootstrap treat queries as independent).")
	}
}

// quoteIDs lists the first limit of ids, quoted, and how many more there are.
func quoteIDs(ids []string, limit int) string {
	shown := ids[:min(len(ids), limit)]
	q := make([]string, len(shown))
	for i, id := range shown {
		q[i] = strconv.Quote(clip(id))
	}
	out := strings.Join(q, ", ")
	if n := len(ids) - len(shown); n > 0 {
		out += fmt.Sprintf(" and %d more", n)
	}
	return out
}

// plural writes n and a noun, in the plural unless n is 1 ("query" becomes
// "queries").
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if s, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, s)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// MaxExpGrade is the largest grade whose exponential gain 2^grade − 1 is
// finite in float64 (2^1024 overflows): the bound of Spec.MaxGrade under
// contract.ndcg_gain: exponential.
const MaxExpGrade = 1023

// gradeHint says what to do with a grade above Spec.MaxGrade.
func gradeHint(max int) string {
	return fmt.Sprintf("expected a grade <= %d: under contract.ndcg_gain: exponential its gain 2^grade − 1 is not finite in float64, and the query would leave nDCG's mean (lower the grades, or set contract.ndcg_gain: linear)", max)
}

// checkGrades refuses gold grades above Spec.MaxGrade in the table
// inputs, at the row of the query (qrels grades are checked as they are
// read). Gold is the same in every system, so the first table input is
// checked; a difference is reported by compare.
func (ld *loader) checkGrades(srcs []*source) {
	limit := ld.spec.MaxGrade
	if limit <= 0 {
		return
	}
	for _, src := range srcs {
		if src.format == "trec" {
			continue
		}
		for _, i := range src.order {
			r := src.recs.at(i)
			for k, g := range r.GoldRels {
				if g > limit {
					col := max(r.goldAt.col, 1)
					ld.c.add(src.spec.Input, r.line, col, "%sgold id %q of query %q has grade %d, %s", ld.rowPrefix(src.spec.Input, r.line), clip(r.Gold[k]), clip(r.ID), g, gradeHint(limit))
				}
			}
		}
		return
	}
}
