package e2e

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// urlAttrs are the attributes that make a browser fetch or navigate. In
// inline SVG, href may come with the xlink namespace; it is checked the
// same way.
var urlAttrs = map[string]bool{
	"src": true, "href": true, "srcset": true, "action": true, "formaction": true,
	"poster": true, "data": true, "background": true, "cite": true, "longdesc": true,
	"manifest": true, "ping": true, "codebase": true, "archive": true, "icon": true,
}

// cssURLRE finds url(...) and @import "..." in CSS.
var cssURLRE = regexp.MustCompile(`(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')`)

// inert reports whether a reference stays inside the page: an in-page
// fragment, or a data: URL.
func inert(ref string) bool {
	ref = strings.TrimSpace(ref)
	return strings.HasPrefix(ref, "#") || strings.HasPrefix(strings.ToLower(ref), "data:")
}

// externalRefs parses an HTML document and returns every src, href (also
// xlink:href), other URL attribute, CSS url() or @import (in <style>
// elements, inline SVG included, and style attributes) and meta refresh
// that points anywhere but a data: URL or an in-page fragment.
func externalRefs(r io.Reader) ([]string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return nil, err
	}
	var out []string
	css := func(where, text string) {
		for _, m := range cssURLRE.FindAllStringSubmatch(text, -1) {
			ref := strings.Join(m[1:], "")
			if !inert(ref) {
				out = append(out, fmt.Sprintf("%s: CSS %s", where, clip(m[0])))
			}
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				name := key
				if a.Namespace != "" {
					name = a.Namespace + ":" + key
				}
				switch {
				case key == "srcset" || key == "imagesrcset":
					for _, cand := range strings.Split(a.Val, ",") {
						if f := strings.Fields(cand); len(f) > 0 && !inert(f[0]) {
							out = append(out, fmt.Sprintf("<%s %s=%q>", n.Data, name, clip(a.Val)))
							break
						}
					}
				case urlAttrs[key]:
					if !inert(a.Val) {
						out = append(out, fmt.Sprintf("<%s %s=%q>", n.Data, name, clip(a.Val)))
					}
				case key == "style":
					css(fmt.Sprintf("<%s style>", n.Data), a.Val)
				case key == "http-equiv" && strings.EqualFold(a.Val, "refresh"):
					out = append(out, fmt.Sprintf("<%s http-equiv=refresh>", n.Data))
				}
			}
			if n.Data == "style" {
				var b strings.Builder
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						b.WriteString(c.Data)
					}
				}
				css("<style>", b.String())
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out, nil
}

// clip shortens long values in messages.
func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// TestReportNoExternalReferences parses report.html and asserts that it
// refers to nothing outside itself. The browser tests see what is fetched;
// this one also covers links that are only followed on a click.
func TestReportNoExternalReferences(t *testing.T) {
	f, err := os.Open(demoReport(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	refs, err := externalRefs(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		t.Errorf("report.html refers outside itself: %s", r)
	}
}

// TestExternalRefsParser checks the parser of the test above on a page
// with every kind of reference.
func TestExternalRefsParser(t *testing.T) {
	page := `<!DOCTYPE html><html><head>
<link rel="stylesheet" href="https://cdn.example/x.css">
<meta http-equiv="refresh" content="0; url=http://example.invalid/">
<style>body{background:url(data:image/png;base64,AAAA)} .a{background:url( "http://example.invalid/a.png" )} @import 'x.css';</style>
</head><body>
<a href="#sec-1">ok</a> <a href="other.html">bad</a>
<img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E"> <img src="x">
<img srcset="data:image/png;base64,AA 1x, //example.invalid/b.png 2x">
<div style="background-image:url('http://example.invalid/c.png')"></div>
<svg><use xlink:href="#m"></use><image href="http://example.invalid/d.png"></image><style>.s{fill:url(#grad)}</style></svg>
</body></html>`
	refs, err := externalRefs(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<link href="https://cdn.example/x.css">`,
		`<meta http-equiv=refresh>`,
		`<style>: CSS url( "http://example.invalid/a.png" )`,
		`<style>: CSS @import 'x.css'`,
		`<a href="other.html">`,
		`<img src="x">`,
		`<img srcset="data:image/png;base64,AA 1x, //example.invalid/b.png 2x">`,
		`<div style>: CSS url('http://example.invalid/c.png')`,
		`<image href="http://example.invalid/d.png">`,
	}
	if strings.Join(refs, "\n") != strings.Join(want, "\n") {
		t.Errorf("externalRefs found\n%s\nwant\n%s", strings.Join(refs, "\n"), strings.Join(want, "\n"))
	}
}
