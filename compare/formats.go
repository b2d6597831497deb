package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"html/template"
	"io"
	"strconv"

	"paperbundle/report"
	"paperbundle/tables"
)

// csvSafe prefixes free text that a spreadsheet would run as a formula
// (beginning with =, +, -, @, tab or CR) with ' (tables.CSVSafe).
func csvSafe(s string) string { return tables.CSVSafe(s) }

func csvNum(x report.Num) string {
	if !x.Valid() {
		return ""
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 64)
}

func csvCI(c *report.CI) (lo, hi string) {
	if c == nil {
		return "", ""
	}
	return csvNum(c.Low), csvNum(c.High)
}

// writeCSV writes one record per metric row: the rows in both bundles
// (unchanged ones only with opt.All), then those only in A, then those
// only in B (column in: both, a, b).
func (c *Changes) writeCSV(w io.Writer, opt WriteOptions) error {
	rows, _, _ := c.shown(opt.All, false)
	cw := csv.NewWriter(w)
	cw.Write([]string{"in", "label", "id", "system", "slice", "headline", "a", "a_low", "a_high", "b", "b_low", "b_high", "delta", "verdict", "test", "p", "pairs", "reason"})
	// The claims that changed come first: in "claim", verdict the kind,
	// a and b the values (target, best) or p_holm (significance), reason
	// the sentence.
	for _, cl := range c.Claims {
		a, b := cl.ValueBefore, cl.ValueAfter
		if cl.Kind == ClaimSignificance {
			a, b = cl.PBefore, cl.PAfter
		}
		ptr := func(x *float64) string {
			if x == nil {
				return ""
			}
			return csvNum(report.Num(*x))
		}
		cw.Write([]string{"claim", csvSafe(c.metricLabel(cl.Metric)), csvSafe(string(cl.Metric)), csvSafe(cl.System), "", "",
			ptr(a), "", "", ptr(b), "", "", "", string(cl.Kind), cl.Test, "", "", csvSafe(cl.Text)})
	}
	for _, r := range rows {
		al, ah := csvCI(r.CIA)
		bl, bh := csvCI(r.CIB)
		cw.Write([]string{"both", csvSafe(r.Label), csvSafe(string(r.ID)), csvSafe(r.System), csvSafe(string(r.Slice)), strconv.FormatBool(r.Headline),
			csvNum(r.A), al, ah, csvNum(r.B), bl, bh, csvNum(r.Delta), string(r.Verdict), string(r.Test), csvNum(r.P), strconv.Itoa(r.Pairs), r.Reason})
	}
	for _, o := range []struct {
		in   string
		rows []Only
	}{{"a", c.OnlyA}, {"b", c.OnlyB}} {
		for _, r := range o.rows {
			lo, hi := csvCI(r.CI)
			rec := []string{o.in, csvSafe(r.Label), csvSafe(string(r.ID)), csvSafe(r.System), csvSafe(string(r.Slice)), "", "", "", "", "", "", "", "", "", "", "", "", ""}
			if o.in == "a" {
				rec[6], rec[7], rec[8] = csvNum(r.Value), lo, hi
			} else {
				rec[9], rec[10], rec[11] = csvNum(r.Value), lo, hi
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeJSON writes the Changes with snake_case keys, undefined numbers as
// null, the basis in words, and hidden_unchanged, the number of rows left
// out.
func (c *Changes) writeJSON(w io.Writer, opt WriteOptions) error {
	out := struct {
		Basis           string `json:"basis"`
		HiddenUnchanged int    `json:"hidden_unchanged"`
		*Changes
	}{Basis: c.BasisLine(), Changes: new(Changes)}
	*out.Changes = *c
	out.Rows, _, out.HiddenUnchanged = c.shown(opt.All, false)
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// htmlRow is one row of the HTML table.
type htmlRow struct {
	Label, ID, Where string
	A, ACI, B, BCI   string
	Delta, Sig, Test string
}

// changesHTML is the fragment of the report's "Changes since vN" section
// and of `diff -format html`: no script, no style, every string escaped
// by html/template. The table has seven columns (metric, id with its
// system and slice below it, A, B, delta, sig, test) so that it fits the
// page width; a value's interval is on its own line.
var changesHTML = template.Must(template.New("changes").Parse(`<div class="changes">
<ul class="changes-sides">{{range .Sides}}<li>{{.}}</li>{{end}}</ul>
{{- with .Claims}}
<h3>{{$.ClaimsTitle}}</h3>
<ul class="changes-claims">
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- with .OtherClaims}}
<details class="more"><summary>Claims about the other {{$.Systems}} ({{len .}})</summary>
<ul class="changes-claims">
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
</details>
{{- end}}
<p class="note">{{.Basis}}</p>
{{- range .Tables}}
{{- if .Collapse}}
<details class="more"><summary>{{.Title}} ({{len .Rows}} rows)</summary>
{{- else}}
<h3>{{.Title}}</h3>
{{- end}}
<table class="changes-table">
<thead><tr><th scope="col">metric</th><th scope="col">id</th><th scope="col" class="num">{{$.HeadA}}</th><th scope="col" class="num">{{$.HeadB}}</th><th scope="col" class="num">delta</th><th scope="col">sig</th><th scope="col">test</th></tr></thead>
<tbody>
{{- range .Rows}}
<tr><th scope="row">{{.Label}}</th><td><code>{{.ID}}</code>{{with .Where}}<br><span class="why">{{.}}</span>{{end}}</td><td class="num">{{.A}}{{with .ACI}}<br><span class="why">{{.}}</span>{{end}}</td><td class="num">{{.B}}{{with .BCI}}<br><span class="why">{{.}}</span>{{end}}</td><td class="num">{{.Delta}}</td><td>{{.Sig}}</td><td>{{.Test}}</td></tr>
{{- end}}
</tbody>
</table>
{{- if .Collapse}}
</details>
{{- end}}
{{- end}}
{{- with .Note}}
<p class="note">{{.}}</p>
{{- end}}
{{- range .Only}}
<h3>{{.Title}}</h3>
<ul>
{{- range .Rows}}
<li>{{index . 0}} (<code>{{index . 1}}</code>, {{index . 2}}, {{index . 3}}): {{index . 4}}</li>
{{- end}}
</ul>
{{- end}}
{{- range .Lists}}
{{- if $.FoldLists}}
<details class="more"><summary>{{.Title}} ({{len .Items}})</summary>
{{- else}}
<h3>{{.Title}}</h3>
{{- end}}
<ul>
{{- range .Items}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- if $.FoldLists}}
</details>
{{- end}}
{{- end}}
</div>
`))

type htmlTable struct {
	Title string
	Rows  []htmlRow
	// Collapse folds the table into a <details> (the rows other than the
	// headline metrics: the page stays short, the rows stay in it).
	Collapse bool
}

// HTML returns the HTML fragment (see changesHTML), short unless opt.All
// as Markdown is.
func (c *Changes) HTML(opt WriteOptions) (template.HTML, error) {
	var b bytes.Buffer
	if err := c.writeHTML(&b, opt); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil // html/template escaped every string
}

func (c *Changes) writeHTML(w io.Writer, opt WriteOptions) error {
	v := c.view(opt, true)
	rows, _, _ := c.shown(opt.All, true)
	var tabs []htmlTable
	for _, head := range []bool{true, false} {
		t := htmlTable{Title: "Headline metrics"}
		if !head {
			t.Title, t.Collapse = "Other metrics", true
			if opt.Primary != "" {
				t.Title = "Other " + c.words.Say("systems") + " and metrics"
			}
		}
		for _, r := range rows {
			open := r.Headline && (opt.Primary == "" || r.System == opt.Primary)
			if open != head {
				continue
			}
			where := c.label(r.System)
			if r.Slice != report.Whole {
				where += " · " + sliceText(r.Slice)
			}
			h := htmlRow{Label: visible(r.Label), ID: visible(string(r.ID)), Where: where,
				A: valueText(r.ID, r.A, nil), B: valueText(r.ID, r.B, nil), ACI: ciText(r.CIA), BCI: ciText(r.CIB),
				Delta: deltaText(r.ID, r.Delta), Sig: r.Verdict.Symbol(), Test: testText(r)}
			if isCount(r.ID) {
				h.ACI, h.BCI = "", ""
			}
			t.Rows = append(t.Rows, h)
		}
		if len(t.Rows) > 0 {
			tabs = append(tabs, t)
		}
	}
	// With a primary, its claims (and those about no one system) stay
	// open; the other systems' claims are folded, as their rows are.
	var others []string
	if opt.Primary != "" {
		v.Claims = nil
		for _, cl := range c.Claims {
			if cl.System == "" || cl.System == opt.Primary {
				v.Claims = append(v.Claims, visible(cl.Text))
			} else {
				others = append(others, visible(cl.Text))
			}
		}
	}
	ha, hb := c.sideHeads()
	return changesHTML.Execute(w, struct {
		view
		Tables       []htmlTable
		HeadA, HeadB string
		ClaimsTitle  string
		OtherClaims  []string
		FoldLists    bool   // the configuration and input changes folded (the report)
		Systems      string // what the compared inputs are called (systems, runs, classifiers)
	}{v, tabs, ha, hb, claimsTitle, others, opt.Primary != "", c.words.Say("systems")})
}

// ciText writes "[0.8401, 0.8619]", or "" without an interval.
func ciText(ci *report.CI) string {
	if !ciDefined(ci) {
		return ""
	}
	return "[" + fixed4(float64(ci.Low)) + ", " + fixed4(float64(ci.High)) + "]"
}
