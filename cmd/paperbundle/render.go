package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"paperbundle/compare"
	"paperbundle/config"
	"paperbundle/figures"
	"paperbundle/figures/echarts"
	"paperbundle/figures/plot"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
	"paperbundle/tables/paper"
	"paperbundle/tables/xlsx"
	"paperbundle/templates"
)

// sink receives the finished files of a bundle (*bundle.Bundle; tests
// pass a map).
type sink interface {
	Add(name string, data []byte)
}

// record is what a bundle holds besides the report: the resolved
// configuration as written into config.yaml, the inputs as the manifest
// lists them (the report's provenance shows them) and the changes since
// the previous version (nil when there is none), which CHANGES.md and the
// report's section render.
type record struct {
	Paper   paper.Options // the paper: key, for paper/
	Config  []byte
	Inputs  []templates.InputFile
	Changes *compare.Changes
	// Summary is what SUMMARY.md needs besides the report: the version
	// compared with and its significant changes, and the report's path.
	Summary tables.SummaryInput
}

// render writes every file of the bundle for a computed report: the one
// function build and verify call, so verify recomputes the same bytes.
// Every renderer reads only the Report and the record.
func render(s sink, rep *report.Report, rec record) error {
	// The workbook, the figures and the page are the slow renderers; they
	// only read the report, so they run concurrently (the page waits for
	// the figures' SVG, which come before their PDF and PNG) while the
	// small files are written here. Files are
	// added to the sink in one fixed order whatever finishes first.
	specs := figures.Catalogue(rep)
	for i := range specs {
		// Captions and axes in the words of the kind of input; series
		// and legend names (system labels) stay as they are, and so does
		// the kind (the "systems" chart of runs is still KindSystems: its
		// section in report.html and paper/ find it by kind).
		rep.Vocabulary().SayAll(&specs[i], "ID", "Kind", "System", "Name", "ErrName", "Categories", "LegendEntry.Text", "Tag")
	}
	set := tables.Build(rep)
	checks := tables.Checks(rep)
	methods := tables.Methods(rep)
	var (
		wg              sync.WaitGroup
		wb              bytes.Buffer
		files           []plot.File
		page            bytes.Buffer
		xlsxErr, figErr error
		htmlErr         error
		paperFiles      []paper.File
		paperErr        error
		svgReady        = make(chan []plot.File, 1) // closed without a value when a figure fails
	)
	wg.Add(4)
	go func() {
		// paper/ runs beside the figures; its time is not a stage of its
		// own (make bench's stages are fixed), and a span of its own in
		// the figures stage would count that stage twice.
		defer wg.Done()
		defer recoverTo(&paperErr) // a panic here would end the process
		paperFiles, paperErr = paperFolder(rep, specs, rec.Paper)
	}()
	go func() {
		defer wg.Done()
		defer recoverTo(&xlsxErr)
		defer stages.begin(stageXLSX)()
		if err := xlsx.Write(&wb, workbook(rep, set, checks)); err != nil {
			xlsxErr = fmt.Errorf("tables.xlsx: %w", err)
		}
	}()
	go func() {
		defer wg.Done()
		sent := false
		defer func() {
			if !sent {
				close(svgReady)
			}
		}()
		defer recoverTo(&figErr)
		defer stages.begin(stageFigures)()
		files, figErr = plot.Render(specs, plot.Options{Date: generated(rep), OnSVG: func(svg []plot.File) {
			svgReady <- svg
			sent = true
		}})
	}()
	go func() {
		defer wg.Done()
		defer recoverTo(&htmlErr)
		end := stages.begin(stageHTML)
		charts, err := echarts.Options(specs)
		end()
		// The page inlines the SVGs, made before the PDFs and PNGs.
		svgFiles, ok := <-svgReady
		if err != nil || !ok {
			htmlErr = err // a failed figure is the figures' error
			return
		}
		defer stages.begin(stageHTML)()
		svg := map[figures.FigureID]*plot.InlineSVG{}
		for _, f := range svgFiles {
			svg[f.ID] = f.Inline
		}
		htmlErr = templates.Render(&page, templates.Input{
			Report: rep, Tables: set, Checks: checks, Specs: specs, Missing: figures.Missing(rep),
			SVG: svg, Charts: charts, Methods: methods, Config: rec.Config, Inputs: rec.Inputs,
			Changes: rec.Changes,
		})
	}()
	smallErr := addSmallFiles(s, rep, rec, set, checks, methods)
	wg.Wait()
	for _, err := range []error{smallErr, xlsxErr, figErr, htmlErr, paperErr} {
		if err != nil {
			return err
		}
	}
	s.Add("tables.xlsx", wb.Bytes())
	for _, f := range files {
		s.Add(f.Name, f.Data)
	}
	s.Add("report.html", page.Bytes())
	for _, f := range paperFiles {
		s.Add(f.Name, f.Data)
	}
	return nil
}

// paperFolder is paper/: the figures a paper shows drawn for the venue
// (PDF only), then preamble.tex, numbers.tex, the tables, figures.tex and
// example.tex.
func paperFolder(rep *report.Report, specs []figures.Spec, opt paper.Options) ([]paper.File, error) {
	primary := ""
	for _, s := range rep.Systems {
		if s.Primary {
			primary = s.Name
		}
	}
	if opt.Decimals != 3 {
		// Legends, tags and subtitles at the tables' decimals.
		specs = figures.CatalogueDecimals(rep, opt.Decimals)
	}
	set := plot.PaperSet(specs, primary)
	if ref := comparedWith(rep, primary); ref != "" {
		// The primary against the system it is compared with, each ROC
		// with its band: paper/ only.
		if s, ok := figures.ROCPair(rep, primary, ref, opt.Decimals); ok {
			set = append(set, s)
		}
	}
	pdfs, err := plot.RenderPaper(set, plot.Paper{Column: opt.Venue.Column, Text: opt.Venue.Text, FontSize: opt.FontSize, Date: generated(rep)})
	if err != nil {
		return nil, err
	}
	figs := make([]paper.Figure, len(set))
	for i, s := range set {
		figs[i] = paper.Figure{Name: s.ID.String(), Caption: paperCaption(&s), Alt: s.Alt, Wide: plot.Wide(&s)}
	}
	out := make([]paper.File, 0, len(pdfs)+16)
	for _, f := range pdfs {
		out = append(out, paper.File{Name: f.Name, Data: f.Data})
	}
	files := paper.Files(rep, opt, figs)
	if err := paper.CheckCaptions(files, figs, opt.Captions); err != nil {
		return nil, withStatus(exitInput, fmt.Errorf("paper.yaml: %w", err))
	}
	return append(out, files...), nil
}

// paperCaption is a figure's caption in paper/figures.tex: its title and
// its subtitle, which holds in print (the spec's Hint, about the
// interactive chart, is not part of it).
func paperCaption(s *figures.Spec) string {
	cap := s.Title
	if sub := s.Subtitle; sub != "" {
		cap += ". " + strings.ToUpper(sub[:1]) + sub[1:]
	}
	return cap + "."
}

// paperOptions are the paper: settings of a configuration.
func paperOptions(p config.Paper) paper.Options {
	v, ok := paper.Venues[string(p.Venue)]
	if !ok {
		v = paper.CustomVenue(p.ColumnWidth, p.TextWidth, p.BodySize)
	}
	return paper.Options{Venue: v, FontSize: p.FontSize, Uncertainty: paper.Uncertainty(p.Uncertainty), Decimals: p.Decimals,
		Results: composition(p.Results), RankingSystems: composition(p.RankingSystems), Captions: p.Captions}
}

// composition is a paper table's composition of the configuration.
func composition(c config.Composition) paper.Composition {
	out := paper.Composition{Systems: c.Systems, Baselines: c.Baselines}
	for _, id := range c.Metrics {
		out.Metrics = append(out.Metrics, metrics.ID(id))
	}
	if len(c.Headers) > 0 {
		out.Headers = map[metrics.ID]string{}
		for id, h := range c.Headers {
			out.Headers[metrics.ID(id)] = h
		}
	}
	return out
}

// sourceDateEpoch is the time SOURCE_DATE_EPOCH gives (seconds since
// 1970), the bundle's generation time; zero when it is unset or not a
// whole number.
func sourceDateEpoch() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(sec, 0).UTC()
		}
	}
	return time.Time{}
}

// generated is the report's generation time (SOURCE_DATE_EPOCH), else
// the fixed date of the figures.
func generated(rep *report.Report) time.Time {
	if rep.Generated != "" {
		if t, err := time.Parse(time.RFC3339, rep.Generated); err == nil {
			return t.UTC()
		}
	}
	return plot.DefaultDate
}

// created is the report's generation time (SOURCE_DATE_EPOCH), else
// zero: the workbook then carries no date.
func created(rep *report.Report) time.Time {
	if rep.Generated != "" {
		if t, err := time.Parse(time.RFC3339, rep.Generated); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// workbook describes tables.xlsx.
func workbook(rep *report.Report, set tables.Set, checks tables.Table) xlsx.Workbook {
	st := rep.Settings
	wb := xlsx.Workbook{
		Title: rep.Title, Version: rep.Version, Tool: rep.Tool, Created: created(rep),
		// The Results sheet (the results matrix) first, then the tables.
		Tables: append([]tables.Table{tables.ResultsTable(rep)}, set.Tables...), Checks: checks, Definitions: tables.Definitions(rep),
		Readme: []xlsx.ReadmeLine{
			{Key: "Confidence intervals", Value: rep.BootstrapText()},
			// Only the conventions that apply (as METHODS.md).
			{Key: "Conventions", Value: strings.Join(tables.Conventions(rep, func(v string) string { return v }), "; ")},
			{Key: "Undefined values", Value: "empty cells: a value that is undefined (" + tables.UndefinedExamples(rep) + ") is never 0"},
			{Key: "Per-query rows", Value: rep.Vocabulary().Say("per_query_metrics.csv beside this workbook: one row per eval query per system, with its label, score and per-query metrics")},
		},
	}
	if rep.Has(report.Ranking) {
		// A cutoff only with a ranking (a classifier has none).
		wb.Readme = append([]xlsx.ReadmeLine{{Key: "Headline cutoff", Value: fmt.Sprintf("K = %d (cutoffs %v)", st.HeadlineCutoff, st.Cutoffs)}}, wb.Readme...)
	}
	if rep.ToolBuild != nil {
		wb.Readme = append([]xlsx.ReadmeLine{{Key: "Tool build", Value: rep.ToolBuild.Long()}}, wb.Readme...)
	}
	for _, m := range set.Missing {
		wb.Readme = append(wb.Readme, xlsx.ReadmeLine{Key: "Not shown: " + m.Title, Value: m.Reason})
	}
	return wb
}

// addSmallFiles adds the files render writes itself, in their fixed order:
// metrics_master.json, config.yaml, CHANGES.md (when there are changes),
// SUMMARY.md, per_query_metrics.csv, METHODS.md and the tables' CSV.
func addSmallFiles(s sink, rep *report.Report, rec record, set tables.Set, checks tables.Table, methods []byte) error {
	js, err := rep.JSON()
	if err != nil {
		return err
	}
	s.Add("metrics_master.json", js)
	s.Add("config.yaml", rec.Config)
	if rec.Changes != nil {
		md, err := changesMD(rec.Changes)
		if err != nil {
			return err
		}
		s.Add("CHANGES.md", md)
	}
	s.Add("SUMMARY.md", tables.Summary(rep, rec.Summary))
	s.Add("per_query_metrics.csv", tables.PerQueryCSV(rep))
	s.Add("METHODS.md", methods)
	for _, t := range append(set.Tables, checks) {
		s.Add("tables/"+string(t.ID)+".csv", t.CSV())
	}
	return nil
}

// comparedWith is the system the primary is compared with: the reference
// of its first comparison ("" when it has none).
func comparedWith(rep *report.Report, primary string) string {
	for _, c := range rep.Comparisons {
		if c.System == primary {
			return c.Reference
		}
		if c.Reference == primary {
			return c.System
		}
	}
	return ""
}
