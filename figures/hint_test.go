package figures

import (
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/golden"
)

// TestCaptionsGolden lists, for every figure of the fixture, the caption
// that holds in every medium (Subtitle) and the hint that only the
// interactive chart shows (Hint), as report.html shows them
// (testdata/captions.golden, go test ./figures -run CaptionsGolden
// -update). The golden was written when the hints were still clauses of
// the subtitle, split off by the page, so it also shows that the page's
// words did not change. No caption speaks of hovering: it is printed
// under the static and the paper's figures too.
func TestCaptionsGolden(t *testing.T) {
	var b strings.Builder
	hints := 0
	for _, s := range Catalogue(figtest.Fixture()) {
		b.WriteString(s.ID.String() + "\n  caption: " + s.Subtitle + "\n  hint: " + s.Hint + "\n")
		if strings.Contains(strings.ToLower(s.Subtitle), "hover") {
			t.Errorf("%s: the caption %q speaks of hovering, which only the interactive chart does: put it in Hint", s.ID, s.Subtitle)
		}
		if s.Hint != "" {
			hints++
		}
	}
	if hints == 0 {
		t.Error("no figure of the fixture has a hint")
	}
	golden.Check(t, filepath.Join("testdata", "captions.golden"), []byte(b.String()))
}
