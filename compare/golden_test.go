package compare

import (
	"bytes"
	"path/filepath"
	"testing"

	"paperbundle/internal/golden"
)

// TestGolden compares the text and Markdown forms of the fixture's
// changes with testdata/*.golden (regenerate with -update after checking
// the diff printed on a mismatch).
func TestGolden(t *testing.T) {
	c := fixtureDiff(t)
	for _, g := range []struct {
		file, format string
		opt          WriteOptions
	}{
		{"changes_text.golden", FormatText, WriteOptions{}},
		{"changes_md.golden", FormatMD, WriteOptions{}},
		{"changes_md_all.golden", FormatMD, WriteOptions{All: true}},
	} {
		var b bytes.Buffer
		if err := c.Write(&b, g.format, g.opt); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", g.file), b.Bytes())
	}
}
