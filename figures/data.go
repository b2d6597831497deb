package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"paperbundle/internal/numtext"
	"paperbundle/metrics"
	"paperbundle/report"
)

// This file reads the Report for the spec builders: metric look-ups,
// system labels and keys, the headline cutoff, and the geometry that turns
// the Report's curves into runs of defined points. No statistic is
// computed here.

// value returns a metric's value and CI bounds (NaN when absent or
// undefined).
func value(r *report.Report, system string, id metrics.ID, slice report.Slice) (v, lo, hi float64) {
	v, lo, hi = math.NaN(), math.NaN(), math.NaN()
	m, ok := r.Metric(system, id, slice)
	if !ok {
		return
	}
	v = num(m.Value)
	if m.CI != nil {
		lo, hi = num(m.CI.Low), num(m.CI.High)
	}
	return
}

// num returns n, or NaN when n is undefined (NaN or infinite).
func num(n report.Num) float64 {
	if !n.Valid() {
		return math.NaN()
	}
	return float64(n)
}

func defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// errOf is the whisker [lo, hi], or nil when a bound is undefined.
func errOf(lo, hi float64) *Interval {
	if !defined(lo) || !defined(hi) {
		return nil
	}
	return &Interval{Lo: lo, Hi: hi}
}

// label returns the display label of a system: its configured label, or a
// readable name for a built-in baseline the Report does not list.
func label(r *report.Report, name string) string {
	if _, ok := r.System(name); ok {
		return r.Label(name)
	}
	if rest, ok := strings.CutPrefix(name, "baseline:"); ok {
		return "Baseline: " + rest
	}
	return name
}

// pipelines returns the systems read from the inputs, in report order
// (the first is primary). A system without a kind counts as a pipeline.
func pipelines(r *report.Report) []string {
	var out []string
	for _, s := range r.Systems {
		if s.Kind != report.Baseline {
			out = append(out, s.Name)
		}
	}
	return out
}

// allSystems returns the pipelines, then the baselines: those the Report
// lists, then any other "baseline:" system that has metrics (by name).
func allSystems(r *report.Report) []string {
	out := pipelines(r)
	seen := map[string]bool{}
	for _, n := range out {
		seen[n] = true
	}
	for _, s := range r.Systems {
		if s.Kind == report.Baseline && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	var extra []string
	for _, m := range r.Metrics {
		if !seen[m.System] && strings.HasPrefix(m.System, "baseline:") {
			seen[m.System] = true
			extra = append(extra, m.System)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// headlineK is the headline cutoff of the Report (report.HeadlineCutoff): its setting,
// else the rule applied to its cutoffs, else to the recall columns of the
// per-query rows. 0 when there is none.
func headlineK(r *report.Report) int {
	if k := r.Settings.HeadlineCutoff; k > 0 {
		return k
	}
	if k := report.HeadlineCutoff(r.Settings.Cutoffs); k > 0 {
		return k
	}
	var ks []int
	for _, c := range r.PerQueryColumns {
		if c.Base() != metrics.RankRecall {
			continue
		}
		if _, a := c.Param(); a != "" {
			if k, err := strconv.Atoi(a); err == nil && k > 0 {
				ks = append(ks, k)
			}
		}
	}
	return report.HeadlineCutoff(ks)
}

// ciName is the legend name of a bootstrap interval: "95% CI (bootstrap)"
// at the Report's confidence level.
func ciName(r *report.Report) string { return confPct(r) + " CI (bootstrap)" }

func confPct(r *report.Report) string {
	c := r.Settings.Bootstrap.Confidence
	if !(c > 0 && c < 1) {
		c = 0.95
	}
	return TrimFloat(100*c, 1) + "%"
}

// sanitize maps a name to the id alphabet [a-z0-9_]: letters are lowered,
// every other rune becomes '_', runs of '_' collapse, and an empty result
// becomes "x".
func sanitize(s string) string {
	var b strings.Builder
	last := byte(0)
	for _, r := range strings.ToLower(s) {
		c := byte('_')
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			c = byte(r)
		}
		if c == '_' && last == '_' {
			continue
		}
		b.WriteByte(c)
		last = c
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return "x"
	}
	return out
}

// namer hands out unique names: a collision gets a suffix _2, _3, ... in
// the order names are asked for.
type namer struct{ used map[string]bool }

func newNamer() *namer { return &namer{used: map[string]bool{}} }

func (n *namer) unique(s string) string {
	base := s
	for k := 2; n.used[s]; k++ {
		s = base + "_" + strconv.Itoa(k)
	}
	n.used[s] = true
	return s
}

// systemKeys maps every system name to its key in figure ids, unique
// within the Report, in report order. A key never spells the tail of a
// kind's name ("overlay", "state", "evidence", or one of them and '_'):
// such a key gets the prefix "s_", so "<kind>_<key>" can be read back
// only one way and no two figures share an id. Proof: if k1+"_"+a equals
// k2+"_"+b with k1 shorter, then k2 is k1+"_"+t for a tail t, and a is
// t+"_"+b, which starts with t+"_"; if k1+"_"+a equals the id of a figure
// of all systems, k2 alone, then k2 is k1+"_"+t and a is t.
func systemKeys(r *report.Report) map[string]string {
	n := newNamer()
	out := map[string]string{}
	for _, s := range allSystems(r) {
		out[s] = n.unique(escapeTail(sanitize(s)))
	}
	return out
}

// escapeTail prefixes "s_" to a key that is a kind's tail or starts with
// one and '_'. The suffixes of namer.unique ("_2") keep a key clear of
// the tails: a key that is not t and does not start with t+"_" does not
// after a suffix either.
func escapeTail(key string) string {
	for _, t := range kindTails {
		if key == t || strings.HasPrefix(key, t+"_") {
			return "s_" + key
		}
	}
	return key
}

// segments splits the points (x[i], y[i]) into runs of defined points; tip,
// when not nil, gives the tooltip of point i.
func segments(x, y []report.Num, tip func(i int) Tip) (segs [][]XY, tips [][]Tip) {
	var cur []XY
	var ct []Tip
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, cur)
			if tip != nil {
				tips = append(tips, ct)
			}
		}
		cur, ct = nil, nil
	}
	for i := 0; i < min(len(x), len(y)); i++ {
		if !x[i].Valid() || !y[i].Valid() {
			flush()
			continue
		}
		cur = append(cur, XY{float64(x[i]), float64(y[i])})
		if tip != nil {
			ct = append(ct, tip(i))
		}
	}
	flush()
	return segs, tips
}

// countPoints is the number of points in the segments.
func countPoints(segs [][]XY) int {
	n := 0
	for _, s := range segs {
		n += len(s)
	}
	return n
}

// bandRuns returns the runs of grid points where both bounds are defined
// (a run needs two points to be an area).
func bandRuns(grid, lo, hi []report.Num) []BandRun {
	var out []BandRun
	var cur BandRun
	flush := func() {
		if len(cur.X) >= 2 {
			out = append(out, cur)
		}
		cur = BandRun{}
	}
	for k := 0; k < min(len(grid), len(lo), len(hi)); k++ {
		if grid[k].Valid() && lo[k].Valid() && hi[k].Valid() {
			cur.X = append(cur.X, float64(grid[k]))
			cur.Lo = append(cur.Lo, float64(lo[k]))
			cur.Hi = append(cur.Hi, float64(hi[k]))
			continue
		}
		flush()
	}
	flush()
	return out
}

// unitAxis is an axis fixed to [0, 1] with ticks every 0.2.
func unitAxis(lbl string) Axis {
	return Axis{Label: lbl, Min: 0, Max: 1, Fixed: true, Step: 0.2}
}

// stepTicks are ticks from lo to hi every step, labelled.
func stepTicks(lo, hi, step float64) []Tick {
	var out []Tick
	n := int(math.Round((hi - lo) / step))
	for i := 0; i <= n; i++ {
		v := lo + float64(i)*step
		out = append(out, Tick{Value: v, Label: TrimFloat(v, 2)})
	}
	return out
}

// intTicks mark integer positions.
func intTicks(vals []int) []Tick {
	out := make([]Tick, len(vals))
	for i, v := range vals {
		out[i] = Tick{Value: float64(v), Label: strconv.Itoa(v)}
	}
	return out
}

// TrimFloat formats x with at most prec decimals, without trailing zeros.
func TrimFloat(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// fmtv writes a value shown in a legend, a tag or a subtitle with the
// catalogue's decimals (3, or paper.decimals for paper/).
func (c *cat) fmtv(x float64) string { return fmtDec(x, c.dec) }

// fmtDec writes x with d decimals, "n/a" when undefined.
func fmtDec(x float64, d int) string {
	if !defined(x) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// fmtP formats a p-value: "= 0.062" from 0.001 up, "= 3.2e-12" below,
// "< 1e-300" for 0 (underflow), "n/a" when undefined.
func fmtP(p float64) string {
	switch {
	case !defined(p):
		return "n/a"
	case p <= 1e-300:
		return "< 1e-300"
	case p < 0.001:
		return "= " + strconv.FormatFloat(p, 'e', 1, 64)
	}
	return "= " + strconv.FormatFloat(p, 'f', 3, 64)
}

// groupInt writes n with thousands separators: 12,345.
func groupInt(n int) string { return numtext.Thousands(int64(n)) }

// queries is "1 query" or "n queries".
func queries(n int) string {
	if n == 1 {
		return "1 query"
	}
	return groupInt(n) + " queries"
}

// leftOut is the note of a figure that had n undefined points.
func leftOut(n int) []string {
	switch {
	case n == 0:
		return nil
	case n == 1:
		return []string{"1 undefined value left out"}
	}
	return []string{strconv.Itoa(n) + " undefined values left out"}
}
