package e2e

import (
	"fmt"
	"testing"
)

// Budgets of the report's first screen and length.
const (
	// firstScreen is the height of the viewport the answer must fit in:
	// a 1280 x 800 laptop screen.
	firstScreen = 800
	// pageBudget is the most the demo page may measure at 1280 px wide in
	// its default view (detail collapsed, nothing left out).
	pageBudget = 15000
)

// layoutJS measures the page in its default view: its height, the bottom
// of the results matrix and of the warnings (page coordinates), and the
// scroll margin of a deep-link target under the sticky system bar.
const layoutJS = `(function () {
  var se = document.scrollingElement || document.documentElement;
  function bottom(sel) {
    var e = document.querySelector(sel);
    if (!e) { return -1; }
    var r = e.getBoundingClientRect();
    return Math.ceil(r.bottom + window.scrollY);
  }
  var bar = document.getElementById('sysbar');
  var row = document.querySelector('tr[id]');
  return {
    Height: Math.ceil(se.scrollHeight),
    Matrix: bottom('#results-matrix'),
    Warnings: bottom('#results-warnings'),
    Bar: bar && !bar.hidden ? Math.ceil(bar.getBoundingClientRect().height) : 0,
    Margin: row ? parseFloat(getComputedStyle(row).scrollMarginTop) || 0 : -1
  };
})()`

type layout struct {
	Height, Matrix, Warnings, Bar int
	Margin                        float64
}

// checkLayout returns the findings of the page-length budget and the
// first screen: the results matrix and the warnings end within the first
// 800 px, the page is at most 15,000 px tall, and a deep-link target
// keeps a scroll margin at least as tall as the sticky system bar.
func checkLayout(tb *tab) []string {
	tb.t.Helper()
	l := eval[layout](tb, layoutJS)
	tb.t.Logf("layout at 1280 px: page %d px (budget %d), matrix ends at %d px, warnings at %d px (first screen %d), sticky bar %d px, row scroll margin %.0f px",
		l.Height, pageBudget, l.Matrix, l.Warnings, firstScreen, l.Bar, l.Margin)
	var out []string
	if l.Height > pageBudget {
		out = append(out, fmt.Sprintf("the page is %d px tall at 1280 px, over the %d px budget", l.Height, pageBudget))
	}
	switch {
	case l.Matrix < 0:
		out = append(out, "no #results-matrix on the page")
	case l.Matrix > firstScreen:
		out = append(out, fmt.Sprintf("the results matrix ends at %d px, below the first %d px", l.Matrix, firstScreen))
	}
	if l.Warnings > firstScreen {
		out = append(out, fmt.Sprintf("the warnings end at %d px, below the first %d px", l.Warnings, firstScreen))
	}
	if l.Margin >= 0 && l.Margin < float64(l.Bar) {
		out = append(out, fmt.Sprintf("a deep-link row has scroll-margin-top %.0f px, less than the sticky bar's %d px: it lands under the bar", l.Margin, l.Bar))
	}
	return out
}

// TestReportLayout opens the demo report.html at 1280 x 800 and checks
// the first screen and the page-length budget; its subtest sort then
// clicks the results matrix's headers in the same tab (checkSort).
func TestReportLayout(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	tb := newTab(t, desktopWidth, firstScreen, false, false)
	tb.open(report)
	reportFindings(t, "layout", checkLayout(tb))
	reportFindings(t, "length with the charts", checkLiveHeight(tb))
	reportFindings(t, "deep link", checkDeepLink(tb))
	reportFindings(t, "page", tb.problems())
	tb.run("sort", func(t *testing.T) { checkSort(t, tb) })
}

// scrollThroughJS scrolls down the whole page in steps, so that every
// interactive chart of the default view starts, and returns the page's
// height then.
const scrollThroughJS = `new Promise(function (done) {
  var y = 0;
  function step() {
    window.scrollTo(0, y);
    y += 600;
    if (y < document.documentElement.scrollHeight) { setTimeout(step, 30); return; }
    setTimeout(function () {
      window.scrollTo(0, 0);
      done({Height: document.documentElement.scrollHeight, Live: document.querySelectorAll('figure.is-live').length});
    }, 500);
  }
  step();
})`

// checkLiveHeight returns a finding when the page, once every chart of
// the default view has replaced its static figure, is taller than the
// budget (a chart takes its static figure's place at its size).
func checkLiveHeight(tb *tab) []string {
	tb.t.Helper()
	l := eval[struct{ Height, Live int }](tb, scrollThroughJS)
	tb.t.Logf("with %d interactive charts started: page %d px (budget %d)", l.Live, l.Height, pageBudget)
	if l.Height > pageBudget {
		return []string{fmt.Sprintf("the page is %d px tall at 1280 px once its %d charts started, over the %d px budget", l.Height, l.Live, pageBudget)}
	}
	return nil
}

// deepLinkJS follows a deep link to a row inside collapsed detail, far
// down the page, and returns where the row lands: its top must be below
// the sticky system bar and within the viewport.
const deepLinkJS = `new Promise(function (done) {
  var rows = document.querySelectorAll('details:not([open]) tr[id]');
  var row = rows[rows.length - 1];
  if (!row) { done({ID: '', Top: -1, Bottom: -1, Bar: 0, Height: window.innerHeight}); return; }
  location.hash = '#' + row.id;
  setTimeout(function () {
    var bar = document.getElementById('sysbar');
    var r = row.getBoundingClientRect();
    done({ID: row.id, Top: Math.round(r.top), Bottom: Math.round(r.bottom),
      Bar: bar && !bar.hidden ? Math.round(bar.getBoundingClientRect().bottom) : 0, Height: window.innerHeight});
  }, 300);
})`

// checkDeepLink returns a finding when a deep link into collapsed detail
// does not open it, or lands under the sticky bar or off screen.
func checkDeepLink(tb *tab) []string {
	tb.t.Helper()
	l := eval[struct {
		ID                       string
		Top, Bottom, Bar, Height int
	}](tb, deepLinkJS)
	tb.t.Logf("deep link #%s: row at %d..%d px, sticky bar ends at %d px, viewport %d px", l.ID, l.Top, l.Bottom, l.Bar, l.Height)
	switch {
	case l.ID == "":
		return nil // nothing collapsed holds a row
	case l.Bottom <= l.Top:
		return []string{fmt.Sprintf("#%s: the row is not visible (collapsed detail not opened)", l.ID)}
	case l.Top < l.Bar || l.Bottom > l.Height:
		return []string{fmt.Sprintf("#%s: the row lands at %d..%d px, not between the sticky bar (%d px) and the bottom (%d px)", l.ID, l.Top, l.Bottom, l.Bar, l.Height)}
	}
	return nil
}
