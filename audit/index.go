package audit

import (
	"math"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// Version is one bundle version: its name (v2) and its Report as decoded
// from metrics_master.json.
type Version struct {
	Name   string
	Report *report.Report
}

// field is which number of a key a value is.
type field uint8

const (
	fValue field = iota
	fCILow
	fCIHigh
	fDeLongLow
	fDeLongHigh
	fFoldMean
	fFoldStd
	fN
	fDiff
	fDiffLow
	fDiffHigh
	fPHolm
	fP
	fCount // a dataset count or rate
)

var fieldNames = [...]string{"value", "ci_low", "ci_high", "ci_delong_low", "ci_delong_high", "fold_mean",
	"fold_std", "n", "diff", "diff_ci_low", "diff_ci_high", "p_holm", "p", "value"}

func (f field) String() string { return fieldNames[f] }

// refKind is what a ref points into.
type refKind uint8

const (
	rMetric refKind = iota
	rComparison
	rDataset
)

// ref is one value of one version: Metrics[idx], Comparisons[idx] or the
// dataset count idx of Versions[ver].
type ref struct {
	ver   uint8
	kind  refKind
	field field
	count bool // a whole number: matched by numbers typed without a point
	idx   int32
}

// dataCount is one count or rate of metrics_master.json's dataset.
type dataCount struct {
	key   string
	v     float64
	count bool
}

func dataCounts(d report.DatasetSummary) []dataCount {
	c := func(k string, n int) dataCount { return dataCount{k, float64(n), true} }
	r := func(k string, x report.Num) dataCount { return dataCount{k, float64(x), false} }
	return []dataCount{c("posts", d.Posts), c("rows", d.Rows), c("eval_queries", d.EvalQueries),
		c("tune_rows", d.TuneRows), c("positive_queries", d.PositiveQueries), r("positive_rate", d.PositiveRate),
		c("folds", len(d.Folds)), c("criteria", len(d.Criteria)), c("systems", d.Systems),
		r("candidates_per_query_mean", d.CandidatesMean), c("candidates_per_query_min", d.CandidatesMin),
		c("candidates_per_query_max", d.CandidatesMax), r("gold_per_positive_query_mean", d.GoldMean)}
}

// index maps a value's text at a number of decimals (as number.key
// writes it) to the refs that print so: every value of every version,
// rounded once per decimals the manuscript uses.
type index struct {
	versions []Version // current first, then older ones, newest first
	data     [][]dataCount
	keys     map[string][]ref
}

// newIndex indexes the versions at the decimals in decs (0: whole
// numbers, the counts).
func newIndex(versions []Version, decs map[int]bool) *index {
	x := &index{versions: versions, keys: map[string][]ref{}}
	for vi, v := range versions {
		r := v.Report
		ver := uint8(vi)
		for i, m := range r.Metrics {
			add := func(f field, n report.Num, count bool) {
				x.add(ref{ver: ver, kind: rMetric, field: f, count: count, idx: int32(i)}, float64(n), decs)
			}
			d, _ := metrics.Lookup(m.ID)
			add(fValue, m.Value, d.Kind == metrics.KindCount)
			if m.CI != nil {
				add(fCILow, m.CI.Low, false)
				add(fCIHigh, m.CI.High, false)
			}
			if m.CIDeLong != nil {
				add(fDeLongLow, m.CIDeLong.Low, false)
				add(fDeLongHigh, m.CIDeLong.High, false)
			}
			add(fFoldMean, m.FoldMean, false)
			add(fFoldStd, m.FoldStd, false)
			add(fN, report.Num(m.ShownN()), true)
		}
		for i, c := range r.Comparisons {
			add := func(f field, n report.Num) {
				x.add(ref{ver: ver, kind: rComparison, field: f, idx: int32(i)}, float64(n), decs)
			}
			add(fDiff, c.Diff)
			if c.CI != nil {
				add(fDiffLow, c.CI.Low)
				add(fDiffHigh, c.CI.High)
			}
			add(fPHolm, c.PHolm)
			add(fP, c.P)
		}
		dc := dataCounts(r.Dataset)
		x.data = append(x.data, dc)
		for i, d := range dc {
			x.add(ref{ver: ver, kind: rDataset, field: fCount, count: d.count, idx: int32(i)}, d.v, decs)
		}
	}
	return x
}

// add indexes v under its text at each decimals of decs: counts at 0
// decimals only, other values at 1 or more; both roundings of a tie
// (half to even as strconv rounds the binary value, half up as a person
// rounds the shortest decimal) when they differ.
func (x *index) add(r ref, v float64, decs map[int]bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if r.count {
		if decs[0] && v == math.Trunc(v) {
			k := strconv.FormatFloat(math.Abs(v), 'f', 0, 64)
			if v < 0 {
				k = "-" + k
			}
			x.keys[k] = append(x.keys[k], r)
		}
		return
	}
	var short string
	for d := range decs {
		if d == 0 {
			continue
		}
		k := normalize(strconv.FormatFloat(v, 'f', d, 64))
		x.keys[k] = append(x.keys[k], r)
		if short == "" {
			short = strconv.FormatFloat(v, 'f', -1, 64)
		}
		if up := roundHalfUp(short, d); up != k {
			x.keys[up] = append(x.keys[up], r)
		}
	}
}

// normalize drops the sign of a negative zero ("-0.000").
func normalize(s string) string {
	if t, ok := strings.CutPrefix(s, "-"); ok && strings.Trim(t, "0.") == "" {
		return t
	}
	return s
}

// roundHalfUp rounds the decimal s (strconv's shortest form, 'f') to d
// decimals, a tie away from zero, and writes it as number.key does.
func roundHalfUp(s string, d int) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fr, _ := strings.Cut(s, ".")
	if len(fr) <= d {
		return canonical(neg, ip, fr+strings.Repeat("0", d-len(fr)))
	}
	up := fr[d] >= '5'
	digits := []byte(ip + fr[:d])
	if up {
		i := len(digits) - 1
		for ; i >= 0; i-- {
			if digits[i] == '9' {
				digits[i] = '0'
				continue
			}
			digits[i]++
			break
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
		}
	}
	n := len(digits) - d
	return canonical(neg, string(digits[:n]), string(digits[n:]))
}

// value returns the value a ref points to.
func (x *index) value(r ref) report.Num {
	rep := x.versions[r.ver].Report
	switch r.kind {
	case rMetric:
		return metricField(rep.Metrics[r.idx], r.field)
	case rComparison:
		return comparisonField(rep.Comparisons[r.idx], r.field)
	}
	return report.Num(x.data[r.ver][r.idx].v)
}

func metricField(m report.Metric, f field) report.Num {
	switch f {
	case fValue:
		return m.Value
	case fCILow, fCIHigh:
		if m.CI == nil {
			return report.NaN
		}
		if f == fCILow {
			return m.CI.Low
		}
		return m.CI.High
	case fDeLongLow, fDeLongHigh:
		if m.CIDeLong == nil {
			return report.NaN
		}
		if f == fDeLongLow {
			return m.CIDeLong.Low
		}
		return m.CIDeLong.High
	case fFoldMean:
		return m.FoldMean
	case fFoldStd:
		return m.FoldStd
	case fN:
		return report.Num(m.ShownN())
	}
	return report.NaN
}

func comparisonField(c report.Comparison, f field) report.Num {
	switch f {
	case fDiff:
		return c.Diff
	case fDiffLow, fDiffHigh:
		if c.CI == nil {
			return report.NaN
		}
		if f == fDiffLow {
			return c.CI.Low
		}
		return c.CI.High
	case fPHolm:
		return c.PHolm
	case fP:
		return c.P
	}
	return report.NaN
}

// current returns the value of r's key (system, id, slice or comparison,
// field) in the current version, NaN when it has none.
func (x *index) current(r ref) report.Num {
	if r.ver == 0 {
		return x.value(r)
	}
	old, cur := x.versions[r.ver].Report, x.versions[0].Report
	switch r.kind {
	case rMetric:
		m := old.Metrics[r.idx]
		if cm, ok := cur.Metric(m.System, m.ID, m.Slice); ok {
			return metricField(cm, r.field)
		}
	case rComparison:
		c := old.Comparisons[r.idx]
		for _, cc := range cur.Comparisons {
			if cc.System == c.System && cc.Reference == c.Reference && cc.ID == c.ID {
				return comparisonField(cc, r.field)
			}
		}
	case rDataset:
		return report.Num(x.data[0][r.idx].v)
	}
	return report.NaN
}
