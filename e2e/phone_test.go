package e2e

import (
	"fmt"
	"testing"
)

// phoneMatrixJS returns the right edge of the results matrix's third
// column (the second metric) and the smallest font size, in CSS pixels,
// of the static figures' text as drawn.
const phoneMatrixJS = `(function () {
  var th = document.querySelectorAll('#results-matrix thead th')[2];
  var min = 1e9, where = '';
  document.querySelectorAll('.fig-static svg').forEach(function (svg) {
    var vb = svg.viewBox && svg.viewBox.baseVal;
    var w = svg.getBoundingClientRect().width;
    if (!vb || !vb.width || !w) { return; }
    svg.querySelectorAll('text').forEach(function (t) {
      var fs = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize);
      if (fs && fs * w / vb.width < min) { min = fs * w / vb.width; where = (svg.closest('figure') || {}).id + ' (' + t.textContent.slice(0, 30) + ')'; }
    });
  });
  return { Right: th ? th.getBoundingClientRect().right : -1, MinFont: min, Where: where };
})()`

// TestReportPhoneMatrix opens the demo report on a 390 px phone with
// scripts off (the static figures shown): the results matrix shows the
// system and the first two metrics without sideways scrolling, and the
// text of the static figures is drawn at 9 px or more.
func TestReportPhoneMatrix(t *testing.T) {
	browserContext(t) // skip without chromium before building anything
	report := demoReport(t)
	tb := newTab(t, phoneWidth, phoneHeight, true, true)
	tb.open(report)
	r := eval[struct {
		Right, MinFont float64
		Where          string
	}](tb, phoneMatrixJS)
	t.Logf("phone: second metric column ends at %.0f px; smallest static figure text %.1f px", r.Right, r.MinFont)
	if r.Right < 0 || r.Right > phoneWidth {
		t.Errorf("the second metric column of the matrix ends at %.0f px, beyond the %d px screen", r.Right, phoneWidth)
	}
	if r.MinFont < 9 {
		t.Errorf("static figure text drawn at %s px, under 9 px: %s", fmt.Sprintf("%.1f", r.MinFont), r.Where)
	}
	reportFindings(t, "width", checkWidth(tb, phoneWidth))
}
