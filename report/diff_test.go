package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	hostile_ "paperbundle/internal/hostile"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"paperbundle/internal/golden"
	"paperbundle/metrics"
)

// diffMetric is a metric with a CI [lo, hi]; NaN bounds mean no CI.
func diffMetric(system string, id metrics.ID, slice Slice, v, lo, hi float64) Metric {
	m := Metric{System: system, ID: id, Slice: slice, N: 100, Value: Num(v), FoldMean: NaN, FoldStd: NaN}
	if !math.IsNaN(lo) {
		m.CI = &CI{Low: Num(lo), High: Num(hi), Method: "percentile", Unit: "post", Resamples: 1000}
	}
	return m
}

// diffBase is a small report: two systems, metrics interleaved between
// them (as Compute emits per-criterion macro rows last).
func diffBase() *Report {
	r := &Report{
		SchemaVersion: SchemaVersion, Version: "v1",
		Dataset: DatasetSummary{EvalQueries: 100, Posts: 20, Rows: 200, Criteria: []string{"A.1", "A.2"}},
		Systems: []SystemInfo{
			{Name: "full", Label: "Full pipeline", Kind: Pipeline, Primary: true},
			{Name: "baseline:random", Label: "Random ranking", Kind: Baseline},
		},
		Settings: Settings{HeadlineCutoff: 10, Cutoffs: []int{1, 5, 10}, Seed: 7,
			Bootstrap:   BootstrapSettings{Resamples: 1000, Unit: "post", Method: "percentile", Confidence: 0.95},
			Conventions: Conventions{MAPDenominator: "gold", FoldStd: "sample"}},
		Metrics: []Metric{
			diffMetric("full", "ne.auroc", Whole, 0.85, 0.80, 0.90),
			diffMetric("full", "rank.ndcg@10", Whole, 0.70, 0.65, 0.75),
			diffMetric("full", "rank.ndcg@10", "criterion=A.1", 0.60, 0.50, 0.70),
			diffMetric("full", "rank.mrr", Whole, 0.50, nan, nan),
			diffMetric("full", "rank.recall@10", Whole, 0.40, 0.35, 0.45),
			diffMetric("baseline:random", "rank.ndcg@10", Whole, 0.30, 0.28, 0.32),
			diffMetric("full", "rank.ndcg@10", "criterion=macro", 0.65, nan, nan),
		},
	}
	r.Reindex()
	return r
}

// cloneReport copies the parts of a report that a test changes.
func cloneReport(r *Report) *Report {
	c := *r
	c.Metrics = slices.Clone(r.Metrics)
	for i, m := range c.Metrics {
		if m.CI != nil {
			ci := *m.CI
			c.Metrics[i].CI = &ci
		}
	}
	c.Systems = slices.Clone(r.Systems)
	c.Dataset.Criteria = slices.Clone(r.Dataset.Criteria)
	c.Settings.Cutoffs = slices.Clone(r.Settings.Cutoffs)
	c.Reindex()
	return &c
}

// set changes the value and CI of (system, id, slice) in r.
func set(r *Report, system string, id metrics.ID, slice Slice, v, lo, hi float64) {
	for i, m := range r.Metrics {
		if m.System == system && m.ID == id && m.Slice == slice {
			r.Metrics[i] = diffMetric(system, id, slice, v, lo, hi)
			return
		}
	}
	panic("no metric " + string(id))
}

type rowKey struct {
	system string
	id     metrics.ID
	slice  Slice
}

func rowsOf(d *Diff) map[rowKey]DiffRow {
	out := map[rowKey]DiffRow{}
	for _, r := range d.Rows {
		out[rowKey{r.System, r.ID, r.Slice}] = r
	}
	return out
}

// shifted returns per-query values a and b = a + shift (+ a symmetric
// wiggle), n queries.
func shifted(n int, shift, wiggle float64) (a, b []float64) {
	for i := range n {
		x := float64(i%10) / 10
		w := wiggle
		if i%2 == 1 {
			w = -wiggle
		}
		a = append(a, x)
		b = append(b, x+shift+w)
	}
	return a, b
}

func TestDiffReports(t *testing.T) {
	const tol = 1e-12
	type want struct {
		sig   Sig
		basis SigBasis
		p     float64 // checked when not 0
	}
	ndcg := rowKey{"full", "rank.ndcg@10", Whole}
	auroc := rowKey{"full", "ne.auroc", Whole}
	mrr := rowKey{"full", "rank.mrr", Whole}
	crit := rowKey{"full", "rank.ndcg@10", "criterion=A.1"}
	cases := []struct {
		name        string
		change      func(b *Report)
		opt         DiffOptions
		rows        map[rowKey]want
		significant int
		onlyA       []string // "system id slice"
		onlyB       []string
		settings    []string
		config      []string
		dataset     []string
		ptol        float64 // tolerance of p (0: tol)
	}{
		{
			name:   "identical",
			change: func(*Report) {},
			rows: map[rowKey]want{ndcg: {SigUnchanged, BasisNone, 0}, auroc: {SigUnchanged, BasisNone, 0},
				mrr: {SigUnchanged, BasisNone, 0}, crit: {SigUnchanged, BasisNone, 0}},
		},
		{
			// [0.65, 0.75] and [0.76, 0.84] do not overlap.
			name:        "disjoint CIs",
			change:      func(b *Report) { set(b, "full", "rank.ndcg@10", Whole, 0.80, 0.76, 0.84) },
			rows:        map[rowKey]want{ndcg: {SigYes, BasisCIOverlap, 0}, auroc: {SigUnchanged, BasisNone, 0}},
			significant: 1,
		},
		{
			// [0.65, 0.75] and [0.68, 0.76] overlap; [0.50, 0.70] and
			// [0.70, 0.80] touch at 0.70, which counts as overlap.
			name: "overlapping CIs",
			change: func(b *Report) {
				set(b, "full", "rank.ndcg@10", Whole, 0.72, 0.68, 0.76)
				set(b, "full", "rank.ndcg@10", "criterion=A.1", 0.75, 0.70, 0.80)
			},
			rows: map[rowKey]want{ndcg: {SigNo, BasisCIOverlap, 0}, crit: {SigNo, BasisCIOverlap, 0}},
		},
		{
			name: "no CI and undefined",
			change: func(b *Report) {
				set(b, "full", "rank.mrr", Whole, 0.55, nan, nan)
				set(b, "full", "ne.auroc", Whole, nan, nan, nan)
			},
			rows: map[rowKey]want{mrr: {SigUnknown, BasisNone, 0}, auroc: {SigUnknown, BasisNone, 0}},
		},
		{
			// Every per-query difference is +0.05 ± 0.01 > 0: only the
			// all-plus and all-minus sign vectors reach T_obs
			// (probability 2^-59 per permutation), so p = 1 / 10001. The CIs
			// overlap: the paired test decides, not the intervals.
			name: "paired shift",
			change: func(b *Report) {
				set(b, "full", "rank.ndcg@10", Whole, 0.75, 0.70, 0.80)
				set(b, "full", "rank.ndcg@10", "criterion=A.1", 0.61, 0.51, 0.71)
			},
			opt: DiffOptions{Paired: func(system string, id metrics.ID, slice Slice) (PairedValues, bool) {
				switch {
				case id == "rank.ndcg@10" && slice == Whole:
					a, b := shifted(60, 0.05, 0.01)
					return PairedValues{A: a, B: b}, true
				case id == "rank.ndcg@10" && slice == "criterion=A.1":
					// Differences ±0.01 alternate: the mean difference
					// is 0, T_obs = 0, every permutation ties: p = 1.
					a, b := shifted(20, 0, 0.01)
					return PairedValues{A: a, B: b}, true
				case id == "rank.mrr":
					a, b := shifted(60, 0, 0)
					return PairedValues{A: a, B: b}, true
				}
				return PairedValues{}, false
			}},
			rows: map[rowKey]want{ndcg: {SigYes, BasisPermutation, 1.0 / 10001}, crit: {SigNo, BasisPermutation, 1},
				mrr: {SigUnchanged, BasisNone, 0}, auroc: {SigUnchanged, BasisNone, 0}},
			significant: 1,
		},
		{
			// Posts as groups: 4 posts of 15 queries, all differences
			// positive: of the 16 sign vectors only all-plus and
			// all-minus reach T_obs, so p ≈ 2/16 = 0.125 > 0.05.
			name:   "paired shift, few posts",
			change: func(b *Report) { set(b, "full", "rank.ndcg@10", Whole, 0.75, 0.70, 0.80) },
			opt: DiffOptions{Paired: func(system string, id metrics.ID, slice Slice) (PairedValues, bool) {
				a, b := shifted(60, 0.05, 0.01)
				g := make([]int32, 60)
				for i := range g {
					g[i] = int32(i / 15)
				}
				return PairedValues{A: a, B: b, Group: g}, true
			}},
			rows: map[rowKey]want{ndcg: {SigNo, BasisPermutation, 0.125}},
			ptol: 0.02,
		},
		{
			// B's scores separate cases from controls perfectly, A's
			// are noise: DeLong's paired test is significant, and it
			// is used even though the CIs overlap.
			name:   "paired DeLong",
			change: func(b *Report) { set(b, "full", "ne.auroc", Whole, 0.88, 0.82, 0.94) },
			opt: DiffOptions{PairedAUROC: func(system string, slice Slice) (PairedScores, bool) {
				var s PairedScores
				for i := range 40 {
					y := i%2 == 0
					s.Y = append(s.Y, y)
					s.A = append(s.A, float64((i*7)%40)/40)
					if y {
						s.B = append(s.B, 0.6+float64(i)/200)
					} else {
						s.B = append(s.B, 0.4-float64(i)/200)
					}
				}
				s.A[3] = nan // left out
				return s, true
			}},
			rows:        map[rowKey]want{auroc: {SigYes, BasisDeLong, 0}},
			significant: 1,
		},
		{
			name: "only in one bundle",
			change: func(b *Report) {
				b.Metrics = slices.DeleteFunc(b.Metrics, func(m Metric) bool { return m.ID == "rank.recall@10" })
				b.Metrics = append(b.Metrics, diffMetric("full", "rank.map@10", Whole, 0.55, 0.5, 0.6))
				b.Reindex()
			},
			onlyA: []string{"full rank.recall@10 "},
			onlyB: []string{"full rank.map@10 "},
		},
		{
			name: "settings, config and dataset",
			change: func(b *Report) {
				b.Settings.Seed = 8
				b.Settings.Cutoffs = []int{1, 3, 5, 10}
				b.Dataset.EvalQueries = 101
				b.Dataset.Criteria = []string{"A.1", "B.1"}
			},
			opt: DiffOptions{
				ConfigA: []byte("seed: 7\nbootstrap:\n  resamples: 1000\nsystems:\n  - name: full\n    file: full.csv\nold: x\n"),
				ConfigB: []byte("seed: 8\nbootstrap:\n  resamples: 1000\n  unit: query\nsystems:\n  - name: full\n    file: full_v2.csv\n"),
			},
			settings: []string{"cutoffs: [1, 5, 10] -> [1, 3, 5, 10]", "seed: 7 -> 8"},
			config:   []string{"bootstrap.unit: added", "old: removed", "seed: 7 -> 8", "systems[0].file: full.csv -> full_v2.csv"},
			dataset:  []string{"eval queries: 100 -> 101", "criterion A.2: removed", "criterion B.1: added"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := diffBase()
			b := cloneReport(a)
			b.Version = "v2"
			tc.change(b)
			b.Reindex()
			d, err := DiffReports(a, b, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := rowsOf(d)
			for k, w := range tc.rows {
				r, ok := got[k]
				if !ok {
					t.Errorf("%v: no row", k)
					continue
				}
				if r.Sig != w.sig || r.Basis != w.basis {
					t.Errorf("%v: sig %s basis %s, want %s %s (p %v)", k, r.Sig, r.Basis, w.sig, w.basis, r.P)
				}
				if w.p != 0 && math.Abs(float64(r.P)-w.p) > max(tol, tc.ptol) {
					t.Errorf("%v: p = %v, want %v", k, r.P, w.p)
				}
				if r.Sig == SigUnchanged && r.Delta.Valid() && r.Delta != 0 {
					t.Errorf("%v: unchanged with delta %v", k, r.Delta)
				}
			}
			if n := d.Significant(); n != tc.significant {
				t.Errorf("Significant() = %d, want %d", n, tc.significant)
			}
			only := func(o []DiffOnly) []string {
				var s []string
				for _, r := range o {
					s = append(s, r.System+" "+string(r.ID)+" "+string(r.Slice))
				}
				return s
			}
			check := func(what string, got, want []string) {
				if len(got) == 0 && len(want) == 0 {
					return
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("OnlyA", only(d.OnlyA), tc.onlyA)
			check("OnlyB", only(d.OnlyB), tc.onlyB)
			check("Settings", d.Settings, tc.settings)
			check("Config", d.Config, tc.config)
			check("Dataset", d.Dataset, tc.dataset)
			if tc.name == "identical" && !d.Empty() {
				t.Errorf("identical reports: Empty() = false")
			}
		})
	}
}

// TestDiffOrder: rows follow B's systems, then the first appearance of
// each metric id and slice in B.Metrics.
func TestDiffOrder(t *testing.T) {
	a := diffBase()
	b := cloneReport(a)
	slices.Reverse(b.Systems)
	b.Reindex()
	d, err := DiffReports(a, b, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range d.Rows {
		got = append(got, r.System+" "+string(r.ID)+" "+string(r.Slice))
	}
	want := []string{
		"baseline:random rank.ndcg@10 ",
		"full ne.auroc ",
		"full rank.ndcg@10 ",
		"full rank.ndcg@10 criterion=A.1",
		"full rank.ndcg@10 criterion=macro",
		"full rank.mrr ",
		"full rank.recall@10 ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("order:\n got %q\nwant %q", got, want)
	}
}

// TestDiffIdenticalBundle decodes the hand fixture's metrics_master.json
// twice: every row is unchanged and the text says so.
func TestDiffIdenticalBundle(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "hand.golden"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := DiffReports(a, b, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != len(a.Metrics) || d.Changed() != 0 || d.Significant() != 0 || !d.Empty() {
		t.Fatalf("rows %d of %d, changed %d, significant %d, empty %t", len(d.Rows), len(a.Metrics), d.Changed(), d.Significant(), d.Empty())
	}
	var buf bytes.Buffer
	if err := d.Write(&buf, DiffText, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "no metric changed") || strings.Contains(buf.String(), "delta") {
		t.Errorf("text of identical bundles:\n%s", buf.String())
	}
	buf.Reset()
	if err := d.Write(&buf, DiffText, true); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "  ~"); n != len(a.Metrics) {
		t.Errorf("-all shows %d ~ rows, want %d", n, len(a.Metrics))
	}
}

func TestDiffErrors(t *testing.T) {
	a := diffBase()
	b := cloneReport(a)
	set(b, "full", "rank.mrr", Whole, 0.6, nan, nan)
	b.Reindex()
	if _, err := DiffReports(a, b, DiffOptions{ConfigA: []byte("a: [1"), ConfigB: []byte("a: 1")}); err == nil {
		t.Error("bad YAML: no error")
	}
	bad := func(string, metrics.ID, Slice) (PairedValues, bool) {
		return PairedValues{A: []float64{1, 2}, B: []float64{1}}, true
	}
	if _, err := DiffReports(a, b, DiffOptions{Paired: bad}); err == nil {
		t.Error("paired lengths differ: no error")
	}
	d, err := DiffReports(a, b, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Write(&bytes.Buffer{}, "xml", false); err == nil {
		t.Error("format xml: no error")
	}
}

// goldenDiff is one diff with every kind of row and section.
func goldenDiff(t *testing.T) *Diff {
	t.Helper()
	a := diffBase()
	b := cloneReport(a)
	b.Version = "v2"
	set(b, "full", "rank.ndcg@10", Whole, 0.80, 0.76, 0.84)                    // disjoint
	set(b, "full", "rank.ndcg@10", "criterion=A.1", 0.62, 0.52, 0.72)          // overlap
	set(b, "full", "rank.mrr", Whole, 0.52, nan, nan)                          // no CI
	set(b, "full", "ne.auroc", Whole, nan, nan, nan)                           // undefined in B
	set(b, "full", "rank.ndcg@10", "criterion=macro", 0.65000000001, nan, nan) // tiny
	b.Metrics = slices.DeleteFunc(b.Metrics, func(m Metric) bool { return m.ID == "rank.recall@10" })
	b.Metrics = append(b.Metrics, diffMetric("full", "rank.map@10", Whole, 0.55, 0.5, 0.6))
	b.Settings.Seed = 8
	b.Reindex()
	d, err := DiffReports(a, b, DiffOptions{
		ConfigA: []byte("seed: 7\nbootstrap:\n  resamples: 1000\n"),
		ConfigB: []byte("seed: 8\nbootstrap:\n  resamples: 2000\n"),
		InputsA: map[string]string{"full.csv": "aa", "gold.csv": "bb"},
		InputsB: map[string]string{"full.csv": "cc", "gold.csv": "bb"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiffGolden(t *testing.T) {
	d := goldenDiff(t)
	for _, format := range []string{DiffText, DiffMD} {
		var buf bytes.Buffer
		if err := d.Write(&buf, format, false); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "diff_"+format+".golden"), buf.Bytes())
	}
}

func TestDiffJSONAndCSV(t *testing.T) {
	d := goldenDiff(t)
	var buf bytes.Buffer
	if err := d.Write(&buf, DiffJSON, false); err != nil {
		t.Fatal(err)
	}
	var j struct {
		VersionA        string           `json:"version_a"`
		Rows            []map[string]any `json:"rows"`
		OnlyB           []map[string]any `json:"only_in_b"`
		Settings        []string         `json:"settings_changed"`
		HiddenUnchanged int              `json:"hidden_unchanged"`
	}
	if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if j.VersionA != "v1" || j.HiddenUnchanged != 1 || len(j.Rows) != 5 || len(j.OnlyB) != 1 || len(j.Settings) != 1 {
		t.Errorf("json: %+v", j)
	}
	for _, r := range j.Rows {
		if r["id"] == "ne.auroc" && (r["b"] != nil || r["delta"] != nil || r["sig"] != "unknown") {
			t.Errorf("undefined value: %v", r)
		}
	}

	buf.Reset()
	if err := d.Write(&buf, DiffCSV, true); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// header + 6 rows in both + 1 only in A + 1 only in B
	if len(recs) != 9 || recs[0][0] != "in" || recs[7][0] != "a" || recs[8][0] != "b" || recs[8][7] != "0.55" {
		t.Errorf("csv:\n%q", recs)
	}
}

// hostileStrings returns the lines of testdata/hostile.txt ("# " lines
// are comments, \t is a tab).
func hostileStrings(t *testing.T) []string {
	return hostile_.Strings(t)
}

// hostileDiff uses every hostile string as a system name, a metric id, a
// slice, a label, a criterion and a config key.
func hostileDiff(t *testing.T, hostile []string) *Diff {
	t.Helper()
	a := &Report{SchemaVersion: SchemaVersion, Version: "v1"}
	var cfgA, cfgB strings.Builder
	for i, h := range hostile {
		a.Systems = append(a.Systems, SystemInfo{Name: h, Label: h, Kind: Pipeline})
		a.Metrics = append(a.Metrics, diffMetric(h, metrics.ID(h), Slice(h), 0.5, 0.4, 0.6))
		a.Dataset.Criteria = append(a.Dataset.Criteria, h)
		q, _ := json.Marshal(h) // a JSON string is a YAML string
		cfgA.WriteString(string(q) + ": 1\n")
		cfgB.WriteString(string(q) + ": 2\n")
		_ = i
	}
	a.Reindex()
	b := cloneReport(a)
	b.Version = "v2"
	for i := range b.Metrics {
		b.Metrics[i].Value = 0.9
		b.Metrics[i].CI = &CI{Low: 0.85, High: 0.95}
	}
	for i := range b.Systems {
		b.Systems[i].Label += "!"
	}
	b.Metrics = append(b.Metrics, diffMetric(hostile[0], "new", Slice(hostile[1]), 0.1, nan, nan))
	b.Dataset.Criteria = nil
	b.Reindex()
	d, err := DiffReports(a, b, DiffOptions{ConfigA: []byte(cfgA.String()), ConfigB: []byte(cfgB.String())})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != len(hostile) || d.Significant() != len(hostile) || len(d.OnlyB) != 1 || len(d.Config) != len(hostile) {
		t.Fatalf("rows %d, significant %d, only B %d, config %d", len(d.Rows), d.Significant(), len(d.OnlyB), len(d.Config))
	}
	return d
}

// TestDiffHostileMD: every table line has the right number of cells, and
// once escaped characters are removed no markup character is left.
func TestDiffHostileMD(t *testing.T) {
	d := hostileDiff(t, hostileStrings(t))
	var buf bytes.Buffer
	if err := d.Write(&buf, DiffMD, true); err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var bare strings.Builder // line without backslash-escaped characters
		for i := 0; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			bare.WriteByte(line[i])
		}
		s := bare.String()
		switch {
		case strings.HasPrefix(line, "| system"):
			cells = strings.Count(s, "|")
		case strings.HasPrefix(line, "|"):
			if n := strings.Count(s, "|"); n != cells {
				t.Errorf("%d pipes, want %d: %s", n, cells, line)
			}
		case line == "", strings.HasPrefix(line, "# "), strings.HasPrefix(line, "## "):
		case strings.HasPrefix(line, "- "):
			s = s[2:]
		}
		if strings.ContainsAny(s, "<`*_~&$") || strings.Contains(s, "](") {
			t.Errorf("live markup in: %s", line)
		}
		if s != "" && strings.ContainsAny(s[:1], "#>+-=") && !strings.HasPrefix(line, "#") {
			t.Errorf("line starts a block: %s", line)
		}
		if strings.ContainsAny(line, "\t\r\u202e") {
			t.Errorf("raw control character in: %q", line)
		}
	}
}

// TestDiffHostileCSV: no text cell can start a formula.
func TestDiffHostileCSV(t *testing.T) {
	hostile := hostileStrings(t)
	d := hostileDiff(t, hostile)
	var buf bytes.Buffer
	if err := d.Write(&buf, DiffCSV, true); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(hostile)+2 {
		t.Fatalf("%d records, want %d", len(recs), len(hostile)+2)
	}
	text := []int{0, 1, 2, 3, 11, 12} // in, system, id, slice, sig, basis
	for _, rec := range recs {
		for _, j := range text {
			if c := rec[j]; c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				t.Errorf("cell %q can start a formula", c)
			}
		}
	}
	if recs[1][1] != hostile[0] || recs[3][1] != "'"+hostile[2] {
		t.Errorf("system cells: %q, %q", recs[1][1], recs[3][1])
	}
}

// TestDiffHostileHTML: the fragment parses to the expected elements only,
// with no event attribute, and shows each hostile string as text.
func TestDiffHostileHTML(t *testing.T) {
	hostile := hostileStrings(t)
	d := hostileDiff(t, hostile)
	var buf bytes.Buffer
	if err := d.Write(&buf, DiffHTML, true); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"html": true, "head": true, "body": true, "div": true, "p": true, "h3": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "ul": true, "li": true}
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowed[n.Data] {
				t.Errorf("element <%s>", n.Data)
			}
			for _, at := range n.Attr {
				if at.Key != "class" && at.Key != "scope" {
					t.Errorf("<%s %s=%q>", n.Data, at.Key, at.Val)
				}
			}
		case html.TextNode:
			text.WriteString(n.Data + "\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, h := range hostile {
		if !strings.Contains(text.String(), visible(h)) {
			t.Errorf("text of the fragment lacks %q", visible(h))
		}
	}
}

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"café γ ≤ ± naïve", "café γ ≤ ± naïve"},
		{"tab\there", `tab\there`},
		{"a\u202eb", `a\u202eb`},
		{"x\ny", `x\ny`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"ok \ufffd", "ok \ufffd"},
		{"zw\u200bj", `zw\u200bj`},
	} {
		if got := visible(c.in); got != c.want {
			t.Errorf("visible(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestMDEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"criterion=A.1", "criterion=A.1"},
		{"a|b", `a\|b`},
		{"<b>", `\<b>`},
		{"`x`", "\\`x\\`"},
		{"# h", `\# h`},
		{"-2+3", `\-2+3`},
		{"12. x", `12\. x`},
		{"[l](u)", `\[l\](u)`},
		{"$x^2$", `\$x^2\$`},
		{`a\b`, `a\\b`},
	} {
		if got := mdEscape(c.in); got != c.want {
			t.Errorf("mdEscape(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// The text of a diff cell, by hand: four decimals, counts as integers,
// values too small for four decimals with two significant digits, no
// "-0.0000".
func TestDiffCellText(t *testing.T) {
	ci := &CI{Low: 0.84006, High: 0.86194}
	for _, tc := range []struct {
		got, want string
	}{
		{valueText("ne.auroc", 0.85123, ci), "0.8512 [0.8401, 0.8619]"},
		{valueText("ne.auroc", 0.85123, nil), "0.8512"},
		{valueText("ne.tp@tau=0.5", 141, nil), "141"},
		{valueText("ne.spiegelhalter_p", 2.4e-48, nil), "2.4e-48"},
		{valueText("ne.auroc", NaN, nil), "n/a"},
		{valueText("ne.brier", -0.00004, nil), "-4.0e-05"},
		{deltaText("ne.tp@tau=0.5", -26), "-26"},
		{deltaText("ne.tp@tau=0.5", 128), "+128"},
		{deltaText("ne.auroc", 0.02114), "+0.0211"},
		{deltaText("ne.auroc", -0.00001), "-1.0e-05"},
		{deltaText("ne.auroc", 0), "+0.0000"},
		{fixed4(-0.00004999 - 1e-12), "-5.0e-05"},
		{fixed4(-0.00006), "-0.0001"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
