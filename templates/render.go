package templates

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var pageTemplate string

//go:embed style.css
var style string

//go:embed script.js
var script string

// tmpl is parsed once. The FuncMap is empty on purpose: every decision is
// made while filling the Page.
var tmpl = template.Must(template.New("report.html").Parse(pageTemplate))

// Render writes report.html: it fills one Page from in, then executes the
// template once.
func Render(w io.Writer, in Input) error {
	p, err := newPage(in)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// scripts sets the page's stylesheet, scripts, chart data and the
// Content-Security-Policy that allows exactly those scripts (by hash) and
// nothing from anywhere: no request of any kind can leave the page.
func (b *builder) scripts(p *Page) error {
	figCSS, err := b.classes.css()
	if err != nil {
		return err
	}
	p.Style = template.CSS(style + figCSS)
	p.Script = template.JS(script)
	hashes := []string{hash(script)}
	if js := ECharts(); js != nil && b.in.Charts != nil {
		low := strings.ToLower(string(js))
		if strings.Contains(low, "</script") || strings.Contains(low, "<!--") {
			return fmt.Errorf("report.html: echarts.min.js cannot be inlined (it contains </script or <!--)")
		}
		p.ECharts = template.JS(js)
		hashes = append(hashes, hash(string(js)))
		p.Charts = b.live
	} else {
		p.ChartsNote = "This report was built without the echarts library (make echarts), so every figure is static."
		if b.in.Charts == nil {
			p.ChartsNote = "This report has static figures only."
		}
		for i := range p.Sections {
			clearCharts(&p.Sections[i])
		}
	}
	p.CSP = "default-src 'none'; script-src " + strings.Join(hashes, " ") +
		"; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
	return nil
}

// clearCharts removes the interactive forms when echarts is not embedded.
func clearCharts(s *Section) {
	items := [][]Item{s.Items, s.After}
	for i := range s.Blocks {
		items = append(items, s.Blocks[i].Items)
	}
	for _, it := range items {
		for j := range it {
			if it[j].Figure != nil {
				it[j].Figure.Chart = ""
			}
		}
	}
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}
