package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"paperbundle/dataset"
	"paperbundle/metrics"
)

// Primary returns the name of the primary system ("" without systems).
func (r *Report) Primary() string {
	for _, s := range r.Systems {
		if s.Primary {
			return s.Name
		}
	}
	return ""
}

// HeadlineIDs returns the applicable headline metrics, in the order of
// the headline set (Settings.Headline: paper.yaml's headline: or the
// kind of input's, DefaultHeadline), each only when some pipeline system
// has it on the whole population (a metric that does not apply is
// absent). A report of an older bundle that recorded no headline set has
// the registry's headline metrics at the headline cutoff. They are the
// columns of the results matrix, the primary system's cards and the first
// rows of the changes.
func (r *Report) HeadlineIDs() []metrics.ID {
	set := r.Settings.Headline
	if len(set) == 0 {
		set = DefaultHeadline(KindEvidence, []int{r.Settings.HeadlineCutoff}, nil, false)
	}
	var out []metrics.ID
	for _, id := range set {
		for _, s := range r.SystemsOf(Pipeline) {
			if _, ok := r.Metric(s, id, ""); ok {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// IsHeadline reports whether id on slice is a headline metric of the
// report: in HeadlineIDs, on the whole population.
func (r *Report) IsHeadline(id metrics.ID, slice Slice) bool {
	return slice == Whole && slices.Contains(r.HeadlineIDs(), id)
}

// headlineSet decides the kind of input and the headline set, once.
func (c *computer) headlineSet() {
	kind := kindOf(c.ds, c.cands)
	c.rep.Settings.InputKind = kind
	if len(c.cfg.Headline) > 0 {
		c.rep.Settings.Headline = slices.Clone(c.cfg.Headline)
		return
	}
	c.rep.Settings.Headline = DefaultHeadline(kind, c.cfg.Cutoffs, c.cfg.OperatingPoints, c.ds.HasNEProb)
}

// checkHeadline refuses a headline: of paper.yaml that names a metric no
// system has (it does not apply to these inputs), naming each such id.
func (c *computer) checkHeadline() error {
	if len(c.cfg.Headline) == 0 {
		return nil
	}
	have := c.rep.HeadlineIDs()
	var bad []string
	for _, id := range c.cfg.Headline {
		if !slices.Contains(have, id) {
			bad = append(bad, string(id))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	file := cmp.Or(c.cfg.File, "paper.yaml")
	return dataset.ErrorList{&dataset.InputError{File: file, Msg: fmt.Sprintf(
		"headline: %s not computed for these inputs (the metric does not apply to them, or its cutoff or operating point is not configured); remove it from headline:, or list ids that metrics_master.json holds",
		strings.Join(bad, ", "))}}
}

// headlineCutoffs are the cutoffs of the headline set's cutoff metrics:
// their ranking intervals are bootstrapped besides the headline cutoff's.
func (c *computer) headlineCutoffs() map[int]bool {
	out := map[int]bool{c.headK(): true}
	for _, id := range c.rep.Settings.Headline {
		if p, arg := id.Param(); p == metrics.ParamK {
			if k, err := strconv.Atoi(arg); err == nil {
				out[k] = true
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
