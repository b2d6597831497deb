package e2e

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Viewports: a desktop and a phone (CSS pixels).
const (
	desktopWidth, desktopHeight = 1280, 900
	phoneWidth, phoneHeight     = 390, 844
)

// TestReportDesktop opens the demo report.html on a desktop: no request
// leaves the page, no console error or exception, every chart initialises
// when scrolled to (for every system), every link of the table of contents
// has its target. It saves a full-page screenshot and a PDF print. Its
// subtest axe runs axe-core on the same page, its charts initialised, in
// the light colour scheme.
func TestReportDesktop(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	// The size budget is a fact of the bytes, so it is asserted; here on
	// the reduced demo, while make bench prints the full demo's size
	// against the same 4 MB (cmd/pbbench, workload a).
	if fi, err := os.Stat(report); err != nil {
		t.Error(err)
	} else if t.Logf("report.html: %.2f MB (budget: 4 MB)", float64(fi.Size())/1e6); fi.Size() > 4e6 {
		t.Errorf("report.html is %d bytes, over the 4 MB budget of the demo's page", fi.Size())
	}
	tb := newTab(t, desktopWidth, desktopHeight, false, false)
	tb.open(report)
	// docs/report.md budgets DOMContentLoaded at 1 s on the 2-core machine: measured
	// and logged here, never asserted (a timed test is flaky).
	t.Logf("DOMContentLoaded after %.0f ms, load after %.0f ms", eval[float64](tb,
		`performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`), eval[float64](tb,
		`performance.getEntriesByType('navigation')[0].loadEventEnd`))
	reportFindings(t, "table of contents", checkTOC(tb))
	reportFindings(t, "charts", checkCharts(tb, chartWait))
	reportFindings(t, "page", tb.problems())
	tb.screenshot("report-desktop.png")

	pdf, err := chromedp.Run(tb.ctx, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFPrintBackground()))
	if err != nil {
		t.Errorf("print to PDF: %v", err)
	} else {
		save(t, "report.pdf", pdf)
	}
	reportFindings(t, "page while printing", tb.problems())
	tb.run("axe", func(t *testing.T) { checkAxe(t, tb) })
}

// TestReportPhone opens the demo report.html on a 390 px phone: the page
// must not be wider than the screen, before and after the charts
// initialise (tables scroll inside their div.table-wrap).
func TestReportPhone(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	tb := newTab(t, phoneWidth, phoneHeight, true, false)
	tb.open(report)
	reportFindings(t, "width on load", checkWidth(tb, phoneWidth))
	reportFindings(t, "charts", checkCharts(tb, chartWait))
	reportFindings(t, "width with the charts", checkWidth(tb, phoneWidth))
	reportFindings(t, "page", tb.problems())
	tb.screenshot("report-phone.png")
}

// TestReportDark opens the demo report.html in the dark colour scheme
// (prefers-color-scheme: dark): no problem on the page, every chart
// initialises; it saves a screenshot. Its subtest axe runs axe-core in
// the dark scheme (contrast differs from the light one).
func TestReportDark(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	tb := newTab(t, desktopWidth, desktopHeight, false, false)
	tb.darkScheme()
	tb.open(report)
	reportFindings(t, "charts", checkCharts(tb, chartWait))
	reportFindings(t, "page", tb.problems())
	tb.screenshot("report-dark.png")
	tb.run("axe", func(t *testing.T) { checkAxe(t, tb) })
}

// checkAxe injects axe-core into the page of tb, whose charts have
// initialised and whose problems the parent test has reported, and fails
// t on every serious or critical finding. It skips t when axe-core has
// not been fetched.
func checkAxe(t *testing.T, tb *tab) {
	script := axeScript(t)
	reportFindings(t, "accessibility", runAxe(tb, script))
}

// TestReportNoScript opens the demo report.html with JavaScript disabled:
// every table and static figure is there and visible (docs/report.md: plain HTML
// first), the closed per-system blocks opening with a click on their
// summary, and still no request leaves the page.
func TestReportNoScript(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	tb := newTab(t, desktopWidth, desktopHeight, false, true)
	tb.open(report)
	tb.screenshot("report-noscript.png") // as a reader first sees it
	reportFindings(t, "without scripts", checkNoScript(tb))
	reportFindings(t, "page", tb.problems())
}
