package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"paperbundle/metrics"
)

// Cell is one table cell: a number (with its display decimals) or text.
type Cell struct {
	Text   string
	Num    Num
	IsNum  bool
	Digits int
}

func textCell(s string) Cell { return Cell{Text: s} }
func numCell(v Num, digits int) Cell {
	return Cell{Num: v, IsNum: true, Digits: digits}
}

// String formats the cell for reading: numbers with fixed decimals,
// undefined numbers as "n/a".
func (c Cell) String() string {
	if !c.IsNum {
		return c.Text
	}
	if !c.Num.Valid() {
		return "n/a"
	}
	return strconv.FormatFloat(float64(c.Num), 'f', c.Digits, 64)
}

// Table is one table of the bundle, rendered as CSV, LaTeX, HTML and an
// XLSX sheet.
type Table struct {
	Name       string // file name without extension
	Title      string
	Population string
	Meaning    string // one-line clinical interpretation (seed 002 §10.2)
	Header     []string
	Rows       [][]Cell
}

// csvSafe neutralises a text cell that a spreadsheet would run as a
// formula (SPEC 7): a leading =, +, -, @ (or tab/CR) gets a quote.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSV returns the table as CSV with full-precision numbers.
func (t Table) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	h := make([]string, len(t.Header))
	for i, x := range t.Header {
		h[i] = csvSafe(x)
	}
	w.Write(h)
	for _, r := range t.Rows {
		rec := make([]string, len(r))
		for i, c := range r {
			switch {
			case c.IsNum && c.Num.Valid():
				rec[i] = strconv.FormatFloat(float64(c.Num), 'g', -1, 64)
			case c.IsNum:
				rec[i] = ""
			default:
				rec[i] = csvSafe(c.Text)
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}

var latexRepl = strings.NewReplacer(
	`\`, `\textbackslash{}`, `&`, `\&`, `%`, `\%`, `$`, `\$`, `#`, `\#`, `_`, `\_`,
	`{`, `\{`, `}`, `\}`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`, `<`, `\textless{}`, `>`, `\textgreater{}`)

// LatexEscape escapes text for LaTeX.
func LatexEscape(s string) string { return latexRepl.Replace(s) }

// LaTeX returns the table as a booktabs tabular.
func (t Table) LaTeX() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%% %s (population: %s)\n", LatexEscape(t.Title), LatexEscape(t.Population))
	b.WriteString("\\begin{tabular}{")
	for i := range t.Header {
		if i == 0 {
			b.WriteString("l")
		} else {
			b.WriteString("r")
		}
	}
	b.WriteString("}\n\\toprule\n")
	for i, h := range t.Header {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(LatexEscape(h))
	}
	b.WriteString(" \\\\\n\\midrule\n")
	for _, r := range t.Rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString(" & ")
			}
			b.WriteString(LatexEscape(c.String()))
		}
		b.WriteString(" \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	return []byte(b.String())
}

// digitsFor returns the display decimals of a metric.
func digitsFor(id string) int {
	d, ok := metrics.Lookup(id)
	if !ok {
		return 4
	}
	switch d.Kind {
	case metrics.KindCount:
		return 0
	case metrics.KindPer1000:
		return 2
	}
	return 4
}

// metricTable builds a table with one row per (system, metric): value, CI,
// fold mean and std, n, target.
func (r *Report) metricTable(name, title, pop, meaning, slice string, ids []string, systems []string) (Table, bool) {
	t := Table{Name: name, Title: title, Population: pop, Meaning: meaning,
		Header: []string{"system", "metric", "id", "value", "ci_low", "ci_high", "fold_mean", "fold_std", "n", "target_met"}}
	for _, s := range systems {
		for _, id := range ids {
			m, ok := r.Metric(s, id, slice)
			if !ok {
				continue
			}
			t.Rows = append(t.Rows, r.metricRow(m))
		}
	}
	return t, len(t.Rows) > 0
}

func (r *Report) metricRow(m Metric) []Cell {
	dg := digitsFor(m.ID)
	lo, hi := NaN, NaN
	if m.CI != nil {
		lo, hi = m.CI.Low, m.CI.High
	}
	tm := ""
	if m.TargetMet != nil {
		tm = "no"
		if *m.TargetMet {
			tm = "yes"
		}
	}
	return []Cell{textCell(r.label(m.System)), textCell(MetricTitle(m.ID)), textCell(m.ID), numCell(m.Value, dg), numCell(lo, dg), numCell(hi, dg),
		numCell(m.FoldMean, dg), numCell(m.FoldStd, dg), numCell(Num(m.N), 0), textCell(tm)}
}

// MetricTitle is the human name of a metric id, with its parameter.
func MetricTitle(id string) string {
	d, ok := metrics.Lookup(id)
	if !ok {
		return id
	}
	_, p, arg := metrics.ParseID(id)
	t := d.Title
	switch p {
	case metrics.ParamK:
		t = strings.ReplaceAll(t, "K", arg)
	case metrics.ParamFPR:
		t = strings.ReplaceAll(t, "X", arg)
	case metrics.ParamTau:
		t = strings.ReplaceAll(t, "τ", "τ = "+arg)
	case metrics.ParamGamma:
		t = strings.ReplaceAll(t, "γ", "γ = "+arg)
	case metrics.ParamPct:
		t = strings.ReplaceAll(t, "p·", arg+"·")
	}
	return t
}

func (r *Report) label(system string) string {
	for _, s := range r.Systems {
		if s.Name == system {
			return s.Label
		}
	}
	return system
}

// Tables returns every table of the bundle, in report order.
func (r *Report) Tables() []Table {
	var out []Table
	sys := r.sortedSystems()
	real := sys[:len(r.Systems)]
	add := func(t Table, ok bool) {
		if ok {
			out = append(out, t)
		}
	}
	k := r.headK()
	ks := strconv.Itoa(k)
	add(r.metricTable("scorecard", "Summary scorecard", "mixed (see each metric)",
		"The headline number of each section with its 95% CI and target.", "",
		[]string{"ne.auroc", "ne.auprc", "ne.ece", "rank.ndcg@" + ks, "rank.recall@" + ks, "dynk.evidence_recall", "clinical.screen_sensitivity", "clinical.alert_precision"}, real))
	var ne []string
	ne = append(ne, "ne.auroc", "ne.auprc")
	for _, x := range r.fprTargets() {
		xs := metrics.FormatParam(x)
		ne = append(ne, "ne.tpr@fpr="+xs, "ne.heldout_tpr@fpr="+xs, "ne.heldout_fpr@fpr="+xs, "ne.heldout_precision@fpr="+xs)
	}
	for _, m := range []string{"tp", "fp", "tn", "fn", "sensitivity", "specificity", "fpr", "precision", "npv", "f1", "mcc", "balanced_accuracy"} {
		ne = append(ne, "ne."+m+"@tau=0.5")
	}
	add(r.metricTable("ne_gate", "NE gate: classification", "all_queries",
		"How well ne_prob flags queries that have evidence; held-out rows use thresholds chosen on tune rows.", "", ne, real))
	add(r.metricTable("calibration", "NE gate: calibration", "all_queries",
		"Whether a predicted 30% means evidence in 30% of queries.", "",
		[]string{"ne.ece", "ne.ece_equal_mass", "ne.brier", "ne.calibration_intercept", "ne.calibration_slope", "ne.spiegelhalter_z", "ne.spiegelhalter_p"}, real))
	var rk []string
	for _, k := range r.cutoffs() {
		s := strconv.Itoa(k)
		rk = append(rk, "rank.recall@"+s, "rank.capped_recall@"+s, "rank.precision@"+s, "rank.hit@"+s, "rank.ndcg@"+s, "rank.map@"+s, "rank.mrr@"+s)
	}
	rk = append(rk, "rank.mrr", "rank.adaptive_recall", "rank.adaptive_recall_weighted", "rank.adaptive_precision", "rank.adaptive_precision_weighted")
	add(r.metricTable("ranking", "Ranking (with random and oracle baselines)", "positives_only",
		"How early a reviewer meets the evidence sentences of a query that has them.", "", rk, sys))
	dk := []string{"dynk.evidence_recall", "dynk.evidence_precision", "dynk.evidence_recall_all", "dynk.evidence_precision_all",
		"dynk.avg_k_all", "dynk.avg_k_pred_pos", "dynk.evidence_recall_micro", "dynk.evidence_recall_micro_conditional", "dynk.k_mean"}
	if r.Config != nil {
		for _, g := range r.Config.DynamicK.Sweep {
			gs := metrics.FormatParam(g)
			dk = append(dk, "dynk.mean_k@gamma="+gs, "dynk.evidence_recall@gamma="+gs, "dynk.evidence_precision@gamma="+gs, "dynk.workload_per_1000@gamma="+gs)
		}
	}
	add(r.metricTable("dynamic_k", "Dynamic-K extraction", "positives_only / all_queries (see id)",
		"How much of the evidence the extracted set holds, and how many sentences a reviewer reads.", "", dk, real))
	add(r.metricTable("clinical_gate", "Three-state clinical gate and deployment", "all_queries",
		"How many evidence cases screening loses, and how often a high-confidence alert is right.", "",
		[]string{"clinical.neg_rate", "clinical.uncertain_rate", "clinical.pos_rate", "clinical.alert_rate_per_1000", "clinical.screen_sensitivity",
			"clinical.screen_fn_per_1000", "clinical.alert_precision", "clinical.workload_per_1000",
			"e2e.tp", "e2e.fp", "e2e.tn", "e2e.fn", "e2e.fpr", "e2e.fnr", "e2e.precision", "e2e.recall", "e2e.f1"}, real))
	add(r.metricTable("per_post", "Per-post multi-label", "posts",
		"How well the deployment decisions of a post's criteria match as a whole.", "",
		[]string{"multilabel.exact_match", "multilabel.hamming_score", "multilabel.hamming_loss", "multilabel.micro_f1",
			"multilabel.macro_f1_posts", "multilabel.macro_f1_criteria", "multilabel.weighted_f1"}, real))
	add(r.criterionTable(real))
	add(r.strataTable(real))
	add(r.comparisonTable())
	return out
}

func (r *Report) headK() int { return headCutoff(r.cutoffs()) }

// headCutoff is the headline cutoff K of SPEC 6: 10, or the largest cutoff
// below it, or the smallest cutoff when all are above 10.
func headCutoff(cs []int) int {
	k := -1
	for _, x := range cs {
		if x <= 10 && x > k {
			k = x
		}
	}
	if k < 0 && len(cs) > 0 {
		k = cs[0]
	}
	return k
}

func (r *Report) cutoffs() []int {
	if r.Config == nil {
		return []int{10}
	}
	return r.Config.Cutoffs
}

func (r *Report) fprTargets() []float64 {
	if r.Config == nil {
		return nil
	}
	return r.Config.FPRTargets
}

func (r *Report) criterionTable(systems []string) (Table, bool) {
	t := Table{Name: "per_criterion", Title: "Per-criterion breakdown", Population: "all_queries (NE, deployment); positives_only (ranking)",
		Meaning: "Which criteria are easy or hard to detect and to rank.",
		Header:  []string{"system", "criterion", "n", "n_pos", "positive_rate", "auroc", "auprc", "sensitivity", "precision", "recall@10", "ndcg@10", "mrr"}}
	ids := []string{"data.n", "data.n_pos", "data.positive_rate", "ne.auroc", "ne.auprc", "e2e.recall", "e2e.precision", "rank.recall@10", "rank.ndcg@10", "rank.mrr"}
	for _, s := range systems {
		for _, cr := range append(append([]string{}, r.Dataset.Criteria...), "macro") {
			sl := "criterion=" + cr
			row := []Cell{textCell(r.label(s)), textCell(cr)}
			any := false
			for _, id := range ids {
				m, ok := r.Metric(s, id, sl)
				if ok {
					any = true
					row = append(row, numCell(m.Value, digitsFor(id)))
				} else {
					row = append(row, numCell(NaN, 4))
				}
			}
			if any {
				t.Rows = append(t.Rows, row)
			}
		}
	}
	return t, len(t.Rows) > 0
}

func (r *Report) strataTable(systems []string) (Table, bool) {
	t := Table{Name: "strata", Title: "Stratified analysis by n_pos", Population: "positives_only",
		Meaning: "Whether queries with few or many evidence sentences are served equally well.",
		Header:  []string{"system", "stratum", "n"}}
	for _, k := range r.cutoffs() {
		t.Header = append(t.Header, "recall@"+strconv.Itoa(k), "precision@"+strconv.Itoa(k))
	}
	strata := []string{}
	seen := map[string]bool{}
	for _, m := range r.Metrics {
		if strings.HasPrefix(m.Slice, "stratum=") && !seen[m.Slice] {
			seen[m.Slice] = true
			strata = append(strata, m.Slice)
		}
	}
	for _, s := range systems {
		for _, sl := range strata {
			n, _ := r.Metric(s, "data.n", sl)
			row := []Cell{textCell(r.label(s)), textCell(strings.TrimPrefix(sl, "stratum=")), numCell(n.Value, 0)}
			for _, k := range r.cutoffs() {
				ks := strconv.Itoa(k)
				a, _ := r.Metric(s, "rank.recall@"+ks, sl)
				b, _ := r.Metric(s, "rank.precision@"+ks, sl)
				row = append(row, numCell(orNaN(a), 4), numCell(orNaN(b), 4))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t, len(t.Rows) > 0
}

func orNaN(m Metric) Num {
	if m.ID == "" {
		return NaN
	}
	return m.Value
}

func (r *Report) comparisonTable() (Table, bool) {
	t := Table{Name: "comparisons", Title: "Systems and significance", Population: "paired, same queries",
		Meaning: "Whether each pipeline stage improves on its reference beyond chance.",
		Header:  []string{"system", "reference", "metric", "id", "diff", "ci_low", "ci_high", "p_permutation", "p_holm", "cohens_d", "d_z", "delong_z", "delong_p"}}
	for _, c := range r.Comparisons {
		lo, hi := NaN, NaN
		if c.CI != nil {
			lo, hi = c.CI.Low, c.CI.High
		}
		dz, dp := NaN, NaN
		if c.DeLongZ != nil {
			dz, dp = *c.DeLongZ, *c.DeLongP
		}
		t.Rows = append(t.Rows, []Cell{textCell(r.label(c.System)), textCell(r.label(c.Reference)), textCell(MetricTitle(c.ID)), textCell(c.ID),
			numCell(c.Diff, 4), numCell(lo, 4), numCell(hi, 4), numCell(c.PPermutation, 4), numCell(c.PHolm, 4),
			numCell(c.CohensD, 3), numCell(c.DZ, 3), numCell(dz, 3), numCell(dp, 4)})
	}
	return t, len(t.Rows) > 0
}
