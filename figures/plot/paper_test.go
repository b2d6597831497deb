package plot

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf16"

	"gonum.org/v1/plot/vg"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
)

var (
	mediaBoxRe = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	fontSizeRe = regexp.MustCompile(`([0-9.]+) Tf`)
	lineWRe    = regexp.MustCompile(`(?m)^([0-9.]+) w$`)
)

// TestPaperFigures: for acm and ieee, every paper figure's page is exactly
// the venue's column width (text width for a wide one; the PDF is in
// PostScript points, 72.27 TeX points = 72), every text is set at
// font_size, every stroke is 0.5-1 pt, fonts are embedded, no title is
// drawn, and the bytes are the same on a second render.
func TestPaperFigures(t *testing.T) {
	r := figtest.Fixture()
	set := PaperSet(figures.Catalogue(r), "sys-a")
	if len(set) < 8 {
		t.Fatalf("paper set has %d figures, want the overlays, systems and the primary's figures", len(set))
	}
	for _, v := range []struct {
		name         string
		column, text float64
	}{{"acm", 241.14749, 506.295}, {"ieee", 252, 516}} {
		p := Paper{Column: v.column, Text: v.text, FontSize: 8}
		fs, err := RenderPaper(set, p)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := RenderPaper(set, p)
		for i, f := range fs {
			s := &set[i]
			if f.Name != PaperDir+s.ID.String()+".pdf" {
				t.Errorf("file %s for %s", f.Name, s.ID)
			}
			if !bytes.Equal(f.Data, again[i].Data) {
				t.Errorf("%s %s: bytes differ on a second render", v.name, f.Name)
			}
			want := v.column
			if Wide(s) {
				want = v.text
			}
			m := mediaBoxRe.FindSubmatch(f.Data)
			if m == nil {
				t.Fatalf("%s: no MediaBox", f.Name)
			}
			w, _ := strconv.ParseFloat(string(m[1]), 64)
			if math.Abs(w*72.27/72-want) > 0.05 {
				t.Errorf("%s %s: page %.3f bp = %.3f pt wide, want %.3f pt", v.name, f.Name, w, w*72.27/72, want)
			}
			if !bytes.Contains(f.Data, []byte("/FontFile")) {
				t.Errorf("%s %s: fonts not embedded", v.name, f.Name)
			}
			content, err := pdfPageContent(f.Data)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range fontSizeRe.FindAllSubmatch(content, -1) {
				if sz, _ := strconv.ParseFloat(string(m[1]), 64); math.Abs(sz-8) > 0.01 {
					t.Errorf("%s %s: text at %s pt, want 8", v.name, f.Name, m[1])
					break
				}
			}
			for _, m := range lineWRe.FindAllSubmatch(content, -1) {
				if lw, _ := strconv.ParseFloat(string(m[1]), 64); lw != 0 && (lw < 0.5-1e-9 || lw > 1+1e-9) {
					t.Errorf("%s %s: a stroke of %s pt, want 0.5 to 1", v.name, f.Name, m[1])
					break
				}
			}
			if s.Title != "" && bytes.Contains(content, pdfString(s.Title)) {
				t.Errorf("%s %s: the title is drawn inside the figure", v.name, f.Name)
			}
		}
	}
}

// TestPaperSet: with one system there is no overlay, so the primary's ROC
// and PR curves are in; a figure of another system never is.
func TestPaperSet(t *testing.T) {
	specs := figures.Catalogue(figtest.Fixture())
	for _, s := range PaperSet(specs, "sys-a") {
		if s.System != "" && s.System != "sys-a" {
			t.Errorf("%s of another system in the paper set", s.ID)
		}
	}
	var one []figures.Spec
	for _, s := range specs {
		if s.Kind != figures.KindROCOverlay && s.Kind != figures.KindPROverlay {
			one = append(one, s)
		}
	}
	got := map[figures.Kind]bool{}
	for _, s := range PaperSet(one, "sys-a") {
		got[s.Kind] = true
	}
	if !got[figures.KindROC] || !got[figures.KindPR] {
		t.Errorf("without overlays the primary's ROC and PR are missing: %v", got)
	}
}

// TestRotateCategories: long category names that do not fit the room of
// one category turn 45°; short ones stay level.
func TestRotateCategories(t *testing.T) {
	for _, tc := range []struct {
		names []string
		turn  bool
	}{
		{[]string{"A.1", "A.2", "A.3", "A.4", "A.5", "A.6", "A.7", "A.8", "A.9", "A.10"}, false},
		{[]string{"Depressed mood most of the day", "Diminished interest", "Weight change", "Insomnia or hypersomnia",
			"Psychomotor agitation", "Fatigue or loss of energy", "Worthlessness or guilt", "Diminished concentration"}, true},
	} {
		pn := figures.Panel{X: figures.Axis{Categories: tc.names}}
		p := newPlot("", "", "", screen)
		rotateCategories(p, &pn, figW+0.4*vg.Inch, screen)
		if got := p.X.Tick.Label.Rotation != 0; got != tc.turn {
			t.Errorf("%v: rotated %v, want %v", tc.names, got, tc.turn)
		}
	}
}

// pdfString is s as pdfCanvas writes it in a content stream: UTF-16 big
// endian in a literal string, with \ ( ) and CR escaped.
func pdfString(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		for _, c := range []byte{byte(u >> 8), byte(u)} {
			switch c {
			case '\\', '(', ')':
				b = append(b, '\\', c)
			case '\r':
				b = append(b, '\\', 'r')
			default:
				b = append(b, c)
			}
		}
	}
	return append(append([]byte("("), b...), ')')
}
