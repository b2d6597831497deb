package figures

import (
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/golden"
)

// pageParts is what report.html shows of a figure's words: the caption
// under it and the hint shown once the interactive chart replaces it.
func pageParts(s *Spec) (caption, hint string) {
	var keep, hints []string
	for _, part := range strings.Split(s.Subtitle, "; ") {
		if strings.HasPrefix(part, "hover ") {
			hints = append(hints, part)
		} else if part != "" {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, "; "), strings.Join(hints, "; ")
}

// TestCaptionsGolden lists, for every figure of the fixture, the caption
// that holds in every medium and the hint that only the interactive chart
// shows (testdata/captions.golden, go test ./figures -run
// CaptionsGolden -update).
func TestCaptionsGolden(t *testing.T) {
	var b strings.Builder
	for _, s := range Catalogue(figtest.Fixture()) {
		caption, hint := pageParts(&s)
		b.WriteString(s.ID.String() + "\n  caption: " + caption + "\n  hint: " + hint + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "captions.golden"), []byte(b.String()))
}
