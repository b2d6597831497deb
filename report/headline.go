package report

import "paperbundle/metrics"

// Primary returns the name of the primary system ("" without systems).
func (r *Report) Primary() string {
	for _, s := range r.Systems {
		if s.Primary {
			return s.Name
		}
	}
	return ""
}

// HeadlineIDs returns the applicable headline metrics, in registry order:
// the registry's headline set, cutoff metrics at the headline cutoff, each
// only when some pipeline system has it on the whole population (a metric
// that does not apply is absent). They are the columns of the results
// matrix and the primary system's cards.
func (r *Report) HeadlineIDs() []metrics.ID {
	var out []metrics.ID
	for _, id := range metrics.ComparedIDs(r.Settings.HeadlineCutoff) {
		if !metrics.MustDef(id).Headline {
			continue
		}
		for _, s := range r.SystemsOf(Pipeline) {
			if _, ok := r.Metric(s, id, ""); ok {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// ComparisonsOf returns the comparisons in which system is the system or
// the reference, in report order.
func (r *Report) ComparisonsOf(system string) []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.System == system || c.Reference == system {
			out = append(out, c)
		}
	}
	return out
}
