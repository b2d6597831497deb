// Package xlsx renders the tables of a bundle as tables.xlsx. It sits at
// the end of the pipeline, beside the text writers of package tables:
//
//	report.Compute -> *report.Report -> tables.Build -> []tables.Table -> xlsx.Write -> tables.xlsx
//
// The workbook has a README sheet first (what each sheet holds, the bundle
// version, the conventions in force), then one sheet per table (the
// Results sheet first), Checks and Metric definitions. A table's sheet
// has its title, a line with population, n and meaning, then two header
// rows: the words for reading, then the ids for tools (the header of the
// sheet's Excel table and of the table's CSV), and the rows.
//
// Every number is a numeric cell with a fixed-decimal number format; an
// undefined number is an empty cell (with a comment giving the reason when
// the table knows it). Free text is always a string cell with the text
// number format, so no label can become a formula whatever it starts with.
// The same Workbook gives the same bytes: dates come from Workbook.Created,
// never the clock, and the zip entries are written in name order.
//
// excelize is imported here and nowhere else.
package xlsx

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"paperbundle/tables"
)

// MaxRows is Excel's limit on the rows of a sheet.
const MaxRows = excelize.TotalRows

// Workbook is everything tables.xlsx shows.
type Workbook struct {
	Title   string
	Version string // bundle version
	Tool    string // tool name and version: the document's creator
	// Created dates the document (from SOURCE_DATE_EPOCH); zero leaves
	// the date out. The clock is never read.
	Created     time.Time
	Readme      []ReadmeLine   // further lines of the README sheet: conventions, seed, bootstrap
	Tables      []tables.Table // one sheet per table, in order
	Checks      tables.Table   // the Checks sheet
	Definitions tables.Table   // the Metric definitions sheet
}

// ReadmeLine is one key and value line of the README sheet.
type ReadmeLine struct{ Key, Value string }

// Sheet names of the fixed sheets.
const (
	readmeSheet      = "README"
	checksSheet      = "Checks"
	definitionsSheet = "Metric definitions"
)

// Write writes wb as an XLSX workbook to w.
func Write(w io.Writer, wb Workbook) (err error) {
	f := excelize.NewFile()
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("xlsx: %w", cerr)
		}
	}()
	b := &builder{f: f, wb: wb, styles: map[style]int{}, plan: newPlan(wb), zip: &sortedZip{}}
	f.SetZipWriter(b.zip.writer)
	if err := b.build(); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	return nil
}

// plan is the sheets of a workbook, named before any is written.
type plan struct {
	tables []string // sheet of each of Workbook.Tables
}

func newPlan(wb Workbook) plan {
	var p plan
	used := map[string]bool{}
	for _, s := range []string{readmeSheet, checksSheet, definitionsSheet, "History"} {
		used[lower(s)] = true // History is reserved by Excel
	}
	for _, t := range wb.Tables {
		p.tables = append(p.tables, sheetName(string(t.ID), used))
	}
	return p
}

// order returns every sheet name in workbook order.
func (p plan) order() []string {
	names := []string{readmeSheet}
	names = append(names, p.tables...)
	return append(names, checksSheet, definitionsSheet)
}

// builder fills one excelize file.
type builder struct {
	f      *excelize.File
	wb     Workbook
	plan   plan
	styles map[style]int
	zip    *sortedZip // the zip writer of f
}

func (b *builder) build() error {
	if err := b.f.SetSheetName("Sheet1", readmeSheet); err != nil {
		return err
	}
	for i, name := range b.plan.order() {
		if i > 0 {
			if _, err := b.f.NewSheet(name); err != nil {
				return fmt.Errorf("sheet %q: %w", name, err)
			}
		}
	}
	if err := b.pageSetup(readmeSheet, 1, 0); err != nil {
		return fmt.Errorf("sheet %q: %w", readmeSheet, err)
	}
	if err := b.docProps(); err != nil {
		return err
	}
	if err := b.readme(); err != nil {
		return fmt.Errorf("sheet %q: %w", readmeSheet, err)
	}
	for i, t := range b.wb.Tables {
		if err := b.table(b.plan.tables[i], t); err != nil {
			return fmt.Errorf("sheet %q: %w", b.plan.tables[i], err)
		}
	}
	if err := b.table(checksSheet, b.wb.Checks); err != nil {
		return fmt.Errorf("sheet %q: %w", checksSheet, err)
	}
	if err := b.table(definitionsSheet, b.wb.Definitions); err != nil {
		return fmt.Errorf("sheet %q: %w", definitionsSheet, err)
	}
	return nil
}

// docProps writes the document properties from the bundle: title,
// version, tool, and the creation date only when the bundle has one
// (SOURCE_DATE_EPOCH): a workbook is never dated by the clock nor by an
// invented date.
func (b *builder) docProps() error {
	date := ""
	if !b.wb.Created.IsZero() {
		date = b.wb.Created.UTC().Format(time.RFC3339)
	}
	err := b.f.SetDocProps(&excelize.DocProperties{
		Title:          b.wb.Title,
		Subject:        "paper bundle " + b.wb.Version,
		Keywords:       b.wb.Version,
		Version:        b.wb.Version,
		Creator:        b.wb.Tool,
		LastModifiedBy: b.wb.Tool,
		Created:        date,
		Modified:       date,
		Language:       "en",
	})
	if err != nil || date != "" {
		return err
	}
	// excelize keeps the dates of its template when none is given: they
	// are removed from the part it wrote.
	v, ok := b.f.Pkg.Load(corePart)
	if !ok {
		return fmt.Errorf("no %s", corePart)
	}
	data, ok := v.([]byte)
	if !ok {
		return fmt.Errorf("%s: unexpected content", corePart)
	}
	b.f.Pkg.Store(corePart, coreDates.ReplaceAll(data, nil))
	return nil
}

// corePart is the document properties part of the workbook.
const corePart = "docProps/core.xml"

// coreDates matches the created and modified dates of the core part.
var coreDates = regexp.MustCompile(`<dcterms:(created|modified)\b[^>]*>[^<]*</dcterms:(created|modified)>`)

// pageSetup makes sheet print landscape, wide pages wide, with the rows
// above its data, and its first cols columns, repeated on every page.
func (b *builder) pageSetup(sheet string, wide, cols int) error {
	fit, landscape, tall := true, "landscape", 0
	if err := b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	if err := b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &wide, FitToHeight: &tall}); err != nil {
		return err
	}
	if sheet == readmeSheet {
		return nil
	}
	quoted := "'" + strings.ReplaceAll(sheet, "'", "''") + "'!"
	titles := fmt.Sprintf("%s$1:$%d", quoted, headerRow)
	if cols > 0 && wide > 1 {
		last, err := excelize.ColumnNumberToName(cols)
		if err != nil {
			return err
		}
		titles = fmt.Sprintf("%s$A:$%s,%s", quoted, last, titles)
	}
	return b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: titles, Scope: sheet})
}

// pageChars is how many characters of column width a landscape page
// holds at about 43% scale (A4 or Letter, default margins: about 130 at
// 100%). A sheet wider than that prints on several pages side by side
// rather than shrunk to one page wide and unreadable.
const pageChars = 300

// pagesWide is how many pages wide a sheet of columns widths prints.
func pagesWide(widths []int) int {
	return max(1, int(math.Ceil(totalWidth(widths)/pageChars)))
}

// pageWidth is how many characters of a sheet of columns widths one of
// its pages shows, about.
func pageWidth(widths []int) int {
	return int(totalWidth(widths) / float64(pagesWide(widths)))
}

// totalWidth is the width of columns widths, in characters.
func totalWidth(widths []int) float64 {
	total := 0.0
	for _, n := range widths {
		total += width(n)
	}
	return total
}
