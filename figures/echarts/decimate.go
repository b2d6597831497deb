package echarts

import (
	"math"

	"paperbundle/figures"
)

// This file holds the decimation of long lines: the points kept on
// screen, within a pixel of the full line.

// pixels maps points onto a grid of nx x ny cells over a panel's axes (the
// fixed range, else the data's); log axes in decades.
type pixels struct {
	x0, x1, y0, y1 float64
	xlog, ylog     bool
	nx, ny         float64
}

// The finest grid: below a pixel on a chart 1000 pixels wide and a plot
// area 600 pixels high (the report's charts are smaller).
const cellsX, cellsY = 1000, 600

func newPixels(pn *figures.Panel, segs [][]figures.XY) pixels {
	g := pixels{xlog: pn.X.Log, ylog: pn.Y.Log, nx: cellsX, ny: cellsY}
	g.x0, g.x1, g.y0, g.y1 = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range segs {
		for _, p := range s {
			g.x0, g.x1 = math.Min(g.x0, tr(p.X, g.xlog)), math.Max(g.x1, tr(p.X, g.xlog))
			g.y0, g.y1 = math.Min(g.y0, tr(p.Y, g.ylog)), math.Max(g.y1, tr(p.Y, g.ylog))
		}
	}
	if pn.X.Fixed && pn.X.Max > pn.X.Min && (!g.xlog || pn.X.Min > 0) {
		g.x0, g.x1 = tr(pn.X.Min, g.xlog), tr(pn.X.Max, g.xlog)
	}
	if pn.Y.Fixed && pn.Y.Max > pn.Y.Min && (!g.ylog || pn.Y.Min > 0) {
		g.y0, g.y1 = tr(pn.Y.Min, g.ylog), tr(pn.Y.Max, g.ylog)
	}
	return g
}

func tr(v float64, log bool) float64 {
	if log && v > 0 {
		return math.Log10(v)
	}
	return v
}

// at is a point's position in cells.
func (g pixels) at(p figures.XY) [2]float64 {
	c := func(v, lo, hi, n float64, log bool) float64 {
		if !(hi > lo) {
			return 0
		}
		return (tr(v, log) - lo) / (hi - lo) * n
	}
	return [2]float64{c(p.X, g.x0, g.x1, g.nx, g.xlog), c(p.Y, g.y0, g.y1, g.ny, g.ylog)}
}

// decimate returns the indices of the points of a segment drawn on
// screen: the first and the last, and in between as few as keep the drawn
// line within tol cells of the full one (cells of the grid g; as steps
// when steps). It walks from the last kept point and extends the line to
// the next point while every point (and step corner) skipped stays within
// tol of it, at most window points at a time. A curve still longer than
// maxPoints is simplified again with twice the tolerance, and so on.
func decimate(seg []figures.XY, steps bool, gap float64, g pixels) []int {
	if len(seg) <= 2 {
		return all(len(seg))
	}
	px := make([][2]float64, len(seg))
	for j, p := range seg {
		px[j] = g.at(p)
	}
	tol := pixelTol
	for {
		out := simplify(px, steps, tol, gap)
		if len(out) <= maxPoints || tol > 64 {
			return out
		}
		tol *= 2
	}
}

// pixelTol is the largest distance, in cells, between a drawn line and
// the full one; window the most points one kept segment replaces; tipGap
// the longest kept segment, in cells, of a line with tooltips (so that a
// threshold is never far from the pointer).
const (
	tipGap   = 10
	pixelTol = 1.0
	window   = 256
)

func simplify(px [][2]float64, steps bool, tol, gap float64) []int {
	out := []int{0}
	a := 0
	for a < len(px)-1 {
		b := a + 1
		for b+1 < len(px) && b+1-a <= window && (gap == 0 || math.Hypot(px[b+1][0]-px[a][0], px[b+1][1]-px[a][1]) <= gap) &&
			within(px, a, b+1, steps, tol) {
			b++
		}
		out = append(out, b)
		a = b
	}
	return out
}

// within reports whether the line from point a to point b (a step when
// steps: across at a's height, then up or down) passes within tol of every
// point between them, and of every corner of their steps.
func within(px [][2]float64, a, b int, steps bool, tol float64) bool {
	if !steps {
		for k := a + 1; k < b; k++ {
			if segDist(px[k], px[a], px[b]) > tol {
				return false
			}
		}
		return true
	}
	// The simplified step: (xa, ya) -> (xb, ya) -> (xb, yb).
	corner := [2]float64{px[b][0], px[a][1]}
	for k := a + 1; k <= b; k++ {
		// the full line's corner before point k, and point k
		for _, v := range [][2]float64{{px[k][0], px[k-1][1]}, px[k]} {
			if math.Min(segDist(v, px[a], corner), segDist(v, corner, px[b])) > tol {
				return false
			}
		}
	}
	return true
}

// segDist is the distance from v to the segment p-q.
func segDist(v, p, q [2]float64) float64 {
	dx, dy := q[0]-p[0], q[1]-p[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((v[0]-p[0])*dx+(v[1]-p[1])*dy)/l))
	}
	return math.Hypot(v[0]-p[0]-t*dx, v[1]-p[1]-t*dy)
}
