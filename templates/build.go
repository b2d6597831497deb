package templates

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"paperbundle/compare"
	"paperbundle/figures"
	"paperbundle/figures/echarts"
	"paperbundle/figures/plot"
	"paperbundle/internal/numtext"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
	"paperbundle/templates/internal/md"
)

// Input is what report.html is made of: the finished report and what the
// other renderers made from it. Nothing here is computed by this package.
type Input struct {
	Report  *report.Report
	Tables  tables.Set   // tables.Build
	Checks  tables.Table // tables.Checks
	Specs   []figures.Spec
	Missing []figures.MissingFigure
	SVG     map[figures.FigureID]*plot.InlineSVG // static figure of each spec, as page markup (figures/plot)
	Charts  []echarts.Chart                      // interactive options; nil: static figures only
	Methods []byte                               // METHODS.md (tables.Methods)
	Config  []byte                               // config.yaml as written into the bundle
	Inputs  []InputFile                          // the input files, for provenance
	// Changes is what changed since the previous version in the same
	// root (nil when there is none): shown as the section "Changes since
	// vN" before Methods, from the same model as CHANGES.md.
	Changes *compare.Changes
}

// InputFile is one input of the bundle, as the manifest lists it.
type InputFile struct {
	Path   string
	Size   int64
	SHA256 string
}

// sectionID names a section of the page: a fixed word, never a system's
// name. Its HTML id is "sec-" and the word (see html).
type sectionID string

// The sections of the page outside plan.
const (
	secScorecard  sectionID = "scorecard"
	secData       sectionID = "data"
	secChanges    sectionID = "changes"
	secMethods    sectionID = "methods"
	secProvenance sectionID = "provenance"
)

// html is the section's element id.
func (id sectionID) html() string { return "sec-" + string(id) }

// plan is the fixed order of the page's report sections: which report
// section gates it, which tables and figure kinds it shows.
var plan = []struct {
	id         sectionID
	title      string
	capability report.Capability
	tables     []metrics.TableID
	kinds      []figures.Kind
	intro      string
}{
	{"ne_gate", "NE gate: classification", report.NEGate, []metrics.TableID{metrics.TableNEGate},
		[]figures.Kind{figures.KindROCOverlay, figures.KindPROverlay, figures.KindROC, figures.KindPR, figures.KindDecision},
		"Does ne_prob flag the queries that have evidence? Held-out values use thresholds THRESHOLDS, and are the honest numbers; in-sample values are optimistic."},
	{"calibration", "NE gate: calibration", report.Calibration, []metrics.TableID{metrics.TableCalibration},
		[]figures.Kind{figures.KindReliability},
		"Does a predicted probability of 30% mean evidence in about 30% of such queries?"},
	{"ranking", "Ranking", report.Ranking, []metrics.TableID{metrics.TableRanking, metrics.TableTrecEval},
		[]figures.Kind{figures.KindRecallAtK, figures.KindPrecisionAtK},
		"How early does a reviewer meet the evidence sentences of a query that has them? Random and oracle rankings of the same candidates bound what is possible."},
	{"dynamic_k", "Dynamic-K extraction", report.DynamicK, []metrics.TableID{metrics.TableDynamicK},
		[]figures.Kind{figures.KindDynKHist, figures.KindDynKHistState, figures.KindDynKHistEvid, figures.KindGammaSweep},
		"How much of the evidence the extracted set holds, and how many sentences a reviewer reads."},
	{"clinical_gate", "Three-state clinical gate", report.ClinicalGate, []metrics.TableID{metrics.TableClinical},
		[]figures.Kind{figures.KindGateGrid},
		"How many evidence cases screening loses, how often a high-confidence alert is right, and the workload behind it."},
	{"per_criterion", "Per-criterion breakdown", report.PerCriterion, []metrics.TableID{metrics.TablePerCriterion},
		[]figures.Kind{figures.KindCriteriaAUROC, figures.KindCriteriaRanking},
		"The headline metrics computed within each criterion, to find where a system is weak."},
	{"per_post", "Per-post multi-label", report.PerPost, []metrics.TableID{metrics.TablePerPost},
		[]figures.Kind{figures.KindPerQueryHeatmap},
		"How well the decisions over all criteria of one post match as a whole."},
	{"strata", "Stratified analysis and difficulty", report.Strata, []metrics.TableID{metrics.TableStrata},
		[]figures.Kind{figures.KindDifficulty},
		"Ranking quality by the number of evidence sentences a query has, and per-query performance against difficulty."},
	{"systems", "Systems and significance", report.Comparisons, []metrics.TableID{tables.TableComparisons},
		[]figures.Kind{figures.KindSystems},
		"Each system against its reference on the same queries: paired differences with bootstrap intervals, permutation p-values with Holm's correction, and paired DeLong tests for AUROC."},
}

// clinicalIntroNoWorkload is the clinical gate's intro where the report
// has no review workload (the clinical gate without Dynamic-K).
const clinicalIntroNoWorkload = "How many evidence cases screening loses, and how often a high-confidence alert is right."

// pageKeep are the fields of the page that Vocabulary.SayAll leaves as
// they are: the user's text, ids, anchors, numbers and scripts, and the
// changes fragment, which package compare writes in the kind's words
// around the user's labels.
var pageKeep = []string{"Page.Title", "Page.Primary", "Page.CSP", "Page.Version", "Page.Tool", "Page.Generated", "Item.Changes",
	"ID", "Anchor", "Link", "Name", "Label", "Letter", "System", "Value", "CI", "Folds", "Pre", "Text", "Charts", "Scripts", "Table.Code"}

// newPage fills the page completely.
func newPage(in Input) (*Page, error) {
	r := in.Report
	b := &builder{in: in, r: r, ids: &md.IDs{}, figs: map[figures.FigureID]*figures.Spec{},
		charts: map[figures.FigureID]echarts.Chart{}, tables: map[metrics.TableID]tables.Table{}}
	for i := range in.Specs {
		b.figs[in.Specs[i].ID] = &in.Specs[i]
	}
	for _, c := range in.Charts {
		b.charts[c.ID] = c
	}
	for _, t := range in.Tables.Tables {
		b.tables[t.ID] = t
	}
	for _, s := range r.Systems {
		if s.Primary {
			b.primary = s.Name
		}
	}
	p := &Page{
		Title: r.Title, Version: r.Version, Tool: r.Tool, Generated: r.Generated,
		Primary: r.Label(b.primary), SystemWord: r.Vocabulary().System,
		SystemsWord: r.Vocabulary().Say("systems"), SystemWordTitle: capitalised(r.Vocabulary().System),
	}
	if p.Title == "" {
		p.Title = "Paper bundle " + r.Version
	}
	for _, name := range r.SystemsOf(report.Pipeline) {
		p.Systems = append(p.Systems, SystemTab{Name: name, Label: r.Label(name), Selected: name == b.primary})
	}
	// Section ids first, so that no heading id of Methods can take one.
	for _, id := range []string{"top", "toc", "sec-results", secScorecard.html(), secData.html(), secChanges.html(), secMethods.html(), secProvenance.html()} {
		b.ids.Add(id)
	}
	for _, s := range plan {
		b.ids.Add(s.id.html())
	}
	p.DataLine = b.dataLine()
	// The answer first: the results matrix and the warnings, the primary
	// system's cards, then the changes since the previous version.
	p.Results = b.results()
	secs := []Section{b.cardsSection()}
	if in.Changes != nil {
		h, err := in.Changes.HTML(compare.WriteOptions{Primary: b.primary})
		if err != nil {
			return nil, fmt.Errorf("report.html: changes: %w", err)
		}
		secs = append(secs, Section{ID: secChanges.html(), Title: "Changes since " + in.Changes.A.Version, Class: "changes", Items: []Item{{Changes: h}}})
	}
	var rest []Section
	var absent []string
	for _, s := range plan {
		intro := s.intro
		if strings.Contains(intro, "THRESHOLDS") {
			// Where the thresholds came from is the report's to say: a
			// fold without tune rows has cross-fitted ones.
			intro = strings.Replace(intro, "THRESHOLDS", r.ThresholdOrigin(), 1)
			if r.ThresholdOrigin() == "" {
				intro, _, _ = strings.Cut(intro, " Held-out")
			}
		}
		if s.id == "systems" && !r.Has(report.NEGate) {
			// No AUROC without a score (a TREC run): no DeLong test to name.
			intro = strings.Replace(intro, ", and paired DeLong tests for AUROC", "", 1)
		}
		if s.id == "clinical_gate" && !r.Has(report.EndToEnd) {
			// No review workload without Dynamic-K (a classifier has
			// nothing to review): the intro says only what the section has.
			intro = clinicalIntroNoWorkload
		}
		sec, err := b.section(s.id, s.title, s.capability, s.tables, s.kinds, intro)
		if err != nil {
			return nil, err
		}
		// Only the sections that apply are on the page and in the
		// contents; Data and checks says why the others are not.
		if sec.absent != "" {
			// Listed only where a user of this kind of input could
			// expect the section (metrics_master.json keeps every reason).
			if b.r.Vocabulary().Expects(s.capability) {
				absent = append(absent, s.title+": "+sec.absent+".")
			}
			continue
		}
		rest = append(rest, sec)
	}
	data := b.data()
	if len(absent) > 0 {
		data.Items = append(data.Items, Item{Para: "Sections not shown, because they do not apply to these inputs:"}, Item{List: absent})
	}
	secs = append(secs, data)
	secs = append(secs, rest...)
	m, err := b.methods()
	if err != nil {
		return nil, err
	}
	secs = append(secs, m, b.provenance())
	p.Sections = secs
	rowHeaders(&p.Results)
	for i := range secs {
		rowHeaders(&secs[i])
	}
	p.TOC = append(p.TOC, TOCEntry{ID: p.Results.ID, Title: p.Results.Title})
	for _, s := range secs {
		p.TOC = append(p.TOC, TOCEntry{ID: s.ID, Title: s.Title})
	}
	// The page's own words in the words of the kind of input; the user's
	// text (title, system names and labels, table cells, config.yaml) and
	// ids stay as they are.
	r.Vocabulary().SayAll(p, pageKeep...)
	if err := b.scripts(p); err != nil {
		return nil, err
	}
	return p, nil
}

type builder struct {
	in      Input
	r       *report.Report
	ids     *md.IDs
	primary string
	figs    map[figures.FigureID]*figures.Spec
	charts  map[figures.FigureID]echarts.Chart
	tables  map[metrics.TableID]tables.Table
	live    []ChartData
	classes styleClasses // styles of the inline figures
}

func badge(met string) string {
	switch met {
	case "yes":
		return "met"
	case "no":
		return "not met"
	}
	return ""
}

// data is the data and checks section.
func (b *builder) data() Section {
	r := b.r
	ds := r.Dataset
	s := Section{ID: secData.html(), Title: "Data and checks"}
	facts := []Fact{
		{"Systems", strconv.Itoa(len(r.SystemsOf(report.Pipeline))) + " (primary: " + r.Label(b.primary) + ")"},
		{"Input rows", thousands(ds.Rows)},
		{"Eval queries", thousands(ds.EvalQueries)},
		{"Queries with evidence", thousands(ds.PositiveQueries) + " (" + pct(float64(ds.PositiveRate)) + ")"},
	}
	// Only the facts that apply: posts when they group queries, criteria
	// when there are any, candidates and gold when there is a ranking.
	if ds.Posts != ds.EvalQueries {
		facts = append(facts, Fact{"Posts", thousands(ds.Posts)})
	}
	if len(ds.Criteria) > 0 {
		facts = append(facts, Fact{"Criteria", strconv.Itoa(len(ds.Criteria))})
	}
	facts = append(facts, Fact{"Folds", strconv.Itoa(len(ds.Folds))})
	if b.thresholds() || ds.TuneRows > 0 {
		facts = append(facts, Fact{"Tune rows (thresholds only)", thousands(ds.TuneRows)})
	}
	// A TREC run has train rows only from a queries: file that says so.
	if ds.TrainRowsIgnored > 0 || r.Kind() != report.KindTREC {
		facts = append(facts, Fact{"Train rows (ignored)", thousands(ds.TrainRowsIgnored)})
	}
	if r.Capabilities.Has(report.Ranking) {
		goldPer := "Gold items per positive query"
		if r.Kind() == report.KindTREC && ds.PositiveQueries == ds.EvalQueries {
			goldPer = "Relevant documents per judged query" // every evaluated query has one
		}
		facts = append(facts,
			Fact{"Candidates per query", tables.FormatNum(float64(ds.CandidatesMean), 1) + " on average (" + strconv.Itoa(ds.CandidatesMin) + " to " + strconv.Itoa(ds.CandidatesMax) + ")"},
			Fact{goldPer, tables.FormatNum(float64(ds.GoldMean), 2) + " on average"},
			Fact{"Gold items missing from the candidates", thousands(ds.GoldMissing)})
	}
	s.Items = append(s.Items, Item{Facts: facts})
	s.Items = append(s.Items, Item{Table: b.foldTable()})
	if len(ds.Notes) > 0 {
		s.Items = append(s.Items, Item{List: slices.Clone(ds.Notes)}) // a copy: the page's words are rewritten in place (Vocabulary.SayAll), the report's are read by other renderers at the same time
	}
	s.Items = append(s.Items, Item{Table: b.table(b.in.Checks, b.in.Checks.Rows, "")})
	if len(r.Warnings) > 0 {
		s.Items = append(s.Items, Item{Para: "Warnings:"}, Item{List: slices.Clone(r.Warnings)}) // a copy, as the notes
	} else {
		s.Items = append(s.Items, Item{Para: "No warnings."})
	}
	return s
}

// foldTable describes the outer folds: the tune rows and where the
// thresholds came from only where thresholds apply or there are tune rows
// (a TREC run has neither), as the data section's facts.
func (b *builder) foldTable() *Table {
	t := &Table{ID: b.ids.Add("t-folds"), Title: "Folds", Caption: "Population: every post, by outer fold; n = " + thousands(b.r.Dataset.Posts) + " posts",
		Head: []Head{{"Fold", true}, {"Posts", true}, {"Eval queries", true}, {"With evidence", true}}}
	// Posts only when they group queries (as the facts): each query its
	// own post, the column would repeat the eval queries'.
	posts := b.r.Dataset.Posts != b.r.Dataset.EvalQueries
	if !posts {
		t.Head = slices.Delete(t.Head, 1, 2)
	}
	thresholds := b.thresholds()
	tune := thresholds || b.r.Dataset.TuneRows > 0
	if tune {
		t.Head = append(t.Head, Head{"Tune rows", true})
	}
	if thresholds {
		t.Head = append(t.Head, Head{"Thresholds from", false})
	}
	for _, f := range b.r.Dataset.Folds {
		row := Row{Cells: []Cell{num(strconv.Itoa(f.Fold)), num(thousands(f.Posts)), num(thousands(f.EvalQueries)), num(thousands(f.Positives))}}
		if !posts {
			row.Cells = slices.Delete(row.Cells, 1, 2)
		}
		if tune {
			row.Cells = append(row.Cells, num(thousands(f.TuneRows)))
		}
		if thresholds {
			src := "tune rows"
			if f.CrossFitted {
				src = "other folds (cross-fitted)"
			}
			row.Cells = append(row.Cells, Cell{Text: src})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// thresholds reports whether some section chooses thresholds (held-out
// operating points, the clinical gate): only then do tune rows and
// cross-fitting matter to the reader.
func (b *builder) thresholds() bool {
	c := &b.r.Capabilities
	return c.Has(report.HeldOut) || c.Has(report.ClinicalGate)
}

func num(s string) Cell { return Cell{Text: s, Numeric: true} }

// section builds one report section: its shared tables and figures, and
// one block per system.
func (b *builder) section(id sectionID, title string, x report.Capability, tbls []metrics.TableID, kinds []figures.Kind, intro string) (Section, error) {
	s := Section{ID: id.html(), Title: title, Intro: intro}
	// Each section is one capability of the report model, decided there
	// from what the inputs hold.
	if caps := &b.r.Capabilities; !caps.Has(x) {
		why := caps.Reason(x)
		if why == "" {
			why = "the inputs do not support it"
		}
		s.absent = why
		return s, nil
	}
	bs := &blockSet{b: b, blocks: map[string]*Block{}}
	// Pipelines in report order, then baselines, so blocks keep that order.
	for _, name := range b.r.SystemsOf(report.Pipeline) {
		bs.block(name)
	}
	for _, tid := range tbls {
		b.addTable(&s, bs, tid)
	}
	for _, kind := range kinds {
		if err := b.addFigures(&s, bs, kind); err != nil {
			return s, err
		}
	}
	for _, sys := range bs.order {
		if bl := bs.blocks[sys]; len(bl.Items) > 0 {
			s.Blocks = append(s.Blocks, *bl)
		}
	}
	if len(s.Items) == 0 && len(s.Blocks) == 0 {
		s.absent = "nothing of this section was computed"
		if len(s.Missing) > 0 {
			s.absent = strings.TrimSuffix(strings.Join(s.Missing, " "), ".")
		}
	}
	return s, nil
}

// blockSet holds the per-system blocks of a section, in the order they
// were first asked for.
type blockSet struct {
	b      *builder
	blocks map[string]*Block
	order  []string
}

// block returns the block of system, made on first use.
func (bs *blockSet) block(system string) *Block {
	if bl, ok := bs.blocks[system]; ok {
		return bl
	}
	info, _ := bs.b.r.System(system)
	bl := &Block{System: system, Label: bs.b.r.Label(system), Open: system == bs.b.primary}
	if info.Kind == report.Baseline {
		// A baseline's detail is collapsed: its headline values are
		// in the results matrix.
		bl.Baseline = true
	}
	bs.blocks[system] = bl
	bs.order = append(bs.order, system)
	return bl
}

// addTable adds table tid to section s: its rows of no system to the
// section, each system's rows to that system's block; a table that was not
// built adds the reason to s.Missing.
func (b *builder) addTable(s *Section, bs *blockSet, tid metrics.TableID) {
	t, ok := b.tables[tid]
	if !ok {
		for _, m := range b.in.Tables.Missing {
			if m.ID == tid {
				s.Missing = append(s.Missing, "Table “"+m.Title+"” is not shown: "+m.Reason+".")
			}
		}
		return
	}
	bySys := map[string][]tables.Row{}
	var shared []tables.Row
	var sysOrder []string
	for i, row := range t.Rows {
		if row.System == "" {
			shared = append(shared, row)
			continue
		}
		owner := row.System
		if tid == tables.TableComparisons && b.comparedWithPrimary(i, row) {
			// The primary system's block holds every comparison it
			// takes part in, on either side, so it is shown by default.
			owner = b.primary
		}
		if _, seen := bySys[owner]; !seen {
			sysOrder = append(sysOrder, owner)
		}
		bySys[owner] = append(bySys[owner], row)
	}
	if len(shared) > 0 {
		s.Items = append(s.Items, tableItem(b.table(t, shared, "")))
	}
	for _, sys := range sysOrder {
		bs.block(sys) // baselines get their block here
	}
	for _, sys := range bs.order {
		if rows := bySys[sys]; len(rows) > 0 {
			bl := bs.block(sys)
			if tid == metrics.TableRanking {
				bl.Items = append(bl.Items, b.rankingByCutoff(t, sys)...)
				continue
			}
			bl.Items = append(bl.Items, tableItem(b.table(t, rows, sys)))
		}
	}
}

// addFigures adds the figures of a kind to section s (a system's figure to
// its block), and the reasons of those not drawn to s.Missing.
func (b *builder) addFigures(s *Section, bs *blockSet, kind figures.Kind) error {
	for i := range b.in.Specs {
		sp := &b.in.Specs[i]
		if sp.Kind.Family() != kind {
			continue
		}
		f, err := b.figure(sp)
		if err != nil {
			return err
		}
		if sp.System == "" {
			s.Items = append(s.Items, Item{Figure: f})
		} else {
			bl := bs.block(sp.System)
			bl.Items = append(bl.Items, Item{Figure: f})
		}
	}
	for _, m := range b.in.Missing {
		// The review workload's map is missing where the report has no
		// workload at all; that is said only to a reader who could expect
		// one (not to a classifier's user).
		if m.ID.Kind == figures.KindGateGridWorkload && !b.r.Has(report.EndToEnd) && !b.r.Vocabulary().Expects(report.EndToEnd) {
			continue
		}
		if m.ID.Kind.Family() == kind {
			s.Missing = append(s.Missing, "Figure “"+m.Title+"” is not shown: "+m.Reason+".")
		}
	}
	return nil
}

// longTable is the number of rows above which a detail table is
// collapsed: its summary line names it and its size, a click opens it.
const longTable = 15

// tableItem is a table as an item of the page, collapsed when long.
func tableItem(t *Table) Item {
	if len(t.Rows) <= longTable {
		return Item{Table: t}
	}
	return Item{More: &More{Summary: "Table: " + t.Title + " (" + strconv.Itoa(len(t.Rows)) + " rows)", Items: []Item{{Table: t}}}}
}

// comparedWithPrimary reports whether row i of the comparisons table is a
// comparison against the primary system (the primary as the reference).
func (b *builder) comparedWithPrimary(i int, row tables.Row) bool {
	cs := b.r.Comparisons
	if i >= len(cs) || cs[i].System != row.System {
		return false
	}
	c := cs[i]
	return c.Reference == b.primary && row.Anchor == tables.Anchor(c.System, c.ID, report.Slice("vs="+c.Reference))
}

// rowHeaders makes the first cell of every row its header cell.
func rowHeaders(s *Section) {
	items := [][]Item{s.Items, s.After}
	for i := range s.Blocks {
		items = append(items, s.Blocks[i].Items)
	}
	for _, it := range items {
		for _, x := range it {
			if x.Table == nil {
				continue
			}
			for j := range x.Table.Rows {
				if c := x.Table.Rows[j].Cells; len(c) > 0 {
					c[0].Header = true
				}
			}
		}
	}
}

// figure is one figure of the page.
func (b *builder) figure(sp *figures.Spec) (*Figure, error) {
	id := sp.ID.String()
	f := &Figure{ID: b.ids.Add("fig-" + id), LabelID: b.ids.Add("figt-" + id), Title: sp.Title, Caption: sp.Subtitle, Alt: sp.Alt, Notes: sp.Notes}
	data, ok := b.in.SVG[sp.ID]
	if !ok {
		return nil, fmt.Errorf("report.html: no static figure for %s", id)
	}
	svg, err := inlineSVG(data, f.LabelID, &b.classes)
	if err != nil {
		return nil, fmt.Errorf("report.html: figure %s: %w", id, err)
	}
	f.SVG = svg
	c, ok := b.charts[sp.ID]
	if ok && sp.Kind == figures.KindPerQueryHeatmap && sp.System != b.primary {
		// A per-query heat map holds a cell per post and criterion: the
		// page carries the interactive one of the primary system only.
		ok = false
		f.Notes = append(append([]string(nil), f.Notes...), "Static here: only the primary system's per-query heat map is interactive.")
	}
	if ok && b.in.Charts != nil {
		if strings.ContainsAny(string(c.Option), "<>&") {
			return nil, fmt.Errorf("report.html: chart option of %s is not HTML-safe JSON", id)
		}
		f.Chart, f.Height = c.ChartID, c.Height
		f.Hint = sp.Hint // true of the interactive chart only
		b.live = append(b.live, ChartData{ID: c.ChartID, JSON: template.JS(c.Option)})
	}
	return f, nil
}

// table converts rows of a table of the model into the page's form. With
// system set, the rows are that system's part of the table.
func (b *builder) table(t tables.Table, rows []tables.Row, system string) *Table {
	id := "t-" + string(t.ID)
	title := t.Title
	if system != "" {
		id += "-" + tables.Sanitize(system)
		title += ": " + b.r.Label(system)
	}
	pt := &Table{ID: b.ids.Add(id), Title: title, Meaning: t.Meaning, Notes: t.Notes}
	pt.Caption, pt.Code, pt.CaptionN = b.caption(t, system)
	// In one system's block the system column says the block's name on
	// every row: it is left out there, so a phone shows the numbers.
	first := 0
	if system != "" && len(t.Columns) > 1 && t.Columns[0].Key == "system" {
		first = 1
	}
	// Value columns come before the id and population columns, so a
	// narrow screen shows the numbers first.
	var cols []int
	for pass := 0; pass < 2; pass++ {
		for j := first; j < len(t.Columns); j++ {
			late := j > first && (t.Columns[j].Key == "id" || t.Columns[j].Key == "population")
			if late == (pass == 1) {
				cols = append(cols, j)
			}
		}
	}
	for _, j := range cols {
		c := t.Columns[j]
		pt.Head = append(pt.Head, Head{Title: c.Title, Numeric: c.Kind != tables.Text})
	}
	if system != "" && hasBest(rows) {
		pt.Notes = append([]string{"Bold: the best value of that metric among all systems."}, pt.Notes...)
	}
	for _, row := range rows {
		pr := Row{}
		if row.Anchor != "" {
			pr.ID = b.ids.Add(row.Anchor)
		}
		for _, j := range cols {
			c, x := t.Columns[j], row.Cells[j]
			cell := Cell{Numeric: c.Kind != tables.Text, Best: x.Best, Code: c.Key == "id"}
			cell.Text, cell.NA = cellText(c, x)
			if c.Key == "target_met" {
				cell.Badge, cell.Text = badge(x.Text), badge(x.Text)
				cell.BadgeOK = cell.Badge == "met"
			}
			if j == first {
				cell.Header, cell.Link = true, pr.ID
			}
			pr.Cells = append(pr.Cells, cell)
		}
		pt.Rows = append(pt.Rows, pr)
	}
	return pt
}

func hasBest(rows []tables.Row) bool {
	for _, r := range rows {
		for _, c := range r.Cells {
			if c.Best {
				return true
			}
		}
	}
	return false
}

// cellText writes one cell as "value [low, high]" or "mean ± std", and
// the reason when it is "n/a".
func cellText(c tables.Column, x tables.Cell) (text, na string) {
	if c.Kind == tables.Text {
		return x.Text, ""
	}
	if x.Absent {
		return "", ""
	}
	s := c.Format(x)
	if c.Kind == tables.Count && tables.Defined(x.V) && math.Abs(x.V) < 1e15 {
		s = thousands(int(x.V))
	}
	if !tables.Defined(x.V) {
		na = x.Note
		if na == "" {
			na = "undefined"
		}
		return "n/a", na
	}
	if c.Kind == tables.PValue {
		// "< 0.0001" stays on one line in a narrow column.
		s = strings.Replace(s, "< ", "<\u00a0", 1)
	}
	if c.Kind == tables.Number {
		d := c.DigitsOf(x)
		s = number(x.V, d)
		if c.CI && tables.Defined(x.Lo) && tables.Defined(x.Hi) {
			s += " [" + number(x.Lo, d) + ", " + number(x.Hi, d) + "]"
		}
		if c.Spread && tables.Defined(x.Std) {
			s += " ± " + number(x.Std, d)
		}
	}
	return s, ""
}

// number writes x with d decimals; an integer with thousands separators.
func number(x float64, d int) string {
	if d == 0 && math.Abs(x) < 1e15 {
		return thousands(int(math.Round(x)))
	}
	return tables.FormatNum(x, d)
}

// methods is the Methods section: METHODS.md through goldmark, and the
// conventions in force.
func (b *builder) methods() (Section, error) {
	s := Section{ID: secMethods.html(), Title: "Methods"}
	h, err := md.Render(b.in.Methods, md.Options{IDs: b.ids, Prefix: "methods-", Shift: 1, DropTitle: true})
	if err != nil {
		return s, fmt.Errorf("report.html: methods: %w", err)
	}
	s.Intro = "How every number of this report is defined and computed, and the conventions in force where the metric contracts disagree."
	s.Items = append(s.Items, Item{Table: b.conventions()},
		Item{More: &More{Summary: "Metric definitions and formulas (METHODS.md)", Items: []Item{{HTML: h}}}})
	return s, nil
}

// conventions is the table of conventions where the metric contracts
// disagree and what this bundle uses (docs/metrics.md "Conventions"). Its
// cells name the contracts by their titles as the reader's sources (the
// metric contract, the LTR evaluation methodology, the evidence-retrieval
// metrics contract, the metric specification document, the end-to-end
// metrics specification).
func (b *builder) conventions() *Table {
	st := b.r.Settings
	ct := st.Conventions
	t := &Table{ID: b.ids.Add("t-conventions"), Title: "Conventions where the metric contracts disagree",
		Caption: "The options in force for this bundle (paper.yaml can change those with an option)",
		Head:    []Head{{"Topic", false}, {"The contracts say", false}, {"In force here", false}, {"Option", false}}}
	v := b.r.Vocabulary()
	// add writes a row when its results are in the report (cap; "" any),
	// in the words of the kind of input.
	add := func(cap report.Capability, topic, say, here, opt string) {
		if cap != "" && !b.r.Has(cap) {
			return
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{{Text: v.Say(topic)}, {Text: v.Say(say)}, {Text: here, Code: opt != "—"}, {Text: opt, Code: opt != "—"}}})
	}
	add(report.Ranking, "MAP@K denominator", "evidence-retrieval contract: |gold| (trec_eval); metric specification: min(|gold|, K); end-to-end specification: hits in the top K", string(ct.MAPDenominator), "contract.map_denominator")
	add(report.Ranking, "Recall@K denominator", "evidence-retrieval contract, metric specification, end-to-end specification: |gold|; LTR methodology: min(K, n_pos)", "both, as two metrics", "—")
	add(report.Folds, "Fold standard deviation", "metric specification: population (n); end-to-end specification: sample (n − 1)", string(ct.FoldStd), "contract.fold_std")
	add(report.NEGate, "AUROC with one class", "metric specification: 0.5; scikit-learn: an error", string(ct.UndefinedAUROC), "contract.undefined_auroc")
	add(report.Ranking, "nDCG gain", "exponential 2^rel − 1; trec_eval: linear", string(ct.NDCGGain), "contract.ndcg_gain")
	add(report.Calibration, "ECE bins", "the metric specification's code drops p = 1 and puts p = 0.3 in [0.2, 0.3)",
		fmt.Sprintf("%d %s bins, edges k/M, last bin closed", st.Calibration.Bins, st.Calibration.Strategy), "calibration.strategy")
	// The rows the budget is met on: tune rows, or the other folds' eval
	// rows where a fold's thresholds are cross-fitted.
	on := "on tune rows"
	if _, cross := b.r.ThresholdSources(); cross {
		on = "on the rows its thresholds are chosen on"
	}
	add(report.HeldOut, "Operating-point rule", "end-to-end specification G.1: largest threshold; A.10: max TPR", "max TPR with FPR ≤ budget "+on+", highest threshold among ties", "—")
	add(report.DynamicK, "Evidence recall on no-evidence queries", "evidence-retrieval contract: positives only; metric specification: 1 if nothing selected", "both, as two metrics", "—")
	add(report.PerPost, "Macro F1", "evidence-retrieval contract: over posts; end-to-end specification: over criteria", "both, as two metrics", "—")
	add("", "Bootstrap unit", "metric contract, LTR methodology: query", string(st.Bootstrap.Unit), "bootstrap.unit")
	add(report.Ranking, "Ties in ranking", "end-to-end specification H.3: input order; trec_eval: docno descending", "input order; TREC input as trec_eval", "—")
	return t
}

// provenance is where the numbers came from.
func (b *builder) provenance() Section {
	r, st := b.r, b.r.Settings
	gen := r.Generated
	if gen == "" {
		gen = "not recorded (set SOURCE_DATE_EPOCH to record it)"
	}
	s := Section{ID: secProvenance.html(), Title: "Provenance"}
	s.Items = append(s.Items, Item{Facts: []Fact{
		{"Bundle version", r.Version},
		{"Tool", r.Tool},
		{"Tool build", toolBuild(r)},
		{"Generated", gen},
		{"Seed", strconv.FormatUint(st.Seed, 10)},
		{"Confidence intervals", r.BootstrapText()},
		{"Source of truth", "metrics_master.json in this bundle; manifest.json holds the sha256 of every file"},
	}})
	if len(b.in.Inputs) > 0 {
		t := &Table{ID: b.ids.Add("t-inputs"), Title: "Input files", Caption: "Every input read, with its size and sha256",
			Head: []Head{{"Path", false}, {"Bytes", true}, {"sha256", false}}}
		for _, f := range b.in.Inputs {
			t.Rows = append(t.Rows, Row{Cells: []Cell{{Text: f.Path}, num(thousands(int(f.Size))), {Text: f.SHA256, Code: true}}})
		}
		s.Items = append(s.Items, Item{Table: t})
	}
	s.Items = append(s.Items, Item{More: &More{Summary: "The resolved configuration (config.yaml)", Items: []Item{{Pre: string(b.in.Config)}}}})
	return s
}

// toolBuild is the build identity of the tool that computed the report, or
// says it was not recorded.
func toolBuild(r *report.Report) string {
	if r.ToolBuild == nil {
		return "not recorded"
	}
	return r.ToolBuild.Long()
}

// thousands writes n with comma separators.
func thousands(n int) string { return numtext.Thousands(int64(n)) }

// pct writes a rate as a percentage with one decimal.
func pct(x float64) string {
	if !tables.Defined(x) {
		return "n/a"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}
