package templates

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// dataLine is the one line under the title: what was evaluated (the
// same line SUMMARY.md opens with).
func (b *builder) dataLine() string { return tables.DataLine(b.r) }

// results is the first section: the results matrix and, under it, the
// warnings and the checks that did not pass.
func (b *builder) results() Section {
	mx := tables.BuildMatrix(b.r)
	s := Section{ID: "sec-results", Title: "Results: systems by headline metric", Class: "results"}
	m := &Matrix{ID: "results-matrix", Notes: mx.Notes(), SystemHead: capitalised(b.r.Vocabulary().System)}
	b.ids.Add(m.ID)
	m.Caption = "Results matrix: systems by headline metric, value [CI] and fold mean ± std"
	for _, c := range mx.Columns {
		h := MatrixHead{Plain: c.Plain, Title: c.Title, ID: string(c.ID), Meaning: c.Meaning}
		if h.Plain == "" {
			h.Plain = c.Title
		}
		switch c.Direction {
		case metrics.Higher:
			h.Arrow, h.Better = "↑", "higher is better"
		case metrics.Lower:
			h.Arrow, h.Better = "↓", "lower is better"
		}
		m.Head = append(m.Head, h)
	}
	for _, row := range mx.Rows {
		mr := MatrixRow{Label: row.Label, Letter: row.Letter, Primary: row.Primary, Baseline: row.Baseline}
		for j, c := range row.Cells {
			x := MatrixCell{Empty: !c.Present}
			if c.Present {
				x.ID = b.ids.Add(c.Anchor)
				x.Value = mx.FormatValue(j, c)
				x.NA = c.Note
				x.CI = mx.FormatCI(j, c)
				x.Folds = mx.FormatFolds(j, c)
				x.Better = strings.Join(c.Better, "")
				x.Worse = strings.Join(c.Worse, ", ")
				x.Best = c.Best
				if c.Missed && c.Target != nil && tables.Defined(c.Value) {
					x.Miss = "target " + targetText(c.Target) + " not met"
				}
				if !tables.Defined(c.Value) && x.NA == "" {
					x.NA = "undefined"
				}
				x.Diff, x.DiffNote = primaryDiff(mx, b.r, row.System, j)
				m.HasDiff = m.HasDiff || x.Diff != ""
			}
			mr.Cells = append(mr.Cells, x)
		}
		m.Rows = append(m.Rows, mr)
	}
	if len(m.Head) > 0 {
		s.Matrix = m
	} else {
		s.Intro = "No headline metric applies to these inputs."
	}
	s.AlertsID = b.ids.Add("results-warnings")
	s.Alerts = alerts(b.r)
	return s
}

// alerts are the lines under the results matrix: the primary system's
// missed targets (metric, value, target), then the checks that failed or
// did not pass, then the warnings. Only missed targets and failed hard
// checks are shown in red; a soft check only informs.
func alerts(r *report.Report) []Alert {
	var out []Alert
	// The missed targets share one line, so that several of them do not
	// push the checks and warnings off the first screen.
	tally := tables.PrimaryTargets(r)
	switch len(tally.Missed) {
	case 0:
	case 1:
		m := tally.Missed[0]
		out = append(out, Alert{Kind: "miss", Text: "Target not met by " + r.Label(tally.System) + ": " + m.Title + " " +
			tables.FormatNum(m.Value, m.Digits) + ", target " + targetText(&m.Target)})
	default:
		parts := make([]string, len(tally.Missed))
		for i, m := range tally.Missed {
			parts[i] = m.Title + " " + tables.FormatNum(m.Value, m.Digits) + " (target " + targetText(&m.Target) + ")"
		}
		out = append(out, Alert{Kind: "miss", Text: strconv.Itoa(len(parts)) + " targets not met by " + r.Label(tally.System) + ": " + strings.Join(parts, "; ")})
	}
	for _, c := range r.Checks {
		switch c.Result() {
		case report.CheckFailed:
			out = append(out, Alert{Kind: "hard", Text: "Hard check " + c.Result() + ": " + c.ID + ": " + c.Detail})
		case report.CheckNotPassed:
			out = append(out, Alert{Kind: "soft", Text: "Soft check " + c.Result() + ": " + c.ID + ": " + c.Detail})
		}
	}
	for _, w := range r.Warnings {
		out = append(out, Alert{Kind: "warn", Text: "Warning: " + w})
	}
	return out
}

// cardsSection is the primary system's headline metrics as cards, read
// from the report (the metrics of the results matrix's columns), and the
// long-form scorecard of every system, collapsed.
func (b *builder) cardsSection() Section {
	r := b.r
	st := r.Settings
	s := Section{ID: "sec-scorecard", Title: "Headline metrics: " + r.Label(b.primary),
		Intro: "Values are shown as value [" + st.Bootstrap.Level() + " CI]; confidence intervals: " + r.BootstrapText() +
			". " + thresholdSentence(r) + "\"n/a\" marks an undefined value, with the reason."}
	mx := tables.BuildMatrix(r)
	for _, c := range mx.Columns {
		m, ok := r.Metric(b.primary, c.ID, report.Whole)
		if !ok {
			continue
		}
		d := metrics.MustDef(c.ID)
		card := Card{Title: c.Title, ID: string(c.ID), Meaning: d.Meaning, N: "n = " + thousands(m.ShownN()),
			Link: "#" + tables.Anchor(b.primary, c.ID, report.Whole)}
		if m.Value.Valid() {
			card.Value = tables.FormatNum(float64(m.Value), c.Digits)
			if m.CI != nil && m.CI.Low.Valid() && m.CI.High.Valid() {
				card.Value += " [" + tables.FormatNum(float64(m.CI.Low), c.Digits) + ", " + tables.FormatNum(float64(m.CI.High), c.Digits) + "]"
			}
		} else {
			card.NA = "undefined"
			for _, row := range mx.Rows {
				if row.System == b.primary {
					for j, x := range row.Cells {
						if mx.Columns[j].ID == c.ID && x.Note != "" {
							card.NA = x.Note
						}
					}
				}
			}
		}
		if m.Target != nil {
			card.Target = targetText(m.Target)
			if m.TargetMet != nil {
				card.Badge, card.BadgeOK = "not met", *m.TargetMet
				if *m.TargetMet {
					card.Badge = "met"
				}
			}
		}
		s.Cards = append(s.Cards, card)
	}
	if t, ok := b.tables[metrics.TableScorecard]; ok {
		s.Items = append(s.Items, Item{More: &More{
			Summary: "Every system's headline metrics, one row per system and metric (" + strconv.Itoa(len(t.Rows)) + " rows)",
			Items:   []Item{{Table: b.table(t, t.Rows, "")}}}})
	}
	return s
}

// thresholdSentence says where the thresholds were chosen, "" when there
// are none.
func thresholdSentence(r *report.Report) string {
	if o := r.ThresholdOrigin(); o != "" {
		return "Thresholds are " + o + ". "
	}
	return ""
}

// targetText writes a target as "≥ 0.85", "≤ 0.05" or "[a, b]".
func targetText(t *report.Target) string { return tables.TargetText(t) }

// rankingByCutoff is one system's ranking metrics as the page shows them:
// a table of metric rows by cutoff columns for the metrics with a cutoff,
// and a table of the whole-ranking metrics. Each value cell carries the
// deep-link anchor of its (system, metric, slice).
func (b *builder) rankingByCutoff(t tables.Table, system string) []Item {
	r := b.r
	ks := r.Settings.Cutoffs
	caption := "Population: " + t.Population + "; n = " + thousands(b.blockN(t, system))
	wide := &Table{ID: b.ids.Add("t-ranking-k-" + tables.Sanitize(system)), Title: "Ranking metrics by cutoff K: " + r.Label(system),
		Caption: caption, Meaning: t.Meaning}
	wide.Head = append(wide.Head, Head{Title: "Metric"})
	for _, k := range ks {
		wide.Head = append(wide.Head, Head{Title: "K = " + strconv.Itoa(k), Numeric: true})
	}
	wide.Head = append(wide.Head, Head{Title: "Id"})
	anyFolds := false // some row has a fold mean (else the column is dropped)
	long := &Table{ID: b.ids.Add("t-ranking-whole-" + tables.Sanitize(system)), Title: "Whole-ranking metrics: " + r.Label(system),
		Caption: caption, Head: []Head{{Title: "Metric"}, {Title: "Value [CI]", Numeric: true}, {Title: "Fold mean ± std", Numeric: true}, {Title: "n", Numeric: true}, {Title: "Id"}}}
	best := map[string]bool{} // anchors of the best values, from the long table
	for _, row := range t.Rows {
		for _, c := range row.Cells {
			if c.Best {
				best[row.Anchor] = true
			}
		}
	}
	cell := func(m report.Metric, d metrics.Def) Cell {
		dg := 4
		if d.Kind == metrics.KindPer1000 {
			dg = 2
		}
		x := Cell{Numeric: true, ID: b.ids.Add(tables.Anchor(system, m.ID, report.Whole))}
		x.Best = best[tables.Anchor(system, m.ID, report.Whole)]
		if !m.Value.Valid() {
			x.Text, x.NA = "n/a", "undefined: a 0/0 ratio or an empty population"
			return x
		}
		x.Text = tables.FormatNum(float64(m.Value), dg)
		if m.CI != nil && m.CI.Low.Valid() && m.CI.High.Valid() {
			x.Text += " [" + tables.FormatNum(float64(m.CI.Low), dg) + ", " + tables.FormatNum(float64(m.CI.High), dg) + "]"
		}
		return x
	}
	for _, d := range metrics.InTable(metrics.TableRanking) {
		if d.Param == metrics.ParamK {
			row := Row{Cells: []Cell{{Text: d.Title, Header: true}}}
			any := false
			for _, k := range ks {
				m, ok := r.Metric(system, d.ID(float64(k)), report.Whole)
				if !ok {
					row.Cells = append(row.Cells, Cell{Numeric: true})
					continue
				}
				any = true
				row.Cells = append(row.Cells, cell(m, d))
			}
			row.Cells = append(row.Cells, Cell{Text: tables.PatternID(d), Code: true})
			if any {
				wide.Rows = append(wide.Rows, row)
			}
			continue
		}
		if d.Param != metrics.NoParam {
			continue
		}
		m, ok := r.Metric(system, d.ID(0), report.Whole)
		if !ok {
			continue
		}
		v := cell(m, d)
		id := v.ID
		v.ID = ""
		fm := Cell{Numeric: true}
		if len(m.Folds) >= 2 && m.FoldMean.Valid() {
			anyFolds = true
			fm.Text = tables.FormatNum(float64(m.FoldMean), 4)
			if m.FoldStd.Valid() {
				fm.Text += " ± " + tables.FormatNum(float64(m.FoldStd), 4)
			}
		}
		long.Rows = append(long.Rows, Row{ID: id, Cells: []Cell{{Text: tables.Title(m.ID), Header: true, Link: id}, v, fm, num(thousands(m.ShownN())), {Text: string(m.ID), Code: true}}})
	}
	var out []Item
	if len(wide.Rows) > 0 {
		wide.Notes = []string{"Each cell: value [" + strconv.FormatFloat(100*r.Settings.Bootstrap.Confidence, 'g', -1, 64) + "% CI] at that cutoff (the id with K replaced, e.g. rank.recall@10). Bold: the best value of that metric among all systems and the baselines (the oracle ranking is usually best). The long table (one row per system, metric and K, with fold mean ± std) is tables/ranking.csv and the Ranking sheet of tables.xlsx."}
		out = append(out, Item{Table: wide})
	}
	if len(long.Rows) > 0 {
		if !anyFolds {
			long.Head = append(long.Head[:2], long.Head[3:]...)
			for i := range long.Rows {
				c := long.Rows[i].Cells
				long.Rows[i].Cells = append(c[:2:2], c[3:]...)
			}
		}
		out = append(out, Item{Table: long})
	}
	return out
}

// primaryDiff writes the difference of system to the primary on column j
// from the report's comparisons, "Δ +0.0280*" (* when significant), and
// the test that decided it; "" when that pair was not compared.
func primaryDiff(mx tables.Matrix, r *report.Report, system string, j int) (text, note string) {
	d, ok := mx.DiffToPrimary(r, system, j)
	if !ok {
		return "", ""
	}
	text = tables.FormatNum(d.Diff, mx.Columns[j].Digits)
	if !strings.HasPrefix(text, "-") {
		text = "+" + text
	}
	text = "Δ " + text
	p := "p < 0.0001"
	if d.P >= 0.0001 {
		p = "p = " + strconv.FormatFloat(d.P, 'f', 4, 64)
	}
	note = "difference to the primary, " + d.Test + " test, " + p
	if d.Significant {
		text += "*"
		note += ", significant"
	}
	return text, note
}

// capitalised is s with its first letter in upper case.
func capitalised(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
