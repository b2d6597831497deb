package figures

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"paperbundle/report"
)

// TestDifficultyData checks what the difficulty figure draws against the
// fixture's per-query rows: only positive queries, each drawn query at
// its (difficulty, recall@10), identical pairs merged with their count,
// the difficulty-0 query counted but not drawn, and rho and p taken from
// the Report's metrics (absent for the second system: NaN, "n/a").
func TestDifficultyData(t *testing.T) {
	const tol = 1e-12
	r := fixture()
	for _, tc := range []struct {
		system  string
		rho, p  float64
		rhoText string
	}{
		{"sys-a", fixtureRho, fixtureP, "Spearman rho = -0.608"},
		{"sys_b", math.NaN(), math.NaN(), "Spearman rho = n/a"},
	} {
		f := figureByName(t, r, "difficulty_"+sanitize(tc.system))
		d := f.parts["data"].(diffData)
		if d.K != 10 || d.Metric != "rank.recall@10" {
			t.Errorf("%s: cutoff %d (%s), want 10 (rank.recall@10)", tc.system, d.K, d.Metric)
		}
		// The queries the figure should show, from the rows.
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
			want[[2]float64{float64(q.Difficulty), float64(q.Values[0])}]++
		}
		if pos != fixturePositives || zero != 1 {
			t.Fatalf("%s: fixture has %d positives, %d of difficulty 0", tc.system, pos, zero)
		}
		sum := 0
		for i, pt := range d.Points {
			if math.IsNaN(pt.X) || math.IsNaN(pt.Y) || pt.X <= 0 {
				t.Errorf("%s: point %v drawn", tc.system, pt)
			}
			if i > 0 && !(d.Points[i-1].X < pt.X || d.Points[i-1].X == pt.X && d.Points[i-1].Y < pt.Y) {
				t.Errorf("%s: points not sorted and distinct at %d", tc.system, i)
			}
			if n := want[[2]float64{pt.X, pt.Y}]; n != pt.N {
				t.Errorf("%s: point (%g, %g) stands for %d queries, rows have %d", tc.system, pt.X, pt.Y, pt.N, n)
			}
			sum += pt.N
		}
		if sum != pos-zero || d.Drawn != sum || d.Zero != zero || d.Undef != 0 {
			t.Errorf("%s: drawn %d (sum %d), zero %d, undefined %d; want %d drawn, %d zero", tc.system, d.Drawn, sum, d.Zero, d.Undef, pos-zero, zero)
		}
		if n := want[[2]float64{4, 0.5}]; n != 2 {
			t.Errorf("%s: the fixture's duplicate pair (4, 0.5) has %d queries", tc.system, n)
		}
		same := func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= tol }
		if !same(d.Rho, tc.rho) || !same(d.P, tc.p) {
			t.Errorf("%s: rho %g, p %g; report has %g, %g", tc.system, d.Rho, d.P, tc.rho, tc.p)
		}
		if !math.IsNaN(tc.rho) && d.RhoN != d.Drawn+d.Zero {
			t.Errorf("%s: rho over %d queries, figure counts %d positive queries", tc.system, d.RhoN, d.Drawn+d.Zero)
		}
		svg := renderFixture(t)[Dir+f.name+".svg"]
		for _, s := range []string{tc.rhoText, "(n = 10)", "1 query at difficulty 0"} {
			if !bytes.Contains(svg, []byte(s)) {
				t.Errorf("%s.svg: no %q in the legend", f.name, s)
			}
		}
		if !math.IsNaN(tc.p) && !bytes.Contains(svg, []byte("p = 0.062")) {
			t.Errorf("%s.svg: no p-value in the legend", f.name)
		}
	}
}

// TestDifficultyAbsent: no figure without per-query difficulty or recall
// column, and queries with undefined difficulty are counted, not drawn.
func TestDifficultyAbsent(t *testing.T) {
	r := fixture()
	r.PerQueryColumns = []string{"rank.mrr", "dynk.evidence_recall_all"}
	for _, n := range Names(r) {
		if strings.HasPrefix(n, "difficulty_") {
			t.Errorf("figure %s without a recall column", n)
		}
	}
	r = fixture()
	for i := range r.PerQuery {
		if r.PerQuery[i].System == "sys-a" && r.PerQuery[i].NGold > 0 && r.PerQuery[i].Difficulty > 4.5 {
			r.PerQuery[i].Difficulty = report.NaN
		}
	}
	d, ok := difficultyData(r, newIndex(r), "sys-a")
	if !ok {
		t.Fatal("no data")
	}
	if d.Undef != 2 || d.Drawn != 7 { // difficulties 5 and 8 undefined
		t.Errorf("undefined %d, drawn %d; want 2 and 7", d.Undef, d.Drawn)
	}
}

func TestHeadlineRecall(t *testing.T) {
	for _, tc := range []struct {
		cols []string
		col  int
		k    int
	}{
		{[]string{"rank.recall@1", "rank.recall@5", "rank.recall@10", "rank.recall@20"}, 2, 10},
		{[]string{"rank.recall@20", "rank.recall@3", "rank.recall@5"}, 2, 5},
		{[]string{"rank.recall@50", "rank.recall@20"}, 1, 20},
		{[]string{"rank.mrr", "rank.ndcg@10", "rank.recall@x"}, -1, -1},
		{nil, -1, -1},
	} {
		col, k, ok := headlineRecall(&report.Report{PerQueryColumns: tc.cols})
		if col != tc.col || k != tc.k || ok != (tc.col >= 0) {
			t.Errorf("%v: column %d, K %d, ok %v; want %d, %d", tc.cols, col, k, ok, tc.col, tc.k)
		}
	}
}

func TestLogTicks(t *testing.T) {
	const tol = 1e-12
	labels := func(ts []plot.Tick) string {
		var out []string
		for _, t := range ts {
			if t.Label != "" {
				out = append(out, t.Label)
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		lo, hi float64
		want   string
		n      int // ticks, labelled or not
	}{
		{0.8, 48, "1 2 5 10 20", 15},     // 0.8, 0.9, 1..9, 10..40: less than two decades
		{0.5, 2000, "1 10 100 1000", 34}, // 0.5..0.9, 1..9, 10..90, 100..900, 1000, 2000
		{0.01, 0.05, "0.01 0.02 0.05", 5},
	} {
		ts := logTicks{}.Ticks(math.Log10(tc.lo), math.Log10(tc.hi))
		if got := labels(ts); got != tc.want || len(ts) != tc.n {
			t.Errorf("[%g, %g]: labels %q (%d ticks), want %q (%d)", tc.lo, tc.hi, got, len(ts), tc.want, tc.n)
		}
		for _, tk := range ts {
			if tk.Label == "" {
				continue
			}
			v, _ := strconv.ParseFloat(strings.ReplaceAll(tk.Label, ",", ""), 64)
			if math.Abs(math.Log10(v)-tk.Value) > tol {
				t.Errorf("tick %q at %g, want log10 %g", tk.Label, tk.Value, math.Log10(v))
			}
		}
	}
}

func TestFormatting(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{0.062127603424563645, "= 0.062"},
		{0.001, "= 0.001"},
		{0.00088, "= 8.8e-04"},
		{3.2e-45, "= 3.2e-45"},
		{0, "< 1e-300"},
		{math.NaN(), "n/a"},
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
		if got, want := stackAlpha(0.2, n), 1-math.Pow(0.8, float64(n)); math.Abs(got-want) > tol {
			t.Errorf("stackAlpha(0.2, %d) = %g, want %g", n, got, want)
		}
	}
}
