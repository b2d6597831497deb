package plot

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"

	xfnt "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// This file holds the figures as markup for report.html: InlineSVG is a
// figure drawn for a page, written by Markup with the page's Styles. The
// figure files (figures/<id>.svg) are gonum's vgsvg output; the page
// markup draws the same elements in the same order with the same styles,
// made smaller:
//
//   - no XML prologue, no size (the page sizes it by CSS), labelled for
//     assistive technology by the caption's id;
//   - every style of a path is a class of the page's stylesheet (Styles),
//     and the house font is declared there once: a text in black carries
//     its size only;
//   - coordinates in tenths of a point (finer than a screen pixel): paths
//     of lines and rectangles with relative moves, h and v, and moves
//     shorter than 0.05 pt dropped; consecutive paths of one opaque class
//     joined into one path of several subpaths (the same drawing: a dash
//     pattern restarts at each subpath).
//
// The numbers are vgsvg's (five significant digits), then cut to one
// decimal: the page keeps the markup it had when this was done by
// rewriting vgsvg's text.

// svgPrec is the significant digits of vgsvg's numbers.
const svgPrec = 5

// InlineSVG is one figure ready to be written into an HTML page (Markup).
type InlineSVG struct {
	w, h  vg.Length
	nodes []svgNode
	ends  int // groups still open after the last node
}

// svgNode is one element of an inline figure.
type svgNode struct {
	kind  nodeKind
	attr  string   // group: its transform; text, image: the attributes before the style
	d     string   // path: its data
	plain bool     // path: lines only (d starts with a move), may join the next
	style string   // path, text: vgsvg's style declarations ("" none)
	font  string   // text: its size (and weight, slant) when the style is the house font's, in black
	body  string   // text: the content, escaped
	img   []string // image: x, y, width, height, source
}

type nodeKind int

const (
	nodeGroup nodeKind = iota // <g transform=...>
	nodeEnd                   // </g>
	nodePath
	nodeText
	nodeImage
)

// inline draws the figure for a page.
func (f *figure) inline() *InlineSVG {
	c := &inlineCanvas{out: &InlineSVG{w: f.w, h: f.h}, stack: []inlineState{{}}}
	vg.Initialize(c)
	paintPage(c, f.w, f.h)
	f.paint(c)
	c.out.ends = 1 // the group that turns the y axis up
	for _, s := range c.stack {
		c.out.ends += s.groups
	}
	return c.out
}

// Markup writes the figure as an <svg> element labelled by the element
// with id labelID, with its styles as classes of st. Text is escaped as
// HTML; the markup holds the elements svg, g, path, text and image (a
// data: PNG) only, and no attribute from outside this package but the
// label's id, which is escaped.
func (s *InlineSVG) Markup(labelID string, st *Styles) string {
	var b strings.Builder
	b.Grow(64 * len(s.nodes))
	b.WriteString(`<svg viewBox="0 0 ` + cut(g5(s.w.Points())) + ` ` + cut(g5(s.h.Points())) + `" role="img" aria-labelledby="` +
		html.EscapeString(labelID) + `" focusable="false">` + "\n")
	b.WriteString(`<g transform="scale(1,-1) translate(0, -` + cut(g5(s.h.Points())) + `)">` + "\n")
	var pend strings.Builder // path data waiting to be joined
	pendClass := ""
	flush := func() {
		if pendClass != "" {
			b.WriteString(`<path d="` + pend.String() + `" class="` + pendClass + `"/>` + "\n")
			pendClass = ""
			pend.Reset()
		}
	}
	for i := range s.nodes {
		n := &s.nodes[i]
		class := ""
		if n.style != "" && n.kind != nodeText {
			class = st.of(n.style)
		}
		if n.kind == nodePath && n.plain && class != "" && !st.translucent(class) {
			if class != pendClass {
				flush()
				pendClass = class
			}
			pend.WriteString(n.d)
			continue
		}
		flush()
		switch n.kind {
		case nodeGroup:
			b.WriteString(`<g transform="` + n.attr + `">` + "\n")
		case nodeEnd:
			b.WriteString("</g>\n")
		case nodePath:
			b.WriteString(`<path d="` + n.d + `"`)
			if class != "" {
				b.WriteString(` class="` + class + `"`)
			}
			b.WriteString("/>\n")
		case nodeText:
			// A text in the house font, in black, has its size (and
			// weight, slant) only; another (the grey "n/a" tags) keeps
			// its style on the element.
			b.WriteString(`<text` + n.attr)
			if n.font == "" {
				b.WriteString(` style="` + attrEscaper.Replace(n.style) + `"`)
			}
			b.WriteString(n.font + `>` + n.body + "</text>\n")
		case nodeImage:
			b.WriteString(`<image x="` + n.img[0] + `" y="` + n.img[1] + `" width="` + n.img[2] + `" height="` + n.img[3] +
				`" xlink:href="` + n.img[4] + `" transform="scale(1,-1)"/>` + "\n")
		}
	}
	flush()
	for range s.ends {
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>")
	return b.String()
}

// attrEscaper escapes what could end a double-quoted attribute value or
// start markup in it (a style keeps its single quotes).
var attrEscaper = strings.NewReplacer(`&`, "&amp;", `"`, "&#34;", `<`, "&lt;")

// Styles gives every distinct style of a page's inline figures one class,
// in order of first use, so a style is written once in the stylesheet
// instead of on thousands of elements. The zero value is empty.
type Styles struct {
	class map[string]string
	order []string
}

func (c *Styles) of(style string) string {
	if k, ok := c.class[style]; ok {
		return k
	}
	if c.class == nil {
		c.class = map[string]string{}
	}
	k := "s" + strconv.Itoa(len(c.order))
	c.class[style] = k
	c.order = append(c.order, style)
	return k
}

// translucent reports whether a class draws with some opacity: joining
// two such paths would change where they overlap.
func (c *Styles) translucent(class string) bool {
	i, err := strconv.Atoi(strings.TrimPrefix(class, "s"))
	return err != nil || i >= len(c.order) || strings.Contains(c.order[i], "opacity")
}

// CSS is the stylesheet of the classes, each rule under the selector
// scope (".fig-static"). The declarations are the canvas's own (fill,
// stroke, opacity, font): a rule cannot close early, as braces and '<'
// are refused.
func (c *Styles) CSS(scope string) (string, error) {
	var b strings.Builder
	for i, st := range c.order {
		if strings.ContainsAny(st, "{}<>\\") {
			return "", fmt.Errorf("svg: style %q cannot go into the stylesheet", st)
		}
		fmt.Fprintf(&b, "%s .s%d{%s}\n", scope, i, st)
	}
	return b.String(), nil
}

// inlineCanvas is the vg.Canvas that makes an InlineSVG: vgsvg's
// drawing state and elements, kept as nodes.
type inlineCanvas struct {
	out   *InlineSVG
	stack []inlineState
}

// inlineState is the drawing state of one level of Push and Pop.
type inlineState struct {
	color      color.Color
	dashes     []vg.Length
	dashOffset vg.Length
	width      vg.Length
	groups     int // groups opened at this level
}

func (c *inlineCanvas) top() *inlineState { return &c.stack[len(c.stack)-1] }

func (c *inlineCanvas) group(transform string) {
	c.out.nodes = append(c.out.nodes, svgNode{kind: nodeGroup, attr: transform})
	c.top().groups++
}

// Size implements vg.CanvasSizer.
func (c *inlineCanvas) Size() (w, h vg.Length) { return c.out.w, c.out.h }

// SetLineWidth implements vg.Canvas.
func (c *inlineCanvas) SetLineWidth(w vg.Length) { c.top().width = w }

// SetLineDash implements vg.Canvas.
func (c *inlineCanvas) SetLineDash(pattern []vg.Length, offset vg.Length) {
	c.top().dashes, c.top().dashOffset = pattern, offset
}

// SetColor implements vg.Canvas.
func (c *inlineCanvas) SetColor(col color.Color) { c.top().color = col }

// Rotate implements vg.Canvas.
func (c *inlineCanvas) Rotate(a float64) {
	c.group("rotate(" + cut(strconv.FormatFloat(a*180/math.Pi, 'g', -1, 64)) + ")")
}

// Translate implements vg.Canvas.
func (c *inlineCanvas) Translate(pt vg.Point) {
	c.group("translate(" + cut(g5(pt.X.Points())) + ", " + cut(g5(pt.Y.Points())) + ")")
}

// Scale implements vg.Canvas.
func (c *inlineCanvas) Scale(x, y float64) {
	c.group("scale(" + cut(strconv.FormatFloat(x, 'g', -1, 64)) + "," + cut(strconv.FormatFloat(y, 'g', -1, 64)) + ")")
}

// Push implements vg.Canvas.
func (c *inlineCanvas) Push() {
	s := *c.top()
	s.groups = 0
	c.stack = append(c.stack, s)
}

// Pop implements vg.Canvas.
func (c *inlineCanvas) Pop() {
	for range c.top().groups {
		c.out.nodes = append(c.out.nodes, svgNode{kind: nodeEnd})
	}
	c.stack = c.stack[:len(c.stack)-1]
}

// Stroke implements vg.Canvas.
func (c *inlineCanvas) Stroke(p vg.Path) {
	s := c.top()
	if s.width.Points() <= 0 {
		return
	}
	dash := "none"
	if len(s.dashes) > 0 {
		parts := make([]string, len(s.dashes))
		for i, d := range s.dashes {
			parts[i] = g5(d.Points())
		}
		dash = strings.Join(parts, ",")
	}
	c.path(p, styleOf(decl("fill", "#000000", "none"),
		decl("stroke", "none", colorText(s.color)),
		decl("stroke-opacity", "1", opacityText(s.color)),
		decl("stroke-width", "1", g5(s.width.Points())),
		decl("stroke-dasharray", "none", dash),
		decl("stroke-dashoffset", "0", g5(s.dashOffset.Points()))))
}

// Fill implements vg.Canvas.
func (c *inlineCanvas) Fill(p vg.Path) {
	col := c.top().color
	c.path(p, styleOf(decl("fill", "#000000", colorText(col)), decl("fill-opacity", "1", opacityText(col))))
}

func (c *inlineCanvas) path(p vg.Path, style string) {
	d, plain := packedPath(p)
	if !plain {
		d = pathData(p)
	}
	c.out.nodes = append(c.out.nodes, svgNode{kind: nodePath, d: d, plain: strings.HasPrefix(d, "M"), style: style})
}

// FillString implements vg.Canvas.
func (c *inlineCanvas) FillString(f font.Face, pt vg.Point, s string) {
	size := g5(f.Font.Size.Points()) + "px"
	face := fontFace(f)
	fill := decl("fill", "#000000", colorText(c.top().color))
	n := svgNode{kind: nodeText, attr: ` x="` + cut(g5(pt.X.Points())) + `" y="` + cut(g5(-pt.Y.Points())) + `" transform="scale(1,-1)"`,
		style: styleOf(face.decl, decl("font-size", "medium", size), fill), body: html.EscapeString(s)}
	if fill == "" && face.plain {
		n.font = ` font-size="` + cut(size) + `"`
		if face.bold {
			n.font += ` font-weight="bold"`
		}
		if face.italic {
			n.font += ` font-style="italic"`
		}
	}
	c.out.nodes = append(c.out.nodes, n)
}

// DrawImage implements vg.Canvas: the image as an embedded PNG.
func (c *inlineCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(fmt.Errorf("plot: encoding an image of a figure: %w", err))
	}
	sz := rect.Size()
	v := func(x float64) string { return cut(fmt.Sprint(x)) }
	c.out.nodes = append(c.out.nodes, svgNode{kind: nodeImage, img: []string{
		v(rect.Min.X.Points()), v(-rect.Min.Y.Points() - sz.Y.Points()), v(sz.X.Points()), v(sz.Y.Points()),
		"data:image/jpg;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}})
}

// face is what a text's style says of its font.
type face struct {
	decl         string // font-family, variant, weight and style declarations
	plain        bool   // normal variant, normal or bold weight, normal or italic style
	bold, italic bool
}

// fontFace is vgsvg's description of a font, with the family list of the
// figure files (see figure.svg).
func fontFace(f font.Face) face {
	var buf sfnt.Buffer
	family, err := f.Face.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		panic(fmt.Errorf("plot: no family name in font %q: %w", f.Font.Typeface, err))
	}
	if family == "Liberation Sans" {
		family = "'Liberation Sans',Arial,Helvetica,sans-serif"
	}
	variant := strings.ToLower(string(f.Font.Variant))
	switch variant {
	case "smallcaps":
		variant = "small-caps"
	case "mono", "monospace", "sans", "sansserif", "sans-serif", "serif":
		variant = "normal"
	case "":
		variant = "none"
	}
	style := map[xfnt.Style]string{xfnt.StyleNormal: "normal", xfnt.StyleItalic: "italic", xfnt.StyleOblique: "oblique"}[f.Font.Style]
	weight := map[xfnt.Weight]string{xfnt.WeightThin: "100", xfnt.WeightExtraLight: "200", xfnt.WeightLight: "300",
		xfnt.WeightNormal: "normal", xfnt.WeightMedium: "500", xfnt.WeightSemiBold: "600", xfnt.WeightBold: "bold",
		xfnt.WeightExtraBold: "800", xfnt.WeightBlack: "900"}[f.Font.Weight]
	return face{
		decl:  "font-family:" + family + ";font-variant:" + variant + ";font-weight:" + weight + ";font-style:" + style,
		plain: variant == "normal" && (weight == "normal" || weight == "bold") && (style == "normal" || style == "italic"),
		bold:  weight == "bold", italic: style == "italic",
	}
}

// decl is the declaration "key:value", or "" when value is the default.
func decl(key, def, value string) string {
	if value == def {
		return ""
	}
	return key + ":" + value
}

// styleOf joins the declarations that are not "".
func styleOf(decls ...string) string {
	var out []string
	for _, d := range decls {
		if d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, ";")
}

// colorText is vgsvg's colour: #RRGGBB of the straight components (nil
// is black).
func colorText(c color.Color) string {
	if c == nil {
		c = color.Black
	}
	r, g, b, a0 := c.RGBA()
	a := 255.0 / float64(a0)
	return fmt.Sprintf("#%02X%02X%02X", int(float64(r)*a), int(float64(g)*a), int(float64(b)*a))
}

// opacityText is vgsvg's opacity of a colour.
func opacityText(c color.Color) string {
	if c == nil {
		c = color.Black
	}
	_, _, _, a := c.RGBA()
	return g5(float64(a) / math.MaxUint16)
}

// g5 writes x as vgsvg does: five significant digits.
func g5(x float64) string { return strconv.FormatFloat(x, 'g', svgPrec, 64) }

// cut keeps one decimal of a written number ("12.345" -> "12.3",
// "1.25e-05" -> "1.2e-05").
func cut(s string) string {
	i := strings.IndexByte(s, '.')
	if i <= 0 || s[i-1] < '0' || s[i-1] > '9' || i+2 >= len(s) {
		return s
	}
	j := i + 2
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return s[:i+2] + s[j:]
}

// packedPath writes a path made of moves, lines and closes (the lines,
// bands and rectangles of gonum/plot) in tenths of a point with relative
// moves and h and v for horizontal and vertical steps, dropping moves
// shorter than 0.05 pt. A path with arcs or curves (markers) is not
// packed (ok false).
func packedPath(p vg.Path) (d string, ok bool) {
	var b strings.Builder
	var cx, cy, sx, sy int64 // current and subpath start point, in tenths of a point
	for _, c := range p {
		switch c.Type {
		case vg.CloseComp:
			b.WriteByte('Z')
			cx, cy = sx, sy
			continue
		case vg.MoveComp, vg.LineComp:
		default:
			return "", false
		}
		x, okx := tenthsOf(c.Pos.X.Points())
		y, oky := tenthsOf(c.Pos.Y.Points())
		if !okx || !oky {
			return "", false
		}
		if c.Type == vg.MoveComp {
			b.WriteString("M" + tenths(x) + "," + tenths(y))
			cx, cy, sx, sy = x, y, x, y
			continue
		}
		dx, dy := x-cx, y-cy
		switch {
		case dx == 0 && dy == 0:
			continue
		case dy == 0:
			b.WriteString("h" + tenths(dx))
		case dx == 0:
			b.WriteString("v" + tenths(dy))
		default:
			b.WriteString("l" + tenths(dx))
			if dy >= 0 {
				b.WriteByte(',')
			}
			b.WriteString(tenths(dy))
		}
		cx, cy = x, y
	}
	return b.String(), true
}

// tenthsOf is a coordinate at vgsvg's five significant digits, rounded to
// tenths of a point; not ok when it is not finite or beyond 1e12.
func tenthsOf(v float64) (int64, bool) {
	v, _ = strconv.ParseFloat(g5(v), 64)
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
		return 0, false
	}
	return int64(math.Round(v * 10)), true
}

// tenths writes a length in tenths of a point as a short decimal: 12 ->
// "1.2", 5 -> ".5", -30 -> "-3".
func tenths(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := ""
	if v >= 10 {
		s = strconv.FormatInt(v/10, 10)
	}
	if r := v % 10; r != 0 {
		s += "." + strconv.FormatInt(r, 10)
	} else if s == "" {
		s = "0"
	}
	if neg {
		s = "-" + s
	}
	return s
}

// pathData writes any path as vgsvg does (absolute commands, arcs as
// SVG arcs), its numbers cut to one decimal.
func pathData(p vg.Path) string {
	var b strings.Builder
	num := func(v float64) string { return cut(g5(v)) }
	pt := func(x, y float64) string { return num(x) + "," + num(y) }
	var x, y float64
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp:
			x, y = c.Pos.X.Points(), c.Pos.Y.Points()
			b.WriteString("M" + pt(x, y))
		case vg.LineComp:
			x, y = c.Pos.X.Points(), c.Pos.Y.Points()
			b.WriteString("L" + pt(x, y))
		case vg.ArcComp:
			r := c.Radius.Points()
			sin, cos := math.Sincos(c.Start)
			x0, y0 := c.Pos.X.Points()+r*cos, c.Pos.Y.Points()+r*sin
			if x0 != x || y0 != y {
				b.WriteString("L" + pt(x0, y0))
			}
			arc := func(angle, ex, ey float64) {
				large, sweep := 0, 1
				if math.Abs(angle) >= math.Pi {
					large = 1
				}
				if angle < 0 {
					sweep = 0
				}
				fmt.Fprintf(&b, "A%s,%s 0 %d %d %s", num(r), num(r), large, sweep, pt(ex, ey))
			}
			if math.Abs(c.Angle) >= 2*math.Pi {
				// A full circle: two half arcs (one arc cannot close).
				angle := 2 * math.Pi
				if c.Angle < 0 {
					angle = -2 * math.Pi
				}
				angle += (c.Angle/(2*math.Pi) - math.Trunc(c.Angle/(2*math.Pi))) * 2 * math.Pi
				s0, c0 := math.Sincos(c.Start + 0.5*angle)
				s1, c1 := math.Sincos(c.Start + angle)
				x, y = c.Pos.X.Points()+r*c1, c.Pos.Y.Points()+r*s1
				arc(angle/2, c.Pos.X.Points()+r*c0, c.Pos.Y.Points()+r*s0)
				arc(angle/2, x, y)
			} else {
				s1, c1 := math.Sincos(c.Start + c.Angle)
				x, y = c.Pos.X.Points()+r*c1, c.Pos.Y.Points()+r*s1
				arc(c.Angle, x, y)
			}
		case vg.CurveComp:
			b.WriteString(map[int]string{1: "Q", 2: "C"}[len(c.Control)])
			for _, q := range c.Control {
				b.WriteString(pt(q.X.Points(), q.Y.Points()) + ",")
			}
			x, y = c.Pos.X.Points(), c.Pos.Y.Points()
			b.WriteString(pt(x, y))
		case vg.CloseComp:
			b.WriteString("Z")
		}
	}
	return b.String()
}
