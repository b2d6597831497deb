package figures

import (
	"bytes"
	"compress/zlib"
	"encoding/xml"
	"flag"
	"fmt"
	"image/color"
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

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"

	"paperbundle/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// mapSink is an in-memory report.Sink.
type mapSink map[string][]byte

func (m mapSink) Add(name string, data []byte) { m[name] = append([]byte(nil), data...) }

var (
	fixtureOnce  sync.Once
	fixtureFiles mapSink
	fixtureErr   error
)

// renderFixture renders the unmodified fixture once for all tests that
// only read the files.
func renderFixture(t testing.TB) mapSink {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureFiles = mapSink{}
		fixtureErr = Render(fixtureFiles, fixture())
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureFiles
}

func renderAll(t testing.TB, r *report.Report) mapSink {
	t.Helper()
	s := mapSink{}
	if err := Render(s, r); err != nil {
		t.Fatal(err)
	}
	return s
}

// figureByName builds the fixture's figures and returns the named one.
func figureByName(t *testing.T, r *report.Report, name string) *figure {
	t.Helper()
	for _, f := range build(r) {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no figure %q in %v", name, Names(r))
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
	path := goldenPath(file)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./figures -update to create it)", err)
	}
	if err := cmp(want, got); err != nil {
		t.Errorf("%s: %v (if the change is intended, run go test ./figures -update)", path, err)
	}
}

// goldenFigures are compared against testdata/golden: every figure kind,
// for the first system, plus the cases with undefined values.
var goldenFigures = []string{
	"roc_sys-a", "roc_overlay", "pr_sys-a", "pr_sys_b", "pr_overlay", "reliability_sys-a", "decision_curve_sys-a",
	"criteria_auroc_sys-a", "criteria_auroc_sys_b", "criteria_ranking_sys-a",
	"dynk_hist_sys-a", "dynk_hist_state_sys-a", "dynk_hist_evidence_sys-a",
	"recall_at_k_sys-a", "precision_at_k_sys-a", "difficulty_sys-a", "difficulty_sys_b", "gamma_sweep_sys-a",
	"gate_grid_screen_sensitivity_sys-a", "gate_grid_alert_precision_sys-a", "gate_grid_workload_sys-a",
	"per_query_heatmap_sys-a", "systems",
}

// pngGolden is the subset whose 300-dpi PNG is kept (PNGs are large).
var pngGolden = []string{"roc_sys-a", "reliability_sys-a", "difficulty_sys-a", "gate_grid_alert_precision_sys-a", "per_query_heatmap_sys-a", "systems"}

func TestGoldenSVG(t *testing.T) {
	files := renderFixture(t)
	for _, name := range goldenFigures {
		got, ok := files[Dir+name+".svg"]
		if !ok {
			t.Errorf("%s.svg not rendered", name)
			continue
		}
		checkGolden(t, name+".svg.golden", got, func(want, got []byte) error {
			if !bytes.Equal(want, got) {
				return fmt.Errorf("SVG differs: %s", firstDiff(want, got))
			}
			return nil
		})
	}
}

func TestGoldenPDF(t *testing.T) {
	files := renderFixture(t)
	for _, name := range goldenFigures {
		pdf := files[Dir+name+".pdf"]
		content, err := pdfPageContent(pdf)
		if err != nil {
			t.Errorf("%s.pdf: %v", name, err)
			continue
		}
		checkGolden(t, name+".pdf-content.golden", content, func(want, got []byte) error {
			if !bytes.Equal(want, got) {
				return fmt.Errorf("page content differs: %s", firstDiff(want, got))
			}
			return nil
		})
	}
}

func TestGoldenPNG(t *testing.T) {
	files := renderFixture(t)
	for _, name := range pngGolden {
		got := files[Dir+name+".png"]
		checkGolden(t, name+".png.golden", got, func(want, got []byte) error {
			return samePixels(want, got, 16, 0.002)
		})
	}
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

// TestDeterminism renders the fixture twice: every file, and every chart,
// must be byte-identical.
func TestDeterminism(t *testing.T) {
	a := renderFixture(t)
	b := renderAll(t, fixture())
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, x := range a {
		if !bytes.Equal(x, b[name]) {
			t.Errorf("%s differs between two renders: %s", name, firstDiff(x, b[name]))
		}
	}
	ca, err := ECharts(fixture())
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := ECharts(fixture())
	for i := range ca {
		if ca[i] != cb[i] {
			t.Errorf("chart %s differs between two builds", ca[i].ID)
		}
	}
}

// TestParallelSameAsSequential: the figures rendered on several
// goroutines are byte for byte those of a render on one.
func TestParallelSameAsSequential(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	seq := renderAll(t, fixture())
	runtime.GOMAXPROCS(4)
	par := renderAll(t, fixture())
	runtime.GOMAXPROCS(prev)
	if len(seq) != len(par) {
		t.Fatalf("%d files on one goroutine, %d on four", len(seq), len(par))
	}
	for name, x := range seq {
		if !bytes.Equal(x, par[name]) {
			t.Errorf("%s differs between one and four goroutines: %s", name, firstDiff(x, par[name]))
		}
	}
	// The sink sees the files in figure order, each as SVG, PDF, PNG.
	var got orderSink
	if err := Render(&got, fixture()); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range Names(fixture()) {
		want = append(want, Dir+n+".svg", Dir+n+".pdf", Dir+n+".png")
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files added in the order\n%v\nwant\n%v", got, want)
	}
}

// orderSink records the names of the files added to it.
type orderSink []string

func (o *orderSink) Add(name string, _ []byte) { *o = append(*o, name) }

func TestFiles(t *testing.T) {
	r := fixture()
	files := renderFixture(t)
	names := Names(r)
	if len(files) != 3*len(names) {
		t.Errorf("%d files for %d figures", len(files), len(names))
	}
	valid := regexp.MustCompile(`^figures/[a-z0-9_-]+\.(svg|pdf|png)$`)
	for name, data := range files {
		if !valid.MatchString(name) {
			t.Errorf("file name %q outside [a-z0-9_-]", name)
		}
		if len(data) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	for _, n := range names {
		img, err := png.Decode(bytes.NewReader(files[Dir+n+".png"]))
		if err != nil {
			t.Errorf("%s.png: %v", n, err)
			continue
		}
		f := figureByName(t, r, n)
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != int(f.w.Dots(DPI)+0.5) || h != int(f.h.Dots(DPI)+0.5) {
			t.Errorf("%s.png is %dx%d, want %.0f x %.0f at %d dpi", n, w, h, f.w.Dots(DPI), f.h.Dots(DPI), DPI)
		}
		if err := xml.Unmarshal(files[Dir+n+".svg"], new(struct{})); err != nil {
			t.Errorf("%s.svg is not well-formed XML: %v", n, err)
		}
	}
}

// TestPDFDates checks the fixed creation and modification dates: the
// default without SOURCE_DATE_EPOCH, else the Report's generation time.
func TestPDFDates(t *testing.T) {
	r := fixture()
	f := figureByName(t, r, "roc_sys-a")
	for _, tc := range []struct {
		generated string
		want      string
	}{
		{"", "D:20000101000000"},
		{"2026-01-18T12:30:00Z", "D:20260118123000"},
	} {
		r.Generated = tc.generated
		pdf, err := f.pdf(pdfDate(r))
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"/CreationDate", "/ModDate"} {
			if !bytes.Contains(pdf, []byte(key+" ("+tc.want+")")) {
				t.Errorf("generated %q: %s is not %s", tc.generated, key, tc.want)
			}
		}
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
// does so for arcs; pdfCanvas passes them as curves), and translucent
// colours are written with their own components: the ROC band, blue at
// 22% opacity, is "0.000 0.447 0.698 rg" (0x00, 0x72, 0xB2), not the
// premultiplied grey-blue.
func TestPDFValidPaths(t *testing.T) {
	files := renderFixture(t)
	for name, data := range files {
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
	c := vgpdf.New(vg.Inch, vg.Inch)
	pc := pdfCanvas{c}
	pc.SetColor(fade(seriesColor(0), 0.22))
	pc.Fill(vg.Rectangle{Max: vg.Point{X: 10, Y: 10}}.Path())
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

func TestStraightColor(t *testing.T) {
	c := straightColor(fade(seriesColor(0), 0.2))
	r, g, b, a := c.RGBA()
	if r>>8 != 0x00 || g>>8 != 0x72 || b>>8 != 0xB2 || a>>8 != 51 {
		t.Errorf("straight blue at 20%%: %x %x %x %x", r>>8, g>>8, b>>8, a>>8)
	}
	if straightColor(black) != color.Color(black) {
		t.Error("an opaque colour is not passed as is")
	}
}

// curveAt is the largest y of the polyline at x (vertical segments give a
// range; ROC takes its top).
func curveAt(lines []*plotter.Line, x float64) float64 {
	best := math.NaN()
	for _, l := range lines {
		for i := 1; i < len(l.XYs); i++ {
			a, b := l.XYs[i-1], l.XYs[i]
			if x < math.Min(a.X, b.X) || x > math.Max(a.X, b.X) {
				continue
			}
			var y float64
			if a.X == b.X {
				y = math.Max(a.Y, b.Y)
			} else {
				y = a.Y + (x-a.X)*(b.Y-a.Y)/(b.X-a.X)
			}
			if math.IsNaN(best) || y > best {
				best = y
			}
		}
	}
	return best
}

// TestROCBand checks what is drawn: the band polygon is the upper bound
// forward and the lower bound back, and at every grid point the band
// contains both the Report's curve on the grid and the drawn curve.
func TestROCBand(t *testing.T) {
	const tol = 1e-12
	r := fixture()
	for i := range r.Curves.ROC {
		c := &r.Curves.ROC[i]
		f := figureByName(t, r, "roc_"+sanitize(c.System))
		pg := f.parts["band"].(*plotter.Polygon)
		curve := f.parts["curve"].([]*plotter.Line)
		if len(pg.XYs) != 1 {
			t.Fatalf("%s: %d band rings, want 1", c.System, len(pg.XYs))
		}
		ring := pg.XYs[0]
		n := len(c.Grid)
		if len(ring) != 2*n {
			t.Fatalf("%s: ring of %d vertices, want %d", c.System, len(ring), 2*n)
		}
		for k := 0; k < n; k++ {
			up, lo := ring[k], ring[2*n-1-k]
			x := float64(c.Grid[k])
			if up.X != x || lo.X != x {
				t.Errorf("%s: grid point %d drawn at x %g and %g, want %g", c.System, k, up.X, lo.X, x)
			}
			if up.Y != float64(c.BandHigh[k]) || lo.Y != float64(c.BandLow[k]) {
				t.Errorf("%s: grid point %d: band drawn [%g, %g], report [%g, %g]", c.System, k, lo.Y, up.Y, c.BandLow[k], c.BandHigh[k])
			}
			g := float64(c.GridTPR[k])
			if !(lo.Y-tol <= g && g <= up.Y+tol) {
				t.Errorf("%s: grid TPR %g at FPR %g outside the drawn band [%g, %g]", c.System, g, x, lo.Y, up.Y)
			}
			if y := curveAt(curve, x); !(lo.Y-tol <= y && y <= up.Y+tol) {
				t.Errorf("%s: drawn curve %g at FPR %g outside the drawn band [%g, %g]", c.System, y, x, lo.Y, up.Y)
			}
		}
	}
}

// TestBandSkipsUndefined: an undefined bound splits the band into two
// polygons, and no vertex is NaN.
func TestBandSkipsUndefined(t *testing.T) {
	r := fixture()
	f := figureByName(t, r, "pr_sys_b")
	pg := f.parts["band"].(*plotter.Polygon)
	if len(pg.XYs) != 2 {
		t.Fatalf("%d rings, want 2 (the undefined grid point splits the band)", len(pg.XYs))
	}
	for _, ring := range pg.XYs {
		for _, p := range ring {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) {
				t.Fatalf("NaN vertex %v", p)
			}
		}
	}
}

// TestOperatingPoints: the marked points are the Report's held-out FPR and
// TPR (the metrics ne.heldout_fpr@fpr=X and ne.heldout_tpr@fpr=X).
func TestOperatingPoints(t *testing.T) {
	const tol = 1e-12
	r := fixture()
	ix := newIndex(r)
	for i := range r.Curves.ROC {
		c := &r.Curves.ROC[i]
		f := figureByName(t, r, "roc_"+sanitize(c.System))
		pts := f.parts["points"].(plotter.XYs)
		labels := f.parts["point_labels"].([]string)
		if len(pts) != 2 {
			t.Fatalf("%s: %d points marked, want 2", c.System, len(pts))
		}
		for k, p := range pts {
			budget := strings.TrimPrefix(labels[k], "FPR budget ")
			fpr, _, _ := ix.value(c.System, "ne.heldout_fpr@fpr="+budget, "")
			tpr, _, _ := ix.value(c.System, "ne.heldout_tpr@fpr="+budget, "")
			if math.Abs(p.X-fpr) > tol || math.Abs(p.Y-tpr) > tol {
				t.Errorf("%s budget %s: marked (%g, %g), held-out FPR/TPR (%g, %g)", c.System, budget, p.X, p.Y, fpr, tpr)
			}
		}
	}
}

// TestHistogramSums: the drawn bar heights of each Dynamic-K figure sum to
// the population of its groups (all eval queries; positives for the
// has-evidence group), and the reliability bins to all eval queries.
func TestHistogramSums(t *testing.T) {
	r := fixture()
	sum := func(b *bars) int {
		s := 0.0
		for _, y := range b.Y {
			if !math.IsNaN(y) {
				s += y
			}
		}
		return int(s)
	}
	for _, tc := range []struct {
		fig   string
		total int
		per   []int // per group, in drawing order (nil: not checked)
	}{
		{"dynk_hist_sys-a", fixtureEval, nil},
		{"dynk_hist_state_sys-a", fixtureEval, nil},
		{"dynk_hist_evidence_sys-a", fixtureEval, []int{fixtureEval - fixturePositives, fixturePositives}},
		{"dynk_hist_evidence_sys_b", fixtureEval, []int{fixtureEval - fixturePositives, fixturePositives}},
	} {
		f := figureByName(t, r, tc.fig)
		bs := f.parts["bars"].([]*bars)
		tot := 0
		for gi, b := range bs {
			s := sum(b)
			tot += s
			if tc.per != nil && s != tc.per[gi] {
				t.Errorf("%s group %d: bars sum to %d, want %d", tc.fig, gi, s, tc.per[gi])
			}
		}
		if tot != tc.total {
			t.Errorf("%s: bars sum to %d, want %d", tc.fig, tot, tc.total)
		}
	}
	f := figureByName(t, r, "reliability_sys-a")
	if s := sum(f.parts["bars"].(*bars)); s != fixtureEval {
		t.Errorf("reliability counts sum to %d, want %d", s, fixtureEval)
	}
}

// TestNoNaNDrawn: the undefined reliability bin and criterion values are
// left out of what is drawn.
func TestNoNaNDrawn(t *testing.T) {
	r := fixture()
	d := figureByName(t, r, "reliability_sys-a").parts["points"].(*dots)
	if len(d.X) != 4 {
		t.Errorf("%d reliability points drawn, want 4 (one bin is empty)", len(d.X))
	}
	for i := range d.X {
		if math.IsNaN(d.X[i]) || math.IsNaN(d.Y[i]) {
			t.Errorf("NaN reliability point %d", i)
		}
	}
	b := figureByName(t, r, "criteria_auroc_sys_b").parts["bars"].(*bars)
	if !math.IsNaN(b.Y[2]) {
		t.Errorf("criterion A.3 of sys_b: bar height %g, want NaN (not drawn)", b.Y[2])
	}
}

func TestEChartsIDsAndNaN(t *testing.T) {
	cs, err := ECharts(fixture())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("no chart")
	}
	valid := regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	seen := map[string]bool{}
	notes := 0
	for _, c := range cs {
		if !valid.MatchString(c.ID) {
			t.Errorf("chart id %q has characters outside [A-Za-z0-9_]", c.ID)
		}
		if seen[c.ID] {
			t.Errorf("chart id %q used twice", c.ID)
		}
		seen[c.ID] = true
		s := string(c.Snippet)
		if strings.Contains(s, "NaN") || strings.Contains(s, "Infinity") {
			t.Errorf("chart %s contains NaN or Infinity", c.ID)
		}
		if !strings.Contains(s, `id="`+c.ID+`"`) || !strings.Contains(s, `getElementById("`+c.ID+`")`) {
			t.Errorf("chart %s: snippet does not use its id", c.ID)
		}
		if strings.Contains(s, "http://") || strings.Contains(s, "https://") {
			t.Errorf("chart %s refers to a remote host", c.ID)
		}
		if c.Note != "" {
			notes++
		}
	}
	if notes == 0 {
		t.Error("no chart says that undefined points were left out")
	}
}

// TestEChartsTooltips checks that the tooltips carry the numbers the issue
// asks for: thresholds on ROC points, count and observed frequency per
// reliability bin, the exact K per histogram bar.
func TestEChartsTooltips(t *testing.T) {
	cs, err := ECharts(fixture())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, c := range cs {
		byID[c.ID] = string(c.Snippet)
	}
	for _, tc := range []struct{ id, want string }{
		{"pb_roc_sys_a", "threshold 0.7: FPR 0.100, TPR 0.700"},
		{"pb_roc_sys_a", "FPR budget 0.05: held-out FPR 0.075, TPR 0.400"},
		{"pb_reliability_sys_a", "bin [0.2, 0.4): 10 queries, observed frequency 0.200"},
		{"pb_dynk_hist_sys_a", "K = 3: 12 queries"},
		{"pb_gamma_sweep_sys_a", "gamma 0.8: mean K 2.60"},
		{"pb_difficulty_sys_a", "difficulty 4, Recall@10 0.500: 2 queries"},
		{"pb_difficulty_sys_a", "Spearman rho = -0.608, p = 0.062"},
	} {
		s, ok := byID[tc.id]
		if !ok {
			t.Errorf("no chart %s", tc.id)
			continue
		}
		if !strings.Contains(s, tc.want) {
			t.Errorf("chart %s: no tooltip %q", tc.id, tc.want)
		}
	}
}

// TestEscaping: a label with markup reaches SVG escaped and the chart JSON
// with <, > and & escaped, so neither can inject elements or end the
// script early.
func TestEscaping(t *testing.T) {
	r := fixture()
	const evil = `</script><script>alert(1)</script>`
	r.Systems[0].Label = evil
	r.Dataset.Criteria[0] = `"><img src=x onerror=alert(1)>`
	for i := range r.Metrics {
		if r.Metrics[i].Slice == "criterion=A.1" {
			r.Metrics[i].Slice = "criterion=" + r.Dataset.Criteria[0]
		}
	}
	files := renderAll(t, r)
	for name, data := range files {
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
	if !bytes.Contains(files[Dir+"roc_sys-a.svg"], []byte("&lt;/script&gt;&lt;script&gt;alert(1)")) {
		t.Error("roc_sys-a.svg: the label is not there, escaped")
	}
	cs, err := ECharts(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		s := string(c.Snippet)
		if n := strings.Count(s, "<script"); n != 1 {
			t.Errorf("chart %s: %d <script tags, want 1", c.ID, n)
		}
		if n := strings.Count(s, "</script"); n != 1 {
			t.Errorf("chart %s: %d </script tags, want 1", c.ID, n)
		}
		if strings.Contains(s, "<img") {
			t.Errorf("chart %s: unescaped <img", c.ID)
		}
	}
}

// TestUpFilter compares the word-at-a-time Up filter with the byte
// arithmetic of the PNG specification, at odd and even widths.
func TestUpFilter(t *testing.T) {
	for _, w := range []int{1, 2, 3, 7, 64, 1001} {
		pix, up := make([]byte, 4*w), make([]byte, 4*w)
		for i := range pix {
			pix[i], up[i] = byte(i*7+3), byte(i*13+250)
		}
		got := make([]byte, 3*w)
		upFilterRGB(got, pix, up)
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				if want := pix[4*x+c] - up[4*x+c]; got[3*x+c] != want {
					t.Fatalf("width %d, pixel %d, channel %d: %d, want %d", w, x, c, got[3*x+c], want)
				}
			}
		}
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"full", "full"},
		{"Full Pipeline", "full_pipeline"},
		{"sys-a", "sys-a"},
		{"baseline:random", "baseline_random"},
		{"../../etc/passwd", "etc_passwd"},
		{"Système β", "syst_me"},
		{"", "x"},
		{"___", "x"},
		{"a  b", "a_b"},
	} {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	n := newNamer()
	for _, tc := range []struct{ in, want string }{{"a", "a"}, {"a", "a_2"}, {"a", "a_3"}, {"a_2", "a_2_2"}} {
		if got := n.unique(tc.in); got != tc.want {
			t.Errorf("unique(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCP1252(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"Système", "Syst\xe8me"},
		{"± – €", "\xb1 \x96 \x80"},
		{"gamma γ", "gamma ?"},
	} {
		if got := toCP1252(tc.in); got != tc.want {
			t.Errorf("toCP1252(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestEmptyReport: a Report without curves or metrics renders nothing and
// fails nothing.
func TestEmptyReport(t *testing.T) {
	r := &report.Report{}
	if files := renderAll(t, r); len(files) != 0 {
		t.Errorf("%d files for an empty report", len(files))
	}
	cs, err := ECharts(r)
	if err != nil || len(cs) != 0 {
		t.Errorf("ECharts(empty) = %d charts, %v", len(cs), err)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"full", "sys-a", "baseline:random", "Système β", "", "../x"} {
		f.Add(s)
	}
	valid := regexp.MustCompile(`^[a-z0-9_-]+$`)
	f.Fuzz(func(t *testing.T, s string) {
		got := sanitize(s)
		if !valid.MatchString(got) {
			t.Fatalf("sanitize(%q) = %q", s, got)
		}
		if sanitize(got) != got {
			t.Fatalf("sanitize is not idempotent on %q", got)
		}
	})
}

func BenchmarkRender(b *testing.B) {
	benchRender(b, fixture())
}

// benchRender times Render on r and also reports the CPU time of the
// process per render (cpu-s/op; 0 where it is not measured).
func benchRender(b *testing.B, r *report.Report) {
	b.ResetTimer()
	c0 := cpuTime()
	n := 0
	for b.Loop() {
		if err := Render(mapSink{}, r); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(n), "cpu-s/op")
}

func BenchmarkECharts(b *testing.B) {
	r := fixture()
	for i := 0; i < b.N; i++ {
		if _, err := ECharts(r); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleNames() {
	r := &report.Report{
		Systems: []report.SystemInfo{{Name: "Full pipeline", Label: "Full pipeline"}},
		Curves: report.Curves{DynKHist: []report.Histogram{
			{System: "Full pipeline", Group: "all", K: []int{0, 1, 2}, Count: []int{5, 3, 2}},
		}},
	}
	fmt.Println(Names(r))
	// Output: [dynk_hist_full_pipeline]
}
