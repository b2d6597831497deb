package e2e

import (
	"sort"
	"testing"
)

// sortJS clicks the header of the results matrix's first metric column
// and returns that column's numbers (the rows of systems, not baselines)
// and the header's aria-sort.
const sortJS = `(function () {
  var th = document.querySelector('#results-matrix thead th.num');
  var b = th && th.querySelector('button.sort');
  if (!b) { return { Sort: 'no sort button', Values: [] }; }
  b.click();
  var col = th.cellIndex, vals = [];
  document.querySelectorAll('#results-matrix tbody tr:not(.base)').forEach(function (r) {
    var v = r.cells[col].querySelector('.v');
    if (v) { vals.push(parseFloat(v.textContent.replace(/,/g, ''))); }
  });
  return { Sort: th.getAttribute('aria-sort') || '', Values: vals };
})()`

// checkSort clicks a numeric header of the results matrix in the page of
// tb (TestReportLayout/sort): the rows sort largest first with
// aria-sort="descending"; a second click reverses. Ticking "Show each
// system's difference to the primary" shows the differences, hidden
// before. The page's problems are checked after the clicks.
func checkSort(t *testing.T, tb *tab) {
	type state struct {
		Sort   string
		Values []float64
	}
	for _, want := range []string{"descending", "ascending"} {
		s := eval[state](tb, sortJS)
		if s.Sort != want {
			t.Errorf("after a click the header has aria-sort %q, want %q", s.Sort, want)
		}
		if len(s.Values) < 2 {
			t.Fatalf("the first metric column has %d values", len(s.Values))
		}
		ok := sort.SliceIsSorted(s.Values, func(i, j int) bool { return s.Values[i] > s.Values[j] })
		if want == "ascending" {
			ok = sort.Float64sAreSorted(s.Values)
		}
		if !ok {
			t.Errorf("the column is not sorted %s: %v", want, s.Values)
		}
	}
	// The difference to the primary: hidden until the reader asks for it.
	shown := `(function () {
  var d = document.querySelector('#results-matrix .dp');
  return d ? d.getClientRects().length > 0 : null;
})()`
	if v := eval[*bool](tb, shown); v == nil {
		t.Log("the matrix has no difference to the primary (no comparison with the primary)")
	} else {
		if *v {
			t.Error("the differences to the primary show before the box is ticked")
		}
		eval[bool](tb, `document.getElementById('mx-diff').click(), true`)
		if v := eval[*bool](tb, shown); v == nil || !*v {
			t.Error("ticking the box does not show the differences to the primary")
		}
	}
	reportFindings(t, "page", tb.problems())
}
