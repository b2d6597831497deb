package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"golang.org/x/net/html"

	hostile_ "paperbundle/internal/hostile"
	"paperbundle/metrics"
	"paperbundle/report"
)

// hostileDiff uses every hostile string as a system name, a metric id, a
// slice, a label, a criterion, a config key and a folder.
func hostileDiff(t *testing.T, hostile []string) *Changes {
	t.Helper()
	a := &report.Report{SchemaVersion: report.SchemaVersion, Version: "v1"}
	var cfgA, cfgB strings.Builder
	for _, h := range hostile {
		a.Systems = append(a.Systems, report.SystemInfo{Name: h, Label: h, Kind: report.Pipeline})
		a.Metrics = append(a.Metrics, metric(h, metrics.ID(h), report.Slice(h), 0.5, 0.4, 0.6))
		a.Dataset.Criteria = append(a.Dataset.Criteria, h)
		q, _ := json.Marshal(h) // a JSON string is a YAML string
		cfgA.WriteString(string(q) + ": 1\n")
		cfgB.WriteString(string(q) + ": 2\n")
	}
	a.Reindex()
	b := *a
	b.Version = "v2"
	b.Metrics = nil
	b.Systems = nil
	for _, m := range a.Metrics {
		m.Value, m.CI = 0.9, &report.CI{Low: 0.85, High: 0.95}
		b.Metrics = append(b.Metrics, m)
	}
	for _, s := range a.Systems {
		s.Label += "!"
		b.Systems = append(b.Systems, s)
	}
	b.Metrics = append(b.Metrics, metric(hostile[0], "new", report.Slice(hostile[1]), 0.1, nan, nan))
	b.Dataset.Criteria = nil
	b.Reindex()
	c, err := Diff(a, &b, Options{A: Side{Folder: hostile[0]}, B: Side{Folder: hostile[len(hostile)-1]},
		ConfigA: []byte(cfgA.String()), ConfigB: []byte(cfgB.String())})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != len(hostile) || c.Significant() != len(hostile) || len(c.OnlyB) != 1 || len(c.Settings) != len(hostile) {
		t.Fatalf("rows %d, significant %d, only B %d, settings %d", len(c.Rows), c.Significant(), len(c.OnlyB), len(c.Settings))
	}
	return c
}

// TestHostileMD: every table line has the right number of cells, and
// once escaped characters and entities are removed no markup character is
// left; neither an @mention nor a URL is left live.
func TestHostileMD(t *testing.T) {
	c := hostileDiff(t, hostile_.Strings(t))
	var buf bytes.Buffer
	if err := c.Write(&buf, FormatMD, WriteOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var bare strings.Builder // line without backslash-escaped characters
		for i := 0; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			bare.WriteByte(line[i])
		}
		// The entities of &, < and > are how they are made inert.
		s := strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(bare.String())
		switch {
		case strings.HasPrefix(line, "| metric"):
			cells = strings.Count(s, "|")
		case strings.HasPrefix(line, "|"):
			if n := strings.Count(s, "|"); n != cells {
				t.Errorf("%d pipes, want %d: %s", n, cells, line)
			}
		case line == "", strings.HasPrefix(line, "# "), strings.HasPrefix(line, "## "):
		case strings.HasPrefix(line, "- "):
			s = s[2:]
		}
		if strings.ContainsAny(s, "<`*_~&$@") || strings.Contains(s, "](") || strings.Contains(s, "://") {
			t.Errorf("live markup in: %s", line)
		}
		if s != "" && strings.ContainsAny(s[:1], "#>+-=") && !strings.HasPrefix(line, "#") {
			t.Errorf("line starts a block: %s", line)
		}
		if strings.ContainsAny(line, "\t\r\u202e") {
			t.Errorf("raw control character in: %q", line)
		}
	}
}

// TestHostileCSV: no text cell can start a formula.
func TestHostileCSV(t *testing.T) {
	hostile := hostile_.Strings(t)
	c := hostileDiff(t, hostile)
	var buf bytes.Buffer
	if err := c.Write(&buf, FormatCSV, WriteOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(hostile)+2 {
		t.Fatalf("%d records, want %d", len(recs), len(hostile)+2)
	}
	for _, rec := range recs {
		for j, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !(j >= 6 && j <= 12 || j == 15) {
				t.Errorf("cell %d %q can start a formula", j, cell)
			}
		}
	}
	if recs[1][3] != hostile[0] || recs[3][3] != "'"+hostile[2] {
		t.Errorf("system cells: %q, %q", recs[1][3], recs[3][3])
	}
}

// TestHostileHTML: the fragment parses to the expected elements only,
// with no event attribute, and shows each hostile string as text.
func TestHostileHTML(t *testing.T) {
	hostile := hostile_.Strings(t)
	c := hostileDiff(t, hostile)
	var buf bytes.Buffer
	if err := c.Write(&buf, FormatHTML, WriteOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"html": true, "head": true, "body": true, "div": true, "p": true, "h3": true, "code": true, "br": true, "span": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "ul": true, "li": true,
		"details": true, "summary": true}
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowed[n.Data] {
				t.Errorf("element <%s>", n.Data)
			}
			for _, at := range n.Attr {
				if at.Key != "class" && at.Key != "scope" {
					t.Errorf("<%s %s=%q>", n.Data, at.Key, at.Val)
				}
			}
		case html.TextNode:
			text.WriteString(n.Data + "\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, h := range hostile {
		if !strings.Contains(text.String(), visible(h)) {
			t.Errorf("text of the fragment lacks %q", visible(h))
		}
	}
}

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"café γ ≤ ± naïve", "café γ ≤ ± naïve"},
		{"tab\there", `tab\there`},
		{"a\u202eb", `a\u202eb`},
		{"x\ny", `x\ny`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"ok \ufffd", "ok \ufffd"},
		{"zw\u200bj", `zw\u200bj`},
	} {
		if got := visible(c.in); got != c.want {
			t.Errorf("visible(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// The text of a cell, by hand: four decimals, counts as integers, values
// too small for four decimals with two significant digits, no "-0.0000".
func TestCellText(t *testing.T) {
	ci := &report.CI{Low: 0.84006, High: 0.86194}
	for _, tc := range []struct {
		got, want string
	}{
		{valueText("ne.auroc", 0.85123, ci), "0.8512 [0.8401, 0.8619]"},
		{valueText("ne.auroc", 0.85123, nil), "0.8512"},
		{valueText("ne.tp@tau=0.5", 141, nil), "141"},
		{valueText("ne.spiegelhalter_p", 2.4e-48, nil), "2.4e-48"},
		{valueText("ne.auroc", report.NaN, nil), "n/a"},
		{valueText("ne.brier", -0.00004, nil), "-4.0e-05"},
		{deltaText("ne.tp@tau=0.5", -26), "-26"},
		{deltaText("ne.tp@tau=0.5", 128), "+128"},
		{deltaText("ne.auroc", 0.02114), "+0.0211"},
		{deltaText("ne.auroc", -0.00001), "-1.0e-05"},
		{deltaText("ne.auroc", report.NaN), ""},
		{fixed4(-0.00004999 - 1e-12), "-5.0e-05"},
		{fixed4(-0.00006), "-0.0001"},
		{Label("rank.recall@10"), "Recall@10"},
		{Label("no.such"), "no.such"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
