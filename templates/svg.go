package templates

import (
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// svgTags are the elements a static figure of figures/plot may hold
// (besides an <image> of a data: raster). An SVG with any other element
// (script, foreignObject, a, use, ...) is refused: the figure files are
// ours, so anything else is a bug.
var svgTags = map[string]bool{"svg": true, "g": true, "path": true, "text": true}

// fontStyle is the style gonum/plot writes on every text element; the
// page sets the font family once in CSS and keeps the size only.
var fontStyle = regexp.MustCompile(`style="font-family:[^;"]*;font-variant:normal;font-weight:(normal|bold);font-style:(normal|italic);font-size:([0-9.]+px)"`)

// plainPath matches a path with path data and a class only.
var plainPath = regexp.MustCompile(`^<path d="(M[^"]*)" class="(s[0-9]+)"/>$`)

// pathData and styleAttr match the d and style attributes of an element.
var (
	pathData  = regexp.MustCompile(` d="[^"]*"`)
	styleAttr = regexp.MustCompile(` style="[^"]*"`)
)

// longDecimal matches a number with two or more decimals: coordinates in
// points, where one decimal (1/10 pt) is finer than a screen pixel.
var longDecimal = regexp.MustCompile(`(\d\.\d)\d+`)

// dataImage matches an <image> whose only source is an embedded raster
// (the colour scale of a heat map).
var dataImage = regexp.MustCompile(`^<image [^>]*xlink:href="data:image/[a-z]+;base64,[A-Za-z0-9+/=]*"[^>]*>$`)

// eventAttr matches an event handler attribute.
var eventAttr = regexp.MustCompile(`(?i)\son[a-z]+\s*=`)

// svgSizeAttr matches the width and height (and namespace) attributes of
// the root element, which the page replaces by CSS sizing.
var svgSizeAttr = regexp.MustCompile(`\s(width|height|xmlns|xmlns:xlink)="[^"]*"`)

// inlineSVG turns a figure file of figures/plot into markup for the page:
// without the XML prologue and comments, scaled by CSS, labelled for
// assistive technology with the figure's text alternative, with numbers in
// markup cut to two decimals and the repeated font declaration moved to
// the stylesheet. Text content is copied as it is: gonum/plot escapes it
// as XML, which is inert HTML too. An element outside svgTags is an error.
func inlineSVG(data []byte, labelID string, classes *styleClasses) (template.HTML, error) {
	var b strings.Builder
	b.Grow(len(data) * 2 / 3)
	s := string(data)
	var pendD strings.Builder // path data waiting to be merged
	pendClass := ""
	flush := func() {
		if pendClass != "" {
			b.WriteString(`<path d="` + pendD.String() + `" class="` + pendClass + `"/>` + "\n")
			pendClass = ""
			pendD.Reset()
		}
	}
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			if strings.TrimSpace(s) != "" {
				return "", fmt.Errorf("svg: text after the root element")
			}
			break
		}
		if text := s[:lt]; pendClass == "" || strings.TrimSpace(text) != "" {
			flush()
			b.WriteString(text) // text content, already XML-escaped
		}
		s = s[lt:]
		switch {
		case strings.HasPrefix(s, "<?"):
			end := strings.Index(s, "?>")
			if end < 0 {
				return "", fmt.Errorf("svg: unterminated prologue")
			}
			s = s[end+2:]
			continue
		case strings.HasPrefix(s, "<!--"):
			end := strings.Index(s, "-->")
			if end < 0 {
				return "", fmt.Errorf("svg: unterminated comment")
			}
			s = s[end+3:]
			continue
		}
		gt := strings.IndexByte(s, '>')
		if gt < 0 {
			return "", fmt.Errorf("svg: unterminated tag")
		}
		tag := s[:gt+1]
		s = s[gt+1:]
		name := strings.TrimPrefix(tag[1:], "/")
		if i := strings.IndexAny(name, " \t\r\n/>"); i >= 0 {
			name = name[:i]
		}
		if name == "image" && !dataImage.MatchString(tag) {
			return "", fmt.Errorf("svg: <image> with a source other than a data: image")
		}
		if !svgTags[name] && name != "image" {
			return "", fmt.Errorf("svg: element <%s> not allowed in a static figure", name)
		}
		if eventAttr.MatchString(tag) {
			return "", fmt.Errorf("svg: event attribute in <%s>", name)
		}
		tag = fontStyle.ReplaceAllStringFunc(tag, func(m string) string {
			sm := fontStyle.FindStringSubmatch(m)
			a := `font-size="` + sm[3] + `"`
			if sm[1] == "bold" {
				a += ` font-weight="bold"`
			}
			if sm[2] == "italic" {
				a += ` font-style="italic"`
			}
			return a
		})
		tag = pathData.ReplaceAllStringFunc(tag, func(m string) string {
			if p, ok := packPath(m[4 : len(m)-1]); ok {
				return ` d="` + p + `"`
			}
			return m
		})
		tag = styleAttr.ReplaceAllStringFunc(tag, func(m string) string {
			return ` class="` + classes.of(m[8:len(m)-1]) + `"`
		})
		tag = longDecimal.ReplaceAllString(tag, "$1")
		tag = strings.ReplaceAll(tag, "scale(1, -1)", "scale(1,-1)")
		tag = strings.Join(strings.Fields(tag), " ")
		tag = strings.ReplaceAll(tag, " />", "/>")
		if name == "svg" && !strings.HasPrefix(tag, "</") {
			tag = svgSizeAttr.ReplaceAllString(tag, "")
			tag = strings.TrimSuffix(tag, ">") + ` role="img" aria-labelledby="` + template.HTMLEscapeString(labelID) + `" focusable="false">`
		}
		// Consecutive paths of one opaque style become one path of
		// several subpaths: the same drawing (a dash pattern restarts at
		// each subpath), a fraction of the markup.
		if m := plainPath.FindStringSubmatch(tag); m != nil && !classes.translucent(m[2]) {
			if m[2] != pendClass {
				flush()
				pendClass = m[2]
			}
			pendD.WriteString(m[1])
			continue
		}
		flush()
		b.WriteString(tag)
	}
	flush()
	out := strings.TrimSpace(b.String())
	if !strings.HasPrefix(out, "<svg") {
		return "", fmt.Errorf("svg: no root <svg> element")
	}
	return template.HTML(out), nil
}

// styleClasses gives every distinct style attribute of the page's figures
// one class, in order of first use, so a style is written once in the
// stylesheet instead of on thousands of elements.
type styleClasses struct {
	class map[string]string
	order []string
}

func (c *styleClasses) of(style string) string {
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

// translucent reports whether a class draws with some opacity: merging
// two such paths would change where they overlap.
func (c *styleClasses) translucent(class string) bool {
	i, err := strconv.Atoi(strings.TrimPrefix(class, "s"))
	return err != nil || i >= len(c.order) || strings.Contains(c.order[i], "opacity")
}

// css is the stylesheet of the classes. The styles come from our own
// figure files (fill, stroke and opacity declarations): a declaration
// block cannot close early because braces and '<' are refused.
func (c *styleClasses) css() (string, error) {
	var b strings.Builder
	for i, st := range c.order {
		if strings.ContainsAny(st, "{}<>\\") {
			return "", fmt.Errorf("svg: style %q cannot go into the stylesheet", st)
		}
		fmt.Fprintf(&b, ".fig-static .s%d{%s}\n", i, st)
	}
	return b.String(), nil
}

// packPath rewrites path data made of M, L and Z commands (the lines,
// bands and rectangles of gonum/plot) with one decimal, relative moves
// and h/v for horizontal and vertical steps, dropping moves shorter than
// 0.05 pt. Other path data (arcs of markers) is left alone (ok false).
func packPath(d string) (string, bool) {
	var b strings.Builder
	var cx, cy, sx, sy int64 // current and subpath start point, in tenths of a point
	i := 0
	for i < len(d) {
		c := d[i]
		switch c {
		case ' ', ',':
			i++
			continue
		case 'Z', 'z':
			b.WriteByte('Z')
			cx, cy = sx, sy
			i++
			continue
		case 'M', 'L':
		default:
			return "", false
		}
		i++
		x, n, ok := tenthsAt(d, i)
		if !ok {
			return "", false
		}
		i += n
		if i >= len(d) || d[i] != ',' {
			return "", false
		}
		y, n, ok := tenthsAt(d, i+1)
		if !ok {
			return "", false
		}
		i += 1 + n
		if c == 'M' {
			b.WriteByte('M')
			b.WriteString(tenths(x))
			b.WriteByte(',')
			b.WriteString(tenths(y))
			cx, cy, sx, sy = x, y, x, y
			continue
		}
		dx, dy := x-cx, y-cy
		switch {
		case dx == 0 && dy == 0:
			continue
		case dy == 0:
			b.WriteByte('h')
			b.WriteString(tenths(dx))
		case dx == 0:
			b.WriteByte('v')
			b.WriteString(tenths(dy))
		default:
			b.WriteByte('l')
			b.WriteString(tenths(dx))
			if dy >= 0 {
				b.WriteByte(',')
			}
			b.WriteString(tenths(dy))
		}
		cx, cy = x, y
	}
	return b.String(), true
}

// tenthsAt reads the number at d[i:] rounded to tenths.
func tenthsAt(d string, i int) (int64, int, bool) {
	j := i
	for j < len(d) && (d[j] == '-' || d[j] == '.' || d[j] == 'e' || d[j] == '+' || (d[j] >= '0' && d[j] <= '9')) {
		j++
	}
	v, err := strconv.ParseFloat(d[i:j], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
		return 0, 0, false
	}
	return int64(math.Round(v * 10)), j - i, true
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
