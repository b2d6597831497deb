package report

import (
	"context"
	"math"
	"strings"
	"testing"

	"paperbundle/dataset"
	"paperbundle/metrics"
)

// Degenerate thresholds (docs/statistics.md "Thresholds that cannot be chosen"): when a fold's tune rows cannot
// give a threshold, the metrics that need it leave that fold out, or are
// null when no fold has it, and the report says why. The datasets are
// handDataset (fixture_test.go) with a few tune rows changed:
//
//	fold 0 eval: q1 pos 0.8, q2 neg 0.3    tune: t3 pos 0.65, t4 neg 0.2
//	fold 1 eval: q3 pos 0.6, q4 neg 0.7    tune: t1 pos 0.75, t2 neg 0.25

// withoutTune drops every tune row and, with oneFold, puts every eval row
// in fold 0: one fold and nothing to cross-fit from.
func withoutTune(oneFold bool) *dataset.Dataset {
	ds := handDataset()
	var qs []dataset.Query
	var rows []dataset.Row
	for i, q := range ds.Queries {
		if q.Split != dataset.SplitEval {
			continue
		}
		if oneFold {
			q.Fold = 0
		}
		qs = append(qs, q)
		rows = append(rows, ds.Systems[0].Rows[i])
	}
	ds.Queries, ds.Systems[0].Rows = qs, rows
	return ds
}

// withNodeProbs gives every row node_probs (its scores), so that the
// Dynamic-K policy, and with it the review workload, applies.
func withNodeProbs(ds *dataset.Dataset) *dataset.Dataset {
	for si := range ds.Systems {
		for i := range ds.Systems[si].Rows {
			r := &ds.Systems[si].Rows[i]
			r.NodeProbs = append([]float64{}, r.Scores...)
		}
	}
	return ds
}

// setGold gives tune query id evidence (or takes it away).
func setGold(ds *dataset.Dataset, id string, has bool) {
	for i := range ds.Queries {
		q := &ds.Queries[i]
		if q.ID != id {
			continue
		}
		r := &ds.Systems[0].Rows[i]
		for j := range r.Rel {
			r.Rel[j] = 0
		}
		q.Gold, q.GoldRels = nil, nil
		if has {
			q.Gold, q.GoldRels = []string{r.Candidates[0]}, []int{1}
			r.Rel[0] = 1
		}
		return
	}
	panic("no query " + id)
}

func compute(t *testing.T, ds *dataset.Dataset) *Report {
	t.Helper()
	r, err := Compute(context.Background(), handConfig(50), ds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.HardCheckError(); err != nil {
		t.Fatalf("hard checks failed: %v", err)
	}
	if _, err := r.JSON(); err != nil {
		t.Fatal(err)
	}
	return r
}

// want checks a metric's value (NaN: null) and n, and its per-fold values
// when folds is not nil.
func want(t *testing.T, r *Report, id metrics.ID, v float64, n int, folds []float64) {
	t.Helper()
	m, ok := r.Metric("sys", id, "")
	if !ok {
		t.Errorf("%s: missing", id)
		return
	}
	same := func(a Num, b float64) bool {
		return math.IsNaN(b) && !a.Valid() || math.Abs(float64(a)-b) < 1e-12
	}
	if !same(m.Value, v) || m.N != n {
		t.Errorf("%s = %v (n %d), want %v (n %d)", id, m.Value, m.N, v, n)
	}
	if math.IsNaN(v) && m.CI != nil && (m.CI.Low.Valid() || m.CI.High.Valid()) {
		t.Errorf("%s is null with the interval [%v, %v]", id, m.CI.Low, m.CI.High)
	}
	if folds == nil {
		return
	}
	if len(m.Folds) != len(folds) {
		t.Errorf("%s folds = %v, want %v", id, m.Folds, folds)
		return
	}
	for k := range folds {
		if !same(m.Folds[k], folds[k]) {
			t.Errorf("%s folds = %v, want %v", id, m.Folds, folds)
			return
		}
	}
}

func absent(t *testing.T, r *Report, ids ...metrics.ID) {
	t.Helper()
	for _, id := range ids {
		if m, ok := r.Metric("sys", id, ""); ok {
			t.Errorf("%s = %v (n %d), want it left out", id, m.Value, m.N)
		}
	}
}

func warned(t *testing.T, r *Report, parts ...string) {
	t.Helper()
	for _, w := range r.Warnings {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no warning with %q in %q", parts, r.Warnings)
}

func thresholdsOf(t *testing.T, r *Report, f int) Thresholds {
	t.Helper()
	for _, th := range r.Thresholds {
		if th.System == "sys" && th.Fold == f {
			return th
		}
	}
	t.Fatalf("no thresholds for fold %d", f)
	return Thresholds{}
}

func stateOf(t *testing.T, r *Report, query string) string {
	t.Helper()
	for _, p := range r.PerQuery {
		if p.System == "sys" && p.Query == query {
			return p.State.String()
		}
	}
	t.Fatalf("no per-query row for %s", query)
	return ""
}

// TestHeldoutNoThreshold: one fold and no tune rows, so no FPR-budget
// threshold can be chosen without the eval labels: the held-out operating
// points do not apply. They used to count every row as screened out (TPR 0,
// FPR 0, specificity 1, balanced accuracy 0.5), then were null; they are
// absent, with the reason among the capabilities.
func TestHeldoutNoThreshold(t *testing.T) {
	r := compute(t, withoutTune(true))
	for _, x := range []string{"0.01", "0.05", "0.1"} {
		for _, m := range []string{"tpr", "fpr", "specificity", "balanced_accuracy", "f1", "precision", "npv", "mcc", "tp", "tn", "fp", "fn"} {
			absent(t, r, metrics.ID("ne.heldout_"+m+"@fpr="+x))
		}
	}
	if r.Has(HeldOut) || !strings.Contains(r.Capabilities.Reason(HeldOut), "no tune rows and a single fold") {
		t.Errorf("held-out present %v, reason %q", r.Has(HeldOut), r.Capabilities.Reason(HeldOut))
	}
	for _, th := range r.Thresholds {
		if len(th.FPR) != 0 {
			t.Errorf("fold %d records FPR-budget thresholds %+v", th.Fold, th.FPR)
		}
	}
	for _, w := range r.Warnings {
		if strings.Contains(w, "threshold") {
			t.Errorf("warning %q about thresholds no section chooses", w)
		}
	}
	// No held-out operating point is drawn on the ROC curve.
	for _, rc := range r.Curves.ROC {
		if len(rc.Points) != 0 {
			t.Errorf("ROC of %s marks %v without a threshold", rc.System, rc.Points)
		}
	}
}

// TestHeldoutPooledOverFoldsWithThreshold: fold 0's tune rows have no
// positive, so it has no FPR-budget threshold; the held-out metrics are
// pooled over fold 1 alone. Fold 1's threshold is 0.75 (t1), so q3 (pos
// 0.6) is a FN and q4 (neg 0.7) a TN: TPR 0/1, FPR 0/1, n = 2.
func TestHeldoutPooledOverFoldsWithThreshold(t *testing.T) {
	ds := handDataset()
	setGold(ds, "t3", false)
	r := compute(t, ds)
	nan2 := []float64{nan, 0}
	want(t, r, "ne.heldout_tpr@fpr=0.05", 0, 2, nan2)
	want(t, r, "ne.heldout_fpr@fpr=0.05", 0, 2, nan2)
	want(t, r, "ne.heldout_specificity@fpr=0.05", 1, 2, []float64{nan, 1})
	want(t, r, "ne.heldout_npv@fpr=0.05", 0.5, 2, []float64{nan, 0.5})
	want(t, r, "ne.heldout_precision@fpr=0.05", nan, 2, nil)
	want(t, r, "ne.heldout_balanced_accuracy@fpr=0.05", 0.5, 2, []float64{nan, 0.5})
	absent(t, r, "ne.heldout_tp@fpr=0.05", "ne.heldout_fn@fpr=0.05")
	th0, th1 := thresholdsOf(t, r, 0), thresholdsOf(t, r, 1)
	if th0.Source != "tune: no threshold can be chosen: its 2 tune rows have no query with evidence" || th1.Source != "tune" {
		t.Errorf("sources %q, %q", th0.Source, th1.Source)
	}
	for _, p := range th0.FPR {
		if p.Met || p.TuneFPR.Valid() || p.EvalTPR.Valid() || p.EvalFPR.Valid() {
			t.Errorf("fold 0 budget %v: %+v, want null rates", p.Budget, p)
		}
	}
	for _, p := range th1.FPR {
		if !p.Met || p.Threshold != 0.75 || p.EvalTPR != 0 || p.EvalFPR != 0 {
			t.Errorf("fold 1 budget %v: %+v, want threshold 0.75 with eval TPR 0 and FPR 0", p.Budget, p)
		}
	}
	warned(t, r, "no FPR-budget threshold can be chosen in fold 0 (its 2 tune rows have no query with evidence)", "pooled over fold 1 (n = 2 of 4 eval queries)")

	// With both folds thresholded nothing is left out (the ordinary case).
	r = compute(t, handDataset())
	if m, ok := r.Metric("sys", "ne.heldout_tp@fpr=0.05", ""); !ok || m.N != 4 {
		t.Errorf("ne.heldout_tp@fpr=0.05 = %v, %v; want it over 4 queries", m, ok)
	}
	for _, w := range r.Warnings {
		if !strings.HasPrefix(w, "the bootstrap resamples only") && !strings.HasPrefix(w, "bootstrap.resamples is") { // 4 posts and few resamples: those warnings are expected
			t.Errorf("warning %q on the ordinary dataset", w)
		}
	}
}

// TestGateNoTauNeg: without a positive tune row tau_neg cannot be chosen.
// It used to be -Inf: every query UNCERTAIN, screening sensitivity 1,
// uncertain rate 1, workload as if every query were reviewed.
func TestGateNoTauNeg(t *testing.T) {
	// One fold and no tune rows: no threshold can be chosen without the
	// eval labels, so the clinical gate does not apply (absent, with its
	// reason), rather than a section of nulls.
	r := compute(t, withoutTune(true))
	absent(t, r, "clinical.screen_sensitivity", "clinical.screen_fn_per_1000", "clinical.neg_rate",
		"clinical.uncertain_rate", "clinical.pos_rate", "clinical.alert_rate_per_1000", "clinical.alert_precision", "clinical.workload_per_1000")
	if r.Has(ClinicalGate) || !strings.Contains(r.Capabilities.Reason(ClinicalGate), "no tune rows and a single fold") {
		t.Errorf("clinical gate present %v, reason %q", r.Has(ClinicalGate), r.Capabilities.Reason(ClinicalGate))
	}

	// Fold 0's tune rows have no positive: the gate metrics are pooled over
	// fold 1, where tau_neg = tau_pos = 0.75 (t1) puts q3 (pos 0.6) and q4
	// (0.7) in NEG. Fold 0's queries are screened in for Dynamic-K.
	ds := withNodeProbs(handDataset())
	setGold(ds, "t3", false)
	r = compute(t, ds)
	want(t, r, "clinical.screen_sensitivity", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.screen_fn_per_1000", 500, 2, []float64{nan, 500})
	want(t, r, "clinical.neg_rate", 1, 2, []float64{nan, 1})
	want(t, r, "clinical.uncertain_rate", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.pos_rate", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.alert_precision", nan, 2, nil)
	want(t, r, "clinical.workload_per_1000", 0, 2, []float64{nan, 0})
	if s := stateOf(t, r, "q1"); s != dataset.StateUncertain.String() {
		t.Errorf("q1 (fold 0, no tau_neg) state %s, want %s (screened in)", s, dataset.StateUncertain)
	}
	if th := thresholdsOf(t, r, 1); th.TauNeg != 0.75 || th.TauPos != 0.75 {
		t.Errorf("fold 1 tau_neg %v tau_pos %v, want 0.75 and 0.75", th.TauNeg, th.TauPos)
	}
	warned(t, r, "tau_neg of the clinical gate cannot be chosen in fold 0 (its 2 tune rows have no query with evidence)", "pooled over fold 1 (n = 2 of 4 eval queries)")
}

// TestGateNoTauPos: fold 0's tune rows are all positive, so every alert
// precision on them is 1 and tau_pos cannot be chosen (it used to be
// tau_neg, making every screened-in query an alert). tau_neg = 0.2 (t4)
// is kept: q1 and q2 are UNCERTAIN (no POS state), and the metrics of
// tau_neg alone use both folds, those of tau_pos fold 1 only.
func TestGateNoTauPos(t *testing.T) {
	ds := withNodeProbs(handDataset())
	setGold(ds, "t4", true)
	r := compute(t, ds)
	th := thresholdsOf(t, r, 0)
	if th.TauNeg != 0.2 || !th.TauNegMet || th.TauPos.Valid() || th.TauPosMet {
		t.Errorf("fold 0 tau_neg %v (met %v) tau_pos %v (met %v), want 0.2 (met) and null (not met)", th.TauNeg, th.TauNegMet, th.TauPos, th.TauPosMet)
	}
	if !strings.HasPrefix(th.Source, "tune: ") || !strings.Contains(th.Source, "tau_pos cannot be chosen") || !strings.Contains(th.Source, "no query without evidence") {
		t.Errorf("fold 0 source %q, want the reason tau_pos cannot be chosen", th.Source)
	}
	for _, q := range []string{"q1", "q2"} {
		if s := stateOf(t, r, q); s != dataset.StateUncertain.String() {
			t.Errorf("%s state %s, want %s", q, s, dataset.StateUncertain)
		}
	}
	// tau_neg alone: q1 screened in, q3 (fold 1, NEG) missed.
	want(t, r, "clinical.screen_sensitivity", 0.5, 4, []float64{1, 0})
	want(t, r, "clinical.screen_fn_per_1000", 250, 4, []float64{0, 500})
	want(t, r, "clinical.neg_rate", 0.5, 4, []float64{0, 1})
	// tau_pos too: fold 1 only.
	want(t, r, "clinical.uncertain_rate", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.pos_rate", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.alert_rate_per_1000", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.workload_per_1000", 0, 2, []float64{nan, 0})
	want(t, r, "clinical.alert_precision", nan, 2, nil)
	warned(t, r, "tau_pos of the clinical gate cannot be chosen in fold 0 (its 2 tune rows have no query without evidence)", "pooled over fold 1 (n = 2 of 4 eval queries)")
	// The FPR-budget thresholds need both classes too.
	warned(t, r, "no FPR-budget threshold can be chosen in fold 0")
}

// TestCrossFitWarning: the warning about a fold without tune rows says
// what happens: cross-fitting when there is another fold, no threshold
// when there is none.
func TestCrossFitWarning(t *testing.T) {
	r := compute(t, withoutTune(false))
	// Both folds in one warning.
	warned(t, r, "folds 0 and 1 have no tune rows: the thresholds of each are cross-fitted on the eval rows of the other folds")
	for _, f := range []int{0, 1} {
		if th := thresholdsOf(t, r, f); th.Source != "cross-fitted" || !th.TauNeg.Valid() {
			t.Errorf("fold %d: source %q, tau_neg %v; want cross-fitted with a threshold", f, th.Source, th.TauNeg)
		}
	}
	// Fold 0 is cross-fitted on q3 (pos 0.6) and q4 (neg 0.7): no observed
	// probability meets the budget with both classes present, so nothing
	// is screened in (budget not met; its rows stay in the pool). Fold 1
	// gets 0.8 (q1), which misses q3.
	want(t, r, "ne.heldout_tpr@fpr=0.05", 0, 4, []float64{0, 0})
	want(t, r, "ne.heldout_fpr@fpr=0.05", 0, 4, []float64{0, 0})
	if p := thresholdsOf(t, r, 0).FPR[2]; p.Met || p.Threshold.Valid() || p.TuneTPR != 0 || p.TuneFPR != 0 {
		t.Errorf("fold 0 budget 0.05: %+v, want not met, nothing screened in", p)
	}

	// One fold and no tune rows: no section chooses a threshold (held-out
	// and clinical gate are absent), so no fold warning either.
	r = compute(t, withoutTune(true))
	for _, w := range r.Warnings {
		if strings.Contains(w, "tune rows") {
			t.Errorf("warning %q though no section chooses a threshold", w)
		}
	}
}

// TestFewUnitsWarning: a bootstrap over fewer than 30 posts says its
// intervals cannot be trusted; the demo's 1,477 posts do not.
func TestFewUnitsWarning(t *testing.T) {
	r := compute(t, handDataset())
	warned(t, r, "the bootstrap resamples only 4 eval posts")
}
