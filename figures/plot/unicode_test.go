package plot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/figures"
)

// TestPDFUnicode: a label with Greek, accents and math signs prints in
// the figure PDFs as written (pdftotext reads it back; the old Windows-1252
// fonts printed "?"), the font is a subset (FontFile2, no whole program),
// and every paper figure PDF is at most 150 kB.
func TestPDFUnicode(t *testing.T) {
	const label = "BM25+RM3 (α=0.5, ≥ β, Müller)"
	r := relabeled(label, "A.1")
	set := PaperSet(figures.Catalogue(r), "sys-a")
	fs, err := RenderPaper(set, Paper{Column: 241.14749, Text: 506.295, FontSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	found := false
	for _, f := range fs {
		if len(f.Data) > 150<<10 {
			t.Errorf("%s: %d kB, want at most 150 kB", f.Name, len(f.Data)>>10)
		}
		if !strings.Contains(string(f.Data), "/FontFile2") {
			t.Errorf("%s: no embedded TrueType font", f.Name)
		}
		p := filepath.Join(dir, filepath.Base(f.Name))
		os.WriteFile(p, f.Data, 0o644)
		if _, err := exec.LookPath("pdftotext"); err != nil {
			continue
		}
		out, err := exec.Command("pdftotext", p, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext %s: %v", f.Name, err)
		}
		if strings.Contains(string(out), "α=0.5, ≥ β, Müller") {
			found = true
		}
		if strings.Contains(string(out), "(?=0.5") {
			t.Errorf("%s: the label prints with ?: %s", f.Name, out)
		}
	}
	if _, err := exec.LookPath("pdftotext"); err == nil && !found {
		t.Errorf("no paper figure PDF shows %q", label)
	}
}
