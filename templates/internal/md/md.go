// Package md renders the Markdown of METHODS.md (tables.Methods) to the
// HTML of the Methods section of report.html. It sits between
// tables, which writes the Markdown, and templates, which places the HTML in
// the page.
//
// The output is inert whatever the input: goldmark with GFM tables and raw
// HTML off (raw HTML is shown as escaped text), no image (an image becomes
// its alt text), no link but in-page ones (a link whose destination does not
// start with "#", and every autolink, becomes its text). Heading ids come
// from one IDs set shared with the rest of the page.
//
// Inline math $...$ is shown as MathML taken from mathml_table.go, which
// KaTeX generated at development time from every formula of the metric
// registry; no math library runs in the page. After a change to a formula
// in metrics, regenerate the table (needs node and npm) and commit it:
//
//	go generate ./templates/internal/md
//
// TestRegistryMathInTable fails until then.
package md

//go:generate go run ./internal/gentex -o mathml_table.go

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// IDs is the set of element ids used on a page. The zero value is empty and
// ready to use.
type IDs struct {
	used map[string]bool
	next map[string]int // the suffix to try first for a taken id
}

// Add marks id as used and returns it, or, when it is already taken, the
// first of id-2, id-3, ... that is free.
func (s *IDs) Add(id string) string {
	if s.used == nil {
		s.used, s.next = map[string]bool{}, map[string]int{}
	}
	u := id
	if s.used[u] {
		i := max(s.next[id], 2)
		for ; s.used[u]; i++ {
			u = id + "-" + strconv.Itoa(i)
		}
		s.next[id] = i
	}
	s.used[u] = true
	return u
}

// Options says how Render fits the Markdown into the page.
type Options struct {
	IDs       *IDs   // the page's id set; nil: a fresh one
	Prefix    string // prepended to every heading id, e.g. "methods-"
	Shift     int    // added to every heading level (1: "#" becomes h2), clamped to 1..6
	DropTitle bool   // drop a level-1 heading that opens the document
}

// Render converts Markdown to inert HTML (see the package doc).
func Render(src []byte, o Options) (template.HTML, error) {
	if o.IDs == nil {
		o.IDs = new(IDs)
	}
	pc := parser.NewContext()
	pc.Set(optionsKey, &o)
	var b bytes.Buffer
	if err := markdown.Convert(src, &b, parser.WithContext(pc)); err != nil {
		return "", fmt.Errorf("md: %w", err)
	}
	return template.HTML(b.String()), nil
}

// TeX returns the TeX of every inline math span of Markdown src, in order
// of appearance: the keys Render looks up in the MathML table.
func TeX(src []byte) []string {
	doc := markdown.Parser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if m, ok := n.(*mathNode); ok && entering {
			out = append(out, m.TeX)
		}
		return ast.WalkContinue, nil
	})
	return out
}

var markdown = goldmark.New(
	goldmark.WithExtensions(extension.NewTable(
		extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
	goldmark.WithParserOptions(
		parser.WithInlineParsers(util.Prioritized(mathParser{}, 500)),
		parser.WithASTTransformers(util.Prioritized(transformer{}, 100)),
	),
	goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(nodeRenderer{}, 100)),
	),
)

var optionsKey = parser.NewContextKey()

// transformer drops the title, shifts heading levels and sets heading ids,
// and removes every image and every link that leaves the page.
type transformer struct{}

func (transformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	o, _ := pc.Get(optionsKey).(*Options)
	if o == nil {
		o = &Options{IDs: new(IDs)}
	}
	if h, ok := doc.FirstChild().(*ast.Heading); ok && o.DropTitle && h.Level == 1 {
		doc.RemoveChild(doc, h)
	}
	var unwrap, headings []ast.Node
	var autolinks []*ast.AutoLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			headings = append(headings, n)
		case *ast.Image:
			unwrap = append(unwrap, n)
		case *ast.Link:
			if !bytes.HasPrefix(n.Destination, []byte("#")) {
				unwrap = append(unwrap, n)
			}
		case *ast.AutoLink:
			autolinks = append(autolinks, n)
		}
		return ast.WalkContinue, nil
	})
	src := reader.Source()
	// Parents come before their children, so an image inside a link
	// and a link inside an image's alt text are both replaced.
	for _, n := range unwrap {
		p := n.Parent()
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			p.InsertBefore(p, n, c)
			c = next
		}
		p.RemoveChild(p, n)
	}
	for _, n := range autolinks {
		s := ast.NewString(n.Label(src))
		s.SetRaw(true) // escaped, not unescaped: the label is a URL
		n.Parent().ReplaceChild(n.Parent(), n, s)
	}
	for _, n := range headings {
		h := n.(*ast.Heading)
		h.Level = min(max(h.Level+o.Shift, 1), 6)
		h.SetAttributeString("id", []byte(o.IDs.Add(o.Prefix+slug(plainText(h, src)))))
	}
}

// plainText returns the text of n's inline descendants.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(src))
		case *ast.String:
			b.Write(c.Value)
		case *mathNode:
			b.WriteString(c.TeX)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug lower-cases s and keeps ASCII letters and digits, each run of other
// characters becoming one '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// nodeRenderer renders math, and raw HTML as escaped text.
type nodeRenderer struct{}

func (nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMath, renderMath)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			seg := segs.At(i)
			_, _ = w.WriteString(html.EscapeString(string(seg.Value(src))))
		}
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock writes an HTML block as a paragraph of escaped text.
func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	b := n.(*ast.HTMLBlock)
	var t bytes.Buffer
	for i := range b.Lines().Len() {
		seg := b.Lines().At(i)
		t.Write(seg.Value(src))
	}
	if b.HasClosure() {
		t.Write(b.ClosureLine.Value(src))
	}
	_, _ = w.WriteString("<p>")
	_, _ = w.WriteString(html.EscapeString(strings.TrimRight(t.String(), "\r\n")))
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}
