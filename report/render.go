package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"paperbundle/metrics"
)

// Sink receives the finished files of a bundle (bundle.Bundle implements
// it; tests pass a map).
type Sink interface {
	Add(name string, data []byte)
}

// Renderer writes extra artifacts (figures, HTML, XLSX) from the report.
// Packages that import report register theirs in the command.
type Renderer func(s Sink, r *Report) error

// Render writes the artifacts this package owns: metrics_master.json,
// per_query_metrics.csv, config.yaml, METHODS.md and tables/*.csv, *.tex;
// then every extra renderer.
func Render(s Sink, r *Report, extra ...Renderer) error {
	js, err := r.JSON()
	if err != nil {
		return err
	}
	s.Add("metrics_master.json", js)
	s.Add("per_query_metrics.csv", r.PerQueryCSV())
	if r.Config != nil {
		y, err := r.Config.YAML()
		if err != nil {
			return err
		}
		s.Add("config.yaml", y)
	}
	s.Add("METHODS.md", []byte(r.MethodsMarkdown()))
	for _, t := range r.Tables() {
		s.Add("tables/"+t.Name+".csv", t.CSV())
		s.Add("tables/"+t.Name+".tex", t.LaTeX())
	}
	for _, f := range extra {
		if err := f(s, r); err != nil {
			return err
		}
	}
	return nil
}

// JSON returns metrics_master.json.
func (r *Report) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("report: metrics_master.json: %w", err)
	}
	return buf.Bytes(), nil
}

// MethodsMarkdown returns METHODS.md: every metric definition used, with
// the conventions chosen where the contracts disagree.
func (r *Report) MethodsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Methods\n\n")
	b.WriteString("Every number of this bundle was computed by " + r.Tool + " from the inputs listed in `manifest.json`.\n\n")
	b.WriteString("## Protocol\n\n")
	b.WriteString("* **all_queries**: every `eval` row of every fold (classification, calibration, clinical gate, end to end).\n")
	b.WriteString("* **positives_only**: `eval` rows with at least one gold item (ranking, Dynamic-K quality).\n")
	b.WriteString("* Thresholds (FPR budgets, τ_neg, τ_pos) are chosen per fold on that fold's `tune` rows only, and applied to its `eval` rows.\n")
	if r.Config != nil {
		bc := r.Config.Bootstrap
		fmt.Fprintf(&b, "* Confidence intervals: %s bootstrap, %d resamples, resampling unit `%s`, %g%% level, seed %d.\n",
			bc.Method, bc.Resamples, bc.Unit, 100*bc.Confidence, r.Config.Seed)
		ct := r.Config.Contract
		fmt.Fprintf(&b, "* Conventions: MAP@K denominator `%s`, fold std `%s`, nDCG gain `%s`, undefined AUROC `%s`.\n",
			ct.MAPDenominator, ct.FoldStd, ct.NDCGGain, ct.UndefinedAUROC)
	}
	b.WriteString("* A value that is undefined (a 0/0 ratio, AUROC with one class) is `null` in JSON and \"n/a\" in tables, never 0.\n\n")
	b.WriteString("## Metric definitions\n\n")
	used := map[string]bool{}
	for _, m := range r.Metrics {
		base, p, _ := metrics.ParseID(m.ID)
		used[base+"|"+strconv.Itoa(int(p))] = true
	}
	fam := ""
	for _, d := range metrics.Defs() {
		if !used[d.Base+"|"+strconv.Itoa(int(d.Param))] || d.Definition == "" {
			continue
		}
		if f := d.Family(); f != fam {
			fam = f
			fmt.Fprintf(&b, "### %s\n\n", familyTitle(f))
		}
		id := d.Base
		switch d.Param {
		case metrics.ParamK:
			id += "@K"
		case metrics.ParamFPR:
			id += "@fpr=X"
		case metrics.ParamTau:
			id += "@tau=τ"
		case metrics.ParamGamma:
			id += "@gamma=γ"
		case metrics.ParamPct:
			id += "@p=p"
		}
		fmt.Fprintf(&b, "**%s** (`%s`; population %s; %s is better", d.Title, id, d.Population, directionWord(d.Direction))
		if d.Variant != "" {
			fmt.Fprintf(&b, "; variant: %s", d.Variant)
		}
		fmt.Fprintf(&b, ").\n%s\n\n", d.Definition)
	}
	return b.String()
}

func directionWord(d metrics.Direction) string {
	switch d {
	case metrics.Higher:
		return "higher"
	case metrics.Lower:
		return "lower"
	}
	return "neither"
}

func familyTitle(f string) string {
	switch f {
	case "ne":
		return "NE gate: classification and calibration"
	case "rank":
		return "Ranking"
	case "dynk":
		return "Dynamic-K"
	case "clinical":
		return "Three-state clinical gate"
	case "e2e":
		return "End-to-end deployment"
	case "multilabel":
		return "Per-post multi-label"
	case "data":
		return "Counts"
	}
	return f
}

// sortedSystems returns system names in report order, baselines last.
func (r *Report) sortedSystems() []string {
	var out []string
	for _, s := range r.Systems {
		out = append(out, s.Name)
	}
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	var extra []string
	for _, m := range r.Metrics {
		if !seen[m.System] {
			seen[m.System] = true
			extra = append(extra, m.System)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}
