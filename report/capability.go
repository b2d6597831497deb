package report

// Capability names one kind of result the inputs can support. What a
// bundle shows follows from what the inputs hold, decided once in Compute
// (computer.capabilities) and read by every renderer: a section, card,
// table row, figure, target or comparison of an absent capability is not
// produced at all, and its metrics are absent from metrics_master.json
// (not null, never 0).
type Capability string

// The capabilities, and what each needs.
const (
	// Ranking: candidate lists with scores, and gold on some eval query.
	// Covers the ranking metrics (rank.*) and the ranking baselines.
	Ranking Capability = "ranking"
	// Strata: the n_pos strata and the difficulty analysis; needs Ranking.
	Strata Capability = "strata"
	// NEGate: ne_prob (the NE gate classification metrics, ne.auroc ...).
	NEGate Capability = "ne_gate"
	// Calibration: ne_prob, a probability (ne.ece, ne.brier, reliability).
	Calibration Capability = "calibration"
	// FixedTau: ne_prob; the confusion metrics at each fixed probability
	// threshold of operating_points (ne.*@tau=X).
	FixedTau Capability = "fixed_tau"
	// HeldOut: ne_prob, and tune rows or at least two folds to cross-fit
	// the FPR-budget thresholds from (ne.heldout_*@fpr=X).
	HeldOut Capability = "heldout"
	// DynamicK: node_probs or selected_uids (dynk.*, the gamma sweep). A
	// fallback to the score ranking is not a Dynamic-K result.
	DynamicK Capability = "dynamic_k"
	// ClinicalGate: ne_prob and tune rows or at least two folds (the
	// thresholds are chosen on tune rows or cross-fitted), or the
	// pipeline's own state on every eval row (clinical.*).
	ClinicalGate Capability = "clinical_gate"
	// EndToEnd: the clinical gate and Dynamic-K (e2e.*, review workload).
	EndToEnd Capability = "end_to_end"
	// PerCriterion: criterion_id with two or more criteria.
	PerCriterion Capability = "per_criterion"
	// PerPost: per-criterion results, post_id, and the end-to-end
	// decision (multilabel.*).
	PerPost Capability = "per_post"
	// Folds: two or more folds (per-fold values, fold mean and std).
	Folds Capability = "folds"
	// Comparisons: two or more systems sharing the eval queries.
	Comparisons Capability = "comparisons"
)

// AllCapabilities lists every capability in report order.
var AllCapabilities = []Capability{Ranking, Strata, NEGate, Calibration, FixedTau, HeldOut,
	DynamicK, ClinicalGate, EndToEnd, PerCriterion, PerPost, Folds, Comparisons}

// Capabilities is the typed set of what a report holds: the capabilities
// present, and for each absent one why it is absent. It is the one record
// of applicability; Report.Sections and Report.Section are views of it.
type Capabilities struct {
	Present []Capability       `json:"present"`
	Absent  []AbsentCapability `json:"absent"`
}

// AbsentCapability is a capability the inputs do not support, and why.
type AbsentCapability struct {
	ID     Capability `json:"id"`
	Reason string     `json:"reason"`
}

// Has reports whether capability x is present.
func (c *Capabilities) Has(x Capability) bool {
	for _, p := range c.Present {
		if p == x {
			return true
		}
	}
	return false
}

// Reason returns why capability x is absent ("" when it is present or
// unknown).
func (c *Capabilities) Reason(x Capability) string {
	for _, a := range c.Absent {
		if a.ID == x {
			return a.Reason
		}
	}
	return ""
}

// record records capability x as present when ok, else absent with why.
func (c *Capabilities) record(x Capability, ok bool, why string) {
	if ok {
		c.Present = append(c.Present, x)
		return
	}
	c.Absent = append(c.Absent, AbsentCapability{ID: x, Reason: why})
}

// Has reports whether the report holds capability x.
func (r *Report) Has(x Capability) bool { return r.Capabilities.Has(x) }

// Sections returns the capabilities as report sections, in report order:
// one per capability the report knows, present or absent with its reason.
func (r *Report) Sections() []Section {
	out := make([]Section, 0, len(r.Capabilities.Present)+len(r.Capabilities.Absent))
	for _, x := range AllCapabilities {
		if r.Capabilities.Has(x) {
			out = append(out, Section{ID: string(x), Present: true})
		} else if why := r.Capabilities.Reason(x); why != "" {
			out = append(out, Section{ID: string(x), Reason: why})
		}
	}
	return out
}

// Section returns the presence of a report section (a capability) by id.
func (r *Report) Section(id string) (Section, bool) {
	x := Capability(id)
	if r.Capabilities.Has(x) {
		return Section{ID: id, Present: true}, true
	}
	for _, a := range r.Capabilities.Absent {
		if a.ID == x {
			return Section{ID: id, Reason: a.Reason}, true
		}
	}
	return Section{}, false
}

// Section says whether a report section could be computed, and why not.
// It is a view of Report.Capabilities.
type Section struct {
	ID      string `json:"id"`
	Present bool   `json:"present"`
	Reason  string `json:"reason,omitempty"`
}

// capabilities decides, once, what the inputs support (the applicability
// table: what each capability needs is written at its constant). Every
// section of Compute and every renderer reads this decision.
func (c *computer) capabilities() {
	ds := c.ds
	caps := &c.rep.Capabilities
	caps.Present, caps.Absent = []Capability{}, []AbsentCapability{}

	rankWhy := c.rankingAbsent()
	caps.record(Ranking, rankWhy == "", rankWhy)
	strataWhy := rankWhy
	if strataWhy == "" && len(c.strata) == 0 {
		strataWhy = "no n_pos stratum has a positive eval query"
	}
	caps.record(Strata, strataWhy == "", strataWhy)

	// ne_prob is a probability; ne_score (a logit, a margin, a marker) is
	// a score with no probability meaning: it gives the rank-based NE-gate
	// metrics only.
	hasNE := c.neScore && len(c.eval) > 0
	hasProb := ds.HasNEProb && len(c.eval) > 0
	noNE := "the inputs have no ne_prob or ne_score column (a TREC run gives ne_prob with ne_probs)"
	noProb := noNE
	if hasNE && !hasProb {
		noProb = "scores are not probabilities (ne_score given): calibration, the Brier score, fixed thresholds and the clinical gate need ne_prob"
	}
	caps.record(NEGate, hasNE, noNE)
	caps.record(Calibration, hasProb, noProb)
	caps.record(FixedTau, hasProb, noProb)

	// Thresholds are chosen on tune rows, or cross-fitted on the eval rows
	// of the other folds: either needs tune rows or two folds.
	canTune := c.rep.Dataset.TuneRows > 0 || len(c.folds) >= 2
	noTune := "no tune rows and a single fold: no threshold can be chosen without looking at the eval labels"
	heldWhy := ""
	switch {
	case !hasNE:
		heldWhy = noNE
	case len(c.cfg.FPRTargets) == 0:
		heldWhy = "fpr_targets is empty"
	case !canTune:
		heldWhy = noTune
	}
	caps.record(HeldOut, heldWhy == "", heldWhy)

	dkWhy := c.dynamicKAbsent()
	caps.record(DynamicK, dkWhy == "", dkWhy)

	gateWhy := ""
	switch {
	case len(c.eval) > 0 && c.hasStates():
	case !hasProb:
		gateWhy = "the inputs have neither ne_prob nor the pipeline's state"
		if hasNE {
			gateWhy = noProb
		}
	case !canTune:
		gateWhy = noTune
	}
	caps.record(ClinicalGate, gateWhy == "", gateWhy)

	e2eWhy := ""
	switch {
	case gateWhy != "":
		e2eWhy = "no clinical gate: " + gateWhy
	case dkWhy != "":
		e2eWhy = "no Dynamic-K selection: " + dkWhy
	}
	caps.record(EndToEnd, e2eWhy == "", e2eWhy)

	critWhy := ""
	switch {
	case !ds.HasCriteria:
		critWhy = "the inputs have no criterion_id column"
	case len(c.criteria) < 2:
		critWhy = "the eval queries have a single criterion"
	}
	caps.record(PerCriterion, critWhy == "", critWhy)
	postWhy := ""
	switch {
	case critWhy != "":
		postWhy = critWhy
	case !ds.HasPosts:
		postWhy = "the inputs have no post_id column"
	case e2eWhy != "":
		postWhy = "the per-post labels are the end-to-end decisions, and there are none: " + e2eWhy
	}
	caps.record(PerPost, postWhy == "", postWhy)

	foldWhy := ""
	if len(c.folds) < 2 {
		foldWhy = "the inputs have " + plural(len(c.folds), "fold") + ": no value per fold, no fold mean or std"
	}
	caps.record(Folds, foldWhy == "", foldWhy)
	cmpWhy := ""
	if len(ds.Systems) < 2 {
		cmpWhy = "a single system has nothing to be compared with"
	}
	caps.record(Comparisons, cmpWhy == "", cmpWhy)
}

// rankingAbsent says why the ranking metrics are absent ("": present): they
// need some eval row of some system with candidates, and some eval query
// with gold.
func (c *computer) rankingAbsent() string {
	ds := c.ds
	cands := false
	for si := range ds.Systems {
		for _, qi := range c.eval {
			if len(ds.Systems[si].Rows[qi].Scores) > 0 {
				cands = true
				break
			}
		}
		if cands {
			break
		}
	}
	switch {
	case len(c.eval) == 0:
		return "the inputs have no eval query"
	case !cands:
		return "the inputs have no candidate lists with scores"
	case c.rep.Dataset.PositiveQueries == 0 && !c.judgedZero():
		// Under trec.no_relevant: zero a judged query without relevant
		// documents is ranked and scores 0, as trec_eval scores it, so the
		// ranking applies even when no judged query has one.
		return "no eval query has gold evidence"
	}
	return ""
}

// dynamicKAbsent says why the Dynamic-K section is absent ("": present): it
// needs eval queries and some system with a Dynamic-K selection.
func (c *computer) dynamicKAbsent() string {
	ds := c.ds
	var without []string
	for si := range ds.Systems {
		if !c.dynK[si] {
			without = append(without, ds.Systems[si].Name)
		}
	}
	switch {
	case len(c.eval) == 0:
		return "the inputs have no eval query"
	case len(without) == len(ds.Systems):
		return "the inputs have neither node_probs nor selected_uids (a fallback to the score ranking is not a Dynamic-K result)"
	}
	return ""
}

// dynKSystems says, per system, whether it carries a Dynamic-K selection
// of its own: node_probs or selected_uids on some eval row.
func (c *computer) dynKSystems() []bool {
	out := make([]bool, len(c.ds.Systems))
	for si := range c.ds.Systems {
		rows := c.ds.Systems[si].Rows
		for _, qi := range c.eval {
			if rows[qi].NodeProbs != nil || rows[qi].HasSelected {
				out[si] = true
				break
			}
		}
	}
	return out
}

// has reports whether the report holds capability x (c.capabilities has
// run).
func (c *computer) has(x Capability) bool { return c.rep.Capabilities.Has(x) }
