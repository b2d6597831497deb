package echarts

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"paperbundle/figures"
)

// unitPanel is a panel with both axes fixed to [0, 1].
func unitPanel() *figures.Panel {
	return &figures.Panel{X: figures.Axis{Fixed: true, Max: 1}, Y: figures.Axis{Fixed: true, Max: 1}}
}

// staircase is a ROC-like curve of n steps from (0, 0) to (1, 1): each
// point moves right or up by one step of 1/n.
func staircase(n int, seed uint64) []figures.XY {
	r := rand.New(rand.NewPCG(seed, 1))
	pts := []figures.XY{{}}
	x, y := 0, 0
	for x < n || y < n {
		if y == n || (x < n && r.IntN(3) == 0) {
			x++
		} else {
			y++
		}
		pts = append(pts, figures.XY{X: float64(x) / float64(n), Y: float64(y) / float64(n)})
	}
	return pts
}

// drawnDistance is the largest distance, in cells of g, from a point of
// the full line (and from each corner of its steps) to the line through
// the kept points.
func drawnDistance(seg []figures.XY, keep []int, steps bool, g pixels) float64 {
	path := func(pts []figures.XY) [][2]float64 {
		var out [][2]float64
		for k, p := range pts {
			if steps && k > 0 {
				out = append(out, g.at(figures.XY{X: p.X, Y: pts[k-1].Y}))
			}
			out = append(out, g.at(p))
		}
		return out
	}
	var kept []figures.XY
	for _, j := range keep {
		kept = append(kept, seg[j])
	}
	full, drawn := path(seg), path(kept)
	worst := 0.0
	for _, v := range full {
		d := math.Inf(1)
		for k := 1; k < len(drawn); k++ {
			d = math.Min(d, segDist(v, drawn[k-1], drawn[k]))
		}
		worst = math.Max(worst, d)
	}
	return worst
}

// TestDecimate: a long curve keeps its first and last point, at most
// maxPoints, in order, and the drawn line stays within pixelTol cells of
// the full one, as a polyline and as steps; with tooltips no kept segment
// is longer than tipGap cells; short curves are untouched.
func TestDecimate(t *testing.T) {
	pn := unitPanel()
	for _, steps := range []bool{false, true} {
		for _, gap := range []float64{0, tipGap} {
			seg := staircase(3000, 7)
			g := newPixels(pn, [][]figures.XY{seg})
			keep := decimate(seg, steps, gap, g)
			if len(keep) > maxPoints || keep[0] != 0 || keep[len(keep)-1] != len(seg)-1 {
				t.Fatalf("steps %v, gap %v: %d of %d points kept, first %d, last %d", steps, gap, len(keep), len(seg), keep[0], keep[len(keep)-1])
			}
			for k := 1; k < len(keep); k++ {
				if keep[k] <= keep[k-1] {
					t.Fatalf("steps %v: indices out of order at %d", steps, k)
				}
				a, b := g.at(seg[keep[k-1]]), g.at(seg[keep[k]])
				if gap > 0 && keep[k]-keep[k-1] > 1 && math.Hypot(b[0]-a[0], b[1]-a[1]) > gap {
					t.Errorf("steps %v: kept segment %d longer than %v cells", steps, k, gap)
				}
			}
			if d := drawnDistance(seg, keep, steps, g); d > pixelTol+1e-9 {
				t.Errorf("steps %v, gap %v: drawn line %.3f cells from the full one", steps, gap, d)
			}
			t.Logf("steps %v, gap %v: %d of %d points", steps, gap, len(keep), len(seg))
		}
	}
	short := []figures.XY{{X: 0, Y: 0}, {X: 1, Y: 1}}
	if keep := decimate(short, false, 0, newPixels(pn, [][]figures.XY{short})); !reflect.DeepEqual(keep, []int{0, 1}) {
		t.Errorf("short line: %v", keep)
	}
}

// TestLongLineTips: a ROC curve of thousands of points is decimated, and
// every point kept shows its own threshold, FPR and TPR.
func TestLongLineTips(t *testing.T) {
	seg := staircase(2000, 3)
	tips := make([]string, len(seg))
	thr := func(j int) float64 { return 1 - float64(j)/float64(len(seg)) }
	for j, p := range seg {
		tips[j] = "threshold " + strconv.FormatFloat(thr(j), 'g', 6, 64) + ": FPR " + strconv.FormatFloat(p.X, 'f', 3, 64) +
			", TPR " + strconv.FormatFloat(p.Y, 'f', 3, 64)
	}
	pn := *unitPanel()
	pn.Elements = []figures.Element{&figures.Line{Name: "Full sample", Segments: [][]figures.XY{seg}, Tips: [][]string{tips}}}
	c, err := option(&figures.Spec{ID: figures.FigureID{Kind: figures.KindROC, System: "x"}, Kind: figures.KindROC, Panels: []figures.Panel{pn}}, "pb_roc_x")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Series []struct {
			Data       [][]any
			Dimensions []dimension
			Encode     struct{ Tooltip []int }
		}
	}
	if err := json.Unmarshal(c.Option, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Series[0]
	if len(s.Data) >= len(seg) || len(s.Data) > maxPoints {
		t.Errorf("%d of %d points kept", len(s.Data), len(seg))
	}
	if !reflect.DeepEqual(s.Encode.Tooltip, []int{2, 0, 1}) || s.Dimensions[2].DisplayName != "threshold" ||
		s.Dimensions[0].DisplayName != "FPR" || s.Dimensions[1].DisplayName != "TPR" {
		t.Fatalf("tooltip %v over %+v", s.Encode.Tooltip, s.Dimensions)
	}
	at := map[figures.XY]int{}
	for j, p := range seg {
		at[figures.XY{X: math.Round(p.X*1e4) / 1e4, Y: math.Round(p.Y*1e4) / 1e4}] = j
	}
	for _, row := range s.Data {
		j, ok := at[figures.XY{X: row[0].(float64), Y: row[1].(float64)}]
		if !ok || math.Abs(row[2].(float64)-thr(j)) > 5e-4*thr(j)+1e-12 {
			t.Fatalf("row %v: point %d, threshold %v", row, j, thr(j))
		}
	}
}

// TestTipTable: tips of one form become a table over the point's
// dimensions, values that are coordinates are not repeated, long
// fractions are cut to four significant digits; tips of different forms,
// or with a unit after the last value, stay text.
func TestTipTable(t *testing.T) {
	pts := []figures.XY{{X: 0, Y: 0}, {X: 0.1, Y: 0.7}}
	match := func(c, r int, tok string) bool {
		if c == 0 {
			return sameNumber(tok, pts[r].X)
		}
		return sameNumber(tok, pts[r].Y)
	}
	tt := makeTipTable([]string{"threshold +inf: FPR 0.000, TPR 0.000", "threshold 0.283456: FPR 0.100, TPR 0.700"}, 2, match)
	if tt == nil {
		t.Fatal("no table")
	}
	if !reflect.DeepEqual(tt.labels, []string{"threshold", "FPR", "TPR"}) || !reflect.DeepEqual(tt.dim, []int{2, 0, 1}) ||
		!reflect.DeepEqual(tt.extra, [][]any{{"+inf"}, {0.2835}}) || !reflect.DeepEqual(tt.ordin, []bool{true}) {
		t.Errorf("table %+v", tt)
	}
	for _, tips := range [][]string{
		{"threshold 0.5: FPR 0.000, TPR 0.000", "threshold 0.5: recall 0.100, precision 0.700"},
		{"difficulty 4, Recall@10 0.500: 2 queries", "difficulty 4, Recall@10 0.500: 3 queries"},
		{"bin [0.2, 0.4): 10 queries", "bin [0.4, 0.6): 11 queries"},
		{"no number", "no number"},
	} {
		if tt := makeTipTable(tips, 2, match); tt != nil {
			t.Errorf("%q: table %+v", tips, tt)
		}
	}
	for tok, want := range map[string]any{"0.00283456": 0.002835, "1.000": "1.000", "2,337": 2337.0, "+inf": "+inf",
		"12345.67": 12345.67, "0.5": 0.5, "n/a": "n/a", "-0.0714": -0.0714} {
		if got := tipValue(tok); got != want {
			t.Errorf("tipValue(%q) = %#v, want %#v", tok, got, want)
		}
	}
}
