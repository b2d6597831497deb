package figures

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"paperbundle/figures/internal/figtest"
	"paperbundle/metrics"
	"paperbundle/report"
)

func specByID(t *testing.T, r *report.Report, id string) *Spec {
	t.Helper()
	specs := Catalogue(r)
	for i := range specs {
		if specs[i].ID.String() == id {
			return &specs[i]
		}
	}
	t.Fatalf("no figure %q", id)
	return nil
}

// elements returns the elements of type T in the spec's panels.
func elements[T Element](s *Spec) []T {
	var out []T
	for _, p := range s.Panels {
		for _, e := range p.Elements {
			if x, ok := e.(T); ok {
				out = append(out, x)
			}
		}
	}
	return out
}

// wantFixture is the catalogue of the fixture, in order.
var wantFixture = []string{
	"roc_sys_a", "roc_sys_b", "roc_overlay", "pr_sys_a", "pr_sys_b", "pr_overlay",
	"reliability_sys_a", "reliability_sys_b", "decision_curve_sys_a", "decision_curve_sys_b",
	"criteria_auroc_sys_a", "criteria_ranking_sys_a", "criteria_auroc_sys_b", "criteria_ranking_sys_b",
	"dynk_hist_sys_a", "dynk_hist_state_sys_a", "dynk_hist_evidence_sys_a",
	"dynk_hist_sys_b", "dynk_hist_state_sys_b", "dynk_hist_evidence_sys_b",
	"recall_at_k_sys_a", "precision_at_k_sys_a", "recall_at_k_sys_b", "precision_at_k_sys_b",
	"difficulty_sys_a", "difficulty_sys_b", "gamma_sweep_sys_a", "gamma_sweep_sys_b",
	"gate_grid_screen_sensitivity_sys_a", "gate_grid_alert_precision_sys_a", "gate_grid_workload_sys_a",
	"gate_grid_screen_sensitivity_sys_b", "gate_grid_alert_precision_sys_b", "gate_grid_workload_sys_b",
	"per_query_heatmap_sys_a", "per_query_heatmap_sys_b", "systems",
}

func TestCatalogueOrderAndIDs(t *testing.T) {
	specs := Catalogue(figtest.Fixture())
	var got []string
	seen := map[FigureID]bool{}
	for _, s := range specs {
		got = append(got, s.ID.String())
		if !s.ID.Valid() {
			t.Errorf("id %q outside [a-z0-9_]", s.ID)
		}
		if seen[s.ID] {
			t.Errorf("id %q twice", s.ID)
		}
		seen[s.ID] = true
		if s.Title == "" || s.Alt == "" || len(s.Panels) == 0 || s.Kind == "" {
			t.Errorf("%s: title %q, alt %q, %d panels, kind %q", s.ID, s.Title, s.Alt, len(s.Panels), s.Kind)
		}
		if strings.Count(s.Alt, ". ") > 0 || !strings.HasSuffix(s.Alt, ".") {
			t.Errorf("%s: alt text is not one sentence: %q", s.ID, s.Alt)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(wantFixture) {
		t.Errorf("catalogue\n%v\nwant\n%v", got, wantFixture)
	}
	if m := Missing(figtest.Fixture()); len(m) != 0 {
		t.Errorf("the fixture misses figures: %v", m)
	}
}

// walkNaN reports the path of the first NaN or infinity in v.
func walkNaN(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if math.IsNaN(v.Float()) || math.IsInf(v.Float(), 0) {
			return path
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return walkNaN(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if p := walkNaN(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if p := walkNaN(v.Field(i), path+"."+v.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}

// TestNoNaN: undefined values never reach a spec (the fixture has them on
// purpose), and so neither backend can draw them as 0.
func TestNoNaN(t *testing.T) {
	for _, r := range []*report.Report{figtest.Fixture(), figtest.FixtureAt([]int{1, 3, 5, 20})} {
		for _, s := range Catalogue(r) {
			if p := walkNaN(reflect.ValueOf(s), s.ID.String()); p != "" {
				t.Errorf("NaN or Inf at %s", p)
			}
		}
	}
}

// TestHeadlineCutoff: with cutoffs [1, 3, 5, 20] the headline cutoff is 5
// (report.HeadlineCutoff), and every figure that the contracts write "@10" uses @5.
func TestHeadlineCutoff(t *testing.T) {
	r := figtest.FixtureAt([]int{1, 3, 5, 20})
	if r.Settings.HeadlineCutoff != 5 {
		t.Fatalf("fixture headline cutoff %d", r.Settings.HeadlineCutoff)
	}
	text := func(s *Spec) string {
		var b strings.Builder
		b.WriteString(s.Title + "\n" + s.Subtitle + "\n" + s.Alt + "\n")
		for _, p := range s.Panels {
			b.WriteString(p.X.Label + "\n" + p.Y.Label + "\n")
			for _, e := range p.Elements {
				switch e := e.(type) {
				case *Bars:
					b.WriteString(e.Name + "\n")
				case *Points:
					b.WriteString(e.Name + "\n")
				}
			}
		}
		for _, l := range s.Legend {
			b.WriteString(l.Text + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		id   string
		want []string
	}{
		{"criteria_ranking_sys_a", []string{"Recall@5 and nDCG@5 by criterion", "Recall@5\n", "nDCG@5\n"}},
		{"systems", []string{"nDCG@5 (positive queries)"}},
		{"difficulty_sys_a", []string{"Recall@5 against difficulty", "Spearman ρ = -0.608"}},
	} {
		s := specByID(t, r, tc.id)
		txt := text(s)
		for _, w := range tc.want {
			if !strings.Contains(txt, w) {
				t.Errorf("%s: no %q in\n%s", tc.id, w, txt)
			}
		}
		if strings.Contains(txt, "@10") {
			t.Errorf("%s still says @10:\n%s", tc.id, txt)
		}
	}
	rb := elements[*Bars](specByID(t, r, "criteria_ranking_sys_a"))
	if len(rb) != 2 || len(rb[0].Bars) != 2 || len(rb[1].Bars) != 2 {
		t.Errorf("ranking bars at @5: %d series", len(rb))
	}
	pts := elements[*Points](specByID(t, r, "systems"))
	if len(pts) != 2 || len(pts[0].Points) != 4 {
		t.Errorf("systems chart: nDCG@5 of %d systems, want 4 (2 pipelines, 2 baselines)", len(pts[0].Points))
	}
	if len(Missing(r)) != 0 {
		t.Errorf("figures missing at cutoffs [1 3 5 20]: %v", Missing(r))
	}
}

// TestROCBand: the band is the Report's band on its grid, and at every
// grid point it contains the Report's curve on the grid.
func TestROCBand(t *testing.T) {
	const tol = 1e-12
	r := figtest.Fixture()
	for i, id := range []string{"roc_sys_a", "roc_sys_b"} {
		c := &r.Curves.ROC[i]
		bands := elements[*Band](specByID(t, r, id))
		if len(bands) != 1 || len(bands[0].Runs) != 1 {
			t.Fatalf("%s: %d bands", id, len(bands))
		}
		run := bands[0].Runs[0]
		if len(run.X) != len(c.Grid) {
			t.Fatalf("%s: band over %d points, grid %d", id, len(run.X), len(c.Grid))
		}
		for k := range c.Grid {
			if run.X[k] != float64(c.Grid[k]) || run.Lo[k] != float64(c.BandLow[k]) || run.Hi[k] != float64(c.BandHigh[k]) {
				t.Errorf("%s: grid point %d: band (%g, [%g, %g])", id, k, run.X[k], run.Lo[k], run.Hi[k])
			}
			if g := float64(c.GridTPR[k]); !(run.Lo[k]-tol <= g && g <= run.Hi[k]+tol) {
				t.Errorf("%s: grid TPR %g outside the band", id, g)
			}
		}
		folds := 0
		for _, l := range elements[*Line](specByID(t, r, id)) {
			if l.Style.Role == Fold {
				folds++
			}
		}
		if folds != len(c.Folds) {
			t.Errorf("%s: %d fold lines, want %d", id, folds, len(c.Folds))
		}
	}
}

// TestBandSkipsUndefined: an undefined bound splits the band into two runs.
func TestBandSkipsUndefined(t *testing.T) {
	b := elements[*Band](specByID(t, figtest.Fixture(), "pr_sys_b"))
	if len(b) != 1 || len(b[0].Runs) != 2 {
		t.Fatalf("want one band of 2 runs (the undefined grid point splits it)")
	}
}

// TestOperatingPoints: the marked points are the Report's held-out FPR and
// TPR (ne.heldout_fpr@fpr=X, ne.heldout_tpr@fpr=X), tagged with the budget.
func TestOperatingPoints(t *testing.T) {
	const tol = 1e-12
	r := figtest.Fixture()
	for _, sys := range []string{"sys-a", "sys_b"} {
		var pts []*Points
		for _, p := range elements[*Points](specByID(t, r, "roc_"+sanitize(sys))) {
			if p.Style.Role == Operating {
				pts = append(pts, p)
			}
		}
		if len(pts) != 2 {
			t.Fatalf("%s: %d operating points", sys, len(pts))
		}
		for _, p := range pts {
			pt := p.Points[0]
			fpr, _, _ := value(r, sys, metrics.ID("ne.heldout_fpr@fpr="+pt.Tag), report.Whole)
			tpr, _, _ := value(r, sys, metrics.ID("ne.heldout_tpr@fpr="+pt.Tag), report.Whole)
			if math.Abs(pt.X-fpr) > tol || math.Abs(pt.Y-tpr) > tol {
				t.Errorf("%s budget %s: marked (%g, %g), held out (%g, %g)", sys, pt.Tag, pt.X, pt.Y, fpr, tpr)
			}
		}
	}
}

// TestTooltips: the tooltips a reader needs are in the specs: the threshold
// of each ROC point, count and observed frequency of each reliability bin,
// the exact K of each histogram bar.
func TestTooltips(t *testing.T) {
	r := figtest.Fixture()
	all := func(id string) string {
		s := specByID(t, r, id)
		var b strings.Builder
		for _, p := range s.Panels {
			for _, e := range p.Elements {
				switch e := e.(type) {
				case *Line:
					for _, ts := range e.Tips {
						for _, tp := range ts {
							b.WriteString(e.Name + ": " + tp.Text() + "\n")
						}
					}
				case *Points:
					for _, p := range e.Points {
						b.WriteString(e.Name + ": " + p.Tip.Text() + "\n")
					}
				case *Counts:
					for _, c := range e.Bins {
						b.WriteString(e.Name + ": " + c.Tip.Text() + "\n")
					}
				case *Histogram:
					for _, tp := range e.Tips {
						b.WriteString(e.Name + ": " + tp.Text() + "\n")
					}
				case *Scatter:
					for _, p := range e.Points {
						b.WriteString(e.Name + ": " + p.Tip.Text() + "\n")
					}
				}
			}
		}
		return b.String()
	}
	for _, tc := range []struct {
		id   string
		want string
	}{
		{"roc_sys_a", "Full sample: threshold 0.7, FPR 0.100, TPR 0.700"},
		{"roc_sys_a", "Full sample: threshold +inf, FPR 0.000, TPR 0.000"},
		{"roc_sys_a", "FPR budget 0.05: held-out FPR 0.075, held-out TPR 0.400"},
		{"reliability_sys_a", "Bins: bin [0.2, 0.4), queries 10, observed frequency 0.200"},
		{"dynk_hist_sys_a", "All queries (n = 40): K 3, queries 12"},
		{"gamma_sweep_sys_a", "Sweep point: gamma 0.8, mean K 2.60"},
		{"difficulty_sys_a", "difficulty 4.000, Recall@10 0.500, queries 2"},
	} {
		if s := all(tc.id); !strings.Contains(s, tc.want) {
			t.Errorf("%s: no tooltip %q", tc.id, tc.want)
		}
	}
	if s := specByID(t, r, "difficulty_sys_a"); !strings.Contains(s.Subtitle, "Spearman ρ = -0.608, p = 0.062") {
		t.Errorf("difficulty subtitle %q", s.Subtitle)
	}
}

// TestHistogramSums: the bar heights of each Dynamic-K figure sum to the
// population of its groups (all eval queries; positives for has-evidence),
// and the reliability counts to all eval queries.
func TestHistogramSums(t *testing.T) {
	r := figtest.Fixture()
	for _, tc := range []struct {
		id    string
		total int
		per   []int
	}{
		{"dynk_hist_sys_a", figtest.Eval, nil},
		{"dynk_hist_state_sys_a", figtest.Eval, nil},
		{"dynk_hist_evidence_sys_a", figtest.Eval, []int{figtest.Eval - figtest.Positives, figtest.Positives}},
		{"dynk_hist_evidence_sys_b", figtest.Eval, []int{figtest.Eval - figtest.Positives, figtest.Positives}},
	} {
		tot := 0
		for gi, h := range elements[*Histogram](specByID(t, r, tc.id)) {
			s := 0
			for _, c := range h.Count {
				s += c
			}
			tot += s
			if tc.per != nil && s != tc.per[gi] {
				t.Errorf("%s group %d: %d, want %d", tc.id, gi, s, tc.per[gi])
			}
		}
		if tot != tc.total {
			t.Errorf("%s: bars sum to %d, want %d", tc.id, tot, tc.total)
		}
	}
	n := 0
	for _, c := range elements[*Counts](specByID(t, r, "reliability_sys_a")) {
		for _, b := range c.Bins {
			n += b.Count
		}
	}
	if n != figtest.Eval {
		t.Errorf("reliability counts sum to %d, want %d", n, figtest.Eval)
	}
}

// TestUndefinedLeftOut: the empty reliability bin and the undefined
// criterion values are left out and tagged, never drawn as 0.
func TestUndefinedLeftOut(t *testing.T) {
	r := figtest.Fixture()
	rel := specByID(t, r, "reliability_sys_a")
	if d := elements[*Points](rel); len(d) != 1 || len(d[0].Points) != 4 {
		t.Errorf("reliability points: want 4 (one bin is empty)")
	}
	s := specByID(t, r, "criteria_auroc_sys_b")
	for _, b := range elements[*Bars](s)[0].Bars {
		if b.Cat == 2 {
			t.Errorf("criterion A.3 of sys_b (AUROC undefined) has a bar %g", b.Value)
		}
	}
	na := elements[*Text](s)
	if len(na) != 1 || len(na[0].At) != 1 || na[0].At[0].X != 2 || na[0].Texts[0] != "n/a" {
		t.Errorf("criterion A.3 of sys_b is not tagged n/a: %+v", na)
	}
	if len(s.Notes) == 0 {
		t.Error("no note that a value was left out")
	}
	sys := specByID(t, r, "systems")
	// A baseline has no AUROC (the metric does not apply to it): its row
	// of the AUROC panel is blank, not "n/a" (that is for an undefined value).
	if na := elements[*Text](sys); len(na) != 2 || len(na[1].Texts) != 0 {
		t.Errorf("systems: the baselines' AUROC, which does not apply, is tagged: %+v", na)
	}
}

// TestDifficultyData checks the difficulty scatter against the fixture's
// per-query rows: only positive queries, identical pairs merged with
// their count, the difficulty-0 query counted but not drawn, and rho and p
// from the Report's metrics (absent for the second system: "n/a").
func TestDifficultyData(t *testing.T) {
	const tol = 1e-12
	r := figtest.Fixture()
	c := &cat{r: r, k: headlineK(r), dec: 3}
	for _, tc := range []struct {
		system string
		rho, p float64
		text   string
	}{
		{"sys-a", figtest.Rho, figtest.P, "Spearman ρ = -0.608\np = 0.062"},
		{"sys_b", math.NaN(), math.NaN(), "Spearman ρ = n/a"},
	} {
		d, why := c.difficultyData(tc.system)
		if why != "" || d.K != 10 || d.Metric != "rank.recall@10" {
			t.Fatalf("%s: %q, cutoff %d (%s)", tc.system, why, d.K, d.Metric)
		}
		want := map[[2]float64]int{}
		pos, zero := 0, 0
		for _, q := range r.PerQuery {
			if q.System != tc.system || q.NGold == 0 {
				continue
			}
			pos++
			if q.Difficulty == 0 {
				zero++
				continue
			}
			want[[2]float64{float64(q.Difficulty), float64(q.Value(0))}]++
		}
		sum := 0
		for i, pt := range d.Points {
			if i > 0 && !(d.Points[i-1].X < pt.X || d.Points[i-1].X == pt.X && d.Points[i-1].Y < pt.Y) {
				t.Errorf("%s: points not sorted and distinct at %d", tc.system, i)
			}
			if n := want[[2]float64{pt.X, pt.Y}]; n != pt.N {
				t.Errorf("%s: (%g, %g) stands for %d queries, rows have %d", tc.system, pt.X, pt.Y, pt.N, n)
			}
			sum += pt.N
		}
		if sum != pos-zero || d.Drawn != sum || d.Zero != 1 || d.Undef != 0 || want[[2]float64{4, 0.5}] != 2 {
			t.Errorf("%s: drawn %d, zero %d, undefined %d", tc.system, d.Drawn, d.Zero, d.Undef)
		}
		same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= tol }
		if !same(d.Rho, tc.rho) || !same(d.P, tc.p) {
			t.Errorf("%s: rho %g, p %g", tc.system, d.Rho, d.P)
		}
		s := specByID(t, r, "difficulty_"+sanitize(tc.system))
		var leg []string
		for _, l := range s.Legend {
			leg = append(leg, l.Text)
		}
		for _, w := range []string{tc.text, "(n = 10)", "1 query at difficulty 0"} {
			if !strings.Contains(strings.Join(leg, "|"), w) {
				t.Errorf("%s: no %q in the legend %q", s.ID, w, leg)
			}
		}
	}
}

// TestMissing: figures without data are listed with a reason, and the
// catalogue and Missing together cover the plan.
func TestMissing(t *testing.T) {
	r := figtest.Fixture()
	r.Curves.ROC = r.Curves.ROC[:1]
	r.PerQueryColumns = []metrics.ID{"rank.mrr", "dynk.evidence_recall_all"}
	r.Capabilities = report.Capabilities{Absent: []report.AbsentCapability{{ID: report.Calibration, Reason: "the inputs have no ne_prob column"}}}
	r.Curves.Reliability = nil
	miss := map[string]string{}
	for _, m := range Missing(r) {
		miss[m.ID.String()] = m.Reason
		if m.Title == "" || m.Reason == "" {
			t.Errorf("%s: title %q, reason %q", m.ID, m.Title, m.Reason)
		}
	}
	for id, want := range map[string]string{
		"roc_sys_b":         "no ROC curve",
		"roc_overlay":       "a single system",
		"reliability_sys_a": "no ne_prob column",
		"difficulty_sys_a":  "no rank.recall@10",
	} {
		if !strings.Contains(miss[id], want) {
			t.Errorf("%s: reason %q, want %q", id, miss[id], want)
		}
	}
	for _, s := range Catalogue(r) {
		if _, ok := miss[s.ID.String()]; ok {
			t.Errorf("%s both drawn and missing", s.ID)
		}
	}
	if n := len(Catalogue(r)) + len(Missing(r)); n != len(wantFixture) {
		t.Errorf("%d figures planned, want %d", n, len(wantFixture))
	}
}

// TestEmptyReport: a Report without data has no figure, and fails nothing.
func TestEmptyReport(t *testing.T) {
	r := &report.Report{}
	if s := Catalogue(r); len(s) != 0 {
		t.Errorf("%d specs for an empty report", len(s))
	}
	if m := Missing(r); len(m) != 3 { // the overlays and the systems chart
		t.Errorf("missing %v", m)
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"full", "full"},
		{"Full Pipeline", "full_pipeline"},
		{"sys-a", "sys_a"},
		{"baseline:random", "baseline_random"},
		{"../../etc/passwd", "etc_passwd"},
		{"Système β", "syst_me"},
		{"", "x"},
		{"___", "x"},
		{"a  b", "a_b"},
	} {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	n := newNamer()
	for _, tc := range []struct{ in, want string }{{"a", "a"}, {"a", "a_2"}, {"a", "a_3"}, {"a_2", "a_2_2"}} {
		if got := n.unique(tc.in); got != tc.want {
			t.Errorf("unique(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Two systems that reduce to the same key get _2.
	r := &report.Report{Systems: []report.SystemInfo{{Name: "sys-a"}, {Name: "sys_a"}}}
	if k := systemKeys(r); k["sys-a"] != "sys_a" || k["sys_a"] != "sys_a_2" {
		t.Errorf("keys %v", k)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"full", "sys-a", "baseline:random", "Système β", "", "../x"} {
		f.Add(s)
	}
	valid := regexp.MustCompile(`^[a-z0-9_]+$`)
	f.Fuzz(func(t *testing.T, s string) {
		got := sanitize(s)
		if !valid.MatchString(got) || !(FigureID{Kind: KindROC, System: got}).Valid() {
			t.Fatalf("sanitize(%q) = %q", s, got)
		}
		if sanitize(got) != got {
			t.Fatalf("sanitize is not idempotent on %q", got)
		}
	})
}

func TestFormatting(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{0.062127603424563645, "= 0.062"}, {0.001, "= 0.001"}, {0.00088, "= 8.8e-04"},
		{3.2e-45, "= 3.2e-45"}, {0, "< 1e-300"}, {math.NaN(), "n/a"},
	} {
		if got := fmtP(tc.p); got != tc.want {
			t.Errorf("fmtP(%g) = %q, want %q", tc.p, got, tc.want)
		}
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {1379, "1,379"}, {1234567, "1,234,567"}, {-4321, "-4,321"}} {
		if got := groupInt(tc.n); got != tc.want {
			t.Errorf("groupInt(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	// One marker of opacity 1 − (1 − a)^n composes like n markers of a:
	// on white, n layers of alpha 0.2 leave 0.8^n of the background.
	const tol = 1e-12
	for _, n := range []int{1, 2, 5, 40} {
		if got, want := StackAlpha(0.2, n), 1-math.Pow(0.8, float64(n)); math.Abs(got-want) > tol {
			t.Errorf("StackAlpha(0.2, %d) = %g, want %g", n, got, want)
		}
	}
}

// TestIDsWhateverTheNames: system names that spell the tail of a kind
// ("overlay" after roc_, "state_x" after dynk_hist_ beside "x" after
// dynk_hist_state_) still give every figure of the plan, drawn or
// missing, its own id and its own file stem.
func TestIDsWhateverTheNames(t *testing.T) {
	names := []string{"overlay", "state_x", "x", "evidence", "state", "s_overlay", "Overlay", "evidence_2", "screen_sensitivity_x",
		"workload", "alert_precision", "sys a", "2"}
	r := &report.Report{}
	for _, n := range names {
		r.Systems = append(r.Systems, report.SystemInfo{Name: n, Label: n, Kind: report.Pipeline})
	}
	seen := map[string]bool{}
	n := 0
	for _, e := range plan(r) {
		n++
		if !e.id.Valid() {
			t.Errorf("%+v is not a valid id", e.id)
		}
		if s := e.id.String(); seen[s] {
			t.Errorf("two figures are called %q", s)
		} else {
			seen[s] = true
		}
	}
	if want := 3 + 17*len(names); n != want {
		t.Errorf("%d figures in the plan, want %d", n, want)
	}
	keys := systemKeys(r)
	for _, c := range []struct{ name, key string }{{"overlay", "s_overlay"}, {"state_x", "s_state_x"}, {"x", "x"}, {"evidence", "s_evidence"},
		{"s_overlay", "s_overlay_2"}, {"Overlay", "s_overlay_3"}, {"sys a", "sys_a"}} {
		if keys[c.name] != c.key {
			t.Errorf("key of %q = %q, want %q", c.name, keys[c.name], c.key)
		}
	}
	if want := []string{"overlay", "pair", "state", "evidence"}; !slices.Equal(kindTails, want) {
		t.Errorf("kind tails %q, want %q", kindTails, want)
	}
}

// TestDemo lists the figures of the demo Report: every figure of the
// catalogue (docs/figures.md) that the demo has data for.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("computes the demo report")
	}
	r := figtest.Demo(t)
	specs := Catalogue(r)
	kinds := map[Kind]int{}
	for _, s := range specs {
		kinds[s.Kind]++
		if p := walkNaN(reflect.ValueOf(s), s.ID.String()); p != "" {
			t.Errorf("NaN at %s", p)
		}
	}
	for _, k := range []Kind{KindROC, KindROCOverlay, KindPR, KindPROverlay, KindReliability, KindCriteriaAUROC, KindCriteriaRanking,
		KindDynKHist, KindDynKHistState, KindDynKHistEvid, KindRecallAtK, KindPrecisionAtK, KindDifficulty, KindGammaSweep,
		KindGateGridSensitivity, KindGateGridAlertPrecision, KindGateGridWorkload, KindPerQueryHeatmap, KindSystems} {
		if kinds[k] == 0 {
			t.Errorf("the demo has no %s figure", k)
		}
	}
	for _, m := range Missing(r) {
		t.Logf("missing %s: %s", m.ID, m.Reason)
	}
	t.Logf("%d figures", len(specs))
}

func ExampleCatalogue() {
	r := &report.Report{
		Systems: []report.SystemInfo{{Name: "Full pipeline", Label: "Full pipeline", Kind: report.Pipeline}},
		Curves: report.Curves{DynKHist: []report.Histogram{
			{System: "Full pipeline", Group: "all", K: []int{0, 1, 2}, Count: []int{5, 3, 2}},
		}},
	}
	for _, s := range Catalogue(r) {
		fmt.Println(s.ID, "|", s.Title)
	}
	fmt.Println(len(Missing(r)), "figures missing")
	// Output:
	// dynk_hist_full_pipeline | Selected K: Full pipeline (n = 10)
	// 19 figures missing
}

// TestGateGridSaysWhereChosen: the rings of a gate grid are thresholds
// chosen on each fold's tune rows, or cross-fitted on the other folds'
// eval rows when a fold has none; the legend and subtitle say which.
func TestGateGridSaysWhereChosen(t *testing.T) {
	for _, tc := range []struct {
		cross, tune bool
		want        string
	}{
		{false, true, "on tune rows"},
		{true, false, "cross-fitted on the other folds"},
		{true, true, "on tune rows or cross-fitted"},
	} {
		r := figtest.Fixture()
		r.Dataset.Folds = make([]report.FoldSummary, 2)
		for i := range r.Dataset.Folds {
			f := &r.Dataset.Folds[i]
			f.CrossFitted = tc.cross && (i == 0 || !tc.tune)
			if !f.CrossFitted {
				f.TuneRows = 10
			}
		}
		s := specByID(t, r, "gate_grid_screen_sensitivity_sys_a")
		var legend []string
		for _, e := range s.Legend {
			legend = append(legend, e.Text)
		}
		got := strings.Join(legend, "|") + "|" + s.Subtitle
		if !strings.Contains(got, tc.want) || (!tc.tune && strings.Contains(got, "tune rows")) {
			t.Errorf("cross-fitted %v, tune rows %v: legend and subtitle %q, want %q", tc.cross, tc.tune, got, tc.want)
		}
	}
}
