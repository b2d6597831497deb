// Package compare compares two bundles' reports: Diff reads two
// *report.Report (their metrics, per-query rows, settings and dataset
// summary) and returns one Changes model, which `paperbundle diff` (text,
// Markdown, CSV, JSON, HTML), CHANGES.md and the report's "Changes since
// vN" section all render. How each change is decided is written in
// docs/bundle.md ("What changed between two bundles").
package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/report/paired"
)

// Verdict says what became of one metric between two bundles.
type Verdict string

const (
	// Unchanged: the values are equal, or both undefined; shown as "~" and
	// hidden unless all rows are asked for.
	Unchanged Verdict = "unchanged"
	// Significant: the row's test found the change significant (p < alpha,
	// or disjoint intervals when the queries differ).
	Significant Verdict = "yes"
	// NotSignificant: the row's test did not.
	NotSignificant Verdict = "no"
	// Untested: there is nothing to test on (Row.Reason says why).
	Untested Verdict = "untested"
	// Listed: the metric is itself a test statistic or p-value (such as
	// rank.spearman_difficulty_p@1): both values are listed, never
	// subtracted nor tested.
	Listed Verdict = "listed"
)

// Symbol is the short form of the text, Markdown and HTML tables.
func (v Verdict) Symbol() string {
	switch v {
	case Unchanged:
		return "~"
	case Untested:
		return "?"
	case Listed:
		return "listed"
	}
	return string(v)
}

// Test is what decided a row.
type Test string

const (
	// TestNone: nothing was tested (unchanged, listed or untested rows).
	TestNone Test = ""
	// TestPermutation: the two-sided paired sign-flip permutation test on
	// the per-query values (stats.PermutationTest), for metrics that are
	// a mean of per-query values.
	TestPermutation Test = "permutation"
	// TestDeLong: the paired DeLong test of two correlated ROC curves
	// (stats.DeLongPaired), for ne.auroc.
	TestDeLong Test = "delong"
	// TestBootstrap: the paired bootstrap of the difference B - A over the
	// shared queries (posts resampled whole), two-sided p from its
	// distribution, for the other metrics.
	TestBootstrap Test = "bootstrap"
	// TestCIOverlap: used only when the bundles do not hold the same eval
	// queries: significant when the two intervals are disjoint.
	TestCIOverlap Test = "ci_overlap"
)

// Side names one bundle: the folder it was read from (as given) and its
// version.
type Side struct {
	Folder  string `json:"folder"`
	Version string `json:"version"`
}

// Name is "folder (version)", or the version alone when the folder is the
// version's own name or unknown.
func (s Side) Name() string {
	if s.Folder == "" || s.Folder == s.Version {
		return s.Version
	}
	return s.Folder + " (" + s.Version + ")"
}

// Row is one (system, metric id, slice) present in both bundles.
type Row struct {
	Label    string       `json:"label"` // the metric's human name, e.g. "Recall@10"
	ID       metrics.ID   `json:"id"`
	System   string       `json:"system"`
	Slice    report.Slice `json:"slice"`
	Headline bool         `json:"headline"` // a headline metric (registry flag) on the whole population
	A        report.Num   `json:"a"`
	B        report.Num   `json:"b"`
	CIA      *report.CI   `json:"ci_a"`
	CIB      *report.CI   `json:"ci_b"`
	// Delta is B - A; null when either is undefined and for listed rows.
	Delta   report.Num `json:"delta"`
	Verdict Verdict    `json:"verdict"`
	Test    Test       `json:"test"`
	// P is the two-sided p-value of the paired test; null otherwise.
	P     report.Num `json:"p"`
	Pairs int        `json:"pairs,omitempty"` // queries the paired test used
	// Reason says why an untested row was not tested.
	Reason string `json:"reason,omitempty"`
}

// Only is a (system, metric id, slice) present in one bundle only.
type Only struct {
	Label  string       `json:"label"`
	ID     metrics.ID   `json:"id"`
	System string       `json:"system"`
	Slice  report.Slice `json:"slice"`
	Value  report.Num   `json:"value"`
	CI     *report.CI   `json:"ci"`
}

// Setting is one changed configuration key: "added" and "removed" keys
// have an empty A or B and the Kind says so.
type Setting struct {
	Key  string `json:"key"`
	Kind string `json:"kind"` // changed, added, removed, "not recorded in A" or "not recorded in B"
	A    string `json:"a,omitempty"`
	B    string `json:"b,omitempty"`
}

// Mode is how the rows were decided.
type Mode string

const (
	// ModePaired: both bundles hold the same eval queries and their
	// per-query rows; each metric gets the paired test of its kind.
	ModePaired Mode = "paired"
	// ModeCIOverlap: they do not (Changes.Why says what differs); rows are
	// decided by CI overlap.
	ModeCIOverlap Mode = "ci_overlap"
)

// Changes is the comparison of bundle A (older) with bundle B (newer),
// computed once by Diff and read by every writer.
type Changes struct {
	A    Side `json:"a"`
	B    Side `json:"b"`
	Mode Mode `json:"mode"`
	// Why says why the mode is ModeCIOverlap ("" in paired mode).
	Why   string  `json:"why,omitempty"`
	Alpha float64 `json:"alpha"`
	// Permutations of the permutation tests, Resamples of the paired
	// bootstraps, Seed of both (B's seed, the same for every row, as in
	// the report's comparisons).
	Permutations int    `json:"permutations"`
	Resamples    int    `json:"resamples"`
	Seed         uint64 `json:"seed"`

	// Claims are the changes that change a sentence of a paper (a target
	// met or not, a comparison's verdict, the best system on a headline
	// metric); every writer lists them first.
	Claims   []Claim   `json:"claims"`
	Rows     []Row     `json:"rows"` // headline rows first, then the rest
	OnlyA    []Only    `json:"only_in_a"`
	OnlyB    []Only    `json:"only_in_b"`
	Dataset  []string  `json:"dataset_changed"`
	Settings []Setting `json:"settings_changed"` // settings and config.yaml keys, each once
	Inputs   []string  `json:"inputs_changed"`

	// Labels maps each system name to its display label (b's, else a's).
	Labels map[string]string `json:"-"`
	// words are bundle B's words for its kind of input (report.Vocabulary):
	// every sentence, column head and metric name of the writers is in
	// them (a TREC diff speaks of runs and relevant documents, a
	// classifier's of classifiers and cases); system labels, ids, slices,
	// config keys and file names stay as they are.
	words report.Vocabulary
	// auroc: either bundle has an AUROC, so DeLong's test is one of the
	// tests the basis line names.
	auroc bool
}

// Options configure Diff. The zero value takes the defaults of
// DefaultOptions.
type Options struct {
	// A and B name the bundles (their versions are taken from the reports
	// when empty).
	A, B Side
	// Permutations of the permutation test (0: paired.DefaultPermutations).
	Permutations int
	// Resamples of the paired bootstrap (0: bundle B's bootstrap.resamples,
	// the report's own, or paired.DefaultResamples when it has none).
	Resamples int
	// Alpha is the two-sided level (0: 0.05): significant when p < Alpha.
	Alpha float64
	// ConfigA and ConfigB, when both are non-nil, are the config.yaml
	// bytes of the bundles; their keys not already compared as typed
	// settings are compared.
	ConfigA, ConfigB []byte
	// InputsA and InputsB, when both are non-nil, map each input path to
	// its sha256 (manifest.json).
	InputsA, InputsB map[string]string
	// Workers of the paired bootstraps (0: GOMAXPROCS); the results do
	// not depend on it.
	Workers int
}

// DefaultOptions returns the defaults: the permutations of report/paired,
// alpha 0.05 (the resamples are bundle B's).
func DefaultOptions() Options {
	return Options{Permutations: paired.DefaultPermutations, Alpha: 0.05}
}

// Diff compares report a (the older bundle) with report b (the newer
// one). Every (system, metric id, slice) present in both is a Row; see
// decide for how each is decided. The error reports unreadable config
// bytes.
func Diff(a, b *report.Report, opt Options) (*Changes, error) {
	def := DefaultOptions()
	if opt.Permutations <= 0 {
		opt.Permutations = def.Permutations
	}
	if opt.Resamples <= 0 {
		opt.Resamples = b.Settings.Bootstrap.Resamples
	}
	if opt.Resamples <= 0 {
		opt.Resamples = paired.DefaultResamples
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		opt.Alpha = def.Alpha
	}
	c := &Changes{A: opt.A, B: opt.B, Alpha: opt.Alpha, Permutations: opt.Permutations, Resamples: opt.Resamples,
		Seed: b.Settings.Seed, Rows: []Row{}, OnlyA: []Only{}, OnlyB: []Only{}}
	if c.A.Version == "" {
		c.A.Version = a.Version
	}
	if c.B.Version == "" {
		c.B.Version = b.Version
	}
	c.words = b.Vocabulary()
	c.auroc = hasAUROC(a) || hasAUROC(b)
	pa, pb := newPerQuery(a), newPerQuery(b)
	c.Mode, c.Why = ModePaired, sameQueries(pa, pb)
	if c.Why != "" {
		c.Mode = ModeCIOverlap
	}
	t := tester{c: c, a: pa, b: pb, opt: paired.Options{Permutations: c.Permutations, Resamples: c.Resamples, Seed: c.Seed, Workers: opt.Workers, Memo: paired.NewMemo()}}
	c.Labels = map[string]string{}
	for _, r := range []*report.Report{a, b} {
		for _, s := range r.Systems {
			c.Labels[s.Name] = r.Label(s.Name)
		}
	}
	c.metricRows(a, b, &t)
	c.Claims = c.claims(a, b)
	c.Dataset = datasetChanges(a, b, c.words)
	var err error
	if c.Settings, err = settingChanges(a, b, opt.ConfigA, opt.ConfigB); err != nil {
		return nil, err
	}
	c.Inputs = inputChanges(opt.InputsA, opt.InputsB)
	return c, nil
}

// Significant returns the number of rows whose change is significant.
func (c *Changes) Significant() int {
	return c.count(func(r Row) bool { return r.Verdict == Significant })
}

// Changed returns the number of rows that are not unchanged.
func (c *Changes) Changed() int {
	return c.count(func(r Row) bool { return r.Verdict != Unchanged })
}

func (c *Changes) count(f func(Row) bool) int {
	n := 0
	for _, r := range c.Rows {
		if f(r) {
			n++
		}
	}
	return n
}

// Empty reports whether nothing differs: no changed row, no row of one
// bundle only, and no dataset, settings or input change.
func (c *Changes) Empty() bool {
	changed := 0
	for _, s := range c.Settings {
		if !strings.HasPrefix(s.Kind, "not recorded") {
			changed++
		}
	}
	return c.Changed() == 0 && len(c.Claims) == 0 && len(c.OnlyA) == 0 && len(c.OnlyB) == 0 &&
		len(c.Dataset) == 0 && changed == 0 && len(c.Inputs) == 0
}

// metricRows fills Rows (headline rows first, by system and registry
// order; then the rest in b's order: system, then metric id and slice as
// they first appear in b.Metrics), OnlyA and OnlyB.
func (c *Changes) metricRows(a, b *report.Report, t *tester) {
	var head, rest []Row
	for _, mb := range orderMetrics(b) {
		ma, ok := a.Metric(mb.System, mb.ID, mb.Slice)
		if !ok {
			c.OnlyB = append(c.OnlyB, c.only(mb))
			continue
		}
		row := Row{Label: c.metricLabel(mb.ID), ID: mb.ID, System: mb.System, Slice: mb.Slice, Headline: b.IsHeadline(mb.ID, mb.Slice),
			A: ma.Value, B: mb.Value, CIA: ma.CI, CIB: mb.CI, Delta: report.NaN, P: report.NaN}
		t.decide(&row)
		row.Reason = c.words.Say(row.Reason)
		if row.Headline {
			head = append(head, row)
		} else {
			rest = append(rest, row)
		}
	}
	sortHeadline(head, b)
	c.Rows = append(append(c.Rows, head...), rest...)
	for _, ma := range orderMetrics(a) {
		if _, ok := b.Metric(ma.System, ma.ID, ma.Slice); !ok {
			c.OnlyA = append(c.OnlyA, c.only(ma))
		}
	}
}

// sortHeadline orders headline rows by system (in b's order) and then by
// metric in the order of b's headline set, the order of the results
// matrix; a metric outside it comes last.
func sortHeadline(rows []Row, b *report.Report) {
	sysRank := map[string]int{}
	for i, s := range b.Systems {
		if _, ok := sysRank[s.Name]; !ok {
			sysRank[s.Name] = i
		}
	}
	order := b.HeadlineIDs()
	rank := func(r Row) int {
		if i := slices.Index(order, r.ID); i >= 0 {
			return i
		}
		return math.MaxInt
	}
	slices.SortStableFunc(rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(sysRank[x.System], sysRank[y.System]), cmp.Compare(rank(x), rank(y)))
	})
}

func (c *Changes) only(m report.Metric) Only {
	return Only{Label: c.metricLabel(m.ID), ID: m.ID, System: m.System, Slice: m.Slice, Value: m.Value, CI: m.CI}
}

// Label is the human name of a metric id with its parameter written in
// ("Recall@10" for rank.recall@10); the id itself when the registry does
// not know it (metrics.Title).
func Label(id metrics.ID) string { return metrics.Title(id) }

// metricLabel is Label in the words of bundle B's kind of input ("Alerts
// per 1,000 cases" for a classifier).
func (c *Changes) metricLabel(id metrics.ID) string { return c.words.Say(Label(id)) }

// orderMetrics returns r's metrics ordered by system in r.Systems order
// (systems missing from it last, by name), then by the first appearance
// of the metric id in r.Metrics, then of the slice; ties keep r.Metrics
// order.
func orderMetrics(r *report.Report) []report.Metric {
	sysRank := map[string]int{}
	for i, s := range r.Systems {
		if _, ok := sysRank[s.Name]; !ok {
			sysRank[s.Name] = i
		}
	}
	idRank := map[metrics.ID]int{}
	sliceRank := map[report.Slice]int{}
	for i, m := range r.Metrics {
		if _, ok := idRank[m.ID]; !ok {
			idRank[m.ID] = i
		}
		if _, ok := sliceRank[m.Slice]; !ok {
			sliceRank[m.Slice] = i
		}
	}
	out := slices.Clone(r.Metrics)
	slices.SortStableFunc(out, func(x, y report.Metric) int {
		rx, okx := sysRank[x.System]
		ry, oky := sysRank[y.System]
		switch {
		case okx && !oky:
			return -1
		case !okx && oky:
			return 1
		case !okx && !oky:
			if c := strings.Compare(x.System, y.System); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(rx, ry), cmp.Compare(idRank[x.ID], idRank[y.ID]), cmp.Compare(sliceRank[x.Slice], sliceRank[y.Slice]))
	})
	return out
}

// wordCount writes "1 row" or "n rows" with an adjective.
func wordCount(n int, adj string) string {
	if n == 1 {
		return "1 " + adj + " row"
	}
	return fmt.Sprintf("%d %s rows", n, adj)
}

// hasAUROC reports whether r holds an AUROC (a TREC run has none).
func hasAUROC(r *report.Report) bool {
	for _, m := range r.Metrics {
		if m.ID == metrics.NEAUROC.ID() {
			return true
		}
	}
	return false
}
