package figures

import (
	"math"
	"sort"
	"strconv"

	"paperbundle/metrics"
	"paperbundle/report"
)

// This file builds per-query performance against difficulty
// (docs/metrics.md): recall@K at the headline cutoff of every positive query
// against its difficulty n_neg / n_pos, with the Report's Spearman rho and
// p-value.

// DifficultyAlpha is the opacity of one query's marker in the difficulty
// scatter.
const DifficultyAlpha = 0.2

// diffData is what the difficulty figure of one system shows.
type diffData struct {
	K      int        // the cutoff of recall@K
	Metric metrics.ID // rank.recall@K
	Points []Weighted // distinct pairs, sorted by difficulty then recall
	Drawn  int        // queries drawn (the sum of Points[i].N)
	Zero   int        // positive queries of difficulty 0 (not on a log axis)
	Undef  int        // positive queries with undefined recall or difficulty
	Rho, P float64    // rank.spearman_difficulty@K and _p@K, NaN if absent
	RhoN   int        // the number of queries the Report's rho is over
}

// difficultyData collects the difficulty scatter of one system from the
// Report's per-query rows: positive queries (NGold > 0) only, identical
// (difficulty, recall) pairs merged with their count.
func (c *cat) difficultyData(system string) (d diffData, why string) {
	if c.k <= 0 {
		return d, "the report has no ranking cutoff"
	}
	d.K, d.Metric = c.k, metrics.RankRecall.At(c.k)
	col := -1
	for j, id := range c.r.PerQueryColumns {
		if id == d.Metric {
			col = j
		}
	}
	if col < 0 {
		return d, "the per-query rows have no " + string(d.Metric)
	}
	count := map[[2]float64]int{}
	for i := range c.r.PerQuery {
		q := &c.r.PerQuery[i]
		if q.System != system || q.NGold <= 0 {
			continue
		}
		v := q.Value(col)
		if !v.Valid() || !q.Difficulty.Valid() {
			d.Undef++
			continue
		}
		x, y := float64(q.Difficulty), float64(v)
		if x <= 0 {
			d.Zero++
			continue
		}
		count[[2]float64{x, y}]++
		d.Drawn++
	}
	for xy, n := range count {
		d.Points = append(d.Points, Weighted{X: xy[0], Y: xy[1], N: n})
	}
	sort.Slice(d.Points, func(a, b int) bool {
		pa, pb := d.Points[a], d.Points[b]
		if pa.X != pb.X {
			return pa.X < pb.X
		}
		return pa.Y < pb.Y
	})
	rho := metrics.RankSpearmanDifficulty.At(c.k)
	d.Rho, _, _ = value(c.r, system, rho, report.Whole)
	d.P, _, _ = value(c.r, system, metrics.RankSpearmanDifficultyP.At(c.k), report.Whole)
	if m, ok := c.r.Metric(system, rho, report.Whole); ok {
		d.RhoN = m.N
	}
	if d.Drawn == 0 {
		return d, c.sectionReason(report.Ranking, "no positive query has a defined difficulty above 0")
	}
	return d, ""
}

// difficulty draws recall@K of every positive query against its
// difficulty n_neg / n_pos on a log axis, as light semi-transparent dots
// (a dot standing for n queries is as dark as n overplotted ones), with
// Spearman's rho and its p-value from the Report in the legend.
func (c *cat) difficulty(system string) (*Spec, string) {
	d, why := c.difficultyData(system)
	if why != "" {
		return nil, why
	}
	what := "Recall@" + strconv.Itoa(d.K)
	n := d.Drawn + d.Zero
	pts := make([]Weighted, len(d.Points))
	for i, pt := range d.Points {
		pt.Tip = Tip{atX("difficulty", Num(pt.X, 3)), atY(what, Num(pt.Y, 3)), field("queries", Int(pt.N))}
		pts[i] = pt
	}
	lo, hi := pts[0].X, pts[0].X
	for _, pt := range pts {
		lo, hi = math.Min(lo, pt.X), math.Max(hi, pt.X)
	}
	p := Panel{
		X: Axis{Label: "Difficulty: negatives per positive (log scale)", Log: true, Fixed: true, Min: lo / 1.25, Max: hi * 1.25},
		// markers at 0 and 1 stay whole
		Y:        Axis{Label: what + " of the query", Fixed: true, Min: -0.04, Max: 1.04, Ticks: stepTicks(0, 1, 0.2)},
		Elements: []Element{&Scatter{Name: "Positive queries", Style: Style{Role: Primary}, Alpha: DifficultyAlpha, Points: pts}},
	}
	rho := "Spearman ρ = " + c.fmtv(d.Rho)
	sub := "positive queries (n = " + groupInt(n) + "); " + rho
	if defined(d.Rho) {
		rho += "\np " + fmtP(d.P)
		sub += ", p " + fmtP(d.P)
	}
	leg := []LegendEntry{
		{Keys: []Key{{MarkMarker, Style{Role: Primary, Size: 2, Opacity: 0.6}}}, Text: "Positive query\n(n = " + groupInt(n) + ")"},
		{Text: rho},
	}
	var notes []string
	if d.Zero > 0 {
		leg = append(leg, LegendEntry{Text: queries(d.Zero) + " at difficulty 0\n(not on the log axis)"})
		notes = append(notes, queries(d.Zero)+" at difficulty 0 left out (log axis)")
	}
	if d.Undef > 0 {
		leg = append(leg, LegendEntry{Text: queries(d.Undef) + " undefined,\nleft out"})
		notes = append(notes, queries(d.Undef)+" with undefined recall or difficulty left out")
	}
	return &Spec{Kind: KindDifficulty, Subtitle: sub,
		Alt: "Scatter plot of " + what + " of " + queries(n) + " with evidence of " + label(c.r, system) +
			" against difficulty (negatives per positive, log scale); " + rho + ".",
		Panels: []Panel{p}, Legend: leg, Notes: notes}, ""
}

// StackAlpha is the opacity of n markers of opacity a drawn on top of each
// other: 1 − (1 − a)^n. One marker of this opacity looks like the n
// overplotted ones.
func StackAlpha(a float64, n int) float64 {
	return 1 - math.Pow(1-a, float64(n))
}
