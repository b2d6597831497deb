package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// buildSummary is what build prints after the bundle path: five lines a
// user reads before opening the report.
type buildSummary struct {
	Dir, Version string
	Files        int
	Seconds      float64
	Previous     string // the version compared with; "" when first
	Significant  int    // significant changes since Previous
}

func (s buildSummary) write(w io.Writer, rep *report.Report) {
	fmt.Fprintf(w, "bundle %s written to %s (%d files, %.1fs)\n", s.Version, s.Dir, s.Files, s.Seconds)
	var names []string
	primary := ""
	for _, sys := range rep.Systems {
		if sys.Kind != report.Pipeline {
			continue
		}
		names = append(names, sys.Label)
		if sys.Primary {
			primary = sys.Name
		}
	}
	fmt.Fprintf(w, "  version   %s (seed %d, %d resamples)\n", s.Version, rep.Settings.Seed, rep.Settings.Bootstrap.Resamples)
	fmt.Fprintf(w, "  systems   %d: %s\n", len(names), strings.Join(names, ", "))
	fmt.Fprintf(w, "  primary   %s\n", headlines(rep, primary))
	soft := 0
	for _, c := range rep.Checks {
		if !c.Passed && !c.Hard {
			soft++
		}
	}
	fmt.Fprintf(w, "  warnings  %s, %s not passed\n", plural(len(rep.Warnings), "warning"), plural(soft, "soft check"))

	if s.Previous == "" {
		fmt.Fprintf(w, "  changes   first version in this folder\n")
	} else {
		fmt.Fprintf(w, "  changes   %d significant since %s (CHANGES.md)\n", s.Significant, s.Previous)
	}
	fmt.Fprintf(w, "open %s in a browser\n", filepath.Join(s.Dir, "report.html"))
}

// headlines lists the headline metrics of the primary system with their
// intervals, from the scorecard table.
func headlines(rep *report.Report, system string) string {
	for _, t := range tables.Build(rep).Tables {
		if t.ID != metrics.TableScorecard {
			continue
		}
		col := map[string]int{}
		for i, c := range t.Columns {
			col[c.Key] = i
		}
		var out []string
		for _, r := range t.Rows {
			if r.System != system {
				continue
			}
			v := r.Cells[col["value"]]
			c := t.Columns[col["value"]]
			s := c.Format(v)
			if tables.Defined(v.V) && tables.Defined(v.Lo) && tables.Defined(v.Hi) {
				d := c.DigitsOf(v)
				s += " [" + tables.FormatNum(v.Lo, d) + ", " + tables.FormatNum(v.Hi, d) + "]"
			}
			out = append(out, r.Cells[col["metric"]].Text+" "+s)
		}
		return strings.Join(out, "; ")
	}
	return "no headline metric"
}
