package report

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"paperbundle/dataset"
	"paperbundle/internal/csvtext"
	"paperbundle/metrics"
)

// perQueryNum writes a number at full precision, empty when undefined.
func perQueryNum(x Num) string {
	if !x.Valid() {
		return ""
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 64)
}

// evidenceColumn is one column of per_query_metrics.csv before the metric
// columns: its name, whether it applies to the input, and how it writes
// and reads one Evidence field. This table is the only list of those
// columns: the writer, the reader and the header all follow it.
type evidenceColumn struct {
	name    string
	applies func(f EvidenceFields) bool
	// set marks the field as applying when a file has the column.
	set   func(f *EvidenceFields)
	write func(e *Evidence) string
	// read parses the cell into e; the error says what was wanted.
	read func(e *Evidence, s string) error
}

func always(EvidenceFields) bool { return true }
func noField(*EvidenceFields)    {}

var errWantInt = errors.New("is not an integer, want a whole number")
var errWantNum = errors.New("is not a number, want a number or an empty cell")

func textColumn(name string, field func(e *Evidence) *string) evidenceColumn {
	return evidenceColumn{name: name, applies: always, set: noField,
		write: func(e *Evidence) string { return csvtext.Safe(*field(e)) },
		read:  func(e *Evidence, s string) error { *field(e) = csvtext.Unsafe(s); return nil }}
}

func intColumn(name string, applies func(EvidenceFields) bool, set func(*EvidenceFields), field func(e *Evidence) *int) evidenceColumn {
	return evidenceColumn{name: name, applies: applies, set: set,
		write: func(e *Evidence) string { return strconv.Itoa(*field(e)) },
		read: func(e *Evidence, s string) error {
			v, err := strconv.Atoi(s)
			if err != nil {
				return errWantInt
			}
			*field(e) = v
			return nil
		}}
}

func numColumn(name string, applies func(EvidenceFields) bool, set func(*EvidenceFields), field func(e *Evidence) *Num) evidenceColumn {
	return evidenceColumn{name: name, applies: applies, set: set,
		write: func(e *Evidence) string { return perQueryNum(*field(e)) },
		read: func(e *Evidence, s string) error {
			v, err := parsePerQueryNum(s)
			if err != nil {
				return errWantNum
			}
			*field(e) = v
			return nil
		}}
}

func candidates(f EvidenceFields) bool { return f.Candidates }
func setCandidates(f *EvidenceFields)  { f.Candidates = true }

// evidenceColumns are the columns of per_query_metrics.csv before the
// metric columns, in file order.
var evidenceColumns = []evidenceColumn{
	textColumn("system", func(e *Evidence) *string { return &e.System }),
	textColumn("query_id", func(e *Evidence) *string { return &e.Query }),
	textColumn("post_id", func(e *Evidence) *string { return &e.Post }),
	{name: "criterion_id", applies: func(f EvidenceFields) bool { return f.Criteria }, set: func(f *EvidenceFields) { f.Criteria = true },
		write: func(e *Evidence) string { return csvtext.Safe(e.Criterion) },
		read:  func(e *Evidence, s string) error { e.Criterion = csvtext.Unsafe(s); return nil }},
	intColumn("fold", always, noField, func(e *Evidence) *int { return &e.Fold }),
	{name: "label", applies: func(f EvidenceFields) bool { return f.Label }, set: func(f *EvidenceFields) { f.Label = true },
		write: func(e *Evidence) string { return strconv.Itoa(int(b2f(e.Label))) },
		read: func(e *Evidence, s string) error {
			if s != "0" && s != "1" {
				return errors.New("is not a label, want 0 or 1")
			}
			e.Label = s == "1"
			return nil
		}},
	intColumn("n_gold", candidates, setCandidates, func(e *Evidence) *int { return &e.NGold }),
	intColumn("n_candidates", candidates, setCandidates, func(e *Evidence) *int { return &e.NCand }),
	intColumn("gold_in_pool", candidates, setCandidates, func(e *Evidence) *int { return &e.GoldInPool }),
	numColumn("difficulty", candidates, setCandidates, func(e *Evidence) *Num { return &e.Difficulty }),
	numColumn("ne_prob", func(f EvidenceFields) bool { return f.Score == ScoreProb }, func(f *EvidenceFields) { f.Score = ScoreProb },
		func(e *Evidence) *Num { return &e.Score }),
	numColumn("ne_score", func(f EvidenceFields) bool { return f.Score == ScoreRaw }, func(f *EvidenceFields) { f.Score = ScoreRaw },
		func(e *Evidence) *Num { return &e.Score }),
	{name: "state", applies: func(f EvidenceFields) bool { return f.State }, set: func(f *EvidenceFields) { f.State = true },
		write: func(e *Evidence) string { return e.State.String() },
		read: func(e *Evidence, s string) error {
			for st := dataset.StateNone; st <= dataset.StatePOS; st++ {
				if s == st.String() {
					e.State = st
					return nil
				}
			}
			return errors.New("is not a gate state, want NEG, UNCERTAIN, POS or an empty cell")
		}},
	intColumn("selected_k", func(f EvidenceFields) bool { return f.SelectedK }, func(f *EvidenceFields) { f.SelectedK = true },
		func(e *Evidence) *int { return &e.SelectedK }),
}

// requiredColumns are the columns every per_query_metrics.csv has.
var requiredColumns = []string{"system", "query_id", "post_id", "fold"}

// PerQueryHeader returns the header of r's per_query_metrics.csv: the
// evidence columns that apply (r.PerQueryFields), then one column per
// metric id of r.PerQueryColumns.
func (r *Report) PerQueryHeader() []string {
	var head []string
	for _, c := range r.evidenceColumns() {
		head = append(head, c.name)
	}
	for _, id := range r.PerQueryColumns {
		head = append(head, string(id))
	}
	return head
}

func (r *Report) evidenceColumns() []*evidenceColumn {
	var out []*evidenceColumn
	for i := range evidenceColumns {
		if evidenceColumns[i].applies(r.PerQueryFields) {
			out = append(out, &evidenceColumns[i])
		}
	}
	return out
}

// WritePerQueryCSV writes per_query_metrics.csv: the header
// (PerQueryHeader), then one row per r.PerQuery in order; undefined values
// are empty cells, a label is 0 or 1 and user text is escaped as
// perQueryText says. ReadPerQueryCSV reads it back.
func (r *Report) WritePerQueryCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	head := r.PerQueryHeader()
	w.Write(head)
	cols := r.evidenceColumns()
	rec := make([]string, 0, len(head))
	for i := range r.PerQuery {
		q := &r.PerQuery[i]
		rec = rec[:0]
		for _, c := range cols {
			rec = append(rec, c.write(q))
		}
		for j := range r.PerQueryColumns {
			rec = append(rec, perQueryNum(q.Value(j)))
		}
		w.Write(rec)
	}
	w.Flush()
	return w.Error()
}

// ReadPerQueryCSV reads per_query_metrics.csv as WritePerQueryCSV writes
// it into r.PerQuery, r.PerQueryFields and r.PerQueryColumns: each
// evidence column by its name (a file of an older version, without a
// label column, reads with PerQueryFields.Label false), and every column
// whose name has a dot as a metric id. name is the file's name in error
// messages, which read "name:line:col: what was wrong, what was
// expected". The caller bounds the reader (a bundle is untrusted input).
func (r *Report) ReadPerQueryCSV(name string, in io.Reader) error {
	cr := csv.NewReader(bufio.NewReader(in))
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return perQueryErr(name, err, "a header line")
	}
	head = append([]string(nil), head...) // cr reuses the record's slice
	cols, metricAt, fields, err := readPerQueryHeader(name, head)
	if err != nil {
		return err
	}
	var ids []metrics.ID
	for _, j := range metricAt {
		ids = append(ids, metrics.ID(head[j]))
	}
	var rows []Evidence
	vals := &evidenceValues{cols: make([][]float64, len(ids))} // one block of every row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return perQueryErr(name, err, "a CSV record")
		}
		e := Evidence{Difficulty: NaN, Score: NaN}
		for j, c := range cols {
			if c == nil {
				continue
			}
			if err := c.read(&e, rec[j]); err != nil {
				line, col := cr.FieldPos(j)
				return fmt.Errorf("%s:%d:%d: %s %q %v", name, line, col, head[j], rec[j], err)
			}
		}
		for k, j := range metricAt {
			v, err := parsePerQueryNum(rec[j])
			if err != nil {
				line, col := cr.FieldPos(j)
				return fmt.Errorf("%s:%d:%d: %s %q %v", name, line, col, head[j], rec[j], errWantNum)
			}
			vals.cols[k] = append(vals.cols[k], float64(v))
		}
		e.values, e.row = vals, len(rows)
		rows = append(rows, e)
	}
	r.PerQuery, r.PerQueryColumns, r.PerQueryFields = rows, ids, fields
	return nil
}

// readPerQueryHeader maps the header's columns: cols[j] is column j's
// evidence column (nil for a metric column), metricAt the indexes of the
// metric columns, fields the evidence fields the columns give.
func readPerQueryHeader(name string, head []string) (cols []*evidenceColumn, metricAt []int, fields EvidenceFields, err error) {
	byName := map[string]*evidenceColumn{}
	for i := range evidenceColumns {
		byName[evidenceColumns[i].name] = &evidenceColumns[i]
	}
	seen := map[string]bool{}
	cols = make([]*evidenceColumn, len(head))
	for j, h := range head {
		if seen[h] {
			return nil, nil, fields, fmt.Errorf("%s:1:%d: column %q appears twice, want each column once", name, j+1, h)
		}
		seen[h] = true
		if c, ok := byName[h]; ok {
			cols[j] = c
			c.set(&fields)
			continue
		}
		if !strings.Contains(h, ".") {
			return nil, nil, fields, fmt.Errorf("%s:1:%d: column %q is neither an evidence column nor a metric id, want the columns paperbundle writes", name, j+1, h)
		}
		metricAt = append(metricAt, j)
	}
	for _, h := range requiredColumns {
		if !seen[h] {
			return nil, nil, fields, fmt.Errorf("%s:1:1: no %s column, want the columns %s", name, h, strings.Join(requiredColumns, ", "))
		}
	}
	return cols, metricAt, fields, nil
}

// parsePerQueryNum reads a number cell: empty is undefined (NaN).
func parsePerQueryNum(s string) (Num, error) {
	if s == "" {
		return NaN, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return NaN, errors.New("not a number")
	}
	return Num(v), nil
}

// perQueryErr words a CSV syntax error (with its line and column) or a
// read error of per_query_metrics.csv.
func perQueryErr(name string, err error, want string) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d:%d: %v, want %s", name, pe.Line, pe.Column, pe.Err, want)
	}
	if err == io.EOF {
		return fmt.Errorf("%s:1:1: the file is empty, want %s", name, want)
	}
	return fmt.Errorf("%s: %w", name, err)
}
