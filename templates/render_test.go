package templates

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	stdhtml "html"
	"os"
	hostile_ "paperbundle/internal/hostile"
	"regexp"
	"strings"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/echarts"
	"paperbundle/figures/plot"
	"paperbundle/report"
	"paperbundle/tables"
)

// hostile returns the shared hostile strings of testdata/hostile.txt.
func hostile(t testing.TB) []string {
	return hostile_.Strings(t)
}

// handReport decodes the hand-checked report of package report, with
// every occurrence of the strings in subst replaced (JSON-escaped), so a
// test can put hostile strings where titles, labels and criteria go.
func handReport(t testing.TB, subst map[string]string) *report.Report {
	t.Helper()
	data, err := os.ReadFile("../report/testdata/hand.golden")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for from, to := range subst {
		q, _ := json.Marshal(to)
		s = strings.ReplaceAll(s, from, strings.Trim(string(q), `"`))
	}
	r, err := report.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// page renders report.html for r the way the command does.
func page(t testing.TB, r *report.Report, interactive bool) string {
	t.Helper()
	specs := figures.Catalogue(r)
	files, err := plot.Render(specs, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg := map[figures.FigureID]*plot.InlineSVG{}
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".svg") {
			svg[f.ID] = f.Inline
		}
	}
	var charts []echarts.Chart
	if interactive {
		if charts, err = echarts.Options(specs); err != nil {
			t.Fatal(err)
		}
	}
	in := Input{Report: r, Tables: tables.Build(r), Checks: tables.Checks(r), Specs: specs, Missing: figures.Missing(r),
		SVG: svg, Charts: charts, Methods: tables.Methods(r), Config: []byte("title: x\n"),
		Inputs: []InputFile{{Path: "data/sys.csv", Size: 1234, SHA256: strings.Repeat("ab", 32)}}}
	var b bytes.Buffer
	if err := Render(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	idAttr     = regexp.MustCompile(`\sid="([^"]*)"`)
	hrefAttr   = regexp.MustCompile(`(?i)\s(?:xlink:)?(href|src)\s*=\s*"([^"]*)"`)
	cssURL     = regexp.MustCompile(`(?i)url\(`)
	scriptOpen = regexp.MustCompile(`(?i)<script[^>]*>`)
	// injected and tagEvent match elements and attributes a hostile
	// string could create if it were not escaped.
	tagEvent = regexp.MustCompile(`(?i)<[^<>]*\son[a-z]+\s*=`)
	injected = regexp.MustCompile(`(?i)<(img|b|iframe|object)[\s>/]|(href|src)="(http|javascript)`)
)

// TestPageStructure: one document, unique ids, every in-page link has a
// target, every section of the page (docs/report.md) is there, nothing refers outside the
// file, and the CSP allows exactly the page's own scripts.
func TestPageStructure(t *testing.T) {
	html := page(t, handReport(t, nil), true)
	if strings.Count(html, "<!DOCTYPE html>") != 1 || !strings.HasSuffix(strings.TrimSpace(html), "</html>") {
		t.Fatal("not one complete document")
	}
	markup := stripScripts(html)
	ids := map[string]int{}
	for _, m := range idAttr.FindAllStringSubmatch(markup, -1) {
		ids[m[1]]++
	}
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q used %d times", id, n)
		}
	}
	for _, m := range hrefAttr.FindAllStringSubmatch(markup, -1) {
		v := m[2]
		switch {
		case strings.HasPrefix(v, "#"):
			if ids[v[1:]] == 0 {
				t.Errorf("link %s has no target", v)
			}
		case strings.HasPrefix(v, "data:image/"):
		default:
			t.Errorf("%s=%q points outside the page", m[1], v)
		}
	}
	if cssURL.MatchString(markup) {
		t.Error("the page has a CSS url(")
	}
	for _, sec := range []string{"results", "scorecard", "data", "ne_gate", "calibration", "ranking", "clinical_gate",
		"strata", "methods", "provenance"} {
		if ids["sec-"+sec] != 1 {
			t.Errorf("section sec-%s missing", sec)
		}
	}
	// One system, one criterion, no node_probs: comparisons, per-criterion,
	// per-post and Dynamic-K do not apply, so there is no such section and
	// no contents entry; Data and checks says why.
	for _, sec := range []string{"systems", "per_criterion", "per_post", "dynamic_k"} {
		if ids["sec-"+sec] != 0 || strings.Contains(markup, `href="#sec-`+sec+`"`) {
			t.Errorf("section sec-%s is on the page, but does not apply", sec)
		}
	}
	if !strings.Contains(markup, "Per-criterion breakdown: the eval queries have a single criterion.") {
		t.Error("Data and checks does not say why Per-criterion breakdown is not shown")
	}
	if !strings.Contains(markup, "Systems and significance: a single system has nothing to be compared with.") {
		t.Error("Data and checks does not say why Systems and significance is not shown")
	}
	// The answer first: the results matrix comes before the cards, the
	// cards before Data and checks.
	iMx, iCards, iData := strings.Index(markup, `id="results-matrix"`), strings.Index(markup, `class="cards"`), strings.Index(markup, `id="sec-data"`)
	if iMx < 0 || iCards < 0 || iData < 0 || !(iMx < iCards && iCards < iData) {
		t.Errorf("page order: matrix at %d, cards at %d, data at %d", iMx, iCards, iData)
	}
	// Value columns come before the id and population columns, so a
	// narrow screen shows the numbers first.
	for _, head := range regexp.MustCompile(`<thead><tr>(.*?)</tr></thead>`).FindAllStringSubmatch(markup, -1) {
		iv, iid := strings.Index(head[1], ">Value [CI]<"), strings.Index(head[1], ">Id<")
		if iv >= 0 && iid >= 0 && iid < iv {
			t.Errorf("the Id column comes before the value: %s", head[1])
		}
	}
	// Ranking reads as metric rows by cutoff columns.
	if !strings.Contains(markup, `id="t-ranking-k-sys"`) || !strings.Contains(markup, "<th scope=\"col\" class=\"num\">K = 2</th>") {
		t.Error("no ranking table by cutoff K")
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(html)
	if csp == nil || !strings.HasPrefix(csp[1], "default-src &#39;none&#39;;") {
		t.Fatalf("no CSP with default-src 'none': %v", csp)
	}
	// Every executable script is allowed by its hash; JSON data is not code.
	for _, loc := range scriptOpen.FindAllStringIndex(html, -1) {
		open := html[loc[0]:loc[1]]
		end := strings.Index(html[loc[1]:], "</script>")
		body := html[loc[1] : loc[1]+end]
		if strings.Contains(open, `type="application/json"`) {
			var v any
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Errorf("%s: not JSON: %v", open, err)
			}
			continue
		}
		h := sha256.Sum256([]byte(body))
		if want := "sha256-" + base64.StdEncoding.EncodeToString(h[:]); !strings.Contains(stdhtml.UnescapeString(csp[1]), want) {
			t.Errorf("script %.40q not allowed by the CSP", body)
		}
	}
	if strings.Contains(markup, "NaN") {
		t.Error("NaN in the page")
	}
	if !strings.Contains(html, "<math") {
		t.Error("Methods has no MathML")
	}
}

// TestHostileStringsInert: hostile title, system label and criterion id
// show as text; no element, attribute or script comes from them.
func TestHostileStringsInert(t *testing.T) {
	h := hostile(t)
	scripts := len(scriptOpen.FindAllString(page(t, handReport(t, nil), true), -1))
	for _, s := range h {
		r := handReport(t, map[string]string{"A.1": s})
		r.Title, r.Systems[0].Label = s, s
		html := page(t, r, true)
		if n := len(scriptOpen.FindAllString(html, -1)); n != scripts {
			t.Errorf("%q: %d script elements, want %d", s, n, scripts)
		}
		markup := stripScripts(html)
		for _, bad := range []*regexp.Regexp{injected, tagEvent} {
			if loc := bad.FindStringIndex(markup); loc != nil {
				t.Errorf("%q: page contains %q", s, markup[max(0, loc[0]-80):min(len(markup), loc[1]+80)])
			}
		}
		if !strings.Contains(html, "<title>"+templateEscape(s)+"</title>") {
			t.Errorf("%q: title not the escaped string", s)
		}
	}
}

// stripScripts empties the script elements (the echarts library holds
// strings such as src="..." and "<img" in its code).
func stripScripts(html string) string {
	return regexp.MustCompile(`(?s)(<script[^>]*>).*?</script>`).ReplaceAllString(html, "$1</script>")
}

// templateEscape is how html/template writes text (for the checks above).
func templateEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;", "\x00", "\uFFFD").Replace(s)
}

// TestStaticOnly: without chart options the page has no interactive
// figure and says the figures are static.
func TestStaticOnly(t *testing.T) {
	html := page(t, handReport(t, nil), false)
	if strings.Contains(html, "data-chart=") || strings.Contains(html, `type="application/json"`) {
		t.Error("interactive charts without options")
	}
	if !strings.Contains(html, "static figures only") {
		t.Error("the page does not say its figures are static")
	}
}

// TestHeadParts checks that a header title is cut before each "@" (where
// a narrow column may break) and nowhere else.
func TestHeadParts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Recall", []string{"Recall"}},
		{"", []string{""}},
		{"Precision@10", []string{"Precision", "@10"}},
		{"@k", []string{"@k"}},
		{"TPR@FPR 5%@x", []string{"TPR", "@FPR 5%", "@x"}},
	} {
		got := Head{Title: c.in}.Parts()
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Head{%q}.Parts() = %q, want %q", c.in, got, c.want)
		}
	}
}
