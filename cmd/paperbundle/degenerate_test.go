package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Degenerate but valid data (docs/reliability.md): each case builds a bundle,
// and every statistic that is undefined on it is null in metrics_master.json
// and "n/a" with its reason in report.html, never an invented 0 or 0.5.

// degenCase describes a per-query table of posts x criteria: gold says
// which rows have evidence, the options bend one thing at a time.
type degenCase struct {
	name  string
	posts int
	folds int  // posts are dealt round-robin into folds
	tune  bool // each post is also a tune row of every other fold
	crits []string
	gold  func(post, crit int) []string
	cands func(post, crit int) []string // default s1, s2, s3
	// scores and probabilities: defaults rank the gold first and give
	// positives a higher ne_prob, with some errors.
	tiedScores bool
	equalProbs bool

	check func(t *testing.T, m *master)

	csvText string // the table as written, instead of the generated one
}

func (dc degenCase) csv() string {
	if dc.csvText != "" {
		return dc.csvText
	}
	var b strings.Builder
	b.WriteString("post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores,node_probs,ne_prob\n")
	crits := dc.crits
	if crits == nil {
		crits = []string{"A.1", "A.2"}
	}
	folds := max(dc.folds, 1)
	write := func(i, j, fold int, split string) {
		gold := dc.gold(i, j)
		cands := []string{"s1", "s2", "s3"}
		if dc.cands != nil {
			cands = dc.cands(i, j)
		}
		isGold := func(s string) bool {
			for _, g := range gold {
				if g == s {
					return true
				}
			}
			return false
		}
		var scores, probs []string
		for k, c := range cands {
			switch {
			case dc.tiedScores || split == "tune":
				scores = append(scores, "0.5")
			case isGold(c):
				scores = append(scores, "0.95")
			default:
				scores = append(scores, fmt.Sprint(0.9-0.3*float64(k)))
			}
			switch {
			case dc.equalProbs:
				probs = append(probs, "0.5")
			case isGold(c):
				probs = append(probs, "0.8")
			default:
				probs = append(probs, "0.1")
			}
		}
		ne := 0.2
		switch {
		case dc.equalProbs:
			ne = 0.5
		case split == "tune" && len(gold) > 0:
			ne = 0.7
		case split == "tune":
			ne = 0.3
		case (i+j)%3 == 0 && len(gold) > 0:
			ne = 0.4 // a positive ranked below some negatives
		case (i+j)%3 == 0:
			ne = 0.6
		case len(gold) > 0:
			ne = 0.8
		}
		fmt.Fprintf(&b, "P%d,%s,%d,%s,%s,%s,%s,%s,%g\n", i+1, crits[j], fold, split,
			strings.Join(gold, ";"), strings.Join(cands, ";"), strings.Join(scores, ";"), strings.Join(probs, ";"), ne)
	}
	for i := range dc.posts {
		for j := range crits {
			write(i, j, i%folds, "eval")
		}
	}
	if dc.tune {
		for i := range dc.posts {
			for f := range folds {
				if f == i%folds {
					continue
				}
				for j := range crits {
					write(i, j, f, "tune")
				}
			}
		}
	}
	return b.String()
}

// master is the part of metrics_master.json the checks read. Numbers are
// pointers: nil is JSON null (undefined).
type master struct {
	Dataset struct {
		Folds []struct {
			Fold        int `json:"fold"`
			Positives   int `json:"positives"`
			EvalQueries int `json:"eval_queries"`
		} `json:"folds"`
	} `json:"dataset"`
	Capabilities struct {
		Present []string `json:"present"`
		Absent  []struct {
			ID     string `json:"id"`
			Reason string `json:"reason"`
		} `json:"absent"`
	} `json:"capabilities"`
	Thresholds []struct {
		System string `json:"system"`
		Fold   int    `json:"fold"`
		Source string `json:"source"`
	} `json:"thresholds"`
	Checks []struct {
		ID     string `json:"id"`
		Passed bool   `json:"passed"`
		Detail string `json:"detail"`
	} `json:"checks"`
	Warnings []string `json:"warnings"`
	Metrics  []struct {
		System   string   `json:"system"`
		ID       string   `json:"id"`
		Slice    string   `json:"slice"`
		N        int      `json:"n"`
		Value    *float64 `json:"value"`
		CI       *struct{ Low, High *float64 }
		Folds    []*float64 `json:"folds"`
		FoldMean *float64   `json:"fold_mean"`
		FoldStd  *float64   `json:"fold_std"`
	} `json:"metrics"`
	Comparisons []json.RawMessage `json:"comparisons"`

	html string
}

// metric returns a metric of the system "sys", failing when it is absent.
func (m *master) metric(t *testing.T, id, slice string) (value *float64, folds []*float64) {
	t.Helper()
	for _, x := range m.Metrics {
		if x.System == "sys" && x.ID == id && x.Slice == slice {
			return x.Value, x.Folds
		}
	}
	t.Fatalf("no metric sys %s [%s]", id, slice)
	return nil, nil
}

// null fails unless the metric is null (undefined), with n/a in the
// report.
func (m *master) null(t *testing.T, id, slice string) {
	t.Helper()
	if v, _ := m.metric(t, id, slice); v != nil {
		t.Errorf("sys %s [%s] = %v, want null (undefined)", id, slice, *v)
	}
}

func (m *master) section(t *testing.T, id string) (present bool, reason string) {
	t.Helper()
	for _, s := range m.Capabilities.Present {
		if s == id {
			return true, ""
		}
	}
	for _, s := range m.Capabilities.Absent {
		if s.ID == id {
			return false, s.Reason
		}
	}
	t.Fatalf("no section %s", id)
	return false, ""
}

func show(v *float64) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(*v)
}

// buildDegenerate writes the case, builds its bundle and reads it back.
func buildDegenerate(t *testing.T, dc degenCase) *master {
	t.Helper()
	dir, cfg := writeProject(t, dc.csv())
	root := filepath.Join(dir, "out")
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("build: exit %d: %s\ninput:\n%s", code, msg, dc.csv())
	}
	data, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := &master{}
	if err := json.Unmarshal(data, m); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(root, "v1", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	m.html = string(html)
	return m
}

// checkNoInvented runs the checks every degenerate bundle must pass: an
// AUROC of a population with one class is null (contract.undefined_auroc:
// nan, the default), a null value has no interval, a std across folds
// needs two fold values, and the report shows undefined values as n/a
// with a reason.
func checkNoInvented(t *testing.T, m *master) {
	t.Helper()
	type key struct{ system, slice string }
	n, pos := map[key]float64{}, map[key]float64{}
	for _, x := range m.Metrics {
		if x.Value == nil {
			continue
		}
		switch x.ID {
		case "data.n":
			n[key{x.System, x.Slice}] = *x.Value
		case "data.n_pos":
			pos[key{x.System, x.Slice}] = *x.Value
		}
	}
	for _, x := range m.Metrics {
		k := key{x.System, x.Slice}
		if x.ID == "ne.auroc" && x.Value != nil {
			if p, ok := pos[k]; ok && (p == 0 || p == n[k]) {
				t.Errorf("%s ne.auroc [%s] = %v on one class (n %v, n_pos %v), want null", x.System, x.Slice, *x.Value, n[k], p)
			}
		}
		if x.ID == "ne.auroc" && x.Slice == "" && x.System == "sys" {
			for f, v := range x.Folds {
				if v != nil && f < len(m.Dataset.Folds) {
					fd := m.Dataset.Folds[f]
					if fd.Positives == 0 || fd.Positives == fd.EvalQueries {
						t.Errorf("ne.auroc of fold %d = %v with one class (%d positives of %d), want null", fd.Fold, *v, fd.Positives, fd.EvalQueries)
					}
				}
			}
		}
		if x.Value == nil && x.CI != nil && (x.CI.Low != nil || x.CI.High != nil) {
			t.Errorf("%s %s [%s] is null but has the interval [%s, %s]", x.System, x.ID, x.Slice, show(x.CI.Low), show(x.CI.High))
		}
		if x.Value != nil && (math.IsNaN(*x.Value) || math.IsInf(*x.Value, 0)) {
			t.Errorf("%s %s [%s] = %v", x.System, x.ID, x.Slice, *x.Value)
		}
		defined := 0
		for _, v := range x.Folds {
			if v != nil {
				defined++
			}
		}
		if x.FoldStd != nil && defined < 2 {
			t.Errorf("%s %s [%s]: fold_std %v from %d fold values, want null", x.System, x.ID, x.Slice, *x.FoldStd, defined)
		}
	}
	if !strings.Contains(m.html, `<span class="na">n/a</span> <span class="why">(`) {
		t.Error(`report.html shows no undefined value as "n/a" with its reason`)
	}
}

// mixed gives every other (post, criterion) one gold sentence.
func mixed(i, j int) []string {
	if (i+j)%2 == 0 {
		return []string{"s2"}
	}
	return nil
}

// TestDegenerate builds bundles of degenerate inputs (one class in a fold
// or a criterion, one system, one fold, no tune rows, no positive, ties, a
// single candidate) and checks that what cannot be computed is null with a
// reason, never invented. It is longer than 100 lines because it is a
// table with one row per degenerate case, each with its own check.
func TestDegenerate(t *testing.T) {
	t.Parallel()
	for _, dc := range []degenCase{
		{name: "one class in a fold", posts: 6, folds: 2, tune: true,
			// Only posts of fold 0 (even) have evidence.
			gold: func(i, j int) []string {
				if i%2 == 0 && (i+j)%2 == 0 {
					return []string{"s2"}
				}
				return nil
			},
			check: func(t *testing.T, m *master) {
				for _, id := range []string{"ne.auroc", "ne.auprc", "rank.ndcg@10", "rank.recall@10"} {
					if _, folds := m.metric(t, id, ""); len(folds) != 2 || folds[0] == nil || folds[1] != nil {
						t.Errorf("%s per fold = %v, want a value for fold 0 and null for fold 1 (no positive)", id, folds)
					}
				}
			}},
		{name: "one class in a criterion", posts: 6, folds: 2, tune: true,
			// Every A.1 query has evidence.
			gold: func(i, j int) []string {
				switch {
				case j == 0:
					return []string{"s1"}
				case i%2 == 1:
					return []string{"s3"}
				}
				return nil
			},
			check: func(t *testing.T, m *master) {
				m.null(t, "ne.auroc", "criterion=A.1")
				if v, _ := m.metric(t, "ne.auroc", "criterion=A.2"); v == nil {
					t.Error("ne.auroc of criterion A.2 (both classes) is null")
				}
			}},
		{name: "one system", posts: 6, folds: 2, tune: true, gold: mixed,
			check: func(t *testing.T, m *master) {
				if present, reason := m.section(t, "comparisons"); present || reason == "" {
					t.Errorf("comparisons section present %v, reason %q; want absent with a reason", present, reason)
				}
				if len(m.Comparisons) != 0 {
					t.Errorf("%d comparisons with one system", len(m.Comparisons))
				}
			}},
		{name: "one fold", posts: 6, folds: 1, gold: mixed,
			check: func(t *testing.T, m *master) {
				if present, reason := m.section(t, "folds"); present || reason == "" {
					t.Errorf("folds section present %v, reason %q; want absent with a reason", present, reason)
				}
			}},
		{name: "no tune rows", posts: 6, folds: 2, gold: mixed,
			check: func(t *testing.T, m *master) {
				for _, th := range m.Thresholds {
					if th.Source != "cross-fitted" {
						t.Errorf("fold %d thresholds from %q, want cross-fitted", th.Fold, th.Source)
					}
				}
				if len(m.Warnings) == 0 {
					t.Error("no warning that thresholds were cross-fitted")
				}
				if v, _ := m.metric(t, "ne.heldout_tpr@fpr=0.1", ""); v == nil {
					t.Error("cross-fitted held-out TPR is null")
				}
			}},
		{name: "no positive query", posts: 6, folds: 2, tune: true, gold: func(int, int) []string { return nil },
			check: func(t *testing.T, m *master) {
				for _, id := range []string{"ne.auroc", "ne.auprc", "ne.sensitivity@tau=0.5", "ne.calibration_slope", "ne.tpr@fpr=0.05"} {
					m.null(t, id, "")
				}
				for _, id := range []string{"rank.ndcg@10", "rank.recall@10", "rank.mrr", "rank.map", "dynk.evidence_recall"} {
					for _, x := range m.Metrics {
						if x.ID == id && x.Value != nil {
							t.Errorf("%s %s [%s] = %v without a positive query, want null", x.System, id, x.Slice, *x.Value)
						}
					}
				}
				if present, reason := m.section(t, "ranking"); present || reason == "" {
					t.Errorf("ranking section present %v, reason %q; want absent with a reason", present, reason)
				}
			}},
		{name: "every probability equal", posts: 6, folds: 2, tune: true, gold: mixed, equalProbs: true,
			check: func(t *testing.T, m *master) {
				// With every score tied the ROC is the diagonal: AUROC is
				// exactly 0.5 by definition (ties count one half), not an
				// undefined value.
				if v, _ := m.metric(t, "ne.auroc", ""); v == nil || *v != 0.5 {
					t.Errorf("ne.auroc = %s, want 0.5", show(v))
				}
				m.null(t, "ne.calibration_slope", "") // logit(p) is constant
			}},
		{name: "every score tied", posts: 6, folds: 2, tune: true, gold: mixed, tiedScores: true,
			check: func(t *testing.T, m *master) {
				// Ties keep list order: s2 is second in every list.
				if v, _ := m.metric(t, "rank.mrr", ""); v == nil || *v != 0.5 {
					t.Errorf("rank.mrr = %s, want 0.5 (gold second in list order)", show(v))
				}
				// Difficulty is the same for every query: no rank
				// correlation.
				m.null(t, "rank.spearman_difficulty@10", "")
			}},
		{name: "a query with one candidate", posts: 6, folds: 2, tune: true, gold: mixed,
			cands: func(i, j int) []string {
				if i == 0 && j == 0 {
					return []string{"s2"}
				}
				return []string{"s1", "s2", "s3"}
			},
			check: func(t *testing.T, m *master) {
				if v, _ := m.metric(t, "rank.hit@1", ""); v == nil {
					t.Error("rank.hit@1 is null")
				}
			}},
		{name: "a criterion with no positive", posts: 6, folds: 2, tune: true,
			gold: func(i, j int) []string {
				if j == 0 && i%2 == 0 {
					return []string{"s1"}
				}
				return nil
			},
			check: func(t *testing.T, m *master) {
				for _, id := range []string{"ne.auroc", "ne.auprc", "rank.ndcg@10", "rank.mrr"} {
					m.null(t, id, "criterion=A.2")
				}
				for _, c := range m.Checks {
					if c.ID == "criteria_have_positives" && (c.Passed || !strings.Contains(c.Detail, "A.2")) {
						t.Errorf("check %s: passed %v, %q; want failed naming A.2", c.ID, c.Passed, c.Detail)
					}
				}
			}},
	} {
		t.Run(dc.name, func(t *testing.T) {
			m := buildDegenerate(t, dc)
			checkNoInvented(t, m)
			dc.check(t, m)
		})
	}
}

// TestDegenerateNoThreshold is the case where no threshold can be chosen
// at all: one fold without tune rows (nothing to cross-fit from). The
// held-out FPR-budget operating points and the clinical gate do not apply:
// their metrics are absent (not null, never the 0 or 1 of counting every
// eval row as screened out or in), and the capabilities say why.
func TestDegenerateNoThreshold(t *testing.T) {
	m := buildDegenerate(t, degenCase{name: "one fold, no tune rows", posts: 6, folds: 1, gold: mixed})
	checkNoInvented(t, m)
	for _, x := range m.Metrics {
		if strings.HasPrefix(x.ID, "ne.heldout_") || strings.HasPrefix(x.ID, "clinical.") || strings.HasPrefix(x.ID, "e2e.") {
			t.Errorf("%s %s = %s, want it absent", x.System, x.ID, show(x.Value))
		}
	}
	for _, id := range []string{"heldout", "clinical_gate", "folds"} {
		if present, why := m.section(t, id); present || why == "" {
			t.Errorf("capability %s present %v, reason %q; want absent with a reason", id, present, why)
		}
	}
	for _, w := range m.Warnings {
		if strings.Contains(w, "tune rows") || strings.Contains(w, "threshold") {
			t.Errorf("warning %q though no section chooses a threshold", w)
		}
	}
}
