package plot

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"paperbundle/figures"
)

func TestSegmentMeets(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 20}}
	pt := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	tests := []struct {
		a, b vg.Point
		want bool
		why  string
	}{
		{pt(0, 0), pt(30, 30), true, "the diagonal through the box"},
		{pt(12, 12), pt(13, 14), true, "inside"},
		{pt(0, 25), pt(30, 25), false, "a horizontal line above"},
		{pt(0, 0), pt(9, 30), false, "passes to the left"},
		{pt(0, 21), pt(21, 0), true, "cuts the corner at (10, 11)-(11, 10)"},
		{pt(0, 19), pt(9, 0), false, "stops before the corner: x + y = 19 < 20 at the box's nearest point (10, 10)"},
		{pt(15, 0), pt(15, 9.9), false, "a vertical line that stops short"},
		{pt(20, 0), pt(20, 40), true, "along the right edge"},
	}
	for _, tt := range tests {
		if got := segmentMeets(tt.a, tt.b, r); got != tt.want {
			t.Errorf("%v-%v: %v, want %v (%s)", tt.a, tt.b, got, tt.want, tt.why)
		}
	}
}

// TestLegendCorner: the legend box goes to the first corner of bottom
// right, top right, bottom left, top left that no line crosses.
func TestLegendCorner(t *testing.T) {
	c := draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: 100, Y: 100}}}
	p := plot.New()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	// The whole canvas is the data area: data (x, y) is drawn at (100x, 100y).
	line := func(steps bool, xy ...float64) *figures.Line {
		var seg []figures.XY
		for i := 0; i < len(xy); i += 2 {
			seg = append(seg, figures.XY{X: xy[i], Y: xy[i+1]})
		}
		return &figures.Line{Segments: [][]figures.XY{seg}, Steps: steps}
	}
	corner := func(els ...figures.Element) string {
		b := legendCorner(c, p, &figures.Panel{Elements: els}, 30, 20, 2)
		v := "bottom"
		if b.Min.Y > 50 {
			v = "top"
		}
		h := "left"
		if b.Min.X > 50 {
			h = "right"
		}
		return v + " " + h
	}
	tests := []struct {
		els  []figures.Element
		want string
	}{
		// A ROC curve above the diagonal and the diagonal: bottom right is free.
		{[]figures.Element{line(false, 0, 0, 0.1, 0.6, 0.4, 0.9, 1, 1), line(false, 0, 0, 1, 1)}, "bottom right"},
		// A precision-recall step curve falling to the positive rate 0.1 at
		// recall 1 and the rate's line: bottom right is crossed, top right
		// is free (precision at recall 0.6-1 is below 0.5).
		{[]figures.Element{line(true, 0, 1, 0.2, 0.9, 0.6, 0.5, 1, 0.1), line(false, 0, 0.1, 1, 0.1)}, "top right"},
		// A flat low line crosses both bottom corners; top right is free.
		{[]figures.Element{line(false, 0, 0.15, 1, 0.15)}, "top right"},
		// Lines along the bottom and the top right: bottom left is crossed
		// too, top left is free.
		{[]figures.Element{line(false, 0, 0.1, 1, 0.1), line(false, 0.5, 0.9, 1, 0.9)}, "top left"},
	}
	for i, tt := range tests {
		if got := corner(tt.els...); got != tt.want {
			t.Errorf("case %d: %s, want %s", i, got, tt.want)
		}
	}
}
