package md

import (
	"encoding/xml"
	"fmt"
	"io"
	hostile_ "paperbundle/internal/hostile"
	"regexp"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

func render(t *testing.T, src string, o Options) string {
	t.Helper()
	out, err := Render([]byte(src), o)
	if err != nil {
		t.Fatalf("Render(%q): %v", src, err)
	}
	return string(out)
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		o         Options
		want      []string // substrings of the output
		not       []string // not substrings of the output
	}{
		{"script", "<script>alert(1)</script>", Options{},
			[]string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script"}},
		{"img-inline", "a <img src=x onerror=alert(1)> b", Options{},
			[]string{"a &lt;img src=x onerror=alert(1)&gt; b"}, []string{"<img"}},
		{"img-block", "<img src=x onerror=alert(1)>", Options{},
			[]string{"<p>&lt;img src=x onerror=alert(1)&gt;</p>"}, []string{"<img"}},
		{"https-link", "see [the site](https://example.com \"t\")", Options{},
			[]string{"<p>see the site</p>"}, []string{"<a", "href", "example.com"}},
		{"in-page-link", "[x](#sec)", Options{},
			[]string{`<a href="#sec">x</a>`}, nil},
		{"image", "![a *b*](http://x/y.png)", Options{},
			[]string{"<p>a <em>b</em></p>"}, []string{"<img", "y.png"}},
		{"javascript-link", "[x](javascript:alert(1))", Options{},
			[]string{"<p>x</p>"}, []string{"<a", "javascript"}},
		{"data-link", "[x](data:text/html,hi)", Options{}, []string{"<p>x</p>"}, []string{"<a"}},
		{"mailto-link", "[x](mailto:a@b.c)", Options{}, []string{"<p>x</p>"}, []string{"<a"}},
		{"relative-link", "[x](../etc/passwd)", Options{}, []string{"<p>x</p>"}, []string{"<a"}},
		{"protocol-relative-link", "[x](//evil.example/)", Options{}, []string{"<p>x</p>"}, []string{"<a"}},
		{"reference-link", "[x][r]\n\n[r]: https://example.com", Options{}, []string{"<p>x</p>"}, []string{"<a"}},
		{"image-in-link", "[![alt](http://x/y.png)](#top)", Options{},
			[]string{`<a href="#top">alt</a>`}, []string{"<img"}},
		{"link-in-image", "![[in](http://x)](http://x/y.png)", Options{}, []string{"<p>in</p>"}, []string{"<a", "<img"}},
		{"autolink", "<https://example.com/a?b=1&c=2>", Options{},
			[]string{"<p>https://example.com/a?b=1&amp;c=2</p>"}, []string{"<a"}},
		{"autolink-email", "<a@b.example>", Options{}, []string{"<p>a@b.example</p>"}, []string{"<a", "mailto"}},
		{"bare-url", "https://example.com", Options{}, []string{"<p>https://example.com</p>"}, []string{"<a"}},
		{"table", "| a | b |\n|:--|--:|\n| 1 | 2 |", Options{},
			[]string{"<table>", `<th align="left">a</th>`, `<td align="right">2</td>`}, []string{"style="}},
		{"shift", "# T\n\n## Sub\n\n###### Deep", Options{Shift: 1},
			[]string{`<h2 id="t">T</h2>`, `<h3 id="sub">Sub</h3>`, `<h6 id="deep">Deep</h6>`}, nil},
		{"drop-title", "# Methods\n\nText.\n\n## Protocol", Options{Shift: 1, DropTitle: true, Prefix: "methods-"},
			[]string{`<h3 id="methods-protocol">Protocol</h3>`}, []string{"Methods<", "<h2"}},
		{"drop-title-only-level-1", "## Protocol", Options{DropTitle: true}, []string{`<h2 id="protocol">`}, nil},
		{"drop-title-only-first", "Text.\n\n# Title", Options{DropTitle: true}, []string{`<h1 id="title">`}, nil},
		{"heading-id", "## NE gate: *classification* & `calibration` 2", Options{Prefix: "m-"},
			[]string{`id="m-ne-gate-classification-calibration-2"`}, nil},
		{"heading-id-empty", "# ¿—?", Options{}, []string{`<h1 id="section">`}, nil},
		{"heading-attribute-syntax", "# T {#x onclick=y}", Options{}, []string{`<h1 id="t-x-onclick-y">T {#x onclick=y}</h1>`}, nil},
		{"math", "the sum $\\sum_n (R_n - R_{n-1}) P_n$ here", Options{},
			[]string{"the sum <math", `<annotation encoding="application/x-tex">\sum_n (R_n - R_{n-1}) P_n</annotation></semantics></math> here`},
			[]string{"$", "katex"}},
		{"math-in-code", "`$a$` and `$\\sum_n (R_n - R_{n-1}) P_n$`", Options{},
			[]string{"<code>$a$</code> and <code>$\\sum_n (R_n - R_{n-1}) P_n$</code>"}, []string{"<math"}},
		{"math-across-lines", "$g =\nrel$", Options{}, []string{"<math"}, nil},
		{"math-unknown", "$x<y$", Options{}, []string{`<code class="tex">$x&lt;y$</code>`}, []string{"<math", "<y"}},
		{"escaped-dollar", `\$a$ costs`, Options{}, []string{"<p>$a$ costs</p>"}, []string{"<code", "<math"}},
		{"escaped-dollar-in-math", `$a\$b$`, Options{}, []string{`<code class="tex">$a\$b$</code>`}, nil},
		{"prices", "$5 and $10", Options{}, []string{"<p>$5 and $10</p>"}, nil},
		{"space-after-opener", "$ a$", Options{}, []string{"<p>$ a$</p>"}, nil},
		{"space-before-closer", "$a $", Options{}, []string{"<p>$a $</p>"}, nil},
		{"digit-after-closer", "$a$1", Options{}, []string{"<p>$a$1</p>"}, nil},
		{"display-dollars", "$$a$$", Options{}, []string{"<p>$$a$$</p>"}, nil},
		{"backtick-in-math", "$a `b$` c", Options{}, []string{"<p>$a <code>b$</code> c</p>"}, nil},
		{"unclosed", "$a", Options{}, []string{"<p>$a</p>"}, nil},
		{"math-emphasis", "*$a_b$ and $c_d$*", Options{}, []string{`<em><code class="tex">$a_b$</code> and`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := render(t, tc.src, tc.o)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("Render(%q) = %q, want it to contain %q", tc.src, out, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("Render(%q) = %q, contains %q", tc.src, out, w)
				}
			}
			if err := checkInert(out); err != nil {
				t.Errorf("Render(%q): %v\n%s", tc.src, err, out)
			}
		})
	}
}

func TestIDsShared(t *testing.T) {
	var ids IDs
	ids.Add("methods") // the page's own ids come first
	ids.Add("methods-protocol")
	o := Options{IDs: &ids, Prefix: "methods-", Shift: 1}
	a := render(t, "# Methods\n\n## Protocol", o)
	b := render(t, "## Protocol\n\n### Protocol 2", o)
	for _, tc := range []struct{ out, want string }{
		{a, `<h2 id="methods-methods">Methods</h2>`},
		{a, `<h3 id="methods-protocol-2">Protocol</h3>`},
		{b, `<h3 id="methods-protocol-3">Protocol</h3>`},
		{b, `<h4 id="methods-protocol-2-2">Protocol 2</h4>`},
	} {
		if !strings.Contains(tc.out, tc.want) {
			t.Errorf("Render = %q, want %q", tc.out, tc.want)
		}
	}
	if got := ids.Add("methods-methods"); got != "methods-methods-2" {
		t.Errorf("Add(methods-methods) after Render = %q, want methods-methods-2", got)
	}
}

func TestIDsAdd(t *testing.T) {
	var s IDs
	for _, tc := range []struct{ in, want string }{
		{"a", "a"}, {"a", "a-2"}, {"a-2", "a-2-2"}, {"a", "a-3"}, {"b", "b"},
	} {
		if got := s.Add(tc.in); got != tc.want {
			t.Errorf("Add(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHostile renders every string of testdata/hostile.txt as a paragraph,
// a heading, a list item, a link text and a table cell.
func TestHostile(t *testing.T) {
	for _, s := range hostile(t) {
		for _, src := range []string{s, "# " + s, "* " + s, "[" + s + "](#x)", "| h |\n|---|\n| " + s + " |"} {
			out := render(t, src, Options{})
			if err := checkInert(out); err != nil {
				t.Errorf("Render(%q): %v\n%s", src, err, out)
			}
		}
	}
}

// hostile returns the lines of testdata/hostile.txt (its README: "# "
// lines are comments, \t stands for a tab).
func hostile(t testing.TB) []string {
	return hostile_.Strings(t)
}

// TestRegistryMathInTable fails when a formula of the registry has no
// MathML yet.
func TestRegistryMathInTable(t *testing.T) {
	n := 0
	for _, d := range metrics.Defs() {
		for _, s := range []string{d.Title, d.Variant, d.Definition, d.Meaning} {
			for _, tex := range TeX([]byte(s)) {
				n++
				if _, ok := mathML[tex]; !ok {
					t.Errorf("%s: formula $%s$ has no MathML: run go generate ./templates/internal/md", d.Base, tex)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no formula in the registry: TeX finds none")
	}
}

// TestMathMLTable checks that every generated entry is one well-formed
// <math> element of MathML elements, without anything active.
func TestMathMLTable(t *testing.T) {
	mathElems := map[string]bool{}
	for _, e := range strings.Fields(`math semantics annotation mrow mi mo mn ms mtext mspace
		msub msup msubsup mfrac msqrt mroot mover munder munderover mstyle mpadded mphantom
		menclose mtable mtr mtd`) {
		mathElems[e] = true
	}
	for tex, m := range mathML {
		d := xml.NewDecoder(strings.NewReader(m))
		depth, roots := 0, 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("$%s$: %v", tex, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				if depth == 0 {
					roots++
					if tok.Name.Local != "math" {
						t.Errorf("$%s$: root element %s", tex, tok.Name.Local)
					}
				}
				depth++
				if !mathElems[tok.Name.Local] {
					t.Errorf("$%s$: element %s", tex, tok.Name.Local)
				}
				for _, a := range tok.Attr {
					if err := checkAttr(a.Name.Local, a.Value); err != nil || a.Name.Space != "" && a.Name.Local != "xmlns" {
						t.Errorf("$%s$: attribute %s:%s=%q", tex, a.Name.Space, a.Name.Local, a.Value)
					}
				}
			case xml.EndElement:
				depth--
			case xml.ProcInst, xml.Directive, xml.Comment:
				t.Errorf("$%s$: %T", tex, tok)
			}
		}
		if roots != 1 {
			t.Errorf("$%s$: %d root elements", tex, roots)
		}
		if !strings.Contains(m, `<annotation encoding="application/x-tex">`) {
			t.Errorf("$%s$: no TeX annotation", tex)
		}
	}
}

// TestMethods renders the METHODS.md of a report that holds every metric of
// the registry, the way the page does.
func TestMethods(t *testing.T) {
	r := &report.Report{Tool: "paperbundle <script>alert(1)</script> `x` $a$"}
	for _, d := range metrics.Defs() {
		r.Metrics = append(r.Metrics, report.Metric{System: "s", ID: d.ID(10)})
	}
	src := tables.Methods(r)
	var ids IDs
	ids.Add("methods")
	out := render(t, string(src), Options{IDs: &ids, Prefix: "methods-", Shift: 1, DropTitle: true})
	if err := checkInert(out); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got, want := strings.Count(out, "<math "), len(TeX(src)); got != want || want == 0 {
		t.Errorf("%d <math> elements for %d formulas", got, want)
	}
	for _, w := range []string{`<h3 id="methods-protocol">Protocol</h3>`, `<h3 id="methods-metric-definitions">`,
		`<h4 id="methods-ranking">Ranking</h4>`, "<code>paperbundle &lt;script&gt;alert(1)&lt;/script&gt; `x` $a$</code>"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, w := range []string{"<h1", "<h2", `class="tex"`, "$"} {
		if strings.Contains(strings.ReplaceAll(out, "$a$</code>", ""), w) {
			t.Errorf("output contains %q", w)
		}
	}
}

var (
	tagRE  = regexp.MustCompile(`^/?([a-z][a-z0-9]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*/?$`)
	attrRE = regexp.MustCompile(`([^\s=/>]+)(?:="([^"]*)")?`)
	// the elements Render may write
	allowedTags = map[string]bool{}
)

func init() {
	for _, e := range strings.Fields(`p h1 h2 h3 h4 h5 h6 ul ol li em strong code pre blockquote hr br a
		table thead tbody tr th td math semantics annotation mrow mi mo mn ms mtext mspace msub msup
		msubsup mfrac msqrt mroot mover munder munderover mstyle mpadded mphantom menclose mtable mtr mtd`) {
		allowedTags[e] = true
	}
}

// checkInert reports an element or attribute of out that could act: text
// is escaped, so every '<' opens a tag; each must be an allowed element,
// with no event handler, style or source, and links only within the page.
func checkInert(out string) error {
	for rest := out; ; {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			return nil
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			return fmt.Errorf("unclosed tag %q", rest[i:])
		}
		tag := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		m := tagRE.FindStringSubmatch(tag)
		if m == nil {
			return fmt.Errorf("malformed tag <%s>", tag)
		}
		if !allowedTags[m[1]] {
			return fmt.Errorf("element <%s>", tag)
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[2], -1) {
			if err := checkAttr(a[1], a[2]); err != nil {
				return fmt.Errorf("<%s>: %v", tag, err)
			}
		}
	}
}

func checkAttr(name, value string) error {
	name, v := strings.ToLower(name), strings.ToLower(value)
	switch {
	case strings.HasPrefix(name, "on"), name == "style", name == "src", name == "srcset",
		strings.Contains(name, "href") && (name != "href" || !strings.HasPrefix(value, "#")),
		strings.Contains(v, "javascript:"), strings.Contains(v, "url("):
		return fmt.Errorf("attribute %s=%q", name, value)
	}
	return nil
}
