package figures

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"paperbundle/metrics"
	"paperbundle/report"
)

// This file builds the bar and dot figures: per-criterion bars, Dynamic-K
// histograms, Recall@K and Precision@K by stratum, and the systems chart.

// criteriaBars returns the bars of one metric per criterion (undefined
// values have no bar) and whether a criterion has a defined value.
func (c *cat) criteriaBars(system string, id metrics.ID, name string, st Style) (*Bars, []bool) {
	b := &Bars{Name: name, Style: st}
	crit, _ := c.criteria()
	def := make([]bool, len(crit))
	for i, cr := range crit {
		v, lo, hi := value(c.r, system, id, report.CriterionSlice(cr))
		if !defined(v) {
			continue
		}
		def[i] = true
		b.Bars = append(b.Bars, Bar{Cat: i, Value: v, Err: errOf(lo, hi), Tip: append(Tip{field("criterion", TextValue(cr))}, ciFields(name, v, lo, hi, CoordY)...)})
	}
	return b, def
}

// naText tags with "n/a" the categories where no series is defined.
func naText(defs ...[]bool) (*Text, int) {
	t := &Text{Style: Style{Role: NA}, Anchor: Above}
	n := 0
	for i := range defs[0] {
		any := false
		for _, d := range defs {
			any = any || d[i]
		}
		if !any {
			t.At = append(t.At, XY{float64(i), 0})
			t.Texts = append(t.Texts, "n/a")
		}
		for _, d := range defs {
			if !d[i] {
				n++
			}
		}
	}
	return t, n
}

// MaxCriteriaDrawn is the number of criteria a per-criterion figure draws
// (bars, heat-map rows): past it, a figure's size and the memory of its
// raster would grow with the number of criteria. The first criteria in
// the report's order are drawn, and a note says how many are not; the
// per-criterion tables list every one.
const MaxCriteriaDrawn = 60

// criteria returns the criteria a per-criterion figure draws and the
// note naming those it leaves out (nil when it draws all).
func (c *cat) criteria() ([]string, []string) {
	crit := c.r.Dataset.Criteria
	if len(crit) <= MaxCriteriaDrawn {
		return crit, nil
	}
	return crit[:MaxCriteriaDrawn], []string{strconv.Itoa(len(crit)-MaxCriteriaDrawn) + " of " + strconv.Itoa(len(crit)) +
		" criteria not drawn: a figure draws the first " + strconv.Itoa(MaxCriteriaDrawn) + " (the per-criterion tables list every one)"}
}

func criteriaAxis(names []string) Axis {
	return Axis{Label: "Criterion", Categories: names, Fixed: true, Min: -0.6, Max: float64(len(names)) - 0.4}
}

func hline(name string, st Style, y float64, n int) *Line {
	return &Line{Name: name, Style: st, Segments: [][]XY{{{-0.6, y}, {float64(n) - 0.4, y}}}}
}

// criteriaAUROC draws the per-criterion AUROC with bootstrap CIs, the
// overall AUROC as a reference line, and chance at 0.5.
func (c *cat) criteriaAUROC(system string) (*Spec, string) {
	crit, notDrawn := c.criteria()
	if len(crit) == 0 {
		return nil, c.sectionReason(report.PerCriterion, "the inputs have no criterion_id column")
	}
	b, def := c.criteriaBars(system, metrics.NEAUROC.ID(), "AUROC", Style{Role: Primary, Opacity: 0.75})
	if len(b.Bars) == 0 {
		return nil, c.sectionReason(report.NEGate, "no criterion has a defined AUROC (ne_prob missing, or one class in every criterion)")
	}
	na, skipped := naText(def)
	p := Panel{X: criteriaAxis(crit), Y: unitAxis("AUROC")}
	p.Elements = append(p.Elements, b, na)
	leg := []LegendEntry{
		{Keys: []Key{{MarkBar, b.Style}}, Text: "AUROC"},
		{Keys: []Key{{MarkLine, Style{Role: Whisker}}}, Text: ciName(c.r)},
	}
	if all, _, _ := value(c.r, system, metrics.NEAUROC.ID(), report.Whole); defined(all) {
		p.Elements = append(p.Elements, hline("All criteria "+c.fmtv(all), Style{Role: Summary}, all, len(crit)))
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Summary}}}, Text: "All criteria " + c.fmtv(all)})
	}
	p.Elements = append(p.Elements, hline("Chance 0.5", Style{Role: Diagonal}, 0.5, len(crit)))
	leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Diagonal}}}, Text: "Chance 0.5"})
	return &Spec{Kind: KindCriteriaAUROC, Subtitle: "bars: point estimate; whiskers: " + ciName(c.r) + "; n/a: one class only",
		Alt: "Bar chart of the AUROC of " + label(c.r, system) + " for each of " + strconv.Itoa(len(crit)) +
			" criteria with " + ciName(c.r) + " whiskers, the all-criteria AUROC and chance at 0.5.",
		Panels: []Panel{p}, Legend: leg, Notes: append(leftOut(skipped), notDrawn...)}, ""
}

// criteriaRanking draws Recall@K and nDCG@K at the headline cutoff per
// criterion as grouped bars with bootstrap CIs.
func (c *cat) criteriaRanking(system string) (*Spec, string) {
	crit, notDrawn := c.criteria()
	if len(crit) == 0 {
		return nil, c.sectionReason(report.PerCriterion, "the inputs have no criterion_id column")
	}
	if c.k <= 0 {
		return nil, "the report has no ranking cutoff"
	}
	K := strconv.Itoa(c.k)
	rb, rdef := c.criteriaBars(system, metrics.RankRecall.At(c.k), "Recall@"+K, Style{Role: Primary, Opacity: 0.8})
	nb, ndef := c.criteriaBars(system, metrics.RankNDCG.At(c.k), "nDCG@"+K, Style{Role: Series, Series: 3, Opacity: 0.85})
	if len(rb.Bars) == 0 && len(nb.Bars) == 0 {
		return nil, c.sectionReason(report.Ranking, "no criterion has ranking metrics at the headline cutoff @"+K)
	}
	na, skipped := naText(rdef, ndef)
	p := Panel{X: criteriaAxis(crit), Y: unitAxis("Mean over positive queries")}
	p.Elements = append(p.Elements, rb, nb, na)
	leg := []LegendEntry{
		{Keys: []Key{{MarkBar, rb.Style}}, Text: "Recall@" + K},
		{Keys: []Key{{MarkBar, nb.Style}}, Text: "nDCG@" + K},
		{Keys: []Key{{MarkLine, Style{Role: Whisker}}}, Text: ciName(c.r)},
	}
	return &Spec{Kind: KindCriteriaRanking, Subtitle: "positive queries; n/a: no positive query", Hint: "hover a bar for its " + ciName(c.r),
		Alt: "Grouped bar chart of Recall@" + K + " and nDCG@" + K + " of " + label(c.r, system) + " for each of " +
			strconv.Itoa(len(crit)) + " criteria with " + ciName(c.r) + " whiskers.",
		Panels: []Panel{p}, Legend: leg, Notes: append(leftOut(skipped), notDrawn...)}, ""
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

func (g histGroup) kind() Kind {
	return [...]Kind{KindDynKHist, KindDynKHistState, KindDynKHistEvid}[g]
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
func (c *cat) dynkHist(system string, g histGroup) (*Spec, string) {
	var hs []*report.Histogram
	for i := range c.r.Curves.DynKHist {
		h := &c.r.Curves.DynKHist[i]
		if h.System == system && g.match(h.Group) && len(h.K) > 0 {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		if g == histState {
			return nil, c.sectionReason(report.ClinicalGate, "the system has no gate states")
		}
		return nil, c.sectionReason(report.DynamicK, "the report has no Dynamic-K histogram for this system")
	}
	kset := map[int]bool{}
	maxc := 0
	for _, h := range hs {
		for j, k := range h.K {
			kset[k] = true
			maxc = max(maxc, h.Count[j])
		}
	}
	ks := make([]int, 0, len(kset))
	for k := range kset {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	p := Panel{
		X: Axis{Label: "Sentences selected per query (K)", Ticks: intTicks(ks), Fixed: true, Min: float64(ks[0]) - 0.6, Max: float64(ks[len(ks)-1]) + 0.6},
		Y: Axis{Label: "Queries (count)", Fixed: true, Min: 0, Max: 1.05 * float64(max(maxc, 1))},
	}
	var leg []LegendEntry
	total := 0
	for gi, h := range hs {
		st := Style{Role: Series, Series: gi, Outline: true}
		n := 0
		el := &Histogram{Name: groupLabel(h.Group), Style: st, K: h.K, Count: h.Count}
		for j, k := range h.K {
			n += h.Count[j]
			el.Tips = append(el.Tips, Tip{atX("K", Int(k)), atY("queries", Int(h.Count[j]))})
		}
		total += n
		el.Name += " (n = " + groupInt(n) + ")"
		p.Elements = append(p.Elements, el)
		if len(hs) > 1 {
			leg = append(leg, LegendEntry{Keys: []Key{{MarkBar, st}}, Text: el.Name})
		}
	}
	title := g.title() + ": " + label(c.r, system)
	if len(hs) == 1 {
		title += " (n = " + groupInt(total) + ")"
	}
	return &Spec{Kind: g.kind(), Title: title, Hint: "hover a bar for its exact K and count",
		Alt: "Histogram of the number of sentences Dynamic-K selected per query for " + label(c.r, system) + " over " +
			queries(total) + ", K from " + strconv.Itoa(ks[0]) + " to " + strconv.Itoa(ks[len(ks)-1]) + groupsText(hs) + ".",
		Panels: []Panel{p}, Legend: leg}, ""
}

func groupsText(hs []*report.Histogram) string {
	if len(hs) < 2 {
		return ""
	}
	var names []string
	for _, h := range hs {
		names = append(names, groupLabel(h.Group))
	}
	return ", in groups " + strings.Join(names, ", ")
}

// rankAtK draws Recall@K (or Precision@K) against K, one line per n_pos
// stratum and one for all positive queries.
func (c *cat) rankAtK(system string, recall bool) (*Spec, string) {
	what := "Precision@K"
	if recall {
		what = "Recall@K"
	}
	type series struct {
		name string
		pts  []Point
	}
	var ss []*series
	find := map[string]*series{}
	kset := map[int]bool{}
	skipped := 0
	for _, pt := range c.r.Curves.RankAtK {
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
			skipped++
			continue
		}
		s.pts = append(s.pts, Point{X: float64(pt.K), Y: float64(v)})
		kset[pt.K] = true
	}
	if len(kset) == 0 {
		return nil, c.sectionReason(report.Strata, "the report has no "+what+" points for this system")
	}
	ks := make([]int, 0, len(kset))
	for k := range kset {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	p := Panel{
		X: cutoffAxis("Cutoff K (sentences)", ks),
		Y: unitAxis(what + " (mean over positive queries)"),
	}
	var leg []LegendEntry
	allAlt := "all positive queries" // what the line of the whole population averages over
	for i, s := range ss {
		if len(s.pts) == 0 {
			continue
		}
		sort.SliceStable(s.pts, func(a, b int) bool { return s.pts[a].X < s.pts[b].X })
		st := Style{Role: Series, Series: i}
		// A stratum in words: "1 gold sentence", "3–5 gold sentences".
		name := c.say(s.name + " gold sentences")
		if s.name == "1" {
			name = c.say("1 gold sentence")
		}
		n, _, _ := value(c.r, system, metrics.DataN.ID(), report.StratumSlice(s.name))
		if s.name == "all" {
			st.Role = Total
			// The line of the whole population, named by it and its n
			// (the queries with evidence; every judged query of a TREC
			// run, those without a relevant document included), not by
			// the dataset's count of positive queries.
			pop := metrics.PositivesOnly
			n = float64(c.r.Dataset.PositiveQueries)
			for _, pt := range s.pts {
				if m, ok := c.r.Metric(system, metrics.RankRecall.At(int(pt.X)), report.Whole); ok {
					pop, n = m.Population, float64(m.ShownN())
					break
				}
			}
			words, _ := c.r.Vocabulary().PopulationWords(string(pop))
			name = "All " + words
			if pop != metrics.PositivesOnly {
				// Its line is not over positive queries only.
				p.Y.Label = what + " (mean over the queries of each line)"
				allAlt = "all " + words
			}
		}
		text := name // the legend's: a long one breaks before its n
		if defined(n) && n > 0 {
			nText := "(n = " + groupInt(int(n)) + ")"
			text = name + " " + nText
			if utf8.RuneCountInString(text) > legendLine {
				text = name + "\n" + nText
			}
			name += " " + nText
		}
		for j := range s.pts {
			s.pts[j].Tip = Tip{atX("K", Num(s.pts[j].X, 0)), atY(strings.TrimSuffix(what, "@K"), Num(s.pts[j].Y, 3))}
		}
		if len(s.pts) > 1 {
			line := make([]XY, len(s.pts))
			for j, pt := range s.pts {
				line[j] = XY{pt.X, pt.Y}
			}
			p.Elements = append(p.Elements, &Line{Name: name, Style: st, Segments: [][]XY{line}})
		}
		p.Elements = append(p.Elements, &Points{Name: name, Style: st, Points: s.pts})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, st}, {MarkMarker, st}}, Text: text})
	}
	return &Spec{Kind: map[bool]Kind{true: KindRecallAtK, false: KindPrecisionAtK}[recall],
		Subtitle: "positive queries, by their number of gold sentences",
		Alt: "Line chart of " + what + " of " + label(c.r, system) + " against the cutoff K (" + strconv.Itoa(ks[0]) + " to " +
			strconv.Itoa(ks[len(ks)-1]) + "), one line per number of gold sentences and one for " + allAlt + ".",
		Panels: []Panel{p}, Legend: leg, Notes: leftOut(skipped)}, ""
}

// fitUnitAxis is an axis of a metric in [0, 1] fitted to the values and
// intervals shown, [lo, hi], with a margin, on steps of 0.05 and ticks
// every 0.05, 0.1 or 0.2: six AUROCs between 0.76 and 0.89 spread over
// the panel instead of sitting in one blob at the right of [0, 1]. Without
// values it is [0, 1].
func fitUnitAxis(lbl string, lo, hi float64) Axis {
	if !(lo <= hi) {
		return unitAxis(lbl)
	}
	pad := math.Max(0.02, 0.05*(hi-lo))
	min := math.Max(0, math.Floor((lo-pad)/0.05)*0.05)
	max := math.Min(1, math.Ceil((hi+pad)/0.05)*0.05)
	step := 0.05
	switch r := max - min; {
	case r > 0.6:
		step = 0.2
	case r > 0.3:
		step = 0.1
	}
	min = math.Floor(min/step+1e-9) * step
	max = math.Min(1, math.Ceil(max/step-1e-9)*step)
	return Axis{Label: lbl, Min: round2(min), Max: round2(max), Fixed: true, Step: step}
}

// population is the population metric id is computed over, from its
// first whole-population value in the report, and whether the report
// holds the metric at all.
func (c *cat) population(id metrics.ID) (metrics.Population, bool) {
	for _, m := range c.r.Metrics {
		if m.ID == id && m.Slice == report.Whole {
			return m.Population, true
		}
	}
	return "", false
}

// round2 rounds to two decimals (axis ends on a 0.05 grid).
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// systems is the ablation chart: nDCG@K at the headline cutoff and AUROC
// of every system and baseline as dots with bootstrap CI whiskers,
// systems top to bottom in report order.
func (c *cat) systems(string) (*Spec, string) {
	names := allSystems(c.r)
	if len(names) == 0 {
		return nil, "the report has no system"
	}
	type panelSpec struct {
		id          metrics.ID
		short, axis string
	}
	// A panel per headline measure the report holds: a TREC run has no
	// AUROC, a classifier no nDCG.
	var specs []panelSpec
	if pop, ok := c.population(metrics.RankNDCG.At(c.k)); c.k > 0 && ok {
		K := strconv.Itoa(c.k)
		who := "positive queries"
		if pop == metrics.JudgedQueries {
			who = "judged queries" // a TREC run's judged queries, those without a relevant document included
		}
		specs = append(specs, panelSpec{metrics.RankNDCG.At(c.k), "nDCG@" + K, "nDCG@" + K + " (" + who + ")"})
	}
	if _, ok := c.population(metrics.NEAUROC.ID()); ok {
		specs = append(specs, panelSpec{metrics.NEAUROC.ID(), "AUROC", "AUROC (all queries)"})
	}
	if len(specs) == 0 {
		return nil, "the inputs have neither a ranking nor a score to classify with"
	}
	labels := make([]string, len(names))
	rev := make([]string, len(names))
	for i, n := range names {
		labels[i] = label(c.r, n)
		rev[len(names)-1-i] = labels[i]
	}
	var panels []Panel
	found, skipped := false, 0
	for pi, sp := range specs {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, n := range names {
			v, l, h := value(c.r, n, sp.id, report.Whole)
			for _, x := range []float64{v, l, h} {
				if defined(x) {
					lo, hi = math.Min(lo, x), math.Max(hi, x)
				}
			}
		}
		p := Panel{X: fitUnitAxis(sp.axis, lo, hi), Y: Axis{Categories: rev, Fixed: true, Min: -0.6, Max: float64(len(names)) - 0.4}}
		p.Y.HideTickLabels = pi > 0
		st := Style{Role: Series, Series: pi, Size: 2.4}
		d := &Points{Name: sp.short, ErrName: sp.short + " " + ciName(c.r), Style: st, Horizontal: true}
		na := &Text{Style: Style{Role: NA}, Anchor: Right}
		for i, n := range names {
			y := float64(len(names) - 1 - i)
			v, lo, hi := value(c.r, n, sp.id, report.Whole)
			if _, ok := c.r.Metric(n, sp.id, report.Whole); !ok {
				continue // does not apply to this system (a baseline's AUROC): left blank
			}
			if !defined(v) {
				na.At = append(na.At, XY{p.X.Min + 0.02*(p.X.Max-p.X.Min), y})
				na.Texts = append(na.Texts, "n/a")
				skipped++
				continue
			}
			found = true
			d.Points = append(d.Points, Point{X: v, Y: y, Err: errOf(lo, hi), Tip: append(Tip{field("system", TextValue(labels[i]))}, ciFields(sp.short, v, lo, hi, CoordX)...)})
		}
		p.Elements = append(p.Elements, d, na)
		panels = append(panels, p)
	}
	if !found {
		return nil, "no system has a defined headline metric"
	}
	var what []string
	for _, sp := range specs {
		what = append(what, sp.short)
	}
	// Baselines (random and oracle rankings) exist only with a ranking: a
	// classifier's chart does not name them.
	who, title := " systems and baselines", ""
	if len(names) == len(pipelines(c.r)) {
		who, title = " systems", "Systems ("+confPct(c.r)+" bootstrap CI)"
	}
	return &Spec{Kind: KindSystems, Layout: Row, Title: title,
		Subtitle: "dots: point estimate; whiskers: " + ciName(c.r) + "; n/a: undefined on this data; blank: does not apply",
		Alt: "Dot-and-whisker chart of " + strings.Join(what, " and ") + " for " + strconv.Itoa(len(names)) +
			who + ", top to bottom in report order, with " + ciName(c.r) + " whiskers.",
		Panels: panels, Notes: leftOut(skipped)}, ""
}
