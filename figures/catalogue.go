package figures

import (
	"strconv"

	"paperbundle/report"
)

// Catalogue returns the spec of every figure the Report has data for, in a
// fixed order: ROC per system, the ROC overlay, precision-recall per
// system and overlay, reliability, decision curves, per-criterion bars,
// Dynamic-K histograms, Recall@K and Precision@K by stratum, difficulty,
// gamma sweep, threshold grids, per-query heat maps, and the systems
// chart. Ids are unique whatever the systems are called (see systemKeys).
func Catalogue(r *report.Report) []Spec { return CatalogueDecimals(r, 3) }

// CatalogueDecimals is Catalogue with the values of legends, tags and
// subtitles at d decimals (paper/ uses paper.decimals, the tables' own).
func CatalogueDecimals(r *report.Report, d int) []Spec {
	var out []Spec
	for _, e := range planDecimals(r, d) {
		if e.spec != nil {
			out = append(out, *e.spec)
		}
	}
	return out
}

// Missing returns the figures of the catalogue that the Report has no
// data for, in catalogue order, each with the reason: the HTML report
// shows it in place of the figure.
func Missing(r *report.Report) []MissingFigure {
	var out []MissingFigure
	for _, e := range plan(r) {
		if e.spec == nil {
			out = append(out, MissingFigure{ID: e.id, Title: e.title, Reason: e.reason})
		}
	}
	return out
}

// entry is one figure of the plan: its spec, or the reason it has none.
type entry struct {
	id     FigureID
	title  string
	spec   *Spec
	reason string
}

// cat holds what every builder reads.
type cat struct {
	r    *report.Report
	dec  int               // decimals of the values in legends, tags and subtitles
	keys map[string]string // system name -> key in ids
	k    int               // headline cutoff
	out  []entry
}

// say writes s, in the evidence-retrieval words, in the words of the
// report's kind of input: for the series names and legend texts, which
// the renderers keep as they are (they may hold a system's label).
func (c *cat) say(s string) string { return c.r.Vocabulary().Say(s) }

// builder makes the spec of one figure, or says why there is none.
type builder func(c *cat, system string) (*Spec, string)

// add records the outcome of one builder.
func (c *cat) add(id FigureID, title string, b builder, system string) {
	s, why := b(c, system)
	if s != nil {
		if s.Kind != id.Kind {
			panic("figures: builder of " + id.String() + " made a " + string(s.Kind) + " figure")
		}
		s.ID = id
		if s.Title == "" {
			s.Title = title
		}
		s.System = system
		c.out = append(c.out, entry{id: id, title: s.Title, spec: s})
		return
	}
	c.out = append(c.out, entry{id: id, title: title, reason: why})
}

// plan lists every figure of the catalogue for the Report.
func plan(r *report.Report) []entry { return planDecimals(r, 3) }

// planDecimals is plan with values at d decimals.
func planDecimals(r *report.Report, d int) []entry {
	c := &cat{r: r, keys: systemKeys(r), k: headlineK(r), dec: d}
	sys := pipelines(r)
	id := func(k Kind, system string) FigureID { return FigureID{Kind: k, System: c.keys[system]} }
	all := func(k Kind) FigureID { return FigureID{Kind: k} }
	lbl := func(s string) string { return label(r, s) }
	K := strconv.Itoa(c.k)

	for _, s := range sys {
		c.add(id(KindROC, s), "ROC: "+lbl(s), (*cat).roc, s)
	}
	c.add(all(KindROCOverlay), "ROC: all systems", (*cat).rocOverlay, "")
	for _, s := range sys {
		c.add(id(KindPR, s), "Precision-recall: "+lbl(s), (*cat).pr, s)
	}
	c.add(all(KindPROverlay), "Precision-recall: all systems", (*cat).prOverlay, "")
	for _, s := range sys {
		c.add(id(KindReliability, s), "Reliability: "+lbl(s), (*cat).reliability, s)
	}
	for _, s := range sys {
		c.add(id(KindDecision, s), "Decision curve: "+lbl(s), (*cat).decision, s)
	}
	for _, s := range sys {
		c.add(id(KindCriteriaAUROC, s), "AUROC by criterion: "+lbl(s), (*cat).criteriaAUROC, s)
		c.add(id(KindCriteriaRanking, s), "Recall@"+K+" and nDCG@"+K+" by criterion: "+lbl(s), (*cat).criteriaRanking, s)
	}
	for _, s := range sys {
		for _, g := range []histGroup{histAll, histState, histEvidence} {
			g := g
			c.add(id(g.kind(), s), g.title()+": "+lbl(s), func(c *cat, s string) (*Spec, string) { return c.dynkHist(s, g) }, s)
		}
	}
	for _, s := range sys {
		c.add(id(KindRecallAtK, s), "Recall@K by number of gold sentences: "+lbl(s), func(c *cat, s string) (*Spec, string) { return c.rankAtK(s, true) }, s)
		c.add(id(KindPrecisionAtK, s), "Precision@K by number of gold sentences: "+lbl(s), func(c *cat, s string) (*Spec, string) { return c.rankAtK(s, false) }, s)
	}
	for _, s := range sys {
		c.add(id(KindDifficulty, s), "Recall@"+K+" against difficulty: "+lbl(s), (*cat).difficulty, s)
	}
	for _, s := range sys {
		c.add(id(KindGammaSweep, s), "Dynamic-K γ sweep: "+lbl(s), (*cat).gammaSweep, s)
	}
	for _, s := range sys {
		for _, gm := range gridMetrics {
			gm := gm
			c.add(id(gm.kind, s), gm.title+": "+lbl(s), func(c *cat, s string) (*Spec, string) { return c.gateGrid(s, gm) }, s)
		}
	}
	for _, s := range sys {
		c.add(id(KindPerQueryHeatmap, s), "Per-query heat map: "+lbl(s), (*cat).perQueryHeat, s)
	}
	c.add(all(KindSystems), "Systems and baselines ("+confPct(r)+" bootstrap CI)", (*cat).systems, "")
	return c.out
}

// sectionReason is the Report's reason for a missing section, or def.
func (c *cat) sectionReason(x report.Capability, def string) string {
	if why := c.r.Capabilities.Reason(x); why != "" {
		return why
	}
	return def
}
