package xlsx

import (
	"time"
	"unicode/utf8"

	"paperbundle/tables"
)

// readmeEntry is one line of the README's list of sheets.
type readmeEntry struct {
	sheet, title, population string
	n                        any // int, or nil when not known
}

// readme writes the README sheet: title, the facts of the bundle (version,
// tool, date, Workbook.Readme, how the per-query rows are split), then one
// line per sheet with its title, population and n.
func (b *builder) readme() error {
	title := b.wb.Title
	if title == "" {
		title = "Tables"
	}
	lines := []ReadmeLine{
		{"version", b.wb.Version},
		{"tool", b.wb.Tool},
		{"created", created(b.wb.Created)},
		{"headers", "two rows over each table: words for reading, then ids for tools. The ids are the header of the sheet's Excel table and of its CSV under tables/ (section tables and checks), what scripts read (pandas: read_excel(path, sheet_name=..., header=3)); a metric's id is its id in metrics_master.json, <id>_n its n"},
		{"numbers", "numeric cells with fixed decimals; a CI is two columns beside its value (ids <id>_ci_low, <id>_ci_high), a spread one (<id>_std); an empty number cell is undefined (n/a) or does not apply, its comment gives the reason when known"},
	}
	lines = append(lines, b.wb.Readme...)
	rows := [][]any{{title}, {}}
	for _, l := range lines {
		rows = append(rows, []any{l.Key, l.Value})
	}
	rows = append(rows, []any{}, []any{"sheet", "title", "population", "n"})
	header := len(rows)
	for _, e := range b.entries() {
		rows = append(rows, []any{e.sheet, e.title, e.population, e.n})
	}
	return b.readmeRows(rows, header)
}

// created is the bundle's date for the README sheet, or says that there
// is none.
func created(t time.Time) string {
	if t.IsZero() {
		return "not recorded (set SOURCE_DATE_EPOCH to record it)"
	}
	return t.UTC().Format(time.RFC3339)
}

// readmeRows writes rows from row 1; row 1 is the title, row header the
// header of the list of sheets. A value longer than its column (70
// characters at most) wraps within it, in a row as tall as it needs.
func (b *builder) readmeRows(rows [][]any, header int) error {
	widths := make([]int, 4)
	for i, r := range rows {
		for j, v := range r {
			if v, ok := v.(string); ok && i > 0 {
				widths[j] = max(widths[j], utf8.RuneCountInString(v))
			}
		}
	}
	widths[1] = min(widths[1], readmeValueWidth)
	for i, r := range rows {
		s := textStyle
		switch {
		case i == 0:
			s = titleStyle
		case i+1 == header:
			s = headerStyle
		}
		lines := 1
		for j, v := range r {
			if v, ok := v.(string); ok && i > 0 && utf8.RuneCountInString(v) > widths[j] {
				lines = max(lines, wrappedLines(v, widths[j]))
			}
		}
		for j, v := range r {
			cs := s
			if _, ok := v.(int); ok {
				cs = countStyle
			}
			cs.wrap, cs.top = lines > 1, lines > 1 // the key beside a wrapped value at the top
			if err := b.set(readmeSheet, j+1, i+1, v, cs); err != nil {
				return err
			}
		}
		if lines > 1 {
			if err := b.f.SetRowHeight(readmeSheet, i+1, lineHeight*float64(lines)); err != nil {
				return err
			}
		}
	}
	if err := b.setWidths(readmeSheet, widths); err != nil {
		return err
	}
	// The value column is wider than a table's widest column.
	if err := b.f.SetColWidth(readmeSheet, "B", "B", float64(widths[1]+widthPad)); err != nil {
		return err
	}
	return b.f.SetSheetDimension(readmeSheet, rangeRef(1, 1, len(widths), len(rows)))
}

// readmeValueWidth is the widest the README's value column gets, in
// characters; longer values wrap.
const readmeValueWidth = 90

// entries returns the README's line for every sheet after it.
func (b *builder) entries() []readmeEntry {
	var out []readmeEntry
	add := func(sheet string, t tables.Table) {
		e := readmeEntry{sheet: sheet, title: t.Title, population: t.Population}
		if t.N > 0 {
			e.n = t.N // else each row of the sheet gives its n
		}
		out = append(out, e)
	}
	for i, t := range b.wb.Tables {
		add(b.plan.tables[i], t)
	}
	add(checksSheet, b.wb.Checks)
	add(definitionsSheet, b.wb.Definitions)
	return out
}
