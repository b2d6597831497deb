package audit

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"paperbundle/metrics"
	"paperbundle/report"
)

// Options control Check.
type Options struct {
	// Decimals is paper.decimals of the current version: the precision at
	// which \pbassert compares (numbers.tex writes values at it).
	Decimals int
	// Limits bound reading (Run).
	Limits Limits
}

// DefaultOptions are the defaults of paper.yaml and DefaultLimits.
func DefaultOptions() Options { return Options{Decimals: 3, Limits: DefaultLimits()} }

// Result is the audit of a manuscript: its findings in reading order
// (file by file, then by line and column) and how many of each class.
type Result struct {
	Findings []Finding
	Counts   [Unknown + 1]int
	Current  string // the current version's name
	Files    []string
}

// Failed reports whether a finding is stale, a mismatch or a claim: the
// manuscript says something the bundle does not (exit 1).
func (r *Result) Failed() bool {
	return r.Counts[Stale]+r.Counts[Mismatch]+r.Counts[Claim] > 0
}

// Run reads the manuscript files at paths and checks them against
// versions (the current one first, then the older ones, newest first).
func Run(paths []string, versions []Version, opt Options) (*Result, error) {
	srcs, err := Read(paths, opt.Limits)
	if err != nil {
		return nil, err
	}
	return check(srcs, versions, opt)
}

// found is a number of a source with its context, before classifying.
type found struct {
	src *source
	n   number
	cx  context
}

// check classifies every number, macro and claim of srcs; past
// opt.Limits.Numbers numbers it stops with a *ReadError naming the file.
func check(srcs []*source, versions []Version, opt Options) (*Result, error) {
	res := &Result{Current: versions[0].Name}
	reps := make([]*report.Report, len(versions))
	for i, v := range versions {
		reps[i] = v.Report
	}
	voc := newVocabulary(reps)
	var nums []found
	decs := map[int]bool{}
	for _, s := range srcs {
		res.Files = append(res.Files, s.file)
		ms := voc.find(s.text)
		masked := make([][2]int, len(ms))
		for i, m := range ms {
			masked[i] = [2]int{m.start, m.end}
		}
		for _, g := range segments(s.text) {
			for ci, cell := range g.cells {
				for _, n := range numbers(s.text, cell[0], cell[1], masked) {
					if len(nums) >= opt.Limits.Numbers {
						return nil, &ReadError{File: s.file, Msg: fmt.Sprintf("more than %d numbers in the manuscript, the most audit checks; is this a manuscript?", opt.Limits.Numbers)}
					}
					nums = append(nums, found{src: s, n: n, cx: contextOf(s.text, n.start, g, ci, ms)})
					decs[n.decimals()] = true
				}
			}
			res.Findings = append(res.Findings, claims(s, g, ms, versions[0])...)
		}
		for _, m := range s.macros {
			res.Findings = append(res.Findings, macroFinding(s, m, versions[0].Report, opt.Decimals))
		}
	}
	x := newIndex(versions, decs)
	for _, f := range nums {
		res.Findings = append(res.Findings, x.classify(f))
	}
	order := map[string]int{}
	for i, f := range res.Files {
		if _, ok := order[f]; !ok {
			order[f] = i
		}
	}
	sort.SliceStable(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i], res.Findings[j]
		if a.File != b.File {
			return order[a.File] < order[b.File]
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	for _, f := range res.Findings {
		res.Counts[f.Class]++
	}
	return res, nil
}

// at fills a finding's place from a scan-text offset of s.
func at(s *source, off int, text string) Finding {
	o := 0
	if off < len(s.pos) {
		o = int(s.pos[off])
	} else if len(s.pos) > 0 {
		o = int(s.pos[len(s.pos)-1])
	}
	return atOrig(s, o, text)
}

func atOrig(s *source, o int, text string) Finding {
	line, col := s.lineCol(o)
	f := Finding{File: s.file, Line: line, Col: col, Text: text, Value: report.NaN, Current: report.NaN}
	if s.docx {
		f.Para = shorten(paragraph(s.orig, s.lines[line-1]), 80)
	}
	return f
}

// paragraph returns the start of the line at start: enough to shorten
// (a paragraph of a .docx can be megabytes long).
func paragraph(orig []byte, start int) string {
	end := min(len(orig), start+400)
	if k := bytes.IndexByte(orig[start:end], '\n'); k >= 0 {
		end = start + k
	}
	return strings.ToValidUTF8(string(orig[start:end]), "")
}

// shorten cuts s to at most n characters, with an ellipsis.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// typed returns the number as written in the original.
func typed(s *source, n number) string {
	a, b := int(s.pos[n.start]), int(s.pos[n.end-1])+1
	return strings.TrimSpace(string(s.orig[a:b]))
}

// label is a system's label in the current version, else in an older.
func (x *index) label(name string) string {
	for _, v := range x.versions {
		if s, ok := v.Report.System(name); ok {
			return v.Report.Label(s.Name)
		}
	}
	return name
}

// classify decides the class of one number.
func (x *index) classify(f found) Finding {
	n, cx := f.n, f.cx
	out := at(f.src, n.start, typed(f.src, n))
	out.Class = Unknown
	switch {
	case cx.ref:
		out.Why = "a number of the document (section, table, equation ...)"
		return out
	case n.integer() && len(n.intPart) == 4 && n.intPart >= "1900" && n.intPart <= "2099":
		out.Why = "a year"
		return out
	case n.sigDigits() < 2 && len(cx.metrics) == 0:
		out.Why = "fewer than two significant digits and no metric named beside it"
		return out
	}
	refs := x.keys[n.key()]
	var best *ref
	for ver := range x.versions {
		for i := range refs {
			r := refs[i]
			if int(r.ver) != ver || r.count != n.integer() || n.pct && r.count || !x.fits(r, cx) {
				continue
			}
			if best == nil || x.better(r, *best, cx) {
				best = &refs[i]
			}
		}
		if best != nil {
			break
		}
	}
	if best != nil {
		x.describe(&out, *best, n)
		return out
	}
	if !cx.bound && len(cx.systems) > 0 && len(cx.metrics) > 0 && !n.integer() && n.sigDigits() >= 2 {
		cur := x.versions[0]
		for _, id := range cx.metrics {
			m, ok := cur.Report.Metric(cx.systems[0], id, "")
			if !ok || !m.Value.Valid() {
				continue
			}
			out.Class = Mismatch
			out.System, out.Metric, out.Field = m.System, string(m.ID), fValue.String()
			out.Current, out.Version = m.Value, cur.Name
			out.Why = fmt.Sprintf("beside %s and %s, but equal to no value of %s or an older version; %s gives %s",
				x.label(m.System), metrics.Title(m.ID), cur.Name, cur.Name, formatAs(m.Value, n))
			return out
		}
	}
	switch {
	case len(cx.metrics) == 0 && len(cx.systems) > 0:
		out.Why = "no metric named beside it (name one to have it checked)"
	case !cx.hasContext():
		out.Why = "no system or metric named beside it, and no dataset count equals it"
	default:
		out.Why = "no value of the bundle fits it"
	}
	return out
}

// better orders candidate refs: a dataset count first (it fits only a
// number beside no system or metric), then the plain value before an interval bound
// or a fold statistic, a system named nearer first, the overall slice
// first, then the order of metrics_master.json.
func (x *index) better(a, b ref, cx context) bool {
	if da, db := a.kind == rDataset, b.kind == rDataset; da != db {
		return da // beside no system or metric, a count of the dataset first
	}
	ra, rb := x.rank(a, cx), x.rank(b, cx)
	if ra != rb {
		return ra < rb
	}
	if a.field != b.field {
		return a.field < b.field
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.idx < b.idx
}

// rank is how near a ref's system stands to the number (0: nearest;
// unnamed systems after named ones), then its slice (overall first).
func (x *index) rank(r ref, cx context) int {
	sys, _, _, slice := x.key(r)
	rank := len(cx.systems)
	for i, s := range cx.systems {
		if s == sys {
			rank = i
		}
	}
	rank *= 2
	if slice != "" {
		rank++
	}
	return rank
}

// key returns the system, reference (comparisons), metric id and slice
// of a ref.
func (x *index) key(r ref) (string, string, metrics.ID, report.Slice) {
	rep := x.versions[r.ver].Report
	switch r.kind {
	case rMetric:
		m := rep.Metrics[r.idx]
		return m.System, "", m.ID, m.Slice
	case rComparison:
		c := rep.Comparisons[r.idx]
		return c.System, c.Reference, c.ID, ""
	}
	return "", "", "", ""
}

// fits reports whether a ref fits a number's context: its metric is one
// named, its system one named (when one is; either side of a
// comparison), its slice a criterion named (else the overall value). A
// dataset count fits only a number beside no system and no metric. A
// number beside no metric name matches no metric: with thousands of
// values in a bundle, almost any three decimals equal one of them, and
// such a match would say nothing.
func (x *index) fits(r ref, cx context) bool {
	if r.kind == rDataset {
		return !cx.hasContext()
	}
	sys, refsys, id, slice := x.key(r)
	if !slices.Contains(cx.metrics, id) {
		return false
	}
	if len(cx.systems) > 0 && !slices.Contains(cx.systems, sys) && (refsys == "" || !slices.Contains(cx.systems, refsys)) {
		return false
	}
	if r.kind == rMetric {
		if len(cx.slices) > 0 {
			return slices.Contains(cx.slices, slice)
		}
		return slice == ""
	}
	return true
}

// describe fills an ok or stale finding from the ref it matched.
func (x *index) describe(out *Finding, r ref, n number) {
	v := x.versions[r.ver]
	sys, refsys, id, slice := x.key(r)
	out.System, out.Metric, out.Slice, out.Field = sys, string(id), string(slice), r.field.String()
	out.Value, out.Current, out.Version = x.value(r), x.current(r), v.Name
	what := x.what(r, sys, refsys, id, slice)
	if r.kind == rComparison {
		out.System = sys + " vs " + refsys
	}
	if r.ver == 0 {
		out.Class = OK
		out.Why = fmt.Sprintf("%s's %s", v.Name, what)
		return
	}
	out.Class = Stale
	cur := x.versions[0].Name
	if out.Current.Valid() {
		out.Why = fmt.Sprintf("%s is %s's %s; %s gives %s", typedPlain(n), v.Name, what, cur, formatAs(out.Current, n))
	} else {
		out.Why = fmt.Sprintf("%s is %s's %s; %s has no such value", typedPlain(n), v.Name, what, cur)
	}
}

// what names a ref's key for a reader: "AUROC of Full pipeline",
// "CI low of nDCG@10 of Full pipeline on criterion=A.1", "p_holm of Full
// pipeline vs Retriever only on AUROC", "dataset count eval_queries".
func (x *index) what(r ref, sys, refsys string, id metrics.ID, slice report.Slice) string {
	switch r.kind {
	case rDataset:
		return "dataset " + x.data[r.ver][r.idx].key
	case rComparison:
		s := fmt.Sprintf("%s vs %s on %s", x.label(sys), x.label(refsys), metrics.Title(id))
		if r.field == fDiff {
			return "difference " + s
		}
		return r.field.String() + " of " + s
	}
	s := metrics.Title(id) + " of " + x.label(sys)
	if slice != "" {
		s += " on " + string(slice)
	}
	if r.field != fValue {
		s = strings.ReplaceAll(r.field.String(), "_", " ") + " of " + s
	}
	return s
}

// typedPlain is a number as the index writes it, with its % when typed so.
func typedPlain(n number) string {
	s := canonical(n.neg, n.intPart, n.frac)
	if n.pct {
		s += "%"
	}
	return s
}

// formatAs writes v at the precision of the number n as typed (a
// percentage as a percentage).
func formatAs(v report.Num, n number) string {
	if !v.Valid() {
		return "no value"
	}
	if n.pct {
		return normalize(fmt.Sprintf("%.*f", len(n.frac), float64(v)*100)) + "%"
	}
	return normalize(fmt.Sprintf("%.*f", len(n.frac), float64(v)))
}
