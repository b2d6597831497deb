package audit

import (
	"fmt"
	"regexp"
	"slices"

	"paperbundle/metrics"
	"paperbundle/report"
)

// negation before "significant(ly)" in the same sentence turns a claim
// into its reverse: "did not differ significantly", "no significant".
var negation = regexp.MustCompile(`(?i)\b(not|no|never|neither|nor|without)\b|n't\b`)

// claims checks the significance claims of a segment: a sentence naming
// two systems and a metric and saying they differ significantly (or do
// not) is held against the current comparison of the two on that metric.
func claims(s *source, g *segment, ms []mention, cur Version) []Finding {
	in := mentionsIn(ms, g.start, g.end)
	var out []Finding
	for _, m := range in {
		if m.p.kind != mSignif && m.p.kind != mNotSignif {
			continue
		}
		systems := orderOfAppearance(in)
		ids := nearestMetrics(in, m.start)
		if len(systems) < 2 || len(ids) == 0 {
			continue
		}
		says := m.p.kind == mSignif && !negation.Match(s.text[max(g.start, m.start-40):m.start])
		c, ok := claimed(cur.Report, systems, ids)
		if !ok {
			continue
		}
		f := at(s, m.start, string(s.orig[s.pos[m.start]:s.pos[m.end-1]+1]))
		alpha := cur.Report.Settings.Significance.Alpha
		sig := c.Significant(alpha)
		f.System, f.Metric, f.Field = c.System+" vs "+c.Reference, string(c.ID), fPHolm.String()
		f.Value, f.Current, f.Version = c.PHolm, c.PHolm, cur.Name
		pair := fmt.Sprintf("%s vs %s on %s", cur.Report.Label(c.System), cur.Report.Label(c.Reference), metrics.Title(c.ID))
		verdict := "not significant"
		if sig {
			verdict = "significant"
		}
		p := "undefined"
		if c.PHolm.Valid() {
			p = fmt.Sprintf("%.3g", float64(c.PHolm))
		}
		f.Why = fmt.Sprintf("%s: p_holm = %s (%s), %s at alpha %g in %s", pair, p, c.Test, verdict, alpha, cur.Name)
		f.Class = OK
		if says != sig {
			f.Class = Claim
			if says {
				f.Why = "says a significant difference, but " + f.Why
			} else {
				f.Why = "says no significant difference, but " + f.Why
			}
		}
		out = append(out, f)
	}
	return out
}

// orderOfAppearance lists the systems named, first named first.
func orderOfAppearance(ms []mention) []string {
	var out []string
	for _, m := range ms {
		if m.p.kind == mSystem && !slices.Contains(out, m.p.system) {
			out = append(out, m.p.system)
		}
	}
	return out
}

// claimed finds the comparison a sentence speaks of: of the first pair of
// its systems (in order of appearance) that the bundle compared on one of
// its metrics ("Full pipeline and + Reranker are significantly better
// than Retriever only": Full pipeline against Retriever only when the
// bundle compares each system with the retriever).
func claimed(r *report.Report, systems []string, ids []metrics.ID) (report.Comparison, bool) {
	for i := range systems {
		for j := i + 1; j < len(systems); j++ {
			if c, ok := comparison(r, systems[i], systems[j], ids); ok {
				return c, true
			}
		}
	}
	return report.Comparison{}, false
}

// comparison finds the comparison of systems a and b (either way round)
// on the first of ids the bundle compared them on.
func comparison(r *report.Report, a, b string, ids []metrics.ID) (report.Comparison, bool) {
	for _, id := range ids {
		for _, c := range r.Comparisons {
			if c.ID == id && (c.System == a && c.Reference == b || c.System == b && c.Reference == a) {
				return c, true
			}
		}
	}
	return report.Comparison{}, false
}
