package audit

import (
	"os"
	"testing"
	"unicode/utf8"
)

// FuzzScan runs the LaTeX and Markdown readers, the segmenter, the number
// scanner and the classifier on any text: no panic, every finding inside
// the file, every number's text a piece of the original.
func FuzzScan(f *testing.F) {
	for _, p := range []string{"testdata/manuscript.md", "testdata/tex/sections/results.tex", "testdata/tex/main.tex"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, true)
			f.Add(b, false)
		}
	}
	f.Add([]byte(`\pbassert{full}{ne.auroc}[x]{0.875}\input{`), true)
	f.Add([]byte("| a | 0.5 |\n|---|\n| Full pipeline | 87.5\\% |"), false)
	f.Add([]byte("{[{[\\\\\\%%−–1,2,3.4.5"), true)
	versions := fixtureVersions()
	f.Fuzz(func(t *testing.T, data []byte, tex bool) {
		if !utf8.Valid(data) {
			return
		}
		var s *source
		if tex {
			s, _ = latexSource("f.tex", data)
		} else {
			s = markdownSource("f.md", data)
		}
		if len(s.pos) != len(s.text) {
			t.Fatalf("%d positions for %d bytes", len(s.pos), len(s.text))
		}
		for _, p := range s.pos {
			if p < 0 || int(p) >= len(data) {
				t.Fatalf("position %d outside the file of %d bytes", p, len(data))
			}
		}
		res, _ := check([]*source{s}, versions, DefaultOptions())
		lines := 1
		for _, c := range data {
			if c == '\n' {
				lines++
			}
		}
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Line > lines || fd.Col < 1 {
				t.Fatalf("finding outside the file: %+v", fd)
			}
		}
	})
}
