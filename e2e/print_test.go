package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// printMargin is the page margin of the prints, in inches (Chromium's
// default of 1 cm, rounded).
const printMargin = 0.4

// papers are the sizes a reviewer prints on.
var papers = []struct {
	name string
	size chromedp.PaperSize
}{
	{"A4", chromedp.PaperA4},
	{"Letter", chromedp.PaperLetter},
}

// printWidthJS lists the tables that are shown and stick out of the
// printable width %d (CSS px) or scroll inside their wrapper.
const printWidthJS = `(function (limit) {
  var out = [];
  document.querySelectorAll('table').forEach(function (t) {
    if (!t.getClientRects().length) { return; }
    var r = t.getBoundingClientRect();
    var w = t.closest('.table-wrap');
    var scrolls = w && w.scrollWidth > w.clientWidth + 1;
    if (r.right > limit + 1 || scrolls) {
      out.push((t.id || 'table') + ': ' + Math.ceil(r.width) + ' px wide, right edge at ' + Math.ceil(r.right) +
        ' px' + (scrolls ? ', scrolls inside its wrapper (' + w.scrollWidth + ' > ' + w.clientWidth + ')' : ''));
    }
  });
  return out;
})(%d)`

// comparisonTokensJS returns the numbers of the first comparisons table
// (the primary's), one token per number.
const comparisonTokensJS = `(function () {
  var t = document.querySelector('table[id^="t-comparisons"]');
  if (!t) { return []; }
  var out = [];
  t.querySelectorAll('td.num').forEach(function (c) {
    (c.textContent.match(/[0-9][0-9.,]*[0-9]/g) || []).forEach(function (s) { if (s.length >= 4) { out.push(s); } });
  });
  return out;
})()`

// TestReportPrint prints the demo report.html on A4 and Letter: at the
// printable width of each, in the print stylesheet with the page's
// beforeprint handler run, no shown table is wider than the page or
// scrolls inside its wrapper; the PDF (saved to e2e/out/) holds every
// number of the primary's comparisons table, which sits in a collapsed
// block on screen (pdftotext; that part skips without poppler).
func TestReportPrint(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	pdftotext, lookErr := exec.LookPath("pdftotext")
	for _, p := range papers {
		t.Run(p.name, func(t *testing.T) {
			limit := int((p.size.Width - 2*printMargin) * 96)
			tb := newTab(t, int64(limit), desktopHeight, false, false)
			tb.open(report)
			if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
				t.Fatalf("Emulation.setEmulatedMedia: %v", err)
			}
			eval[bool](tb, `window.dispatchEvent(new Event('beforeprint')), true`)
			wide := eval[[]string](tb, fmt.Sprintf(printWidthJS, limit))
			reportFindings(t, fmt.Sprintf("tables wider than the printable width of %s (%d px)", p.name, limit), wide)
			tokens := eval[[]string](tb, comparisonTokensJS)
			eval[bool](tb, `window.dispatchEvent(new Event('afterprint')), true`)
			if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
				t.Fatalf("Emulation.setEmulatedMedia: %v", err)
			}
			if len(tokens) == 0 {
				t.Fatal("the report has no comparisons table with numbers")
			}

			pdf, err := chromedp.Run(tb.ctx, chromedp.PrintToPDF(chromedp.PDFPaper(p.size), chromedp.PDFMargin(printMargin)))
			if err != nil {
				t.Fatalf("print to PDF: %v", err)
			}
			save(t, "report-"+strings.ToLower(p.name)+".pdf", pdf)
			reportFindings(t, "page while printing", tb.problems())
			if lookErr != nil {
				t.Skip("pdftotext not on PATH: the text of the PDF is not checked")
			}
			cmd := exec.Command(pdftotext, "-layout", "-", "-")
			cmd.Stdin = bytes.NewReader(pdf)
			text, err := cmd.Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			var missing []string
			for _, tok := range tokens {
				if !bytes.Contains(text, []byte(tok)) {
					missing = append(missing, tok)
				}
			}
			if len(missing) > 0 {
				t.Errorf("%d of the %d numbers of the comparisons table are not in the %s PDF, e.g. %q", len(missing), len(tokens), p.name, missing[:min(5, len(missing))])
			}
			if bad := headerPages(text); len(bad) > 0 {
				t.Errorf("%s PDF: the header repeated at the top of a page lacks its numeric columns (a sort button Chromium does not paint in a repeated header) on %d page(s), e.g. %q", p.name, len(bad), bad[0])
			}
		})
	}
}

// headerPages returns the header lines of the scorecard's repeated page
// headers (System, Metric, ..., Target, Met) that lack the numeric column
// "Value [CI]" between them, in the text of a printed report. A table that
// spans pages repeats its header on each; every copy must name every
// column.
func headerPages(text []byte) []string {
	var bad []string
	for _, line := range strings.Split(string(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] != "System" || f[1] != "Metric" {
			continue
		}
		if strings.Contains(line, "Target") && !strings.Contains(line, "Value [CI]") {
			bad = append(bad, strings.Join(f, " "))
		}
	}
	return bad
}
