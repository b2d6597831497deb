package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
)

// BenchmarkAudit40Pages: `paperbundle audit` of a 40-page LaTeX
// manuscript (main.tex inputting one file per page: about 3,500
// characters of prose each, with hand-typed values of the current
// version, values of the first, macros, a year and a section number in
// every paragraph, a results table every fourth page) against a root
// holding three versions of the reduced demo, reading the three
// metrics_master.json files included. docs/audit.md records the figure.
func BenchmarkAudit40Pages(b *testing.B) {
	root, reps := auditProject(b, 3)
	dir := b.TempDir()
	main := writeManuscript(b, dir, reps[2], reps[0], 40)
	var total int64
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			total += info.Size()
		}
		return nil
	})
	for b.Loop() {
		out, stderr, code := runCmd("audit", "-bundle", filepath.Join(root, "v3"), "-format", "json", main)
		if code != 1 || len(out) == 0 {
			b.Fatalf("exit %d: %s", code, stderr)
		}
	}
	b.ReportMetric(float64(total), "manuscript-bytes")
}

// writeManuscript writes main.tex and its page files under dir.
func writeManuscript(tb testing.TB, dir string, cur, old *report.Report, pages int) string {
	tb.Helper()
	var ids []metrics.ID
	for _, id := range metrics.ComparedIDs(10) {
		if _, ok := cur.Metric("full", id, ""); ok {
			ids = append(ids, id)
		}
	}
	var systems []report.SystemInfo
	for _, s := range cur.Systems {
		if s.Kind == report.Pipeline {
			systems = append(systems, s)
		}
	}
	num := func(r *report.Report, sys string, id metrics.ID) string {
		m, _ := r.Metric(sys, id, "")
		return fmt.Sprintf("%.3f", float64(m.Value))
	}
	filler := "The evaluation follows the protocol of the previous section, with the folds fixed before any model was trained and every threshold chosen on tune rows only. "
	var mainTeX strings.Builder
	mainTeX.WriteString("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n")
	for p := 0; p < pages; p++ {
		var page strings.Builder
		fmt.Fprintf(&page, "\\section{Results, part %d}\\label{sec:p%d}\n", p+1, p)
		for para := 0; para < 6; para++ {
			s := systems[(p+para)%len(systems)]
			id := ids[(p*6+para)%len(ids)]
			title := metrics.Title(id)
			page.WriteString(strings.Repeat(filler, 2))
			fmt.Fprintf(&page, "In 2025 %s reached a %s of %s (Section %d), ", s.Label, title, num(cur, s.Name, id), para+2)
			fmt.Fprintf(&page, "while the first run gave %s a %s of %s. ", s.Label, title, num(old, s.Name, id))
			fmt.Fprintf(&page, "Quoted by macro: \\pbvalue{%s}{%s} \\pbci{%s}{%s}. %% an old note: %s\n\n", s.Name, id, s.Name, id, num(old, s.Name, id))
		}
		if p%4 == 0 {
			page.WriteString("\\begin{tabular}{l" + strings.Repeat("r", len(ids)) + "}\\toprule\nSystem")
			for _, id := range ids {
				page.WriteString(" & " + metrics.Title(id))
			}
			page.WriteString(" \\\\ \\midrule\n")
			for _, s := range systems {
				page.WriteString(s.Label)
				for _, id := range ids {
					page.WriteString(" & " + num(cur, s.Name, id))
				}
				page.WriteString(" \\\\\n")
			}
			page.WriteString("\\bottomrule\n\\end{tabular}\n")
		}
		name := fmt.Sprintf("page%02d.tex", p)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		fmt.Fprintf(&mainTeX, "\\input{%s}\n", name)
	}
	mainTeX.WriteString("\\end{document}\n")
	p := filepath.Join(dir, "main.tex")
	if err := os.WriteFile(p, []byte(mainTeX.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
