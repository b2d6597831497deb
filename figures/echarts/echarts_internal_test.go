package echarts

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
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
	tips := make([]figures.Tip, len(seg))
	thr := func(j int) float64 { return 1 - float64(j)/float64(len(seg)) }
	for j, p := range seg {
		tips[j] = figures.Tip{{Label: "threshold", Value: figures.Num(thr(j), figures.Shortest)},
			{Label: "FPR", Value: figures.Num(p.X, 3), Is: figures.CoordX}, {Label: "TPR", Value: figures.Num(p.Y, 3), Is: figures.CoordY}}
	}
	pn := *unitPanel()
	pn.Elements = []figures.Element{&figures.Line{Name: "Full sample", Segments: [][]figures.XY{seg}, Tips: [][]figures.Tip{tips}}}
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

// TestTipTable: tips with the same labels become a table over the
// point's dimensions; fields that are coordinates are not repeated;
// numbers stay numbers at their decimals (the shortest form at four
// significant digits), and a slot holding a text is ordinal; tips with
// different labels stay text.
func TestTipTable(t *testing.T) {
	thr := func(v figures.Value) figures.Field { return figures.Field{Label: "threshold", Value: v} }
	fpr := func(x float64) figures.Field {
		return figures.Field{Label: "FPR", Value: figures.Num(x, 3), Is: figures.CoordX}
	}
	tpr := func(y float64) figures.Field {
		return figures.Field{Label: "TPR", Value: figures.Num(y, 3), Is: figures.CoordY}
	}
	ci := func(lo, hi float64) []figures.Field {
		return []figures.Field{{Label: "CI low", Value: figures.Num(lo, 3)}, {Label: "CI high", Value: figures.Num(hi, 3)}}
	}
	tips := []figures.Tip{
		append(figures.Tip{thr(figures.TextValue("+inf")), fpr(0), tpr(0)}, ci(0, 0.1)...),
		// The CI's bounds are numbers, not text after the value.
		append(figures.Tip{thr(figures.Num(0.283456, figures.Shortest)), fpr(0.1), tpr(0.7)}, ci(0.65, 0.85)...),
	}
	tt := makeTipTable(tips, 2, xy)
	if tt == nil {
		t.Fatal("no table")
	}
	if !reflect.DeepEqual(tt.labels, []string{"threshold", "FPR", "TPR", "CI low", "CI high"}) ||
		!reflect.DeepEqual(tt.dim, []int{2, 0, 1, 3, 4}) ||
		!reflect.DeepEqual(tt.extra, [][]any{{"+inf", 0.0, 0.1}, {0.2835, 0.65, 0.85}}) ||
		!reflect.DeepEqual(tt.ordin, []bool{true, false, false}) {
		t.Errorf("table %+v", tt)
	}
	// A coordinate the points do not hold is a value of its own.
	if tt := makeTipTable(tips[:1], 2, func(figures.Coord) int { return -1 }); tt == nil || !reflect.DeepEqual(tt.dim, []int{2, 3, 4, 5, 6}) {
		t.Errorf("no coordinates: %+v", tt)
	}
	for _, tips := range [][]figures.Tip{
		{{thr(figures.Num(0.5, 3)), fpr(0), tpr(0)}, {thr(figures.Num(0.5, 3)), {Label: "recall", Value: figures.Num(0.1, 3)}, tpr(0.7)}},
		{{fpr(0)}, {fpr(0), tpr(0)}},
		{{{Value: figures.Num(1, 0)}}},
		{{}},
	} {
		if tt := makeTipTable(tips, 2, xy); tt != nil {
			t.Errorf("%v: table %+v", tips, tt)
		}
	}
	for _, c := range []struct {
		v    figures.Value
		want any
	}{
		{figures.Num(0.00283456, figures.Shortest), 0.002835}, {figures.Num(1, 3), 1.0}, {figures.Int(2337), 2337.0},
		{figures.TextValue("+inf"), "+inf"}, {figures.Num(12345.6749, 2), 12345.67}, {figures.Num(math.NaN(), 3), "n/a"},
		{figures.Num(-0.07144, 4), -0.0714},
	} {
		if got := tipData(c.v); got != c.want {
			t.Errorf("tipData(%+v) = %#v, want %#v", c.v, got, c.want)
		}
	}
}
