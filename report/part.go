package report

import "slices"

// part is what a section, or all the sections of one system, adds to the
// report when it runs on a shard of its own (concurrently with others):
// the systems' calculations and the report fields that sections append
// to. A section returns its part (section), and merge joins parts into the
// report in a fixed order, so the report is the one a serial run gives.
//
// Every field of part is reset by shard, read by take and merged by merge:
// TestPartMergesEveryField fails when one of them leaves a field out, so a
// new field (a Curves kind, a warning added inside a section) cannot be
// dropped by a forgotten line.
type part struct {
	Sys           []*sysCalc
	Systems       []SystemInfo
	Metrics       []Metric
	Thresholds    []Thresholds
	Distributions []Distribution
	Curves        Curves
	Warnings      []string
}

// section runs f on a shard of c and returns what it added. Sections may
// run concurrently while nothing changes c (merge after they return).
func (c *computer) section(f func(sh *computer)) part {
	sh := c.shard()
	f(sh)
	return sh.take()
}

// shard returns a computer that shares c's data and settings but starts
// with an empty part (no systems, no metrics, ...) and an empty index.
func (c *computer) shard() *computer {
	sh := *c
	r := *c.rep
	sh.rep = &r
	sh.setPart(part{})
	r.index = map[metricKey]int{}
	return &sh
}

// take returns the part held by c (a shard: what its sections added).
func (c *computer) take() part {
	r := c.rep
	return part{Sys: c.sys, Systems: r.Systems, Metrics: r.Metrics, Thresholds: r.Thresholds,
		Distributions: r.Distributions, Curves: r.Curves, Warnings: r.Warnings}
}

// setPart sets the part held by c to p.
func (c *computer) setPart(p part) {
	r := c.rep
	c.sys, r.Systems, r.Metrics, r.Thresholds = p.Sys, p.Systems, p.Metrics, p.Thresholds
	r.Distributions, r.Curves, r.Warnings = p.Distributions, p.Curves, p.Warnings
}

// merge appends part p to what c holds (the caller reindexes).
func (c *computer) merge(p part) {
	r := c.rep
	c.sys = append(c.sys, p.Sys...)
	r.Systems = append(r.Systems, p.Systems...)
	r.Metrics = append(r.Metrics, p.Metrics...)
	r.Thresholds = mergeThresholds(r.Thresholds, p.Thresholds)
	r.Distributions = append(r.Distributions, p.Distributions...)
	cv, pc := &r.Curves, &p.Curves
	cv.ROC = append(cv.ROC, pc.ROC...)
	cv.PR = append(cv.PR, pc.PR...)
	cv.Reliability = append(cv.Reliability, pc.Reliability...)
	cv.DynKHist = append(cv.DynKHist, pc.DynKHist...)
	cv.GammaSweep = append(cv.GammaSweep, pc.GammaSweep...)
	cv.GateGrid = append(cv.GateGrid, pc.GateGrid...)
	cv.Decision = append(cv.Decision, pc.Decision...)
	cv.RankAtK = append(cv.RankAtK, pc.RankAtK...)
	r.Warnings = append(r.Warnings, p.Warnings...)
}

// mergeThresholds appends the records of add to ts. Sections of one
// system computed apart each record their own thresholds of a fold (the
// NE gate its FPR budgets, the three-state gate its taus): those join the
// record ts has for that system and fold, as a serial run keeps one.
func mergeThresholds(ts, add []Thresholds) []Thresholds {
	for _, t := range add {
		i := slices.IndexFunc(ts, func(e Thresholds) bool { return e.System == t.System && e.Fold == t.Fold })
		if i < 0 {
			ts = append(ts, t)
			continue
		}
		e := &ts[i]
		e.FPR = append(e.FPR, t.FPR...)
		if t.TauNeg.Valid() {
			e.TauNeg = t.TauNeg
		}
		if t.TauPos.Valid() {
			e.TauPos = t.TauPos
		}
		e.TauNegMet = e.TauNegMet || t.TauNegMet
		e.TauPosMet = e.TauPosMet || t.TauPosMet
	}
	return ts
}
