package audit

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/internal/golden"
)

// want is a finding as the tests expect it.
type want struct {
	line  int
	class Class
	text  string
}

// fixtureWant are the findings of testdata/manuscript.md against the
// fixture (unknown ones included), by line: the reasons are in the
// comments.
var fixtureWant = []want{
	{3, Unknown, "2024"}, // a year
	{3, Unknown, "3"},    // "Section 3"
	{4, OK, "0.875"},     // v2's AUROC of Full pipeline, 0.8754
	{4, OK, "0.860"},     // its CI low, 0.8601
	{4, OK, "0.891"},     // its CI high, 0.8912
	{4, OK, "14,770"},    // its n
	{5, Stale, "0.940"},  // v1's AUROC 0.9402; v2 gives 0.875
	{6, Mismatch, "0.811"},
	{7, Claim, "significantly"}, // p_holm 0.111 > alpha 0.05
	{8, OK, "75.5%"},            // Retriever only's AUROC 0.7551
	{9, OK, "1,477"},            // the dataset's posts
	{13, OK, "0.875"}, {13, OK, "0.851"},
	{14, OK, "0.755"}, {14, OK, "0.679"},
}

func runFixture(t *testing.T, paths ...string) *Result {
	t.Helper()
	res, err := Run(paths, fixtureVersions(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMarkdownFindings(t *testing.T) {
	res := runFixture(t, "testdata/manuscript.md")
	var got []want
	for _, f := range res.Findings {
		got = append(got, want{f.Line, f.Class, f.Text})
	}
	if g, w := fmt.Sprint(got), fmt.Sprint(fixtureWant); g != w {
		t.Errorf("findings:\n got %v\nwant %v", g, w)
	}
	if !res.Failed() {
		t.Error("Failed() = false with a stale, a mismatch and a claim")
	}
	stale := res.Findings[6]
	if stale.Version != "v1" || stale.Metric != "ne.auroc" || stale.System != "full" || stale.Field != "value" ||
		float64(stale.Current) != 0.8754 || !strings.Contains(stale.Why, "v2 gives 0.875") {
		t.Errorf("stale finding: %+v", stale)
	}
	if mm := res.Findings[7]; !strings.Contains(mm.Why, "v2 gives 0.851") || float64(mm.Current) != 0.8512 {
		t.Errorf("mismatch finding: %+v", mm)
	}
	if c := res.Findings[8]; !strings.Contains(c.Why, "p_holm = 0.111 (bootstrap)") || c.Metric != "clinical.screen_sensitivity" {
		t.Errorf("claim finding: %+v", c)
	}
}

// comparable is a finding without its place, to compare formats.
func comparable(res *Result) []string {
	var out []string
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Text, `\pb`) || f.Class == Unknown && f.Text == "2025" { // macros; the footnote of handDocx
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %s %s %s %s", f.Class, strings.NewReplacer(`\`, "", "{,}", ",").Replace(f.Text), f.System, f.Metric, f.Field, f.Version))
	}
	return out
}

// TestFormatsAgree: the same text as LaTeX (through \input, with a
// comment, a preamble, \cite and \label), as Markdown, as a .docx written
// by LibreOffice and as a .docx written by hand gives the same findings.
func TestFormatsAgree(t *testing.T) {
	md := comparable(runFixture(t, "testdata/manuscript.md"))
	for _, p := range []string{"testdata/tex/main.tex", "testdata/manuscript.docx", handDocx(t)} {
		if got := comparable(runFixture(t, p)); strings.Join(got, "\n") != strings.Join(md, "\n") {
			t.Errorf("%s differs from manuscript.md:\n%s", p, golden.Diff([]byte(strings.Join(md, "\n")), []byte(strings.Join(got, "\n"))))
		}
	}
}

func TestLaTeXPlaces(t *testing.T) {
	res := runFixture(t, "testdata/tex/main.tex")
	var got []string
	for _, f := range res.Findings {
		if f.Class != Unknown {
			got = append(got, fmt.Sprintf("%s:%d:%d: %s: %s", filepath.ToSlash(f.File), f.Line, f.Col, f.Class, f.Text))
		}
	}
	w := `testdata/tex/sections/results.tex:2:35: ok: 0.875
testdata/tex/sections/results.tex:2:42: ok: 0.860
testdata/tex/sections/results.tex:2:49: ok: 0.891
testdata/tex/sections/results.tex:2:61: ok: 14{,}770
testdata/tex/sections/results.tex:4:57: stale: 0.940
testdata/tex/sections/results.tex:5:33: mismatch: 0.811
testdata/tex/sections/results.tex:6:24: claim: significantly
testdata/tex/sections/results.tex:7:36: ok: 75.5\%
testdata/tex/sections/results.tex:8:8: ok: 1,477
testdata/tex/sections/results.tex:8:37: macro: \pbvalue{full}{ne.auroc}
testdata/tex/sections/results.tex:8:62: macro: \pbci{full}{ne.auroc}
testdata/tex/sections/results.tex:9:1: ok: \pbassert{full}{ne.auroc}{0.875}
testdata/tex/sections/results.tex:14:17: ok: 0.875
testdata/tex/sections/results.tex:14:25: ok: 0.851
testdata/tex/sections/results.tex:15:18: ok: 0.755
testdata/tex/sections/results.tex:15:26: ok: 0.679`
	if g := strings.Join(got, "\n"); g != w {
		t.Errorf("findings differ:\n%s", golden.Diff([]byte(w), []byte(g)))
	}
}

// handDocx writes testdata/manuscript.md's text as a .docx by hand:
// paragraphs, a table, a footnote, Word's separators, a run split in two
// and a deleted run (not read).
func handDocx(t *testing.T) string {
	t.Helper()
	var body strings.Builder
	para := func(s string) {
		body.WriteString("<w:p><w:r><w:t xml:space=\"preserve\">" + xmlText(s) + "</w:t></w:r></w:p>")
	}
	para("Results")
	body.WriteString(`<w:p><w:r><w:t>Our pipeline was first run in 2024 (Section 3 gives the details). Full pipeline reaches an AUROC of 0.8</w:t></w:r><w:r><w:t>75 [0.860, 0.891] over 14,770 queries.</w:t></w:r><w:r><w:delText>0.999</w:delText></w:r>`)
	body.WriteString(`<w:r><w:t xml:space="preserve"> An earlier draft said Full pipeline reached an AUROC of 0.940. Full pipeline has an nDCG@10 of 0.811. Full pipeline is significantly better than Retriever only on screening sensitivity. Retriever only reaches an AUROC of 75.5%. We use 1,477 posts.</w:t></w:r></w:p>`)
	body.WriteString("<w:tbl>")
	for _, row := range [][]string{{"System", "AUROC", "nDCG@10"}, {"Full pipeline", "0.875", "0.851"}, {"Retriever only", "0.755", "0.679"}} {
		body.WriteString("<w:tr>")
		for _, c := range row {
			body.WriteString("<w:tc>")
			para(c)
			body.WriteString("</w:tc>")
		}
		body.WriteString("</w:tr>")
	}
	body.WriteString("</w:tbl>")
	doc := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body.String() + `</w:body></w:document>`
	notes := `<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:t>0.123</w:t></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Written in 2025.</w:t></w:r></w:p></w:footnote></w:footnotes>`
	p := filepath.Join(t.TempDir(), "hand.docx")
	writeZip(t, p, map[string]string{"word/document.xml": doc, "word/footnotes.xml": notes}, zip.Deflate)
	return p
}

func xmlText(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func writeZip(t testing.TB, p string, files map[string]string, method uint16) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range []string{"word/document.xml", "word/footnotes.xml"} {
		body, ok := files[name]
		if !ok {
			continue
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDocxParagraphs: a .docx finding's line is its paragraph number
// (footnotes after the body) and carries the paragraph's text.
func TestDocxParagraphs(t *testing.T) {
	res, err := Run([]string{handDocx(t)}, fixtureVersions(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var stale, year *Finding
	for i, f := range res.Findings {
		switch f.Text {
		case "0.940":
			stale = &res.Findings[i]
		case "2025":
			year = &res.Findings[i]
		}
	}
	if stale == nil || stale.Line != 2 || !strings.HasPrefix(stale.Para, "Our pipeline was first run") {
		t.Errorf("stale finding: %+v", stale)
	}
	if year == nil || year.Line != 12 || year.Class != Unknown {
		t.Errorf("the footnote's year: %+v (want paragraph 12: 2 in the body, 9 in the table, 1 footnote)", year)
	}
	for _, f := range res.Findings {
		if f.Text == "0.999" || f.Text == "0.123" {
			t.Errorf("read %s from a deleted run or a footnote separator", f.Text)
		}
	}
}

func TestMacrosAndCurrentValuesPass(t *testing.T) {
	dir := t.TempDir()
	tex := `\documentclass{article}
\begin{document}
Full pipeline reaches an AUROC of \pbvalue{full}{ne.auroc} \pbci{full}{ne.auroc}, against 0.755 for Retriever only.
Full pipeline is not significantly better than Retriever only on screening sensitivity (p = 0.111).
\pbassert{full}{ne.auroc}{0.875} \pbassert{full}{ne.auroc}[criterion=A.1]{0.642}
\end{document}
`
	p := filepath.Join(dir, "ok.tex")
	os.WriteFile(p, []byte(tex), 0o644)
	res := runFixture(t, p)
	if res.Failed() {
		var b bytes.Buffer
		res.Write(&b, "text", true)
		t.Errorf("a manuscript of macros and current values fails:\n%s", b.String())
	}
	if res.Counts[Macro] != 2 || res.Counts[OK] != 5 {
		t.Errorf("counts %v, want 2 macros and 5 ok (0.755, the claim, p, two asserts)", res.Counts)
	}
}
