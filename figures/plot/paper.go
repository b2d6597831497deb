package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/figures"
)

// Paper is the page a paper figure is drawn for: the venue's column and
// text widths and the size of every text, in TeX points (as LaTeX
// measures \columnwidth). A figure is drawn at exactly the width it is
// shown at, so nothing is rescaled when LaTeX includes it.
type Paper struct {
	Column, Text float64 // pt
	FontSize     float64 // pt
	Date         time.Time
}

// PaperDir is the folder of the bundle that holds the paper figures.
const PaperDir = "paper/figures/"

// tex is one TeX point (1/72.27 in) in vg lengths (1/72 in): a PDF of
// 241.14749 TeX points is 240.15 PostScript points wide.
const tex = vg.Inch / 72.27

// Wide reports whether a figure spans the text width of a two-column
// page: the overlays of every system, the systems chart and the heat maps.
func Wide(s *figures.Spec) bool {
	switch s.Kind {
	case figures.KindROCOverlay, figures.KindPROverlay, figures.KindSystems, figures.KindPerQueryHeatmap, figures.KindGateGrid:
		return true
	}
	return false
}

// PaperSet picks the figures a paper shows from the catalogue: the
// primary system's ROC with its CI band, the ROC and PR overlays of every
// system (the primary system's PR curve when there is no overlay), the
// systems chart, and the primary system's reliability
// diagram, per-criterion charts, Recall@K by stratum, gamma sweep,
// Dynamic-K histogram, difficulty scatter and per-query heat map; each
// where the catalogue has it.
func PaperSet(specs []figures.Spec, primary string) []figures.Spec {
	has := map[figures.Kind]bool{}
	for _, s := range specs {
		has[s.Kind] = true
	}
	want := []figures.Kind{figures.KindROCOverlay, figures.KindPROverlay, figures.KindSystems, figures.KindReliability,
		figures.KindCriteriaAUROC, figures.KindCriteriaRanking, figures.KindRecallAtK, figures.KindGammaSweep,
		figures.KindDynKHist, figures.KindDifficulty, figures.KindPerQueryHeatmap}
	// The primary's own ROC with its CI band, at print size, also beside
	// the overlay (which has no bands): roc_<primary>.pdf.
	want = append([]figures.Kind{figures.KindROC}, want...)
	if !has[figures.KindPROverlay] {
		want = append([]figures.Kind{figures.KindPR}, want...)
	}
	var out []figures.Spec
	for _, k := range want {
		for _, s := range specs {
			if s.Kind == k && (s.System == "" || s.System == primary) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// paperHeight is the height of a paper figure of width w: about 3:4 in a
// column, flatter at text width; the reliability diagram, with its count
// panel under the curve, is nearly square.
func paperHeight(s *figures.Spec, w, w0, h0 vg.Length) vg.Length {
	switch s.Kind {
	case figures.KindReliability:
		return 0.95 * w
	case figures.KindROCOverlay, figures.KindPROverlay:
		return 0.45 * w
	}
	if Wide(s) {
		return w * h0 / w0
	}
	return 0.75 * w
}

// RenderPaper draws specs as PDFs for the page, paper/figures/<id>.pdf:
// exactly the column width (the text width when Wide), every text at
// FontSize, strokes between 0.5 and 1 pt, no title (the caption says
// it), the legend in rows under the plot, fonts embedded.
func RenderPaper(specs []figures.Spec, p Paper) ([]File, error) {
	date := p.Date
	if date.IsZero() {
		date = DefaultDate
	}
	lk := paperLook(p.FontSize)
	out := make([]File, 0, len(specs))
	for i := range specs {
		s := &specs[i]
		w := vg.Length(p.Column) * tex
		if Wide(s) {
			w = vg.Length(p.Text) * tex
		}
		f, err := build(s, lk, w)
		if err != nil {
			return nil, fmt.Errorf("plot: paper %s: %w", s.ID, err)
		}
		pdf, err := f.pdf(date)
		if err != nil {
			return nil, fmt.Errorf("plot: paper %s: %w", s.ID, err)
		}
		out = append(out, File{ID: s.ID, Name: PaperDir + s.ID.String() + ".pdf", Data: pdf})
	}
	return out, nil
}

// lineClamp keeps every stroke of a paper figure between 0.5 and 1 pt
// (a zero width, no stroke, stays zero).
type lineClamp struct{ vg.Canvas }

// SetLineWidth implements vg.Canvas.
func (c lineClamp) SetLineWidth(w vg.Length) {
	if w > 0 {
		w = min(max(w, vg.Points(0.5)), vg.Points(1))
	}
	c.Canvas.SetLineWidth(w)
}

// legendEntry is one entry of a legend drawn in rows.
type legendEntry struct {
	text  string
	thumb []plot.Thumbnailer
}

// legendEntries are the legend of a spec as entries for rows.
func legendEntries(s *figures.Spec) []legendEntry {
	var out []legendEntry
	for _, e := range s.Legend {
		// One line per entry: the rows are one text line high.
		out = append(out, legendEntry{text: clipLines(strings.Join(strings.Fields(e.Text), " "), 2*maxLabel), thumb: thumbnails(e.Keys)})
	}
	return out
}

// Legend rows: a thumbnail, its text, a gap to the next entry.
var (
	rowThumb = vg.Points(12)
	rowPad   = vg.Points(2.5)
	rowGap   = vg.Points(8)
	// rowFoot is the margin under the last row: a row is centred on its
	// text's line height, which leaves descenders ("p", "(") a fraction of
	// a point lower, off the page without it.
	rowFoot = vg.Points(1)
)

// legendLayout places entries in rows of at most width w; it returns
// each entry's row and x offset, and the height of one row.
func legendLayout(es []legendEntry, w vg.Length, lk look) (row []int, x []vg.Length, rowH vg.Length) {
	sty := textStyle(lk.legend)
	rowH = lk.legend * 1.3
	cur, r := vg.Length(0), 0
	for _, e := range es {
		ew := rowThumb + rowPad + textWidth(sty, e.text)
		if cur > 0 && cur+ew > w {
			r++
			cur = 0
		}
		row, x = append(row, r), append(x, cur)
		cur += ew + rowGap
	}
	return row, x, rowH
}

// textWidth is the width of the widest line of s.
func textWidth(sty interface{ Width(string) vg.Length }, s string) vg.Length {
	return sty.Width(s)
}

// legendRowsHeight is the height the legend rows take under a figure of
// width w, with the gap above them.
func legendRowsHeight(es []legendEntry, w vg.Length, lk look) vg.Length {
	if len(es) == 0 {
		return 0
	}
	row, _, rowH := legendLayout(es, w, lk)
	return vg.Length(row[len(row)-1]+1)*rowH + vg.Points(3) + rowFoot
}

// drawLegendRows draws the legend in rows at the bottom of c and returns
// the canvas above it.
func drawLegendRows(c draw.Canvas, es []legendEntry, lk look) draw.Canvas {
	if len(es) == 0 {
		return c
	}
	w := c.Max.X - c.Min.X
	row, x, rowH := legendLayout(es, w, lk)
	rows := row[len(row)-1] + 1
	sty := textStyle(lk.legend)
	sty.YAlign = draw.YCenter
	for i, e := range es {
		y0 := c.Min.Y + rowFoot + vg.Length(rows-1-row[i])*rowH
		tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Min.X + x[i], Y: y0}, Max: vg.Point{X: c.Min.X + x[i] + rowThumb, Y: y0 + rowH}}}
		for _, t := range e.thumb {
			t.Thumbnail(&tc)
		}
		c.FillText(sty, vg.Point{X: c.Min.X + x[i] + rowThumb + rowPad, Y: y0 + rowH/2}, e.text)
	}
	return draw.Crop(c, 0, 0, vg.Length(rows)*rowH+vg.Points(3)+rowFoot, 0)
}

// curveLike reports whether a figure is a ROC or precision-recall curve:
// a single panel of curves whose legend, when it would take more than one
// row under the plot, goes inside the plot, in a corner no curve crosses.
func curveLike(s *figures.Spec) bool {
	switch s.Kind {
	case figures.KindROC, figures.KindROCOverlay, figures.KindPR, figures.KindPROverlay, figures.KindROCPair:
		return true
	}
	return false
}

// drawLegendInside draws the legend as a column in a white box in the
// corner of the data area dc of p that the fewest segments of pn's lines
// cross: bottom right first (below a ROC curve's diagonal), then top
// right (a precision-recall curve falls as recall grows), bottom left,
// top left.
func drawLegendInside(dc draw.Canvas, p *plot.Plot, pn *figures.Panel, es []legendEntry, lk look) {
	sty := textStyle(lk.legend)
	sty.YAlign = draw.YCenter
	rowH := lk.legend * 1.3
	var tw vg.Length
	for _, e := range es {
		tw = max(tw, sty.Width(e.text))
	}
	pad := vg.Points(3)
	w := pad + rowThumb + rowPad + tw + pad
	h := pad + vg.Length(len(es))*rowH + pad
	box := legendCorner(dc, p, pn, w, h, pad)
	dc.SetColor(color.White)
	dc.Fill(box.Path())
	dc.SetLineStyle(draw.LineStyle{Color: gridGrey, Width: vg.Points(0.5)})
	dc.Stroke(box.Path())
	for i, e := range es {
		y0 := box.Max.Y - pad - vg.Length(i+1)*rowH
		tc := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: box.Min.X + pad, Y: y0}, Max: vg.Point{X: box.Min.X + pad + rowThumb, Y: y0 + rowH}}}
		for _, t := range e.thumb {
			t.Thumbnail(&tc)
		}
		dc.FillText(sty, vg.Point{X: box.Min.X + pad + rowThumb + rowPad, Y: y0 + rowH/2}, e.text)
	}
}

// legendCorner is the box of width w and height h, pad inside a corner of
// the data area dc of p, that the fewest segments of pn's lines meet; ties
// go to the first of bottom right, top right, bottom left, top left.
func legendCorner(dc draw.Canvas, p *plot.Plot, pn *figures.Panel, w, h, pad vg.Length) vg.Rectangle {
	at := func(x, y vg.Length) vg.Rectangle {
		return vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + w, Y: y + h}}
	}
	left, right := dc.Min.X+pad, dc.Max.X-w-pad
	bottom, top := dc.Min.Y+pad, dc.Max.Y-h-pad
	box, least := vg.Rectangle{}, -1
	trX, trY := p.Transforms(&dc)
	for _, r := range []vg.Rectangle{at(right, bottom), at(right, top), at(left, bottom), at(left, top)} {
		if n := crossings(pn, r, trX, trY); least < 0 || n < least {
			box, least = r, n
		}
	}
	return box
}

// crossings counts the segments of pn's lines (a step line's horizontal
// and vertical pieces) that meet the rectangle r, in drawing coordinates.
func crossings(pn *figures.Panel, r vg.Rectangle, trX, trY func(float64) vg.Length) int {
	n := 0
	for _, el := range pn.Elements {
		l, ok := el.(*figures.Line)
		if !ok {
			continue
		}
		for _, seg := range l.Segments {
			for i := 1; i < len(seg); i++ {
				a := vg.Point{X: trX(seg[i-1].X), Y: trY(seg[i-1].Y)}
				b := vg.Point{X: trX(seg[i].X), Y: trY(seg[i].Y)}
				if l.Steps {
					corner := vg.Point{X: b.X, Y: a.Y}
					if segmentMeets(a, corner, r) || segmentMeets(corner, b, r) {
						n++
					}
				} else if segmentMeets(a, b, r) {
					n++
				}
			}
		}
	}
	return n
}

// segmentMeets reports whether the segment ab meets the rectangle r: the
// part of the segment's parameter range inside each slab of r (Liang and
// Barsky's clipping) is not empty.
func segmentMeets(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	clip := func(p, q float64) bool {
		if p == 0 {
			return q >= 0
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		return t0 <= t1
	}
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	return clip(-dx, float64(a.X-r.Min.X)) && clip(dx, float64(r.Max.X-a.X)) &&
		clip(-dy, float64(a.Y-r.Min.Y)) && clip(dy, float64(r.Max.Y-a.Y))
}

// rotateCategories turns the category names of an x axis by 45° when the
// widest one is wider than the room one category has (about 80% of the
// figure's width over the categories), so no two names overlap.
func rotateCategories(p *plot.Plot, pn *figures.Panel, w vg.Length, lk look) {
	n := len(pn.X.Categories)
	if n == 0 || pn.X.IndexTicks || pn.X.HideTickLabels {
		return
	}
	sty := textStyle(lk.tick)
	var widest vg.Length
	for _, c := range pn.X.Categories {
		widest = max(widest, sty.Width(clipLines(c, maxLabel)))
	}
	if widest <= 0.95*w*0.85/vg.Length(n) {
		return
	}
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YTop
}
