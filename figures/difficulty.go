package figures

import (
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/report"
)

// This file draws per-query performance against difficulty (SPEC 4.7,
// seed 001 §4.3): recall@K of every positive query against its difficulty
// n_neg / n_pos, with the Report's Spearman rho and p-value.

// diffAlpha is the opacity of one query's marker in the difficulty
// scatter.
const diffAlpha = 0.2

// diffPoint is one distinct (difficulty, recall) pair and the number of
// positive queries at it.
type diffPoint struct {
	X, Y float64
	N    int
}

// diffData is what the difficulty figure of one system shows.
type diffData struct {
	K      int         // the cutoff of recall@K
	Metric string      // "rank.recall@K"
	Points []diffPoint // distinct pairs, sorted by difficulty then recall
	Drawn  int         // queries drawn (the sum of Points[i].N)
	Zero   int         // positive queries of difficulty 0 (not on a log axis)
	Undef  int         // positive queries with undefined recall or difficulty
	Rho, P float64     // rank.spearman_difficulty@K and _p@K, NaN if absent
	RhoN   int         // the number of queries the Report's rho is over
}

// headlineRecall returns the column of PerQuery.Values that holds recall
// at the headline cutoff, as the Report chooses it: K = 10, else the
// largest cutoff below 10, else the smallest. ok is false without a
// recall column.
func headlineRecall(r *report.Report) (col, k int, ok bool) {
	col, k = -1, -1
	for j, c := range r.PerQueryColumns {
		rest, found := strings.CutPrefix(c, "rank.recall@")
		if !found {
			continue
		}
		x, err := strconv.Atoi(rest)
		if err != nil || x <= 0 {
			continue
		}
		better := false
		switch {
		case col < 0:
			better = true
		case k <= 10:
			better = x <= 10 && x > k
		default:
			better = x <= 10 || x < k
		}
		if better {
			col, k = j, x
		}
	}
	return col, k, col >= 0
}

// difficultyData collects the difficulty scatter of one system from the
// Report's per-query rows: positive queries (NGold > 0) only, identical
// (difficulty, recall) pairs merged with their count. ok is false when
// there is nothing to draw.
func difficultyData(r *report.Report, ix *index, system string) (d diffData, ok bool) {
	col, k, found := headlineRecall(r)
	if !found {
		return d, false
	}
	d.K, d.Metric = k, r.PerQueryColumns[col]
	count := map[[2]float64]int{}
	for i := range r.PerQuery {
		q := &r.PerQuery[i]
		if q.System != system || q.NGold <= 0 {
			continue
		}
		if col >= len(q.Values) || !q.Values[col].Valid() || !q.Difficulty.Valid() {
			d.Undef++
			continue
		}
		x, y := float64(q.Difficulty), float64(q.Values[col])
		if x <= 0 {
			d.Zero++
			continue
		}
		count[[2]float64{x, y}]++
		d.Drawn++
	}
	for xy, n := range count {
		d.Points = append(d.Points, diffPoint{X: xy[0], Y: xy[1], N: n})
	}
	sort.Slice(d.Points, func(a, b int) bool {
		pa, pb := d.Points[a], d.Points[b]
		if pa.X != pb.X {
			return pa.X < pb.X
		}
		return pa.Y < pb.Y
	})
	ks := strconv.Itoa(k)
	d.Rho, _, _ = ix.value(system, "rank.spearman_difficulty@"+ks, "")
	d.P, _, _ = ix.value(system, "rank.spearman_difficulty_p@"+ks, "")
	if m, found := ix.get(system, "rank.spearman_difficulty@"+ks, ""); found {
		d.RhoN = m.N
	}
	return d, d.Drawn > 0
}

// stackAlpha is the opacity of n markers of opacity a drawn on top of
// each other: 1 − (1 − a)^n. One marker of this opacity looks like the
// n overplotted ones, and the file holds one marker per distinct point.
func stackAlpha(a float64, n int) float64 {
	return 1 - math.Pow(1-a, float64(n))
}

// difficultyFigure draws recall@K of every positive query against its
// difficulty n_neg / n_pos on a log axis, in light semi-transparent
// markers (overplotted queries darken), with Spearman's rho and its
// p-value from the Report in the legend.
func difficultyFigure(r *report.Report, ix *index, system string, keys map[string]string) *figure {
	d, ok := difficultyData(r, ix, system)
	if !ok {
		return nil
	}
	label := systemLabel(r, system)
	what := "Recall@" + strconv.Itoa(d.K)
	p := newPlot(what+" against difficulty: "+label,
		"Difficulty n_neg / n_pos (negatives per positive, log scale)",
		what+" of the query")
	col := seriesColor(0)
	// The x axis is linear in log10(difficulty), labelled in difficulty:
	// gonum's own log scale centres the axis name at the linear midpoint.
	sc := &cloud{Points: d.Points, Color: col, Alpha: diffAlpha, Radius: vg.Points(1.6)}
	p.Add(sc)
	lo, hi := d.Points[0].X, d.Points[0].X
	for _, pt := range d.Points {
		lo, hi = math.Min(lo, pt.X), math.Max(hi, pt.X)
	}
	p.X.Min, p.X.Max = math.Log10(lo/1.25), math.Log10(hi*1.25)
	p.X.Tick.Marker = logTicks{}
	unitRange(&p.Y, 0, 1, 0.2)
	p.Y.Min, p.Y.Max = -0.04, 1.04 // markers at 0 and 1 stay whole

	leg := newLegend()
	leg.Padding = vg.Points(6) // two-line entries: keep them apart
	n := d.Drawn + d.Zero
	leg.Add("Positive query\n(n = "+groupInt(n)+")", legendGlyph{draw.GlyphStyle{Color: fade(col, 0.6), Radius: vg.Points(2), Shape: draw.CircleGlyph{}}})
	rho := "Spearman rho = " + fmt3(d.Rho)
	if !math.IsNaN(d.Rho) {
		rho += "\np " + fmtP(d.P)
	}
	leg.Add(rho)
	if d.Zero > 0 {
		leg.Add(queries(d.Zero) + " at difficulty 0\n(not on the log axis)")
	}
	if d.Undef > 0 {
		leg.Add(queries(d.Undef) + " undefined,\nleft out")
	}
	return &figure{name: "difficulty_" + keys[system], w: figW + 0.5*vg.Inch, h: figH,
		parts: map[string]any{"data": d},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// queries is "1 query" or "n queries".
func queries(n int) string {
	if n == 1 {
		return "1 query"
	}
	return groupInt(n) + " queries"
}

// groupInt writes n with thousands separators: 12,345.
func groupInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// fmtP formats a p-value: "= 0.062" from 0.001 up, "= 3.2e-12" below,
// "< 1e-300" for 0 (underflow), "n/a" when undefined.
func fmtP(p float64) string {
	switch {
	case math.IsNaN(p) || math.IsInf(p, 0):
		return "n/a"
	case p <= 1e-300:
		return "< 1e-300"
	case p < 0.001:
		return "= " + strconv.FormatFloat(p, 'e', 1, 64)
	}
	return "= " + strconv.FormatFloat(p, 'f', 3, 64)
}

// cloud draws points at (log10 X, Y) as filled circles of one colour; a
// point standing for N queries is drawn once with the opacity of N
// overplotted markers (stackAlpha).
type cloud struct {
	Points []diffPoint
	Color  color.NRGBA
	Alpha  float64
	Radius vg.Length
}

// Plot implements plot.Plotter.
func (s *cloud) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, pt := range s.Points {
		g := draw.GlyphStyle{Color: fade(s.Color, stackAlpha(s.Alpha, pt.N)), Radius: s.Radius, Shape: draw.CircleGlyph{}}
		c.DrawGlyph(g, vg.Point{X: trX(math.Log10(pt.X)), Y: trY(pt.Y)})
	}
}

// DataRange implements plot.DataRanger.
func (s *cloud) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range s.Points {
		x := math.Log10(pt.X)
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		ymin, ymax = math.Min(ymin, pt.Y), math.Max(ymax, pt.Y)
	}
	return
}

// logTicks marks an axis in log10 units with the values they stand for:
// every power of ten labelled, and 2 and 5 times each power labelled too
// when the axis spans less than two decades (unlabelled minor ticks at 2
// to 9 times each power otherwise).
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	e0, e1 := int(math.Floor(min)), int(math.Ceil(max))
	dense := max-min < 2
	var out []plot.Tick
	for e := e0; e <= e1; e++ {
		for m := 1; m <= 9; m++ {
			v := roundSig(float64(m) * math.Pow(10, float64(e)))
			lv := math.Log10(v)
			if lv < min-1e-12 || lv > max+1e-12 {
				continue
			}
			t := plot.Tick{Value: lv}
			if m == 1 || (dense && (m == 2 || m == 5)) {
				t.Label = numLabel(v)
			}
			out = append(out, t)
		}
	}
	return out
}

// roundSig rounds v to 12 significant digits (10^-2 computed as 0.01000…1
// prints as 0.01).
func roundSig(v float64) float64 {
	s := strconv.FormatFloat(v, 'g', 12, 64)
	x, _ := strconv.ParseFloat(s, 64)
	return x
}
