package plot

import (
	"bytes"
	"compress/zlib"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/cputime"
	"paperbundle/internal/golden"
	"paperbundle/report"
)

// files maps bundle paths to bytes.
type files map[string][]byte

func render(t testing.TB, r *report.Report, opt Options) (files, []File) {
	t.Helper()
	fs, err := Render(figures.Catalogue(r), opt)
	if err != nil {
		t.Fatal(err)
	}
	m := files{}
	for _, f := range fs {
		if _, dup := m[f.Name]; dup {
			t.Fatalf("%s rendered twice", f.Name)
		}
		m[f.Name] = f.Data
	}
	return m, fs
}

var (
	fixtureOnce  sync.Once
	fixtureFiles files
)

// renderFixture renders the fixture once for the tests that only read the
// files.
func renderFixture(t testing.TB) files {
	t.Helper()
	fixtureOnce.Do(func() { fixtureFiles, _ = render(t, figtest.Fixture(), Options{}) })
	if fixtureFiles == nil {
		t.Fatal("fixture not rendered")
	}
	return fixtureFiles
}

// specByID returns the named spec of the fixture's catalogue.
func specByID(t *testing.T, r *report.Report, id string) *figures.Spec {
	t.Helper()
	specs := figures.Catalogue(r)
	for i := range specs {
		if specs[i].ID.String() == id {
			return &specs[i]
		}
	}
	t.Fatalf("no figure %q", id)
	return nil
}

// goldenPath is testdata/golden/<file>, or testdata/golden/<GOARCH>/<file>
// when that exists (floating-point rounding may differ by architecture).
func goldenPath(file string) string {
	arch := filepath.Join("testdata", "golden", runtime.GOARCH, file)
	if _, err := os.Stat(arch); err == nil {
		return arch
	}
	return filepath.Join("testdata", "golden", file)
}

func checkGolden(t *testing.T, file string, got []byte, cmp func(want, got []byte) error) {
	t.Helper()
	golden.CheckWith(t, goldenPath(file), got, cmp)
}

// goldenFigures are compared against testdata/golden: every figure kind,
// for the first system, plus the cases with undefined values.
var goldenFigures = []string{
	"roc_sys_a", "roc_overlay", "pr_sys_a", "pr_sys_b", "pr_overlay", "reliability_sys_a", "decision_curve_sys_a",
	"criteria_auroc_sys_a", "criteria_auroc_sys_b", "criteria_ranking_sys_a",
	"dynk_hist_sys_a", "dynk_hist_state_sys_a", "dynk_hist_evidence_sys_a",
	"recall_at_k_sys_a", "precision_at_k_sys_a", "difficulty_sys_a", "difficulty_sys_b", "gamma_sweep_sys_a",
	"gate_grid_screen_sensitivity_sys_a", "gate_grid_alert_precision_sys_a", "gate_grid_workload_sys_a",
	"per_query_heatmap_sys_a", "systems",
}

// pngGolden is the subset whose 300-dpi PNG is kept (PNGs are large).
var pngGolden = []string{"roc_sys_a", "reliability_sys_a", "difficulty_sys_a", "gate_grid_alert_precision_sys_a", "per_query_heatmap_sys_a", "systems"}

func TestGoldenSVG(t *testing.T) {
	fs := renderFixture(t)
	for _, name := range goldenFigures {
		got, ok := fs[Dir+name+".svg"]
		if !ok {
			t.Errorf("%s.svg not rendered", name)
			continue
		}
		checkGolden(t, name+".svg.golden", got, func(want, got []byte) error {
			if !bytes.Equal(want, got) {
				return fmt.Errorf("SVG differs:\n%s", lineDiff(want, got))
			}
			return nil
		})
	}
}

func TestGoldenPDF(t *testing.T) {
	fs := renderFixture(t)
	for _, name := range goldenFigures {
		content, err := pdfPageContent(fs[Dir+name+".pdf"])
		if err != nil {
			t.Errorf("%s.pdf: %v", name, err)
			continue
		}
		checkGolden(t, name+".pdf-content.golden", content, func(want, got []byte) error {
			if !bytes.Equal(want, got) {
				return fmt.Errorf("page content differs:\n%s", lineDiff(want, got))
			}
			return nil
		})
	}
}

func TestGoldenPNG(t *testing.T) {
	fs := renderFixture(t)
	for _, name := range pngGolden {
		checkGolden(t, name+".png.golden", fs[Dir+name+".png"], func(want, got []byte) error {
			return samePixels(want, got, 16, 0.002)
		})
	}
}

// lineDiff shows the first differing lines of two texts (SVG elements are
// split at '<' so that a diff names the element), at most 12 of them.
func lineDiff(want, got []byte) string {
	split := func(b []byte) []string { return strings.Split(strings.ReplaceAll(string(b), "<", "\n<"), "\n") }
	a, b := split(want), split(got)
	var out []string
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for k := i; k < i+6 && (k < len(a) || k < len(b)); k++ {
		if k < len(a) {
			out = append(out, fmt.Sprintf("line %d -%s", k+1, a[k]))
		}
		if k < len(b) {
			out = append(out, fmt.Sprintf("line %d +%s", k+1, b[k]))
		}
	}
	out = append(out, fmt.Sprintf("(%d and %d lines)", len(a), len(b)))
	return strings.Join(out, "\n")
}

// firstDiff describes where two byte slices first differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			lo := max(0, i-40)
			return fmt.Sprintf("at byte %d: want %q, got %q", i, a[lo:min(len(a), i+40)], b[lo:min(len(b), i+40)])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

// samePixels decodes two PNGs and fails when they differ in size or when
// more than frac of the pixels differ by more than tol in some channel
// (anti-aliasing may differ slightly between platforms).
func samePixels(want, got []byte, tol uint32, frac float64) error {
	a, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("golden: %v", err)
	}
	b, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("rendered: %v", err)
	}
	if a.Bounds() != b.Bounds() {
		return fmt.Errorf("size %v, want %v", b.Bounds(), a.Bounds())
	}
	bad := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !closeColor(a.At(x, y), b.At(x, y), tol<<8) {
				bad++
			}
		}
	}
	if f := float64(bad) / float64(r.Dx()*r.Dy()); f > frac {
		return fmt.Errorf("%d pixels (%.3f%%) differ by more than %d", bad, 100*f, tol)
	}
	return nil
}

func closeColor(a, b interface{ RGBA() (r, g, b, a uint32) }, tol uint32) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	d := func(x, y uint32) uint32 {
		if x > y {
			return x - y
		}
		return y - x
	}
	return d(ar, br) <= tol && d(ag, bg) <= tol && d(ab, bb) <= tol && d(aa, ba) <= tol
}

var (
	pdfObj      = regexp.MustCompile(`(?m)^(\d+) 0 obj\s*`)
	pdfContents = regexp.MustCompile(`/Contents (\d+) 0 R`)
	pdfLength   = regexp.MustCompile(`/Length (\d+)`)
)

// pdfPageContent returns the decompressed content stream of every page,
// concatenated: what is drawn, without the fonts, dates and offsets.
func pdfPageContent(pdf []byte) ([]byte, error) {
	streams := map[string][]byte{}
	for _, m := range pdfObj.FindAllSubmatchIndex(pdf, -1) {
		num := string(pdf[m[2]:m[3]])
		body := pdf[m[1]:]
		kw := bytes.Index(body, []byte("stream"))
		end := bytes.Index(body, []byte("endobj"))
		if kw < 0 || end < 0 || kw > end {
			continue // no stream in this object
		}
		dict := body[:kw]
		lm := pdfLength.FindSubmatch(dict)
		if lm == nil {
			continue
		}
		n, _ := strconv.Atoi(string(lm[1]))
		start := kw + len("stream")
		if start < len(body) && body[start] == '\r' {
			start++
		}
		start++ // the end of line after "stream"
		if start+n > len(body) {
			return nil, fmt.Errorf("object %s: stream past the end", num)
		}
		data := body[start : start+n]
		if bytes.Contains(dict, []byte("/FlateDecode")) {
			zr, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("object %s: %v", num, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				return nil, fmt.Errorf("object %s: %v", num, err)
			}
		}
		streams[num] = data
	}
	var out []byte
	pages := pdfContents.FindAllSubmatch(pdf, -1)
	if len(pages) == 0 {
		return nil, fmt.Errorf("no page")
	}
	for _, p := range pages {
		s, ok := streams[string(p[1])]
		if !ok {
			return nil, fmt.Errorf("page content object %s not found", p[1])
		}
		out = append(out, s...)
	}
	return out, nil
}

// TestDeterminism renders the fixture twice: every file must be
// byte-identical.
func TestDeterminism(t *testing.T) {
	a := renderFixture(t)
	b, _ := render(t, figtest.Fixture(), Options{})
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, x := range a {
		if !bytes.Equal(x, b[name]) {
			t.Errorf("%s differs between two renders: %s", name, firstDiff(x, b[name]))
		}
	}
}

// TestParallelSameAsSequential: the figures rendered on several goroutines
// are byte for byte those of a render on one, and come in spec order,
// each as SVG, PDF, PNG.
func TestParallelSameAsSequential(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	seq, _ := render(t, figtest.Fixture(), Options{})
	runtime.GOMAXPROCS(2)
	par, list := render(t, figtest.Fixture(), Options{})
	runtime.GOMAXPROCS(prev)
	if len(seq) != len(par) {
		t.Fatalf("%d files on one goroutine, %d on two", len(seq), len(par))
	}
	for name, x := range seq {
		if !bytes.Equal(x, par[name]) {
			t.Errorf("%s differs between one and two goroutines: %s", name, firstDiff(x, par[name]))
		}
	}
	var got, want []string
	for _, f := range list {
		got = append(got, f.Name)
	}
	for _, s := range figures.Catalogue(figtest.Fixture()) {
		n := Dir + s.ID.String()
		want = append(want, n+".svg", n+".pdf", n+".png")
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files in the order\n%v\nwant\n%v", got, want)
	}
}

func TestFiles(t *testing.T) {
	r := figtest.Fixture()
	fs := renderFixture(t)
	specs := figures.Catalogue(r)
	if len(fs) != 3*len(specs) {
		t.Errorf("%d files for %d figures", len(fs), len(specs))
	}
	valid := regexp.MustCompile(`^figures/[a-z0-9_]+\.(svg|pdf|png)$`)
	for name, data := range fs {
		if !valid.MatchString(name) {
			t.Errorf("file name %q outside [a-z0-9_]", name)
		}
		if len(data) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	for i := range specs {
		n := specs[i].ID.String()
		img, err := png.Decode(bytes.NewReader(fs[Dir+n+".png"]))
		if err != nil {
			t.Errorf("%s.png: %v", n, err)
			continue
		}
		w, h := size(&specs[i])
		if gw, gh := img.Bounds().Dx(), img.Bounds().Dy(); gw != int(w.Dots(DPI)+0.5) || gh != int(h.Dots(DPI)+0.5) {
			t.Errorf("%s.png is %dx%d, want %.0f x %.0f at %d dpi", n, gw, gh, w.Dots(DPI), h.Dots(DPI), DPI)
		}
		if err := xml.Unmarshal(fs[Dir+n+".svg"], new(struct{})); err != nil {
			t.Errorf("%s.svg is not well-formed XML: %v", n, err)
		}
	}
}

// TestPDFDates checks the fixed creation and modification dates: the
// default without a generation time, else the Report's.
func TestPDFDates(t *testing.T) {
	s := specByID(t, figtest.Fixture(), "roc_sys_a")
	for _, tc := range []struct {
		generated string
		want      string
	}{
		{"", "D:20000101000000"},
		{"not a time", "D:20000101000000"},
		{"2026-01-18T12:30:00Z", "D:20260118123000"},
		{"2026-01-18T13:30:00+01:00", "D:20260118123000"},
	} {
		fs, err := Render([]figures.Spec{*s}, Options{Date: DateOf(tc.generated)})
		if err != nil {
			t.Fatal(err)
		}
		pdf := fs[1].Data
		for _, key := range []string{"/CreationDate", "/ModDate"} {
			if !bytes.Contains(pdf, []byte(key+" ("+tc.want+")")) {
				t.Errorf("generated %q: %s is not %s", tc.generated, key, tc.want)
			}
		}
	}
	if !DefaultDate.Equal(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("DefaultDate = %v", DefaultDate)
	}
}

// openPathQ returns the line of the first q operator written while a
// path is being built (after m, l or c and before the painting operator),
// which the PDF specification forbids, or -1. fpdf positions every text
// with a lone moveto before its text object; the text object is taken to
// end it (readers accept that).
func openPathQ(content []byte) int {
	open := false
	for i, line := range strings.Split(string(content), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch op := f[len(f)-1]; {
		case f[0] == "BT":
			open = false
		case op == "m" || op == "l" || op == "c" || op == "re" || op == "h":
			if f[0] == "q" {
				return i
			}
			open = true
		case op == "f" || op == "f*" || op == "S" || op == "s" || op == "B" || op == "B*" || op == "b" || op == "b*" || op == "n":
			open = false
		case f[0] == "q" && open:
			return i
		}
	}
	return -1
}

// TestPDFValidPaths: no figure opens a graphics state inside a path (vgpdf
// did so for arcs; pdfCanvas draws them as curves), and translucent
// colours are written with their own components: the ROC band, blue at
// 22% opacity, is "0.000 0.447 0.698 rg" (0x00, 0x72, 0xB2), not the
// premultiplied grey-blue.
func TestPDFValidPaths(t *testing.T) {
	fs := renderFixture(t)
	for name, data := range fs {
		if !strings.HasSuffix(name, ".pdf") {
			continue
		}
		content, err := pdfPageContent(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if i := openPathQ(content); i >= 0 {
			t.Errorf("%s: q inside an open path at content line %d", name, i+1)
		}
	}
	// A band fill alone on a page.
	c := newPDFCanvas(vg.Inch, vg.Inch)
	c.SetColor(fade(seriesColor(0), 0.22))
	c.Fill(vg.Rectangle{Max: vg.Point{X: 10, Y: 10}}.Path())
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	content, err := pdfPageContent(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(content, []byte("0.000 0.447 0.698 rg")) || bytes.Contains(content, []byte("0.000 0.098 0.153 rg")) {
		t.Errorf("the band colour is not the straight Okabe-Ito blue:\n%s", content)
	}
	if got := openPathQ([]byte("1 2 m\n1 2 l\nq 1 0 0 1 0 0 cm\n0 0 m\nf\nQ\n")); got != 2 {
		t.Errorf("openPathQ misses vgpdf's arc pattern: %d", got)
	}
}

// TestArcsToCurves: the Bézier segments that replace an arc start and end
// on it and stay within 0.03% of the radius at their midpoints.
func TestArcsToCurves(t *testing.T) {
	const tol = 3e-4
	for _, tc := range []struct{ start, angle float64 }{
		{0, 2 * math.Pi}, {0.3, math.Pi / 3}, {1, -3 * math.Pi / 2}, {-0.5, math.Pi},
	} {
		var p vg.Path
		c := vg.Point{X: 10, Y: 20}
		const r = 5
		p.Move(vg.Point{X: 0, Y: 0})
		p.Arc(c, r, tc.start, tc.angle)
		q := arcsToCurves(p)
		if q[0].Type != vg.MoveComp || q[1].Type != vg.LineComp {
			t.Fatalf("arc(%g, %g): starts with %v, %v", tc.start, tc.angle, q[0].Type, q[1].Type)
		}
		dist := func(pt vg.Point) float64 { return math.Hypot(float64(pt.X-c.X), float64(pt.Y-c.Y)) }
		prev := q[1].Pos
		n := 0
		for _, comp := range q[2:] {
			if comp.Type != vg.CurveComp || len(comp.Control) != 2 {
				t.Fatalf("arc(%g, %g): component %v", tc.start, tc.angle, comp.Type)
			}
			// The curve at t = 1/2: (P0 + 3 P1 + 3 P2 + P3) / 8.
			mid := vg.Point{X: (prev.X + 3*comp.Control[0].X + 3*comp.Control[1].X + comp.Pos.X) / 8,
				Y: (prev.Y + 3*comp.Control[0].Y + 3*comp.Control[1].Y + comp.Pos.Y) / 8}
			if e := math.Abs(dist(mid)-r) / r; e > tol {
				t.Errorf("arc(%g, %g): segment midpoint off the circle by %g of r", tc.start, tc.angle, e)
			}
			prev = comp.Pos
			n++
		}
		end := tc.start + tc.angle
		want := vg.Point{X: c.X + r*vg.Length(math.Cos(end)), Y: c.Y + r*vg.Length(math.Sin(end))}
		if math.Hypot(float64(prev.X-want.X), float64(prev.Y-want.Y)) > 1e-9 {
			t.Errorf("arc(%g, %g) ends at %v, want %v", tc.start, tc.angle, prev, want)
		}
		if want := int(math.Ceil(math.Abs(tc.angle) / (math.Pi / 2))); n != want {
			t.Errorf("arc(%g, %g): %d segments, want %d", tc.start, tc.angle, n, want)
		}
	}
}

// relabeled is the fixture with the first system labelled label and
// criterion A.1 renamed crit everywhere.
func relabeled(label, crit string) *report.Report {
	r := figtest.Fixture()
	r.Systems[0].Label = label
	for i := range r.Metrics {
		if r.Metrics[i].Slice == report.CriterionSlice("A.1") {
			r.Metrics[i].Slice = report.CriterionSlice(crit)
		}
	}
	r.Dataset.Criteria[0] = crit
	for i := range r.PerQuery {
		if r.PerQuery[i].Criterion == "A.1" {
			r.PerQuery[i].Criterion = crit
		}
	}
	r.Reindex()
	return r
}

// TestEscaping: every user string (system labels, criterion ids) reaches
// SVG as inert text: the hostile labels of testdata/hostile.txt are escaped, and every
// file stays well-formed XML.
func TestEscaping(t *testing.T) {
	const evil = `</script><script>alert(1)</script>`
	const img = `"><img src=x onerror=alert(1)>`
	r := relabeled(evil, img)
	fs, _ := render(t, r, Options{})
	for name, data := range fs {
		if !strings.HasSuffix(name, ".svg") {
			continue
		}
		if bytes.Contains(data, []byte("<script")) || bytes.Contains(data, []byte("<img")) {
			t.Errorf("%s: unescaped markup from a label", name)
		}
		if err := xml.Unmarshal(data, new(struct{})); err != nil {
			t.Errorf("%s: not well-formed: %v", name, err)
		}
	}
	if !bytes.Contains(fs[Dir+"roc_sys_a.svg"], []byte("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")) {
		t.Error("roc_sys_a.svg: the label is not there, escaped")
	}
	if !bytes.Contains(fs[Dir+"criteria_auroc_sys_a.svg"], []byte("&#34;&gt;&lt;img src=x onerror=alert(1)&gt;")) &&
		!bytes.Contains(fs[Dir+"criteria_auroc_sys_a.svg"], []byte("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")) {
		t.Error("criteria_auroc_sys_a.svg: the criterion is not there, escaped")
	}
}

// TestLongLabels: a 300-character system label and criterion id (user
// strings are free text, docs/reliability.md "Hostile strings")
// are cut in the drawing, so every figure keeps a plotting area: no NaN
// coordinate and no negative width (seen on the systems chart and the
// per-query heat map before labels were clipped).
func TestLongLabels(t *testing.T) {
	long := "L" + strings.Repeat("o", 298) + "g"
	r := relabeled(long, long)
	fs, _ := render(t, r, Options{})
	for name, data := range fs {
		if !strings.HasSuffix(name, ".svg") {
			continue
		}
		if bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte(`width="-`)) || bytes.Contains(data, []byte(`height="-`)) {
			t.Errorf("%s: NaN or negative size with a 300-character label", name)
		}
	}
}

func TestLogTicks(t *testing.T) {
	const tol = 1e-12
	labels := func(ts []plot.Tick) string {
		var out []string
		for _, t := range ts {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		lo, hi float64
		want   string
		n      int // ticks, labelled or not
	}{
		{0.8, 48, "1 2 5 10 20", 15},     // 0.8, 0.9, 1..9, 10..40: less than two decades
		{0.5, 2000, "1 10 100 1000", 34}, // 0.5..0.9, 1..9, 10..90, 100..900, 1000, 2000
		{0.01, 0.05, "0.01 0.02 0.05", 5},
	} {
		ts := logTicks{}.Ticks(math.Log10(tc.lo), math.Log10(tc.hi))
		if got := labels(ts); got != tc.want || len(ts) != tc.n {
			t.Errorf("[%g, %g]: labels %q (%d ticks), want %q (%d)", tc.lo, tc.hi, got, len(ts), tc.want, tc.n)
		}
		for _, tk := range ts {
			if tk.Label == "" {
				continue
			}
			v, _ := strconv.ParseFloat(strings.ReplaceAll(tk.Label, ",", ""), 64)
			if math.Abs(math.Log10(v)-tk.Value) > tol {
				t.Errorf("tick %q at %g, want log10 %g", tk.Label, tk.Value, math.Log10(v))
			}
		}
	}
}

// TestMalformedSpec: a spec with NaN in a line is an error, not a panic
// or a NaN in a file.
func TestMalformedSpec(t *testing.T) {
	s := figures.Spec{ID: figures.FigureID{Kind: figures.KindROC, System: "bad"}, Panels: []figures.Panel{{Elements: []figures.Element{
		&figures.Line{Segments: [][]figures.XY{{{X: 0, Y: math.NaN()}, {X: 1, Y: 1}}}}}}}}
	if _, err := Render([]figures.Spec{s}, Options{}); err == nil {
		t.Error("no error for NaN in a line")
	}
	if _, err := Render([]figures.Spec{{ID: figures.FigureID{Kind: figures.KindROC, System: "empty"}}}, Options{}); err == nil {
		t.Error("no error for a spec without panels")
	}
}

// TestOnSVG: OnSVG is called once, with every figure's SVG file in
// catalogue order, the same bytes Render returns; not when a figure fails.
func TestOnSVG(t *testing.T) {
	var got [][]File
	m, fs := render(t, figtest.Fixture(), Options{OnSVG: func(svg []File) { got = append(got, svg) }})
	if len(got) != 1 {
		t.Fatalf("OnSVG called %d times, want once", len(got))
	}
	var want []string
	for _, f := range fs {
		if strings.HasSuffix(f.Name, ".svg") {
			want = append(want, f.Name)
		}
	}
	if len(got[0]) != len(want) {
		t.Fatalf("OnSVG got %d files, want %d", len(got[0]), len(want))
	}
	for i, f := range got[0] {
		if f.Name != want[i] || !bytes.Equal(f.Data, m[f.Name]) {
			t.Errorf("OnSVG file %d: %s, want %s with the bytes Render returns", i, f.Name, want[i])
		}
	}
	called := false
	if _, err := Render([]figures.Spec{{ID: figures.FigureID{Kind: figures.KindROC, System: "empty"}}}, Options{OnSVG: func([]File) { called = true }}); err == nil || called {
		t.Errorf("a failing figure: error %v, OnSVG called %v", err, called)
	}
}

func TestEmpty(t *testing.T) {
	fs, err := Render(nil, Options{})
	if err != nil || len(fs) != 0 {
		t.Errorf("Render(nil) = %d files, %v", len(fs), err)
	}
}

func BenchmarkRender(b *testing.B) {
	benchRender(b, figtest.Fixture())
}

// BenchmarkRenderDemo renders every figure of the demo Report as SVG, PDF
// and PNG (the figures share of a bundle build).
func BenchmarkRenderDemo(b *testing.B) {
	benchRender(b, figtest.Demo(b))
}

// benchRender times Render on r and also reports the CPU time of the
// process per render (cpu-s/op; 0 where it is not measured).
func benchRender(b *testing.B, r *report.Report) {
	specs := figures.Catalogue(r)
	b.ResetTimer()
	c0 := cputime.Now()
	n := 0
	for b.Loop() {
		if _, err := Render(specs, Options{}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cputime.Now()-c0).Seconds()/float64(n), "cpu-s/op")
}

func ExampleRender() {
	r := &report.Report{
		Systems: []report.SystemInfo{{Name: "Full pipeline", Label: "Full pipeline", Kind: report.Pipeline}},
		Curves: report.Curves{DynKHist: []report.Histogram{
			{System: "Full pipeline", Group: "all", K: []int{0, 1, 2}, Count: []int{5, 3, 2}},
		}},
	}
	fs, err := Render(figures.Catalogue(r), Options{Date: DateOf(r.Generated)})
	if err != nil {
		panic(err)
	}
	for _, f := range fs {
		fmt.Println(f.Name)
	}
	// Output:
	// figures/dynk_hist_full_pipeline.svg
	// figures/dynk_hist_full_pipeline.pdf
	// figures/dynk_hist_full_pipeline.png
}
