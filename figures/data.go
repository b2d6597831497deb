package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"paperbundle/report"
)

// This file reads the Report for the figure builders: metric look-ups,
// system labels, file-name sanitising, and the geometry that turns the
// Report's curves into drawable vertices (undefined points left out). No
// statistic is computed here.

// index looks metrics up by (system, id, slice) without relying on the
// Report's private index (a Report may be built by hand or decoded).
type index struct {
	r *report.Report
	m map[[3]string]int
}

func newIndex(r *report.Report) *index {
	ix := &index{r: r, m: make(map[[3]string]int, len(r.Metrics))}
	for i, m := range r.Metrics {
		ix.m[[3]string{m.System, m.ID, m.Slice}] = i
	}
	return ix
}

// get returns the metric, if the Report has it.
func (ix *index) get(system, id, slice string) (report.Metric, bool) {
	i, ok := ix.m[[3]string{system, id, slice}]
	if !ok {
		return report.Metric{}, false
	}
	return ix.r.Metrics[i], true
}

// value returns the metric's value and CI bounds (NaN when absent or
// undefined).
func (ix *index) value(system, id, slice string) (v, lo, hi float64) {
	v, lo, hi = math.NaN(), math.NaN(), math.NaN()
	m, ok := ix.get(system, id, slice)
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

// systemLabel returns the display label of a system: its configured label,
// or a readable name for the built-in baselines.
func systemLabel(r *report.Report, name string) string {
	for _, s := range r.Systems {
		if s.Name == name {
			if s.Label != "" {
				return s.Label
			}
			return s.Name
		}
	}
	if rest, ok := strings.CutPrefix(name, "baseline:"); ok {
		return "Baseline: " + rest
	}
	return name
}

// systemOrder returns the systems of the Report in order, then the
// baselines that have metrics (sorted by name).
func systemOrder(r *report.Report, withBaselines bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.Systems {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	if !withBaselines {
		return out
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

// sanitize maps a name to the file-name alphabet [a-z0-9_-]: letters are
// lowered, every other rune becomes '_', runs of '_' collapse, and an empty
// result becomes "x".
func sanitize(s string) string {
	var b strings.Builder
	last := byte(0)
	for _, r := range strings.ToLower(s) {
		c := byte('_')
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' || r == '_' {
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

// namer hands out unique sanitised names: a collision gets a suffix _2,
// _3, ... in the order names are asked for.
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

// systemKeys maps every system name to its sanitised file-name key,
// unique within the Report.
func systemKeys(r *report.Report) map[string]string {
	n := newNamer()
	out := map[string]string{}
	for _, s := range systemOrder(r, true) {
		out[s] = n.unique(sanitize(s))
	}
	return out
}

// segments splits the points (x[i], y[i]) into runs of defined points: an
// undefined x or y ends a run, so a gap in the data is a gap in the line.
func segments(x, y []report.Num) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	n := min(len(x), len(y))
	for i := 0; i < n; i++ {
		if !x[i].Valid() || !y[i].Valid() {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, plotter.XY{X: float64(x[i]), Y: float64(y[i])})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// dropCollinear removes the interior points of straight horizontal or
// vertical runs; the drawn polyline is unchanged.
func dropCollinear(xy plotter.XYs) plotter.XYs {
	if len(xy) <= 2 {
		return xy
	}
	out := plotter.XYs{xy[0]}
	for i := 1; i < len(xy)-1; i++ {
		a, b, c := xy[i-1], xy[i], xy[i+1]
		if (a.X == b.X && b.X == c.X) || (a.Y == b.Y && b.Y == c.Y) {
			continue
		}
		out = append(out, b)
	}
	return append(out, xy[len(xy)-1])
}

// band returns the polygons of a confidence band over a grid: for each run
// of grid points where both bounds are defined, the upper bound forward
// then the lower bound backward.
func band(grid, lo, hi []report.Num) []plotter.XYs {
	var out []plotter.XYs
	var run []int
	flush := func() {
		if len(run) >= 2 {
			ring := make(plotter.XYs, 0, 2*len(run))
			for _, k := range run {
				ring = append(ring, plotter.XY{X: float64(grid[k]), Y: float64(hi[k])})
			}
			for j := len(run) - 1; j >= 0; j-- {
				k := run[j]
				ring = append(ring, plotter.XY{X: float64(grid[k]), Y: float64(lo[k])})
			}
			out = append(out, ring)
		}
		run = run[:0]
	}
	n := min(len(grid), len(lo), len(hi))
	for k := 0; k < n; k++ {
		if grid[k].Valid() && lo[k].Valid() && hi[k].Valid() {
			run = append(run, k)
			continue
		}
		flush()
	}
	flush()
	return out
}

// postSteps turns points into the vertices of a "steps-post" line: from
// each point horizontally to the next point's x, then vertically.
func postSteps(xy plotter.XYs) plotter.XYs {
	if len(xy) < 2 {
		return xy
	}
	out := make(plotter.XYs, 0, 2*len(xy))
	for i := 0; i < len(xy)-1; i++ {
		out = append(out, xy[i], plotter.XY{X: xy[i+1].X, Y: xy[i].Y})
	}
	return append(out, xy[len(xy)-1])
}

// trimFloat formats x with at most prec decimals, without trailing zeros.
func trimFloat(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// fmt3 formats a value for a legend or tooltip: three decimals, "n/a"
// when undefined.
func fmt3(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}
