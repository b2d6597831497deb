package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/report"
)

// criteriaValues returns, per criterion of the Report, the metric's value
// and CI; ok is false when no criterion has a defined value.
func criteriaValues(r *report.Report, ix *index, system, id string) (v, lo, hi []float64, ok bool) {
	for _, c := range r.Dataset.Criteria {
		a, l, h := ix.value(system, id, "criterion="+c)
		v, lo, hi = append(v, a), append(lo, l), append(hi, h)
		if !math.IsNaN(a) {
			ok = true
		}
	}
	return
}

// naTags marks the criteria whose value is undefined with "n/a" at the
// base of the bar.
func naTags(xs []float64, vals ...[]float64) *textAt {
	t := &textAt{Style: textStyle(sizeTag)}
	t.Style.XAlign = draw.XCenter
	t.Style.Color = grey
	t.DY = vg.Points(2)
	for i, x := range xs {
		undefined := true
		for _, v := range vals {
			if !math.IsNaN(v[i]) {
				undefined = false
			}
		}
		if undefined {
			t.XYs = append(t.XYs, plotter.XY{X: x, Y: 0})
			t.Texts = append(t.Texts, "n/a")
		}
	}
	return t
}

func positions(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	return x
}

// criteriaAUROC draws the per-criterion AUROC with bootstrap 95% CIs, the
// overall AUROC as a reference line, and chance at 0.5.
func criteriaAUROC(r *report.Report, ix *index, system string, keys map[string]string) *figure {
	v, lo, hi, ok := criteriaValues(r, ix, system, "ne.auroc")
	if !ok {
		return nil
	}
	label := systemLabel(r, system)
	p := newPlot("AUROC by criterion: "+label, "Criterion", "AUROC (ne_prob)")
	leg := newLegend()
	x := positions(len(v))
	col := seriesColor(0)
	b := &bars{X: x, Y: v, Lo: lo, Hi: hi, Width: 0.65, Color: fade(col, 0.75),
		Err: draw.LineStyle{Color: black, Width: vg.Points(0.8)}}
	p.Add(b)
	p.Add(naTags(x, v))
	leg.Add("AUROC", b)
	leg.Add("95% CI (bootstrap)", legendLine{b.Err})
	if all, _, _ := ix.value(system, "ne.auroc", ""); !math.IsNaN(all) {
		l := mustLine(plotter.XYs{{X: -0.6, Y: all}, {X: float64(len(v)) - 0.4, Y: all}}, draw.LineStyle{Color: seriesColor(1), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}})
		p.Add(l)
		leg.Add("All criteria "+fmt3(all), legendLine{l.LineStyle})
	}
	chance := mustLine(plotter.XYs{{X: -0.6, Y: 0.5}, {X: float64(len(v)) - 0.4, Y: 0.5}}, draw.LineStyle{Color: grey, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}})
	p.Add(chance)
	leg.Add("Chance 0.5", legendLine{chance.LineStyle})
	nominalTicks(&p.X, r.Dataset.Criteria)
	unitRange(&p.Y, 0, 1, 0.2)
	return &figure{name: "criteria_auroc_" + keys[system], w: figW + 0.4*vg.Inch, h: figH,
		parts: map[string]any{"bars": b},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// criteriaRanking draws Recall@10 and nDCG@10 per criterion as grouped
// bars with bootstrap 95% CIs.
func criteriaRanking(r *report.Report, ix *index, system string, keys map[string]string) *figure {
	rv, rlo, rhi, ok1 := criteriaValues(r, ix, system, "rank.recall@10")
	nv, nlo, nhi, ok2 := criteriaValues(r, ix, system, "rank.ndcg@10")
	if !ok1 && !ok2 {
		return nil
	}
	label := systemLabel(r, system)
	p := newPlot("Ranking by criterion: "+label, "Criterion", "Mean over positive queries")
	leg := newLegend()
	x := positions(len(rv))
	w := 0.36
	var xr, xn []float64
	for _, xi := range x {
		xr, xn = append(xr, xi-w/2-0.01), append(xn, xi+w/2+0.01)
	}
	err := draw.LineStyle{Color: black, Width: vg.Points(0.8)}
	br := &bars{X: xr, Y: rv, Lo: rlo, Hi: rhi, Width: w, Color: fade(seriesColor(0), 0.8), Err: err}
	bn := &bars{X: xn, Y: nv, Lo: nlo, Hi: nhi, Width: w, Color: fade(seriesColor(3), 0.85), Err: err}
	p.Add(br, bn, naTags(x, rv, nv))
	leg.Add("Recall@10", br)
	leg.Add("nDCG@10", bn)
	leg.Add("95% CI (bootstrap)", legendLine{err})
	nominalTicks(&p.X, r.Dataset.Criteria)
	unitRange(&p.Y, 0, 1, 0.2)
	return &figure{name: "criteria_ranking_" + keys[system], w: figW + 0.4*vg.Inch, h: figH,
		parts: map[string]any{"recall": br, "ndcg": bn},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// histGroup selects the Dynamic-K histograms of one figure.
type histGroup int

const (
	histAll histGroup = iota
	histState
	histEvidence
)

func (g histGroup) match(group string) bool {
	switch g {
	case histAll:
		return group == "all"
	case histState:
		return strings.HasPrefix(group, "state=")
	}
	return strings.HasPrefix(group, "has_evidence=")
}

func (g histGroup) file() string {
	return [...]string{"dynk_hist_", "dynk_hist_state_", "dynk_hist_evidence_"}[g]
}

func (g histGroup) title() string {
	return [...]string{"Selected K", "Selected K by gate state", "Selected K by evidence"}[g]
}

// groupLabel is the legend text of a histogram group.
func groupLabel(g string) string {
	switch g {
	case "all":
		return "All queries"
	case "state=NEG":
		return "State NEG"
	case "state=UNCERTAIN":
		return "State UNCERTAIN"
	case "state=POS":
		return "State POS"
	case "has_evidence=0":
		return "No evidence"
	case "has_evidence=1":
		return "Has evidence"
	}
	return g
}

// dynkHist draws the Dynamic-K histograms of one system: bar heights are
// the Report's counts; groups are side by side at each K.
func dynkHist(r *report.Report, system string, g histGroup, keys map[string]string) *figure {
	var hs []*report.Histogram
	for i := range r.Curves.DynKHist {
		h := &r.Curves.DynKHist[i]
		if h.System == system && g.match(h.Group) && len(h.K) > 0 {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	kset := map[int]bool{}
	for _, h := range hs {
		for _, k := range h.K {
			kset[k] = true
		}
	}
	var ks []int
	for k := range kset {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	label := systemLabel(r, system)
	p := newPlot(g.title()+": "+label, "Sentences selected per query (K)", "Queries (count)")
	var leg *plot.Legend
	if len(hs) > 1 {
		leg = newLegend()
	}
	w := 0.8 / float64(len(hs))
	var all []*bars
	for gi, h := range hs {
		b := &bars{Width: w * 0.95, Color: seriesColor(gi), Line: draw.LineStyle{Color: black, Width: vg.Points(0.3)}}
		for j, k := range h.K {
			b.X = append(b.X, float64(k)-0.4+w*(float64(gi)+0.5))
			b.Y = append(b.Y, float64(h.Count[j]))
		}
		p.Add(b)
		all = append(all, b)
		if leg != nil {
			n := 0
			for _, c := range h.Count {
				n += c
			}
			leg.Add(groupLabel(h.Group)+" (n = "+groupInt(n)+")", b)
		}
	}
	intTicks(&p.X, ks, strconv.Itoa)
	p.X.Min, p.X.Max = float64(ks[0])-0.6, float64(ks[len(ks)-1])+0.6
	p.Y.Min = 0
	p.Y.Max *= 1.05
	if leg == nil {
		n := 0
		for _, c := range hs[0].Count {
			n += c
		}
		p.Title.Text += " (n = " + groupInt(n) + ")"
	}
	return &figure{name: g.file() + keys[system], w: figW + 0.5*vg.Inch, h: figH,
		parts: map[string]any{"bars": all, "groups": hs},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// rankAtK draws Recall@K (or Precision@K) against K, one line per n_pos
// stratum and one for all positive queries.
func rankAtK(r *report.Report, ix *index, system string, recall bool, keys map[string]string) *figure {
	type series struct {
		name string
		xy   plotter.XYs
	}
	var ss []*series
	find := map[string]*series{}
	kset := map[int]bool{}
	for _, pt := range r.Curves.RankAtK {
		if pt.System != system {
			continue
		}
		v := pt.Precision
		if recall {
			v = pt.Recall
		}
		s := find[pt.Stratum]
		if s == nil {
			s = &series{name: pt.Stratum}
			find[pt.Stratum] = s
			ss = append(ss, s)
		}
		if !v.Valid() {
			continue
		}
		s.xy = append(s.xy, plotter.XY{X: float64(pt.K), Y: float64(v)})
		kset[pt.K] = true
	}
	if len(kset) == 0 {
		return nil
	}
	var ks []int
	for k := range kset {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	label := systemLabel(r, system)
	what, file := "Precision@K", "precision_at_k_"
	if recall {
		what, file = "Recall@K", "recall_at_k_"
	}
	p := newPlot(what+" by n_pos stratum: "+label, "Cutoff K (sentences)", what+" (mean over positive queries)")
	leg := newLegend()
	lines := map[string]plotter.XYs{}
	for i, s := range ss {
		if len(s.xy) == 0 {
			continue
		}
		sort.SliceStable(s.xy, func(a, b int) bool { return s.xy[a].X < s.xy[b].X })
		sty := lineStyle(i, 1.2)
		if s.name == "all" {
			sty = draw.LineStyle{Color: black, Width: vg.Points(1.6)}
		}
		gs := draw.GlyphStyle{Color: sty.Color, Radius: vg.Points(2), Shape: seriesGlyph(i)}
		if len(s.xy) > 1 {
			p.Add(mustLine(s.xy, sty))
		}
		sc, _ := plotter.NewScatter(s.xy)
		sc.GlyphStyle = gs
		p.Add(sc)
		name := "n_pos " + s.name
		n, _, _ := ix.value(system, "data.n", "stratum="+s.name)
		if s.name == "all" {
			name = "All positives"
			n = float64(r.Dataset.PositiveQueries)
		}
		if !math.IsNaN(n) && n > 0 {
			name += " (n = " + groupInt(int(n)) + ")"
		}
		leg.Add(name, legendLine{sty}, legendGlyph{gs})
		lines[s.name] = s.xy
	}
	intTicks(&p.X, ks, strconv.Itoa)
	p.X.Min, p.X.Max = float64(ks[0])-0.5, float64(ks[len(ks)-1])+0.5
	unitRange(&p.Y, 0, 1, 0.2)
	return &figure{name: file + keys[system], w: figW + 0.3*vg.Inch, h: figH,
		parts: map[string]any{"lines": lines},
		draw:  func(cv draw.Canvas) { drawWithLegend(cv, p, leg) }}
}

// systemsFigure is the ablation chart: nDCG@10 and AUROC of every system
// and baseline as dots with bootstrap 95% CI whiskers.
func systemsFigure(r *report.Report, ix *index) *figure {
	names := systemOrder(r, true)
	if len(names) == 0 {
		return nil
	}
	type panelSpec struct{ id, title string }
	specs := []panelSpec{{"rank.ndcg@10", "nDCG@10 (positive queries)"}, {"ne.auroc", "AUROC (all queries)"}}
	var labels []string
	for _, n := range names {
		labels = append(labels, systemLabel(r, n))
	}
	// Categories from top to bottom in list order.
	ypos := make([]float64, len(names))
	for i := range names {
		ypos[i] = float64(len(names) - 1 - i)
	}
	rev := make([]string, len(labels))
	for i, l := range labels {
		rev[len(labels)-1-i] = l
	}
	var ps []*plot.Plot
	parts := map[string]any{}
	found := false
	for pi, sp := range specs {
		p := newPlot("", sp.title, "")
		d := &dots{Horizontal: true, Glyph: draw.GlyphStyle{Color: seriesColor(pi), Radius: vg.Points(2.4), Shape: seriesGlyph(pi)},
			Err: draw.LineStyle{Color: seriesColor(pi), Width: vg.Points(1)}}
		na := &textAt{Style: textStyle(sizeTag)}
		na.Style.Color = grey
		na.Style.YAlign = draw.YCenter
		for i, n := range names {
			v, lo, hi := ix.value(n, sp.id, "")
			d.X, d.Y = append(d.X, v), append(d.Y, ypos[i])
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
			if math.IsNaN(v) {
				na.XYs = append(na.XYs, plotter.XY{X: 0.02, Y: ypos[i]})
				na.Texts = append(na.Texts, "n/a")
			} else {
				found = true
			}
		}
		p.Add(d, na)
		parts[sp.id] = d
		unitRange(&p.X, 0, 1, 0.2)
		nominalTicks(&p.Y, rev)
		if pi > 0 {
			p.Y.Tick.Marker = blankTicks{p.Y.Tick.Marker}
		}
		ps = append(ps, p)
	}
	if !found {
		return nil
	}
	h := figH
	if n := len(names); n > 8 {
		h += vg.Length(n-8) * 0.22 * vg.Inch
	}
	return &figure{name: "systems", w: wideW, h: h, parts: parts,
		draw: func(cv draw.Canvas) { drawRow(suptitle(cv, "Systems and baselines (95% bootstrap CI)"), ps, nil) }}
}

// blankTicks keeps tick positions but drops their labels (a shared axis).
type blankTicks struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (b blankTicks) Ticks(min, max float64) []plot.Tick {
	t := b.Ticker.Ticks(min, max)
	out := make([]plot.Tick, len(t))
	for i := range t {
		out[i] = plot.Tick{Value: t[i].Value}
	}
	return out
}
