package tables

import (
	"fmt"
	"strings"

	"paperbundle/internal/mdtext"
	"paperbundle/metrics"
	"paperbundle/report"
)

// Methods returns METHODS.md: the protocol, the conventions in force where
// the contracts disagree, and the definition of every metric the report
// holds. User strings (the tool name is the only one) are written as code
// spans, so they stay inert Markdown.
func Methods(r *report.Report) []byte {
	var b strings.Builder
	st := r.Settings
	b.WriteString("# Methods\n\n")
	fmt.Fprintf(&b, "Every number of this bundle was computed by %s from the inputs listed in `manifest.json`.\n\n", mdCode(r.Tool))
	b.WriteString("## Protocol\n\n")
	b.WriteString("* **all_queries**: every `eval` row of every fold" + usedBy(r, []report.Capability{report.NEGate, report.Calibration, report.ClinicalGate, report.EndToEnd},
		"classification", "calibration", "clinical gate", "end to end") + ".\n")
	b.WriteString("* **positives_only**: `eval` rows with at least one gold item" + usedBy(r, []report.Capability{report.Ranking, report.DynamicK},
		"ranking", "Dynamic-K quality") + ".\n")
	if t := r.Dataset.TRECConventions; t != nil {
		if t.NoRelevant == "zero" {
			b.WriteString("* **judged_queries**: the ranking population of this TREC input: every evaluated query of the qrels; a query with no relevant document scores 0, as in trec_eval (`trec.no_relevant: zero`).\n")
		}
		fmt.Fprintf(&b, "* TREC conventions: relevance level %d (trec_eval `-l`), `no_relevant: %s`, `missing_run: %s` (`zero` = trec_eval `-c`).\n", t.RelevanceLevel, t.NoRelevant, t.MissingRun)
	}
	// Where the thresholds came from, only where the report has some (a
	// TREC run has none) and never tune rows the input does not have.
	switch origin := r.ThresholdOrigin(); {
	case origin == "":
	case !crossFitted(r):
		b.WriteString("* Thresholds (FPR budgets, τ_neg, τ_pos) are chosen per fold on that fold's `tune` rows only, and applied to its `eval` rows.\n")
	default:
		b.WriteString("* Thresholds (FPR budgets, τ_neg, τ_pos) of each fold are " + mdtext.Inert(origin) + ", and applied to its `eval` rows.\n")
	}
	b.WriteString("* Confidence intervals: " + mdtext.Inert(r.BootstrapText()) + ".\n")
	// The cutoffs only with a ranking (a classifier has no cutoff).
	if r.Has(report.Ranking) {
		fmt.Fprintf(&b, "* Headline cutoff: K = %d (of cutoffs %v); tables and figures that the contracts write as @10 use it.\n", st.HeadlineCutoff, st.Cutoffs)
	}
	b.WriteString("* Conventions: " + strings.Join(Conventions(r, func(v string) string { return "`" + v + "`" }), ", ") + ".\n")
	b.WriteString("* A value that is undefined (" + UndefinedExamples(r) + ") is `null` in JSON and \"n/a\" in tables, never 0.\n\n")
	b.WriteString("## Metric definitions\n\n")
	fam := ""
	pops := populations(r)
	for _, d := range UsedDefs(r) {
		if d.Definition == "" {
			continue
		}
		if f := d.Family(); f != fam {
			fam = f
			fmt.Fprintf(&b, "### %s\n\n", FamilyTitle(f))
		}
		pop := d.Population
		if p, ok := pops[d.Base]; ok {
			pop = p // a TREC run's judged_queries where the registry says positives_only
		}
		fmt.Fprintf(&b, "**%s** (`%s`; population: %s; %s is better", d.Title, PatternID(d), populationText(pop), directionWord(d.Direction))
		if d.Variant != "" {
			fmt.Fprintf(&b, "; variant: %s", d.Variant)
		}
		fmt.Fprintf(&b, ").\n%s\n\n", d.Definition)
	}
	// In the words of the kind of input; code spans (keys, ids) as they are.
	return []byte(r.Vocabulary().SayMarkdown(b.String()))
}

// Conventions are the conventions in force where the metric contracts
// disagree, those that apply to the report ("MAP@K denominator gold"):
// the ranking's only with a ranking, the AUROC's only with a score to
// rank queries by (a classifier has no MAP, a TREC run without ne_probs
// no AUROC). value writes each value (as code in Markdown).
func Conventions(r *report.Report, value func(string) string) []string {
	ct := r.Settings.Conventions
	var out []string
	if r.Has(report.Ranking) {
		out = append(out, "MAP@K denominator "+value(string(ct.MAPDenominator)))
	}
	out = append(out, "fold std "+value(string(ct.FoldStd)))
	if r.Has(report.Ranking) {
		out = append(out, "nDCG gain "+value(string(ct.NDCGGain)))
	}
	if r.Has(report.NEGate) {
		out = append(out, "undefined AUROC "+value(string(ct.UndefinedAUROC)))
	}
	return out
}

// populations are the populations the report's metrics are computed
// over, per registry entry: the first whole-population value's.
func populations(r *report.Report) map[metrics.Base]metrics.Population {
	out := map[metrics.Base]metrics.Population{}
	for _, m := range r.Metrics {
		if m.Slice != report.Whole {
			continue
		}
		if _, ok := out[m.ID.Base()]; !ok {
			out[m.ID.Base()] = m.Population
		}
	}
	return out
}

// populationText is a population for METHODS.md, in the evidence-retrieval
// words (the caller puts them in the kind's) with its code after them:
// "queries with evidence (`positives_only`)".
func populationText(p metrics.Population) string {
	words, isCode := report.VocabularyOf(report.KindEvidence).PopulationWords(string(p))
	if !isCode {
		return mdtext.Inert(words)
	}
	return words + " (`" + string(p) + "`)"
}

// mdCode writes s as an inline code span that no backtick in s can close.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + strings.NewReplacer("\n", " ", "\r", " ").Replace(s) + " " + fence
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

// FamilyTitle is the heading of a metric family.
func FamilyTitle(f string) string {
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

// crossFitted reports whether some fold's thresholds were cross-fitted on
// the other folds (it has no tune rows).
func crossFitted(r *report.Report) bool {
	_, cross := r.ThresholdSources()
	return cross
}

// usedBy is " (what, ...)": the sections of caps, named by names, that the
// report has ("" when none): a population is not said to serve a section
// that does not apply (a TREC run has no clinical gate).
func usedBy(r *report.Report, caps []report.Capability, names ...string) string {
	var on []string
	for i, c := range caps {
		if r.Has(c) {
			on = append(on, names[i])
		}
	}
	if len(on) == 0 {
		return ""
	}
	return " (" + strings.Join(on, ", ") + ")"
}

// UndefinedExamples names the kinds of undefined value the report can
// hold: a 0/0 ratio always, an AUROC over one class only where there is a
// score to rank (a TREC run has none).
func UndefinedExamples(r *report.Report) string {
	if r.Has(report.NEGate) {
		return "a 0/0 ratio, AUROC with one class"
	}
	return "a 0/0 ratio"
}
