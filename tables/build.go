package tables

import (
	"math"
	"sort"
	"strconv"

	"paperbundle/metrics"
	"paperbundle/report"
)

// section describes one metric table: which registry table it shows,
// which report section gates it, and its words.
type section struct {
	id         metrics.TableID
	section    report.Capability // the capability the table needs ("" = always)
	title      string
	population metrics.Population
	meaning    string
	baselines  bool // include baseline:random and baseline:oracle rows
}

var metricSections = []section{
	{metrics.TableScorecard, "", "Summary scorecard", "", "The headline number of each section, with its confidence interval and target.", false},
	{metrics.TableNEGate, report.NEGate, "NE gate: classification", metrics.AllQueries, "How well ne_prob flags queries that have evidence; held-out rows use thresholds chosen on tune rows only.", false},
	{metrics.TableCalibration, report.Calibration, "NE gate: calibration", metrics.AllQueries, "Whether a predicted 30% means evidence in 30% of queries.", false},
	{metrics.TableRanking, report.Ranking, "Ranking, with random and oracle baselines", metrics.PositivesOnly, "How early a reviewer meets the evidence sentences of a query that has them.", true},
	{metrics.TableDynamicK, report.DynamicK, "Dynamic-K extraction", metrics.PositivesOnly, "How much of the evidence the extracted set holds, and how many sentences a reviewer reads.", false},
	{metrics.TableClinical, report.ClinicalGate, "Three-state clinical gate and deployment", metrics.AllQueries, "How many evidence cases screening loses, and how often a high-confidence alert is right.", false},
	{metrics.TablePerPost, report.PerPost, "Per-post multi-label", metrics.Posts, "How well the deployment decisions of a post's criteria match as a whole.", false},
}

// tableKeep are the fields of a table that Vocabulary.SayAll leaves as
// they are.
var tableKeep = []string{"Cell.Text", "Cell.Note", "Row.Group", "Row.Anchor", "Row.System", "Column.Key", "ID", "Population"}

// Build returns every table of the report, in report order, and the
// tables that could not be built with the reason the report gives.
func Build(r *report.Report) Set {
	var s Set
	v := r.Vocabulary()
	add := func(t Table, ok bool, sec report.Capability, why string) {
		if ok {
			s.Tables = append(s.Tables, t)
			return
		}
		if sec != "" && !v.Expects(sec) {
			return // not a table a user of this kind of input looks for
		}
		if reason := r.Capabilities.Reason(sec); reason != "" {
			why = reason
		}
		s.Missing = append(s.Missing, Missing{ID: t.ID, Title: t.Title, Reason: why})
	}
	for _, sec := range metricSections {
		t, ok := metricTable(r, sec)
		add(t, ok, sec.section, "no metric of this table was computed")
	}
	t, ok := criterionTable(r)
	add(t, ok, report.PerCriterion, "the inputs have no criterion_id column")
	t, ok = strataTable(r)
	add(t, ok, report.Strata, "no n_pos stratum was computed")
	if t, ok := trecEvalTable(r); ok {
		// TREC input only; other input has no trec_eval measures to miss.
		s.Tables = append(s.Tables, t)
	}
	t, ok = comparisonTable(r)
	add(t, ok, report.Comparisons, "a single system has nothing to be compared with")
	for i := range s.Tables {
		s.Tables[i].CILevel = ciLevel(r)
	}
	// The tables' words in the words of the kind of input; cells (system
	// labels, metric names, ids) and machine keys stay as they are.
	r.Vocabulary().SayAll(&s, tableKeep...)
	return s
}

// ciLevel is the confidence level of the report's intervals ("95%"), ""
// when it has none.
func ciLevel(r *report.Report) string {
	if r.Settings.Bootstrap.Resamples <= 0 {
		return ""
	}
	return r.Settings.Bootstrap.Level()
}

// popN is the size of a population of the report.
func popN(r *report.Report, p metrics.Population) int {
	switch p {
	case metrics.AllQueries:
		return r.Dataset.EvalQueries
	case metrics.PositivesOnly:
		return r.Dataset.PositiveQueries
	case metrics.Posts:
		for _, m := range r.Metrics {
			if m.Population == metrics.Posts && m.Slice == report.Whole {
				return m.N
			}
		}
	}
	return 0
}

// rowKey orders the rows of a metric table: the metrics of one parameter
// kind are grouped by parameter value (all metrics at K = 5, then K = 10),
// in registry order within a value; then by system.
type rowKey struct {
	group  int     // registry position of the first metric of this param kind in the table
	param  float64 // parameter value
	order  int     // registry position
	system int
}

func (a rowKey) less(b rowKey) bool {
	switch {
	case a.group != b.group:
		return a.group < b.group
	case a.param != b.param:
		return a.param < b.param
	case a.order != b.order:
		return a.order < b.order
	}
	return a.system < b.system
}

// shown reports whether metric m belongs in the metric table sec.
func shown(r *report.Report, sec section, d metrics.Def, m report.Metric) bool {
	if m.Slice != report.Whole {
		return false
	}
	if sec.id == metrics.TableScorecard {
		return r.IsHeadline(m.ID, m.Slice)
	}
	return d.Shows(sec.id)
}

// metricTable is a long table: one row per (metric, system).
func metricTable(r *report.Report, sec section) (Table, bool) {
	t := Table{ID: sec.id, Title: sec.title, Population: string(sec.population), N: popN(r, sec.population), Meaning: sec.meaning,
		Columns: metricColumns()}
	if sec.id == metrics.TableNEGate {
		t.Meaning = "How well ne_prob flags queries that have evidence."
		if o := r.ThresholdOrigin(); o != "" {
			t.Meaning = "How well ne_prob flags queries that have evidence; held-out rows use thresholds " + o + "."
		}
	}
	if sec.id == metrics.TableScorecard {
		// Not one population: each row states its population and n.
		t.Population = "mixed (each row states its population)"
		t.N = 0
	}
	if sec.id == metrics.TableRanking {
		// TREC input with trec.no_relevant: zero ranks every judged query
		// (population judged_queries), not only those with evidence.
		for _, m := range r.Metrics {
			if m.ID == metrics.RankMRR.ID() && m.Slice == report.Whole && m.Population == metrics.JudgedQueries {
				t.Population, t.N = string(m.Population), m.N
				break
			}
		}
	}
	sysPos := map[string]int{}
	for i, s := range r.Systems {
		if s.Kind == report.Pipeline || sec.baselines {
			sysPos[s.Name] = i
		}
	}
	firstOfParam := map[metrics.Param]int{}
	type keyed struct {
		k rowKey
		m report.Metric
		d metrics.Def
	}
	var rows []keyed
	for _, m := range r.Metrics {
		si, ok := sysPos[m.System]
		if !ok {
			continue
		}
		d, ok := metrics.Lookup(m.ID)
		if !ok || !shown(r, sec, d, m) {
			continue
		}
		o := familyRank(d)*10000 + d.Order()
		if g, ok := firstOfParam[d.Param]; !ok || o < g {
			firstOfParam[d.Param] = o
		}
		rows = append(rows, keyed{k: rowKey{param: paramValue(m.ID), order: o, system: si}, m: m, d: d})
	}
	for i := range rows {
		if sec.id == metrics.TableScorecard {
			rows[i].k.param = 0 // one value per metric: registry order
		} else {
			rows[i].k.group = firstOfParam[rows[i].d.Param]
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].k.less(rows[j].k) })
	for _, x := range rows {
		t.Rows = append(t.Rows, metricRow(r, x.m, x.d, sec.id == metrics.TableScorecard))
	}
	markBest(&t, valueCol)
	if !r.Has(report.Folds) {
		dropColumn(&t, "fold_mean") // one fold: no value per fold (absent, not "n/a" in every row)
	}
	if !anyTarget(t) {
		// No target applies to a row of the table (targets: none): no
		// Target and Met columns, rather than two empty ones.
		dropColumn(&t, "target")
		dropColumn(&t, "target_met")
	}
	return t, len(t.Rows) > 0
}

// anyTarget reports whether some row of a metric table has a target.
func anyTarget(t Table) bool {
	for j, c := range t.Columns {
		if c.Key != "target" {
			continue
		}
		for _, row := range t.Rows {
			if row.Cells[j].Text != "" {
				return true
			}
		}
	}
	return false
}

// dropColumn removes the column key, and its cell from every row.
func dropColumn(t *Table, key string) {
	for j, c := range t.Columns {
		if c.Key != key {
			continue
		}
		t.Columns = append(t.Columns[:j:j], t.Columns[j+1:]...)
		for i := range t.Rows {
			if cells := t.Rows[i].Cells; len(cells) > j {
				t.Rows[i].Cells = append(cells[:j:j], cells[j+1:]...)
			}
		}
		return
	}
}

// families orders the metric families as the report's sections.
var families = []string{"data", "ne", "rank", "dynk", "clinical", "e2e", "multilabel"}

// familyRank is the position of a metric's family in report order.
func familyRank(d metrics.Def) int {
	for i, f := range families {
		if d.Family() == f {
			return i
		}
	}
	return len(families)
}

// paramValue is the numeric parameter of an id (0 without one).
func paramValue(id metrics.ID) float64 {
	p, arg := id.Param()
	if p == metrics.NoParam {
		return 0
	}
	x, err := strconv.ParseFloat(arg, 64)
	if err != nil {
		return math.Inf(1)
	}
	return x
}

// valueCol is the index of the value column of a metric table.
const valueCol = 5

func metricColumns() []Column {
	return []Column{
		{Key: "system", Title: "System", Kind: Text},
		{Key: "metric", Title: "Metric", Kind: Text},
		{Key: "id", Title: "Id", Kind: Text},
		{Key: "population", Title: "Population", Kind: Text},
		{Key: "n", Title: "n", Kind: Count},
		{Key: "value", Title: "Value [CI]", FlatTitle: "Value", Kind: Number, Digits: 4, CI: true},
		{Key: "fold_mean", Title: "Fold mean ± std", FlatTitle: "Fold mean", Kind: Number, Digits: 4, Spread: true},
		{Key: "target", Title: "Target", Kind: Text},
		{Key: "target_met", Title: "Met", Kind: Text},
	}
}

// metricRow is one (system, metric) row of a long table.
func metricRow(r *report.Report, m report.Metric, d metrics.Def, scorecard bool) Row {
	dg := digits(d)
	val := NumCell(float64(m.Value))
	val.Digits = dg
	if m.CI != nil {
		val.Lo, val.Hi = float64(m.CI.Low), float64(m.CI.High)
	}
	if !m.Value.Valid() {
		val.Note = undefinedReason(d)
	}
	fm := NumCell(float64(m.FoldMean))
	fm.Std = float64(m.FoldStd)
	fm.Digits = dg
	if !m.FoldMean.Valid() {
		fm.Note = "no value per fold"
		if m.Value.Valid() && len(m.Folds) > 0 {
			fm.Note = "undefined in some fold"
		}
	}
	met := ""
	if m.TargetMet != nil {
		met = "no"
		if *m.TargetMet {
			met = "yes"
		}
	}
	// The metric's name in the words of the kind of input ("Alerts per
	// 1,000 cases"); the cells are otherwise kept as they are (SayAll).
	return Row{
		Cells: []Cell{TextCell(r.Label(m.System)), TextCell(r.Vocabulary().Say(Title(m.ID))), TextCell(string(m.ID)), TextCell(string(m.Population)),
			NumCell(float64(m.ShownN())), val, fm, TextCell(TargetText(m.Target)), TextCell(met)},
		Group:  string(m.ID),
		Anchor: Anchor(m.System, m.ID, m.Slice),
		System: m.System,
	}
}

// digits is the number of decimals a metric is shown with; counts are
// integers (-1: no decimals, see Cell.Digits).
func digits(d metrics.Def) int {
	switch d.Kind {
	case metrics.KindCount:
		return -1
	case metrics.KindPer1000:
		return 2
	}
	return 4
}

// undefinedReason says why a metric can be undefined.
func undefinedReason(d metrics.Def) string {
	switch d.Base {
	case metrics.NEAUROC, metrics.NEAUPRC:
		return "undefined: only one class in the population"
	}
	return "undefined: a 0/0 ratio or an empty population"
}

// markBest sets Best on the cell of column col with the best value among
// the rows of each group, when the group holds two or more defined values
// and the metric has a direction.
func markBest(t *Table, col int) {
	byGroup := map[string][]int{}
	var order []string
	for i, row := range t.Rows {
		if row.Group == "" {
			continue
		}
		if _, ok := byGroup[row.Group]; !ok {
			order = append(order, row.Group)
		}
		byGroup[row.Group] = append(byGroup[row.Group], i)
	}
	for _, g := range order {
		d, ok := metrics.Lookup(metrics.ID(g))
		if !ok {
			continue
		}
		bestRows(t, byGroup[g], col, d.Direction)
	}
}

// bestRows marks the best defined value of column col among rows.
func bestRows(t *Table, rows []int, col int, dir metrics.Direction) {
	if dir != metrics.Higher && dir != metrics.Lower || len(rows) < 2 {
		return
	}
	best, n := math.NaN(), 0
	for _, i := range rows {
		v := t.Rows[i].Cells[col].V
		if !Defined(v) {
			continue
		}
		n++
		if math.IsNaN(best) || (dir == metrics.Higher && v > best) || (dir == metrics.Lower && v < best) {
			best = v
		}
	}
	if n < 2 {
		return
	}
	for _, i := range rows {
		if t.Rows[i].Cells[col].V == best {
			t.Rows[i].Cells[col].Best = true
		}
	}
}
