package tables

import (
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// sliceColumns are the metric columns of a wide table (one row per system
// and slice): the registry entries shown in table tb, counts first, cutoff
// metrics at the headline cutoff only (perCutoff false) or at every cutoff.
func sliceColumns(r *report.Report, tb metrics.TableID, perCutoff bool) ([]metrics.ID, []Column) {
	var ids []metrics.ID
	var cols []Column
	addID := func(d metrics.Def, id metrics.ID) {
		ids = append(ids, id)
		c := Column{Key: string(id), Title: Title(id), Kind: Number, Digits: 4, CI: d.Family() != "data", Best: d.Direction}
		if d.Kind == metrics.KindCount {
			c = Column{Key: string(id), Title: Title(id), Kind: Count}
		}
		cols = append(cols, c)
	}
	defs := metrics.InTable(tb)
	// Counts and data columns first, then the rest in registry order.
	for _, pass := range []bool{true, false} {
		for _, d := range defs {
			if (d.Family() == "data") != pass {
				continue
			}
			switch {
			case d.Param != metrics.ParamK:
				addID(d, d.ID(0))
			case perCutoff:
				for _, k := range r.Settings.Cutoffs {
					addID(d, d.ID(float64(k)))
				}
			default:
				addID(d, d.ID(float64(r.Settings.HeadlineCutoff)))
			}
		}
	}
	return ids, cols
}

// sliceTable builds a wide table over the slices of one kind.
func sliceTable(r *report.Report, t Table, label string, slices []report.Slice, tb metrics.TableID, perCutoff, baselines bool) (Table, bool) {
	ids, cols := sliceColumns(r, tb, perCutoff)
	t.Columns = append([]Column{{Key: "system", Title: "System", Kind: Text}, {Key: label, Title: strings.ToUpper(label[:1]) + label[1:], Kind: Text}}, cols...)
	for _, s := range r.Systems {
		if s.Kind != report.Pipeline && !baselines {
			continue
		}
		for _, sl := range slices {
			row := Row{Cells: []Cell{TextCell(s.Label), TextCell(sliceLabel(sl))}, Group: string(sl), Anchor: Anchor(s.Name, "", sl), System: s.Name}
			any := false
			for _, id := range ids {
				c := NumCell(Undefined)
				if m, ok := r.Metric(s.Name, id, sl); ok {
					any = true
					c = NumCell(float64(m.Value))
					if m.CI != nil {
						c.Lo, c.Hi = float64(m.CI.Low), float64(m.CI.High)
					}
					if !m.Value.Valid() {
						c.Note = "undefined in this slice"
					}
				} else {
					c.Note = "not computed for this slice"
				}
				row.Cells = append(row.Cells, c)
			}
			if any {
				t.Rows = append(t.Rows, row)
			}
		}
	}
	// Best per column within each slice, across systems.
	bySlice := map[string][]int{}
	for i, row := range t.Rows {
		bySlice[row.Group] = append(bySlice[row.Group], i)
	}
	for _, sl := range slices {
		for j := 2; j < len(t.Columns); j++ {
			bestRows(&t, bySlice[string(sl)], j, t.Columns[j].Best)
		}
	}
	return t, len(t.Rows) > 0
}

// criterionTable is the per-criterion breakdown: one row per
// system and criterion, then the macro average across criteria.
func criterionTable(r *report.Report) (Table, bool) {
	// Two populations: no one n for the table (N 0), each row's n is in
	// its columns.
	t := Table{ID: metrics.TablePerCriterion, Title: "Per-criterion breakdown",
		Population: "every eval query (all_queries) for the NE gate and deployment, queries with evidence (positives_only) for the ranking",
		Meaning:    "Which criteria are easy or hard to detect and to rank; the last rows are the macro average across criteria."}
	var sl []report.Slice
	for _, c := range r.Dataset.Criteria {
		sl = append(sl, report.CriterionSlice(c))
	}
	sl = append(sl, report.CriterionSlice("macro"))
	return sliceTable(r, t, "criterion", sl, metrics.TablePerCriterion, false, false)
}

// strataTable is the stratified analysis by n_pos (docs/metrics.md
// "Stratified analysis").
func strataTable(r *report.Report) (Table, bool) {
	t := Table{ID: metrics.TableStrata, Title: "Stratified analysis by number of gold items",
		Population: string(metrics.PositivesOnly), N: r.Dataset.PositiveQueries,
		Meaning: "Whether queries with few or many evidence sentences are served equally well."}
	var sl []report.Slice
	seen := map[report.Slice]bool{}
	for _, m := range r.Metrics {
		if m.Slice.Kind() == report.SliceStratum && !seen[m.Slice] {
			seen[m.Slice] = true
			sl = append(sl, m.Slice)
		}
	}
	return sliceTable(r, t, "stratum", sl, metrics.TableStrata, true, false)
}

// comparisonTable is systems and significance (docs/statistics.md
// "Comparing systems").
func comparisonTable(r *report.Report) (Table, bool) {
	pop := "paired, the same eval queries"
	if len(r.Dataset.SystemQueries) > 0 {
		// TREC runs under missing_run: skip that cover different queries.
		pop = "paired, the eval queries both systems have (the n of each row, of all eval queries)"
	}
	// Each row's n is in its n column (N 0): the paired queries, or the
	// denominator of a ratio of counts.
	// DeLong's test and its z exist only where there is an AUROC (not for
	// a TREC run): otherwise neither the sentence nor the column.
	delong, hasAUROC := "", r.Has(report.NEGate)
	if hasAUROC {
		delong = "DeLong for AUROC, "
	}
	t := Table{ID: TableComparisons, Title: "Systems and significance", Population: pop,
		Meaning: "Whether each system differs from the one it is compared with beyond chance (difference = system − reference; paired bootstrap CI; permutation test for per-query means, " + delong + "paired bootstrap for the rest; Holm within each metric).",
		Columns: []Column{
			{Key: "system", Title: "System", Kind: Text},
			{Key: "reference", Title: "Reference", Kind: Text},
			{Key: "metric", Title: "Metric", Kind: Text},
			{Key: "id", Title: "Id", Kind: Text},
			{Key: "n", Title: "n", Kind: Count},
			{Key: "diff", Title: "Difference [CI]", FlatTitle: "Difference", Kind: Number, Digits: 4, CI: true},
			{Key: "test", Title: "Test", Kind: Text},
			{Key: "p", Title: "p", Kind: PValue},
			{Key: "p_holm", Title: "p (Holm)", Kind: PValue},
			{Key: "wins", Title: "Wins", Kind: Count},
			{Key: "ties", Title: "Ties", Kind: Count},
			{Key: "losses", Title: "Losses", Kind: Count},
			{Key: "cohens_d", Title: "Cohen's d", Kind: Number, Digits: 3},
			{Key: "d_z", Title: "d_z", Kind: Number, Digits: 3},
		}}
	if hasAUROC {
		t.Columns = append(t.Columns, Column{Key: "delong_z", Title: "DeLong z", Kind: Number, Digits: 3})
	}
	// A statistic the comparison does not have (wins for a non-per-query
	// metric, DeLong z for anything but AUROC) does not apply: empty, and
	// the table's note says why once.
	opt := func(x *report.Num) Cell {
		if x == nil {
			return AbsentCell()
		}
		return NumCell(float64(*x))
	}
	count := func(x *int) Cell {
		if x == nil {
			return AbsentCell()
		}
		return NumCell(float64(*x))
	}
	absent := false
	for _, c := range r.Comparisons {
		diff := NumCell(float64(c.Diff))
		if c.CI != nil {
			diff.Lo, diff.Hi = float64(c.CI.Low), float64(c.CI.High)
		}
		absent = absent || c.Wins == nil || c.CohensD == nil || c.DZ == nil || (hasAUROC && c.DeLongZ == nil)
		row := Row{
			Cells: []Cell{TextCell(r.Label(c.System)), TextCell(r.Label(c.Reference)), TextCell(Title(c.ID)), TextCell(string(c.ID)),
				NumCell(float64(comparisonN(r, c))), diff, TextCell(c.Test), NumCell(float64(c.P)), NumCell(float64(c.PHolm)),
				count(c.Wins), count(c.Ties), count(c.Losses), opt(c.CohensD), opt(c.DZ)},
			Anchor: Anchor(c.System, c.ID, "vs="+report.Slice(c.Reference)),
			System: c.System,
		}
		if hasAUROC {
			row.Cells = append(row.Cells, opt(c.DeLongZ))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, "n is the number of paired eval queries; for a ratio of counts (a sensitivity, a precision) it is the count the system's value is divided by, as on its card.")
	if absent {
		note := "Empty cells do not apply: wins, ties, losses, Cohen's d and d_z exist for metrics averaged over queries only"
		if r.Has(report.NEGate) {
			note += ", and the DeLong z for AUROC only" // without a score there is no AUROC to say it of
		}
		t.Notes = append(t.Notes, note+".")
	}
	return t, len(t.Rows) > 0
}

// comparisonN is the n of comparison c: the denominator of the system's
// value when the metric is a ratio of counts (alert precision over its
// alerts, not over every eval query), else the paired queries.
func comparisonN(r *report.Report, c report.Comparison) int {
	if m, ok := r.Metric(c.System, c.ID, ""); ok && m.Denominator != nil {
		return *m.Denominator
	}
	return c.N
}

// Checks returns the consistency checks (report.Check: hard ones stop the
// build, soft ones are shown) as a table.
func Checks(r *report.Report) Table {
	t := Table{ID: TableChecks, Title: "Consistency checks", Population: "every input row", N: r.Dataset.Rows,
		Meaning: "Hard checks stop the build; soft checks are caveats the reader should know.",
		Columns: []Column{{Key: "check", Title: "Check", Kind: Text}, {Key: "kind", Title: "Kind", Kind: Text},
			{Key: "result", Title: "Result", Kind: Text}, {Key: "detail", Title: "Detail", Kind: Text}}}
	for _, c := range r.Checks {
		kind := "soft"
		if c.Hard {
			kind = "hard"
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{TextCell(c.ID), TextCell(kind), TextCell(c.Result()), TextCell(c.Detail)}, Anchor: "check-" + Sanitize(c.ID)})
	}
	return t
}

// Definitions returns the registry entries of the metrics the report
// holds as a table (the "Metric definitions" sheet).
func Definitions(r *report.Report) Table {
	t := Table{ID: TableDefinitions, Title: "Metric definitions", Population: "the metric registry", Meaning: "What each metric id means, its population and direction.",
		Columns: []Column{{Key: "id", Title: "Id", Kind: Text}, {Key: "title", Title: "Title", Kind: Text}, {Key: "population", Title: "Population", Kind: Text},
			{Key: "direction", Title: "Better", Kind: Text}, {Key: "variant", Title: "Variant", Kind: Text},
			{Key: "definition", Title: "Definition", Kind: Text}, {Key: "meaning", Title: "Meaning", Kind: Text}}}
	v := r.Vocabulary() // the registry's words are evidence retrieval's
	for _, d := range UsedDefs(r) {
		t.Rows = append(t.Rows, Row{Cells: []Cell{TextCell(PatternID(d)), TextCell(v.Say(d.Title)), TextCell(string(d.Population)),
			TextCell(string(d.Direction)), TextCell(v.Say(d.Variant)), TextCell(v.Say(d.Definition)), TextCell(v.Say(d.Meaning))}})
	}
	t.N = len(t.Rows)
	return t
}

// sliceLabel is the text of a slice in its table: a stratum's range with
// an en dash, a criterion id as given.
func sliceLabel(sl report.Slice) string {
	if sl.Kind() == report.SliceStratum {
		return rangeText(sl.Value())
	}
	return sl.Value()
}

// rangeText writes a stratum label such as "3-5" with an en dash ("3–5"),
// which no spreadsheet reads as a date; other labels are unchanged.
func rangeText(v string) string {
	a, b, ok := strings.Cut(v, "-")
	if !ok || a == "" || b == "" || strings.Trim(a, "0123456789") != "" || strings.Trim(b, "0123456789") != "" {
		return v
	}
	return a + "\u2013" + b
}
