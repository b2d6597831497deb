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

	"paperbundle/metrics"
)

// PerQueryHeader is the header of per_query_metrics.csv before the metric
// columns (one column per Report.PerQueryColumns id).
var PerQueryHeader = []string{"system", "query_id", "post_id", "criterion_id", "fold", "n_gold", "n_candidates", "gold_in_pool", "difficulty", "ne_prob", "state", "selected_k"}

// perQueryText escapes a user string of per_query_metrics.csv: text that a
// spreadsheet would run as a formula (beginning with =, +, -, @, tab or
// CR) gets a leading ', and so does text that already begins with ', so
// that ReadPerQueryCSV can take exactly one ' off and get the string back.
func perQueryText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r'", rune(s[0])) {
		return "'" + s
	}
	return s
}

// perQueryUntext undoes perQueryText.
func perQueryUntext(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r'", rune(s[1])) {
		return s[1:]
	}
	return s
}

// perQueryNum writes a number at full precision, empty when undefined.
func perQueryNum(x Num) string {
	if !x.Valid() {
		return ""
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 64)
}

// WritePerQueryCSV writes per_query_metrics.csv: the header
// (PerQueryHeader, then the metric ids of r.PerQueryColumns), then one row
// per r.PerQuery in order; undefined values are empty cells and user text
// is escaped as perQueryText says. ReadPerQueryCSV reads it back.
func (r *Report) WritePerQueryCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	head := append([]string{}, PerQueryHeader...)
	for _, id := range r.PerQueryColumns {
		head = append(head, string(id))
	}
	w.Write(head)
	rec := make([]string, 0, len(head))
	for _, q := range r.PerQuery {
		rec = rec[:0]
		rec = append(rec, perQueryText(q.System), perQueryText(q.Query), perQueryText(q.Post), perQueryText(q.Criterion), strconv.Itoa(q.Fold),
			strconv.Itoa(q.NGold), strconv.Itoa(q.NCand), strconv.Itoa(q.GoldInPool), perQueryNum(q.Difficulty), perQueryNum(q.NEProb),
			q.State, strconv.Itoa(q.SelectedK))
		for _, v := range q.Values {
			rec = append(rec, perQueryNum(v))
		}
		w.Write(rec)
	}
	w.Flush()
	return w.Error()
}

// ReadPerQueryCSV reads per_query_metrics.csv as WritePerQueryCSV writes
// it into r.PerQuery and r.PerQueryColumns. name is the file's name in
// error messages, which read "name:line:col: what was wrong, what was
// expected". The caller bounds the reader (a bundle is untrusted input).
func (r *Report) ReadPerQueryCSV(name string, in io.Reader) error {
	cr := csv.NewReader(bufio.NewReader(in))
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return perQueryErr(name, err, "a header line")
	}
	head = append([]string(nil), head...) // cr reuses the record's slice
	if len(head) < len(PerQueryHeader) {
		return fmt.Errorf("%s:1:1: %d columns, want at least the %d of %s", name, len(head), len(PerQueryHeader), strings.Join(PerQueryHeader, ","))
	}
	for j, h := range PerQueryHeader {
		if head[j] != h {
			return fmt.Errorf("%s:1:%d: column %d is %q, want %q", name, j+1, j+1, head[j], h)
		}
	}
	cols := make([]metrics.ID, 0, len(head)-len(PerQueryHeader))
	for _, h := range head[len(PerQueryHeader):] {
		cols = append(cols, metrics.ID(h))
	}
	var rows []PerQuery
	var values []Num
	nf := len(PerQueryHeader)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return perQueryErr(name, err, "a CSV record")
		}
		line, _ := cr.FieldPos(0)
		cell := func(j int) (string, string) { return rec[j], PerQueryHeader[j] }
		ints := [5]int{}
		for k, j := range []int{4, 5, 6, 7, 11} {
			s, h := cell(j)
			v, err := strconv.Atoi(s)
			if err != nil {
				_, col := cr.FieldPos(j)
				return fmt.Errorf("%s:%d:%d: %s %q is not an integer, want a whole number", name, line, col, h, s)
			}
			ints[k] = v
		}
		nums := [2]Num{}
		for k, j := range []int{8, 9} {
			v, err := parsePerQueryNum(rec[j])
			if err != nil {
				_, col := cr.FieldPos(j)
				return fmt.Errorf("%s:%d:%d: %s %q is not a number, want a number or an empty cell", name, line, col, PerQueryHeader[j], rec[j])
			}
			nums[k] = v
		}
		for j := nf; j < len(rec); j++ {
			v, err := parsePerQueryNum(rec[j])
			if err != nil {
				_, col := cr.FieldPos(j)
				return fmt.Errorf("%s:%d:%d: %s %q is not a number, want a number or an empty cell", name, line, col, head[j], rec[j])
			}
			values = append(values, v)
		}
		rows = append(rows, PerQuery{
			System: perQueryUntext(rec[0]), Query: perQueryUntext(rec[1]), Post: perQueryUntext(rec[2]), Criterion: perQueryUntext(rec[3]),
			Fold: ints[0], NGold: ints[1], NCand: ints[2], GoldInPool: ints[3], SelectedK: ints[4],
			Difficulty: nums[0], NEProb: nums[1], State: rec[10],
		})
	}
	// The rows' values share one array, sliced once it has stopped growing.
	nc := len(cols)
	for i := range rows {
		rows[i].Values = values[i*nc : (i+1)*nc : (i+1)*nc]
	}
	r.PerQuery, r.PerQueryColumns = rows, cols
	return nil
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
