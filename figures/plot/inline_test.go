package plot

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestPackedPath: lines and rectangles in tenths of a point, relative,
// with h and v; the coordinates are vgsvg's five significant digits,
// rounded half away from zero; paths with arcs are not packed.
func TestPackedPath(t *testing.T) {
	path := func(pts ...float64) vg.Path {
		var p vg.Path
		for i := 0; i+1 < len(pts); i += 2 {
			pt := vg.Point{X: vg.Length(pts[i]), Y: vg.Length(pts[i+1])}
			if i == 0 {
				p.Move(pt)
			} else {
				p.Line(pt)
			}
		}
		return p
	}
	rect := path(0, 0, 403.2, 0, 403.2, 273.6, 0, 273.6)
	rect.Close()
	arc := path(48.41, 229.07)
	arc.Arc(vg.Point{X: 46.81, Y: 229.07}, 1.6, 0, 6.3)
	for _, c := range []struct {
		in   vg.Path
		want string
	}{
		{rect, "M0,0h403.2v273.6h-403.2Z"},
		{path(34.53, 21.99, 34.53, 24.99), "M34.5,22v3"},
		{path(1, 1, 1.01, 1.02, 2, 3), "M1,1l1,2"},     // a move under 0.05 pt is dropped
		{path(-1.25, 0.5, -0.95, 0.5), "M-1.3,.5h.3"},  // rounding half away from zero
		{path(100.049996, 0, 200, 0), "M100.1,0h99.9"}, // 100.05 at five digits, then 100.1
		{arc, ""},
	} {
		got, ok := packedPath(c.in)
		if c.want == "" {
			if ok {
				t.Errorf("%v: %q, want not packed", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for in, want := range map[string]string{"12.345": "12.3", "1.25e-05": "1.2e-05", "0.05": "0.0", "7px": "7px", "7.55px": "7.5px", "-2.7598": "-2.7", "10": "10"} {
		if got := cut(in); got != want {
			t.Errorf("cut(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInlineMarkup: the page markup of every figure of the fixture with
// hostile labels is well-formed, holds only the elements svg, g, path,
// text and image (a data: PNG) with no event attribute, keeps the labels
// as escaped text, and joins consecutive paths of one opaque class; the
// classes' stylesheet is scoped.
func TestInlineMarkup(t *testing.T) {
	const evil = `</script><script>alert(1)</script>`
	const img = `"><img src=x onerror=alert(1)>`
	_, list := render(t, relabeled(evil, img), Options{})
	var st Styles
	found := false
	for _, f := range list {
		if !strings.HasSuffix(f.Name, ".svg") {
			continue
		}
		if f.Inline == nil {
			t.Fatalf("%s: no page markup", f.Name)
		}
		m := f.Inline.Markup(`figt-"x"`, &st)
		if !strings.HasPrefix(m, `<svg viewBox="0 0 `) || !strings.Contains(m, `aria-labelledby="figt-&#34;x&#34;"`) {
			t.Errorf("%s: root %.120s", f.Name, m)
		}
		found = found || strings.Contains(m, "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
		d := xml.NewDecoder(strings.NewReader(m))
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: not well-formed: %v", f.Name, err)
			}
			se, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			switch se.Name.Local {
			case "svg", "g", "path", "text", "image":
			default:
				t.Errorf("%s: element <%s>", f.Name, se.Name.Local)
			}
			for _, a := range se.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("%s: attribute %s", f.Name, a.Name.Local)
				}
				if a.Name.Local == "href" && !strings.HasPrefix(a.Value, "data:image/") {
					t.Errorf("%s: image source %.40s", f.Name, a.Value)
				}
			}
		}
	}
	if !found {
		t.Error("the hostile label is not in the markup, escaped")
	}
	css, err := st.CSS(".fig-static")
	if err != nil || !strings.HasPrefix(css, ".fig-static .s0{fill:#FFFFFF}\n") {
		t.Errorf("stylesheet %.80q, %v", css, err)
	}
	bad := Styles{}
	bad.of("fill:red}body{display:none")
	if _, err := bad.CSS(".x"); err == nil {
		t.Error("a style with braces went into the stylesheet")
	}
}

// TestInlineJoin: consecutive paths of one opaque class become one path;
// translucent ones stay apart.
func TestInlineJoin(t *testing.T) {
	s := &InlineSVG{w: 10, h: 10, ends: 1}
	s.nodes = append(s.nodes, []svgNode{
		{kind: nodePath, d: "M0,0h1", plain: true, style: "fill:none;stroke:#000000"},
		{kind: nodePath, d: "M0,1h1", plain: true, style: "fill:none;stroke:#000000"},
		{kind: nodePath, d: "M0,2h1", plain: true, style: "fill:#0072B2;fill-opacity:0.5"},
		{kind: nodePath, d: "M0,3h1", plain: true, style: "fill:#0072B2;fill-opacity:0.5"},
	}...)
	var st Styles
	got := s.Markup("l", &st)
	want := `<svg viewBox="0 0 10 10" role="img" aria-labelledby="l" focusable="false">
<g transform="scale(1,-1) translate(0, -10)">
<path d="M0,0h1M0,1h1" class="s0"/>
<path d="M0,2h1" class="s1"/>
<path d="M0,3h1" class="s1"/>
</g>
</svg>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
