package compare

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// ClaimKind is what kind of sentence of a paper a claim changes.
type ClaimKind string

const (
	// ClaimTarget: a metric's target went from met to not met, or back.
	ClaimTarget ClaimKind = "target"
	// ClaimSignificance: the verdict of a comparison between two systems
	// flipped (significantly better, worse, or not significant: p_holm
	// crossed alpha, or the sign of a significant difference changed).
	ClaimSignificance ClaimKind = "significance"
	// ClaimBest: another system is best on a headline metric.
	ClaimBest ClaimKind = "best"
)

// Claim is a change that changes a sentence of a paper. System, Reference
// are system names (Reference: the other side of a comparison, or the
// previous best; "" for a target); Before and After are the claim in
// words in each bundle ("met", "not met"; "significantly better", "not
// significant"; the best system's name); Text is the whole sentence, with
// system labels.
type Claim struct {
	Kind      ClaimKind  `json:"kind"`
	System    string     `json:"system"`
	Reference string     `json:"reference"`
	Metric    metrics.ID `json:"metric"`
	Before    string     `json:"before"`
	After     string     `json:"after"`
	Text      string     `json:"text"`
	// ValueBefore and ValueAfter are the metric's values (target, best);
	// PBefore and PAfter the comparison's p_holm and PRawBefore and
	// PRawAfter its p (significance), with Test the test that decided it.
	ValueBefore *float64 `json:"value_before,omitempty"`
	ValueAfter  *float64 `json:"value_after,omitempty"`
	PBefore     *float64 `json:"p_holm_before,omitempty"`
	PAfter      *float64 `json:"p_holm_after,omitempty"`
	PRawBefore  *float64 `json:"p_before,omitempty"`
	PRawAfter   *float64 `json:"p_after,omitempty"`
	Test        string   `json:"test,omitempty"`
}

// claims lists the claims that changed from a to b: those on a headline
// metric first; within each group targets, then significance verdicts,
// then best systems, each in b's order.
func (c *Changes) claims(a, b *report.Report) []Claim {
	out := []Claim{}
	out = append(out, c.targetClaims(a, b)...)
	out = append(out, c.significanceClaims(a, b)...)
	out = append(out, c.bestClaims(a, b)...)
	slices.SortStableFunc(out, func(x, y Claim) int {
		hx, hy := b.IsHeadline(x.Metric, report.Whole), b.IsHeadline(y.Metric, report.Whole)
		switch {
		case hx && !hy:
			return -1
		case hy && !hx:
			return 1
		}
		return 0
	})
	return out
}

func num(x report.Num) *float64 {
	if !x.Valid() {
		return nil
	}
	v := float64(x)
	return &v
}

// targetClaims: a whole-population metric of a system in both bundles
// whose target is met in one and not in the other.
func (c *Changes) targetClaims(a, b *report.Report) []Claim {
	var out []Claim
	for _, mb := range orderMetrics(b) {
		if mb.Slice != report.Whole || mb.TargetMet == nil || mb.Target == nil {
			continue
		}
		ma, ok := a.Metric(mb.System, mb.ID, mb.Slice)
		if !ok || ma.TargetMet == nil || *ma.TargetMet == *mb.TargetMet {
			continue
		}
		word := func(met bool) string {
			if met {
				return "met"
			}
			return "not met"
		}
		cl := Claim{Kind: ClaimTarget, System: mb.System, Metric: mb.ID, Before: word(*ma.TargetMet), After: word(*mb.TargetMet),
			ValueBefore: num(ma.Value), ValueAfter: num(mb.Value)}
		cl.Text = c.label(mb.System) + ": " + c.metricLabel(mb.ID) + " target " + tables.TargetText(mb.Target) + " " +
			cl.Before + " in " + c.A.Version + " (" + valueText(mb.ID, ma.Value, nil) + "), " +
			cl.After + " in " + c.B.Version + " (" + valueText(mb.ID, mb.Value, nil) + ")"
		if ma.Target != nil && tables.TargetText(ma.Target) != tables.TargetText(mb.Target) {
			cl.Text += "; the target was " + tables.TargetText(ma.Target) + " in " + c.A.Version
		}
		out = append(out, cl)
	}
	return out
}

// alphaOf is the significance level a report's comparisons were decided
// at; a report of schema 1 did not record it and used 0.05.
func alphaOf(r *report.Report) float64 {
	if a := r.Settings.Significance.Alpha; a > 0 {
		return a
	}
	return 0.05
}

// verdict words a comparison at level alpha: "significantly better",
// "significantly worse" (than the reference, by the metric's direction)
// or "not significant"; "" when it was not tested.
func verdict(cmpn report.Comparison, alpha float64) string {
	if !cmpn.PHolm.Valid() {
		return ""
	}
	if !cmpn.Significant(alpha) {
		return "not significant"
	}
	d, ok := metrics.Lookup(cmpn.ID)
	up := float64(cmpn.Diff) > 0
	if ok && d.Direction == metrics.Lower {
		up = !up
	}
	if !cmpn.Diff.Valid() || !ok || d.Direction == "" {
		return "significant"
	}
	if up {
		return "significantly better"
	}
	return "significantly worse"
}

// testName words a comparison's test for a sentence.
func testName(t string) string {
	switch t {
	case "permutation":
		return "paired permutation test"
	case "delong":
		return "paired DeLong test"
	case "bootstrap":
		return "paired bootstrap"
	}
	return t
}

// significanceClaims: a comparison (system, reference, metric) in both
// bundles' reports whose verdict differs; the reports' own tests decide,
// each at its own alpha.
func (c *Changes) significanceClaims(a, b *report.Report) []Claim {
	type key struct {
		sys, ref string
		id       metrics.ID
	}
	was := map[key]report.Comparison{}
	for _, x := range a.Comparisons {
		was[key{x.System, x.Reference, x.ID}] = x
	}
	var out []Claim
	for _, xb := range b.Comparisons {
		xa, ok := was[key{xb.System, xb.Reference, xb.ID}]
		if !ok {
			continue
		}
		va, vb := verdict(xa, alphaOf(a)), verdict(xb, alphaOf(b))
		if va == "" || vb == "" || va == vb {
			continue
		}
		cl := Claim{Kind: ClaimSignificance, System: xb.System, Reference: xb.Reference, Metric: xb.ID, Before: va, After: vb,
			PBefore: num(xa.PHolm), PAfter: num(xb.PHolm), PRawBefore: num(xa.P), PRawAfter: num(xb.P), Test: xb.Test}
		side := func(v string, x report.Comparison, r *report.Report) string {
			return v + " in " + r.Version + " (p_holm " + fixed4(float64(x.PHolm)) + ", p " + fixed4(float64(x.P)) + ")"
		}
		cl.Text = c.label(xb.System) + " vs " + c.label(xb.Reference) + " on " + c.metricLabel(xb.ID) + ": " +
			side(va, xa, a) + ", " + side(vb, xb, b) + "; " + testName(xb.Test)
		if alphaOf(a) != alphaOf(b) {
			cl.Text += ", significant when p_holm < " + strconv.FormatFloat(alphaOf(a), 'g', -1, 64) + " in " + a.Version +
				" and < " + strconv.FormatFloat(alphaOf(b), 'g', -1, 64) + " in " + b.Version
		}
		if xa.Test != xb.Test {
			cl.Text += " (" + testName(xa.Test) + " in " + a.Version + ")"
		}
		out = append(out, cl)
	}
	return out
}

// tieTol is the relative difference below which two values are tied for
// best: a mean computed in another order can differ in its last bits
// (1 − 1.1e-16 is not a new best value of 1).
const tieTol = 1e-9

// best returns the systems of the inputs with the best defined value of a
// whole-population metric (ties all best), sorted by name, and that value.
func best(r *report.Report, id metrics.ID) ([]string, float64, int) {
	d, ok := metrics.Lookup(id)
	if !ok || (d.Direction != metrics.Higher && d.Direction != metrics.Lower) {
		return nil, 0, 0
	}
	var names []string
	var top float64
	n := 0
	for _, s := range r.Systems {
		if s.Kind != report.Pipeline {
			continue
		}
		m, ok := r.Metric(s.Name, id, report.Whole)
		if !ok || !m.Value.Valid() {
			continue
		}
		n++
		v := float64(m.Value)
		tie := len(names) > 0 && math.Abs(v-top) <= tieTol*math.Max(1, math.Abs(top))
		better := len(names) == 0 || (d.Direction == metrics.Higher && v > top) || (d.Direction == metrics.Lower && v < top)
		switch {
		case tie:
			names = append(names, s.Name)
			if better {
				top = v
			}
		case better:
			names, top = []string{s.Name}, v
		}
	}
	slices.Sort(names)
	return names, top, n
}

// bestClaims: a headline metric whose best system (among at least two in
// each bundle) is another one in b.
func (c *Changes) bestClaims(a, b *report.Report) []Claim {
	var out []Claim
	seen := map[metrics.ID]bool{}
	for _, r := range c.Rows {
		if !r.Headline || seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		na, va, ca := best(a, r.ID)
		nb, vb, cb := best(b, r.ID)
		if ca < 2 || cb < 2 || len(na) == 0 || len(nb) == 0 || slices.Equal(na, nb) {
			continue
		}
		names := func(ns []string) string {
			ls := make([]string, len(ns))
			for i, n := range ns {
				ls[i] = c.label(n)
			}
			return strings.Join(ls, " and ")
		}
		cl := Claim{Kind: ClaimBest, System: strings.Join(nb, ", "), Reference: strings.Join(na, ", "), Metric: r.ID,
			Before: strings.Join(na, ", "), After: strings.Join(nb, ", "), ValueBefore: &va, ValueAfter: &vb}
		cl.Text = c.metricLabel(r.ID) + ": best " + c.words.System + " " + names(nb) + " in " + c.B.Version + " (" + valueText(r.ID, report.Num(vb), nil) +
			"), was " + names(na) + " in " + c.A.Version + " (" + valueText(r.ID, report.Num(va), nil) + ")"
		out = append(out, cl)
	}
	return out
}

// label is a system's label in b (else in a, else its name), made
// visible (control characters escaped).
func (c *Changes) label(name string) string {
	if l, ok := c.Labels[name]; ok && l != "" {
		return visible(l)
	}
	return visible(name)
}
