package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"paperbundle/metrics"
	"paperbundle/stats"
)

// This file compares two reports (SPEC 8: `paperbundle diff`, and the
// "Changes since vN" of build): DiffReports computes a read-only *Diff,
// and Diff.Write renders it as text, Markdown, CSV, JSON or HTML.

// Sig says whether the change of one metric between two bundles is
// statistically significant.
type Sig string

const (
	// SigUnchanged: the values are equal (delta exactly 0) or both
	// undefined; shown as "~" and hidden unless all rows are asked for.
	SigUnchanged Sig = "unchanged"
	// SigYes: the change is significant on the row's basis.
	SigYes Sig = "yes"
	// SigNo: the change is not significant on the row's basis.
	SigNo Sig = "no"
	// SigUnknown: there is nothing to decide on (no per-query values, no
	// intervals, or a value undefined on one side).
	SigUnknown Sig = "unknown"
)

// Symbol is the short form shown in the text, Markdown and HTML tables.
func (s Sig) Symbol() string {
	switch s {
	case SigUnchanged:
		return "~"
	case SigUnknown:
		return "?"
	}
	return string(s)
}

// SigBasis is what a row's significance was decided on.
type SigBasis string

const (
	// BasisPermutation: two-sided paired sign-flip permutation test on the
	// per-query values (stats.PermutationTest).
	BasisPermutation SigBasis = "permutation"
	// BasisDeLong: paired DeLong test of two correlated ROC curves
	// (stats.DeLongPaired), for ne.auroc.
	BasisDeLong SigBasis = "delong"
	// BasisCIOverlap: significant when the two confidence intervals do not
	// overlap.
	BasisCIOverlap SigBasis = "ci_overlap"
	// BasisNone: undecided (see SigUnknown), or unchanged.
	BasisNone SigBasis = "none"
)

// DiffRow is one (system, metric id, slice) present in both reports.
type DiffRow struct {
	System string     `json:"system"`
	ID     metrics.ID `json:"id"`
	Slice  Slice      `json:"slice"`
	A      Num        `json:"a"`
	B      Num        `json:"b"`
	CIA    *CI        `json:"ci_a"`
	CIB    *CI        `json:"ci_b"`
	Delta  Num        `json:"delta"` // B - A; null when either is undefined
	Sig    Sig        `json:"sig"`
	Basis  SigBasis   `json:"basis"`
	P      Num        `json:"p"` // two-sided p of the paired test; null on other bases
	Pairs  int        `json:"pairs,omitempty"`
}

// DiffOnly is a (system, metric id, slice) present in one report only.
type DiffOnly struct {
	System string     `json:"system"`
	ID     metrics.ID `json:"id"`
	Slice  Slice      `json:"slice"`
	Value  Num        `json:"value"`
	CI     *CI        `json:"ci"`
}

// Diff is the comparison of report A (older) with report B (newer),
// computed once by DiffReports. Lists of changes are "key: old -> new",
// "key: added" or "key: removed" strings in a deterministic order.
type Diff struct {
	VersionA string `json:"version_a"`
	VersionB string `json:"version_b"`
	// Paired is true when the caller supplied per-query values (the two
	// bundles hold the same eval queries): rows are then decided by paired
	// tests where per-query values exist, by CI overlap elsewhere.
	Paired bool    `json:"paired"`
	Alpha  float64 `json:"alpha"`
	// Permutations and Seed of the paired permutation tests.
	Permutations int    `json:"permutations"`
	Seed         uint64 `json:"seed"`

	Rows     []DiffRow  `json:"rows"`
	OnlyA    []DiffOnly `json:"only_in_a"`
	OnlyB    []DiffOnly `json:"only_in_b"`
	Dataset  []string   `json:"dataset_changed"`
	Settings []string   `json:"settings_changed"`
	Config   []string   `json:"config_changed"`
	Inputs   []string   `json:"inputs_changed"`
}

// PairedValues are the per-query values of one metric of one system in
// both bundles, aligned by query: A[i] and B[i] belong to the same eval
// query. NaN marks a value undefined for that query (the pair is left out).
type PairedValues struct {
	A, B []float64
	// Group, optional, is the post of query i in [0, Groups), so that all
	// queries of a post flip signs together (as the post-level bootstrap
	// resamples them together). Nil: every query is its own group.
	Group  []int32
	Groups int
}

// PairedScores are the eval queries' gold labels (true: the query has
// evidence) and the NE probabilities of one system in both bundles,
// aligned by query, for the paired DeLong test of ne.auroc. Queries where
// either score is NaN are left out.
type PairedScores struct {
	Y    []bool
	A, B []float64
}

// DiffOptions configure DiffReports. The zero value compares on CI
// overlap with the defaults of DefaultDiffOptions.
type DiffOptions struct {
	// Paired, when set, returns the per-query values of (system, id,
	// slice) in both bundles; ok is false when the metric has none (ratio
	// and curve metrics, for instance). Set it only when both bundles hold
	// the same eval queries.
	Paired func(system string, id metrics.ID, slice Slice) (v PairedValues, ok bool)
	// PairedAUROC, when set, returns the labels and scores of system for
	// the DeLong test of ne.auroc on slice; ok is false when there are none.
	PairedAUROC func(system string, slice Slice) (s PairedScores, ok bool)
	// Permutations of the paired permutation test (0: 10,000).
	Permutations int
	// Alpha is the two-sided level (0: 0.05): significant when p < Alpha.
	Alpha float64
	// ConfigA and ConfigB, when both are non-nil, are the config.yaml
	// bytes of the bundles; their flattened keys are compared.
	ConfigA, ConfigB []byte
	// InputsA and InputsB, when both are non-nil, map each input path to
	// its sha256 (manifest.json); added, removed and changed inputs are
	// listed.
	InputsA, InputsB map[string]string
}

// DefaultDiffOptions returns the defaults: 10,000 permutations, alpha 0.05,
// no per-query values.
func DefaultDiffOptions() DiffOptions {
	return DiffOptions{Permutations: 10000, Alpha: 0.05}
}

// DiffReports compares report a (the older bundle) with report b (the
// newer one).
//
// Every (system, metric id, slice) present in both is a row with the
// values, delta = B - A and its significance, decided in this order:
//
//  1. paired per-query data, when opt supplies it: for ne.auroc the paired
//     DeLong test (opt.PairedAUROC), for other metrics the two-sided paired
//     sign-flip permutation test (opt.Paired) with opt.Permutations
//     permutations seeded from b's seed and a hash of the row's key;
//     significant when p < opt.Alpha;
//  2. otherwise CI overlap: significant when both intervals exist and do
//     not overlap;
//  3. otherwise unknown.
//
// A row whose delta is exactly 0, or whose values are both undefined, is
// unchanged (no test is run). Rows are ordered by system in b's order,
// then metric id and slice in the order they first appear in b.Metrics;
// rows of one report only are ordered the same way in their own report.
// The error reports unreadable config bytes or paired data whose lengths
// do not match.
func DiffReports(a, b *Report, opt DiffOptions) (*Diff, error) {
	def := DefaultDiffOptions()
	if opt.Permutations <= 0 {
		opt.Permutations = def.Permutations
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		opt.Alpha = def.Alpha
	}
	d := &Diff{
		VersionA: a.Version, VersionB: b.Version,
		Paired: opt.Paired != nil || opt.PairedAUROC != nil,
		Alpha:  opt.Alpha, Permutations: opt.Permutations, Seed: b.Settings.Seed,
		Rows: []DiffRow{}, OnlyA: []DiffOnly{}, OnlyB: []DiffOnly{},
	}
	if err := d.metricRows(a, b, opt); err != nil {
		return nil, err
	}
	d.Dataset = datasetChanges(a, b)
	var err error
	if d.Settings, err = settingsChanges(a.Settings, b.Settings); err != nil {
		return nil, err
	}
	d.Config = []string{}
	if opt.ConfigA != nil && opt.ConfigB != nil {
		if d.Config, err = configChanges(opt.ConfigA, opt.ConfigB); err != nil {
			return nil, err
		}
	}
	d.Inputs = inputChanges(opt.InputsA, opt.InputsB)
	return d, nil
}

// Significant returns the number of rows whose change is significant.
func (d *Diff) Significant() int {
	n := 0
	for _, r := range d.Rows {
		if r.Sig == SigYes {
			n++
		}
	}
	return n
}

// Changed returns the number of rows that are not unchanged.
func (d *Diff) Changed() int {
	n := 0
	for _, r := range d.Rows {
		if r.Sig != SigUnchanged {
			n++
		}
	}
	return n
}

// Empty reports whether nothing differs: no changed row, no row of one
// report only, and no dataset, settings, config or input change.
func (d *Diff) Empty() bool {
	return d.Changed() == 0 && len(d.OnlyA) == 0 && len(d.OnlyB) == 0 &&
		len(d.Dataset) == 0 && len(d.Settings) == 0 && len(d.Config) == 0 && len(d.Inputs) == 0
}

// metricRows fills Rows, OnlyA and OnlyB.
func (d *Diff) metricRows(a, b *Report, opt DiffOptions) error {
	for _, mb := range orderMetrics(b) {
		ma, ok := a.Metric(mb.System, mb.ID, mb.Slice)
		if !ok {
			d.OnlyB = append(d.OnlyB, DiffOnly{System: mb.System, ID: mb.ID, Slice: mb.Slice, Value: mb.Value, CI: mb.CI})
			continue
		}
		row := DiffRow{System: mb.System, ID: mb.ID, Slice: mb.Slice, A: ma.Value, B: mb.Value,
			CIA: ma.CI, CIB: mb.CI, Delta: NaN, P: NaN}
		if err := d.decide(&row, opt); err != nil {
			return err
		}
		d.Rows = append(d.Rows, row)
	}
	for _, ma := range orderMetrics(a) {
		if _, ok := b.Metric(ma.System, ma.ID, ma.Slice); !ok {
			d.OnlyA = append(d.OnlyA, DiffOnly{System: ma.System, ID: ma.ID, Slice: ma.Slice, Value: ma.Value, CI: ma.CI})
		}
	}
	return nil
}

// decide sets the delta and the significance of one row.
func (d *Diff) decide(row *DiffRow, opt DiffOptions) error {
	row.Basis = BasisNone
	switch {
	case !row.A.Valid() && !row.B.Valid():
		row.Sig = SigUnchanged
		return nil
	case !row.A.Valid() || !row.B.Valid():
		row.Sig = SigUnknown
		return nil
	}
	row.Delta = row.B - row.A
	if row.Delta == 0 {
		row.Sig = SigUnchanged
		return nil
	}
	p, n, basis, err := d.pairedTest(row, opt)
	if err != nil {
		return err
	}
	if basis != BasisNone {
		row.Basis, row.P, row.Pairs = basis, Num(p), n
		row.Sig = SigNo
		if p < opt.Alpha {
			row.Sig = SigYes
		}
		return nil
	}
	if !ciDefined(row.CIA) || !ciDefined(row.CIB) {
		row.Sig = SigUnknown
		return nil
	}
	row.Basis, row.Sig = BasisCIOverlap, SigNo
	if row.CIA.High < row.CIB.Low || row.CIB.High < row.CIA.Low {
		row.Sig = SigYes
	}
	return nil
}

func ciDefined(c *CI) bool { return c != nil && c.Low.Valid() && c.High.Valid() }

// pairedTest runs the paired test of a row when opt supplies its data: it
// returns the p-value, the number of pairs and the basis, or BasisNone
// when there is no data or no defined p-value.
func (d *Diff) pairedTest(row *DiffRow, opt DiffOptions) (float64, int, SigBasis, error) {
	where := fmt.Sprintf("report: diff: %s %s %q", row.System, row.ID, row.Slice)
	if row.ID == "ne.auroc" && opt.PairedAUROC != nil {
		if s, ok := opt.PairedAUROC(row.System, row.Slice); ok {
			if len(s.A) != len(s.Y) || len(s.B) != len(s.Y) {
				return 0, 0, BasisNone, fmt.Errorf("%s: paired scores of %d, %d and %d labels", where, len(s.A), len(s.B), len(s.Y))
			}
			var y []bool
			var pa, pb []float64
			for i := range s.Y {
				if !math.IsNaN(s.A[i]) && !math.IsNaN(s.B[i]) {
					y, pa, pb = append(y, s.Y[i]), append(pa, s.A[i]), append(pb, s.B[i])
				}
			}
			if len(y) > 0 {
				if _, _, _, p := stats.DeLongPaired(y, pa, pb); !math.IsNaN(p) {
					return p, len(y), BasisDeLong, nil
				}
			}
		}
	}
	if opt.Paired == nil {
		return 0, 0, BasisNone, nil
	}
	v, ok := opt.Paired(row.System, row.ID, row.Slice)
	if !ok {
		return 0, 0, BasisNone, nil
	}
	if len(v.A) != len(v.B) {
		return 0, 0, BasisNone, fmt.Errorf("%s: %d per-query values in A, %d in B", where, len(v.A), len(v.B))
	}
	groups := v.Groups
	if v.Group != nil {
		if len(v.Group) != len(v.A) {
			return 0, 0, BasisNone, fmt.Errorf("%s: %d groups for %d per-query values", where, len(v.Group), len(v.A))
		}
		for i, g := range v.Group {
			if g < 0 {
				return 0, 0, BasisNone, fmt.Errorf("%s: group[%d] = %d is negative", where, i, g)
			}
			if groups <= int(g) {
				if v.Groups > 0 {
					return 0, 0, BasisNone, fmt.Errorf("%s: group[%d] = %d outside [0, %d)", where, i, g, v.Groups)
				}
				groups = int(g) + 1
			}
		}
	}
	n := 0
	for i := range v.A {
		if !math.IsNaN(v.A[i]) && !math.IsNaN(v.B[i]) {
			n++
		}
	}
	if n == 0 {
		return 0, 0, BasisNone, nil
	}
	p := stats.PermutationTest(v.A, v.B, v.Group, groups, opt.Permutations, rowSeed(d.Seed, row))
	if math.IsNaN(p) {
		return 0, 0, BasisNone, nil
	}
	return p, n, BasisPermutation, nil
}

// rowSeed is the seed of a row's permutation test: the report's seed
// mixed with the FNV-1a hash of (system, id, slice), so that every row has
// its own stream and a row's p-value does not depend on the other rows.
func rowSeed(seed uint64, row *DiffRow) uint64 {
	h := fnv.New64a()
	h.Write([]byte(row.System))
	h.Write([]byte{0})
	h.Write([]byte(row.ID))
	h.Write([]byte{0})
	h.Write([]byte(row.Slice))
	return seed ^ h.Sum64()
}

// orderMetrics returns r's metrics ordered by system in r.Systems order
// (systems missing from it last, by name), then by the first appearance
// of the metric id in r.Metrics, then of the slice; ties keep r.Metrics
// order.
func orderMetrics(r *Report) []Metric {
	sysRank := map[string]int{}
	for i, s := range r.Systems {
		if _, ok := sysRank[s.Name]; !ok {
			sysRank[s.Name] = i
		}
	}
	idRank := map[metrics.ID]int{}
	sliceRank := map[Slice]int{}
	for i, m := range r.Metrics {
		if _, ok := idRank[m.ID]; !ok {
			idRank[m.ID] = i
		}
		if _, ok := sliceRank[m.Slice]; !ok {
			sliceRank[m.Slice] = i
		}
	}
	out := slices.Clone(r.Metrics)
	slices.SortStableFunc(out, func(x, y Metric) int {
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

// datasetChanges lists the changes of the dataset summary and of the
// systems.
func datasetChanges(a, b *Report) []string {
	out := []string{}
	da, db := a.Dataset, b.Dataset
	for _, c := range []struct {
		key    string
		av, bv int
	}{
		{"eval queries", da.EvalQueries, db.EvalQueries},
		{"posts", da.Posts, db.Posts},
		{"positive queries", da.PositiveQueries, db.PositiveQueries},
		{"rows", da.Rows, db.Rows},
		{"tune rows", da.TuneRows, db.TuneRows},
		{"train rows ignored", da.TrainRowsIgnored, db.TrainRowsIgnored},
		{"folds", len(da.Folds), len(db.Folds)},
		{"gold missing from candidates", da.GoldMissing, db.GoldMissing},
	} {
		if c.av != c.bv {
			out = append(out, fmt.Sprintf("%s: %d -> %d", c.key, c.av, c.bv))
		}
	}
	added, removed := setChanges(da.Criteria, db.Criteria)
	for _, c := range removed {
		out = append(out, "criterion "+c+": removed")
	}
	for _, c := range added {
		out = append(out, "criterion "+c+": added")
	}
	added, removed = setChanges(a.SystemNames(), b.SystemNames())
	for _, s := range removed {
		out = append(out, "system "+s+": removed")
	}
	for _, s := range added {
		out = append(out, "system "+s+": added")
	}
	for _, sb := range b.Systems {
		sa, ok := a.System(sb.Name)
		if !ok {
			continue
		}
		if sa.Label != sb.Label {
			out = append(out, fmt.Sprintf("system %s: label %s -> %s", sb.Name, leafText(sa.Label), leafText(sb.Label)))
		}
		if sa.Primary != sb.Primary {
			out = append(out, fmt.Sprintf("system %s: primary %t -> %t", sb.Name, sa.Primary, sb.Primary))
		}
	}
	return out
}

// setChanges returns the members of b missing from a (added, in b's order)
// and of a missing from b (removed, in a's order).
func setChanges(a, b []string) (added, removed []string) {
	for _, x := range b {
		if !slices.Contains(a, x) {
			added = append(added, x)
		}
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			removed = append(removed, x)
		}
	}
	return added, removed
}

// settingsChanges compares the settings field by field through their JSON
// form (keys as in metrics_master.json, such as bootstrap.resamples).
func settingsChanges(a, b Settings) ([]string, error) {
	flat := func(s Settings) (map[string]string, error) {
		data, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("report: diff: settings: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("report: diff: settings: %w", err)
		}
		return flatten(v), nil
	}
	fa, err := flat(a)
	if err != nil {
		return nil, err
	}
	fb, err := flat(b)
	if err != nil {
		return nil, err
	}
	return keyChanges(fa, fb), nil
}

// configChanges compares the flattened keys of two config.yaml files.
func configChanges(a, b []byte) ([]string, error) {
	flat := func(side string, data []byte) (map[string]string, error) {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("report: diff: config.yaml of %s: %w", side, err)
		}
		return flatten(v), nil
	}
	fa, err := flat("A", a)
	if err != nil {
		return nil, err
	}
	fb, err := flat("B", b)
	if err != nil {
		return nil, err
	}
	// The version key names the bundle itself: it always differs and says
	// nothing about how the numbers were made.
	delete(fa, "version")
	delete(fb, "version")
	return keyChanges(fa, fb), nil
}

// inputChanges lists inputs added, removed or with another sha256.
func inputChanges(a, b map[string]string) []string {
	if a == nil || b == nil {
		return []string{}
	}
	return mapChanges(a, b, func(k, _, _ string) string { return k + ": changed" })
}

// keyChanges lists, in key order, "key: old -> new", "key: added" and
// "key: removed".
func keyChanges(a, b map[string]string) []string {
	return mapChanges(a, b, func(k, va, vb string) string { return k + ": " + va + " -> " + vb })
}

// mapChanges lists, in key order, the keys added to b, removed from a and
// changed between them (written by changed).
func mapChanges(a, b map[string]string, changed func(k, va, vb string) string) []string {
	out := []string{}
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, okA := a[k]
		vb, okB := b[k]
		switch {
		case !okA:
			out = append(out, k+": added")
		case !okB:
			out = append(out, k+": removed")
		case va != vb:
			out = append(out, changed(k, va, vb))
		}
	}
	return out
}

// flatten maps a decoded JSON or YAML document to dotted keys and leaf
// texts: maps are descended ("bootstrap.resamples"), lists of scalars are
// one leaf ("[1, 3, 5]"), other lists are indexed ("systems[0].file").
func flatten(v any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, e := range x {
				walk(join(k), e)
			}
		case map[any]any:
			if len(x) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, e := range x {
				walk(join(fmt.Sprint(k)), e)
			}
		case []any:
			if !slices.ContainsFunc(x, isComposite) {
				parts := make([]string, len(x))
				for i, e := range x {
					parts[i] = leafText(e)
				}
				out[prefix] = "[" + strings.Join(parts, ", ") + "]"
				return
			}
			for i, e := range x {
				walk(prefix+"["+strconv.Itoa(i)+"]", e)
			}
		default:
			if prefix != "" || x != nil {
				out[prefix] = leafText(x)
			}
		}
	}
	walk("", v)
	return out
}

func isComposite(v any) bool {
	switch v.(type) {
	case map[string]any, map[any]any, []any:
		return true
	}
	return false
}

// leafText writes a scalar: strings bare unless empty or ambiguous (then
// quoted), null for nil, numbers as written.
func leafText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "" || strings.TrimSpace(x) != x || strings.ContainsAny(x, ",[]{}\"") || strings.Contains(x, "->") {
			return strconv.Quote(x)
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// Formats of Diff.Write.
const (
	DiffText = "text"
	DiffMD   = "md"
	DiffCSV  = "csv"
	DiffJSON = "json"
	DiffHTML = "html"
)

// Write renders the diff in format text, md, csv, json or html. Rows
// marked unchanged (~) are left out unless all is true; the text, md and
// html forms then say how many were hidden. User strings (system names,
// metric ids, slices, config keys) are made inert in every format: control
// and bidirectional characters are shown escaped (text, md, html), md
// escapes its markup, html is escaped by html/template, and CSV prefixes
// text that a spreadsheet would run as a formula with '.
func (d *Diff) Write(w io.Writer, format string, all bool) error {
	var err error
	switch format {
	case DiffText:
		err = d.writeText(w, all)
	case DiffMD:
		err = d.writeMD(w, all)
	case DiffCSV:
		err = d.writeCSV(w, all)
	case DiffJSON:
		err = d.writeJSON(w, all)
	case DiffHTML:
		err = d.writeHTML(w, all)
	default:
		return fmt.Errorf("report: diff: unknown format %q (want text, md, csv, json or html)", format)
	}
	if err != nil {
		return fmt.Errorf("report: diff: %s: %w", format, err)
	}
	return nil
}

// shown returns the rows to show and the number hidden.
func (d *Diff) shown(all bool) ([]DiffRow, int) {
	if all {
		return d.Rows, 0
	}
	out := []DiffRow{}
	for _, r := range d.Rows {
		if r.Sig != SigUnchanged {
			out = append(out, r)
		}
	}
	return out, len(d.Rows) - len(out)
}

// BasisLine states how significance was decided, for the reader.
func (d *Diff) BasisLine() string {
	if !d.Paired {
		return "significance: CI overlap (the bundles do not hold the same eval queries)"
	}
	s := "significance: paired permutation test on per-query values (DeLong for AUROC), two-sided p < " + strconv.FormatFloat(d.Alpha, 'g', -1, 64)
	if slices.ContainsFunc(d.Rows, func(r DiffRow) bool { return r.Basis == BasisCIOverlap }) {
		s += "; CI overlap for metrics without per-query values"
	}
	return s
}

// diffTable is a table of display cells; cells of user text are already
// passed through visible.
type diffTable struct {
	Title  string
	Header []string
	Right  []bool // right-aligned (numeric) columns
	Rows   [][]string
	User   []bool // columns holding user text (escaped by md)
}

// diffList is a titled list of changes.
type diffList struct {
	Title string
	Items []string
}

// diffView is what the text, md and html writers show.
type diffView struct {
	Title  string
	Basis  string
	Main   diffTable
	Hidden int
	Only   []diffTable
	Lists  []diffList
	Empty  bool
}

func (d *Diff) view(all bool) diffView {
	rows, hidden := d.shown(all)
	v := diffView{
		Title:  "paperbundle diff " + visible(d.VersionA) + " -> " + visible(d.VersionB),
		Basis:  d.BasisLine(),
		Hidden: hidden,
		Empty:  d.Empty(),
		Main: diffTable{
			Header: []string{"system", "metric", "slice", "A", "B", "delta", "sig", "basis"},
			Right:  []bool{false, false, false, true, true, true, false, false},
			User:   []bool{true, true, true, false, false, false, false, false},
		},
	}
	for _, r := range rows {
		v.Main.Rows = append(v.Main.Rows, []string{visible(r.System), visible(string(r.ID)), sliceText(r.Slice),
			valueText(r.ID, r.A, r.CIA), valueText(r.ID, r.B, r.CIB), deltaText(r.ID, r.Delta), r.Sig.Symbol(), basisText(r)})
	}
	for _, o := range []struct {
		title string
		rows  []DiffOnly
	}{{"Only in A", d.OnlyA}, {"Only in B", d.OnlyB}} {
		if len(o.rows) == 0 {
			continue
		}
		t := diffTable{Title: o.title, Header: []string{"system", "metric", "slice", "value"},
			Right: []bool{false, false, false, true}, User: []bool{true, true, true, false}}
		for _, r := range o.rows {
			t.Rows = append(t.Rows, []string{visible(r.System), visible(string(r.ID)), sliceText(r.Slice), valueText(r.ID, r.Value, r.CI)})
		}
		v.Only = append(v.Only, t)
	}
	for _, l := range []diffList{{"Dataset changed", d.Dataset}, {"Settings changed", d.Settings},
		{"Config keys changed", d.Config}, {"Inputs changed", d.Inputs}} {
		if len(l.Items) == 0 {
			continue
		}
		items := make([]string, len(l.Items))
		for i, s := range l.Items {
			items[i] = visible(s)
		}
		v.Lists = append(v.Lists, diffList{l.Title, items})
	}
	return v
}

// summaryLine says what the main table leaves out, or "" when nothing.
func (v *diffView) summaryLine() string {
	switch {
	case len(v.Main.Rows) == 0 && v.Hidden == 0:
		return "no metric in both bundles"
	case len(v.Main.Rows) == 0:
		return fmt.Sprintf("no metric changed (%s; -all shows them)", rowsText(v.Hidden, "unchanged"))
	case v.Hidden > 0:
		return fmt.Sprintf("%s (~) hidden; -all shows them", rowsText(v.Hidden, "unchanged"))
	}
	return ""
}

func rowsText(n int, adj string) string {
	if n == 1 {
		return "1 " + adj + " row"
	}
	return strconv.Itoa(n) + " " + adj + " rows"
}

func sliceText(s Slice) string {
	if s == Whole {
		return "all"
	}
	return visible(string(s))
}

// valueText writes "0.8512 [0.8401, 0.8619]", "0.8512" without an
// interval, or "n/a"; a count is written as an integer ("141").
func valueText(id metrics.ID, x Num, ci *CI) string {
	if !x.Valid() {
		return "n/a"
	}
	if isCount(id) {
		return strconv.FormatFloat(float64(x), 'f', -1, 64)
	}
	s := fixed4(float64(x))
	if ciDefined(ci) {
		s += " [" + fixed4(float64(ci.Low)) + ", " + fixed4(float64(ci.High)) + "]"
	}
	return s
}

// isCount reports whether the registry says id is an integer count.
func isCount(id metrics.ID) bool {
	d, ok := metrics.Lookup(id)
	return ok && d.Kind == metrics.KindCount
}

// fixed4 writes x with four decimals, without the sign of a value that
// rounds to zero ("-0.0000" reads as a negative number); a value too
// small for four decimals, such as a p-value of 3e-45, keeps two
// significant digits.
func fixed4(x float64) string {
	if x != 0 && math.Abs(x) < 0.00005 {
		return strconv.FormatFloat(x, 'e', 1, 64)
	}
	s := strconv.FormatFloat(x, 'f', 4, 64)
	if s == "-0.0000" {
		return s[1:]
	}
	return s
}

// deltaText writes a signed delta; one too small for four decimals keeps
// two significant digits, so that a changed row never reads +0.0000. A
// delta of counts is an integer.
func deltaText(id metrics.ID, x Num) string {
	if !x.Valid() {
		return "n/a"
	}
	s := fixed4(float64(x))
	if isCount(id) {
		s = strconv.FormatFloat(float64(x), 'f', -1, 64)
	}
	if x >= 0 {
		s = "+" + s
	}
	return s
}

func pText(p Num) string {
	if p < 0.0001 {
		return "p<0.0001"
	}
	return "p=" + strconv.FormatFloat(float64(p), 'f', 4, 64)
}

func basisText(r DiffRow) string {
	switch r.Basis {
	case BasisPermutation:
		return "permutation " + pText(r.P)
	case BasisDeLong:
		return "DeLong " + pText(r.P)
	case BasisCIOverlap:
		if r.Sig == SigYes {
			return "CIs disjoint"
		}
		return "CIs overlap"
	}
	switch {
	case r.Sig == SigUnchanged:
		return ""
	case !r.A.Valid():
		return "undefined in A"
	case !r.B.Valid():
		return "undefined in B"
	}
	return "no CI"
}

// visible returns s with every rune that is not graphic (tab, newline,
// other control characters, bidirectional overrides, zero-width
// characters, invalid UTF-8) replaced by its Go escape (\t, \n, \u202e),
// so that a label can neither break a line or a column nor reorder the
// text around it.
func visible(s string) string {
	ok := func(r rune, size int) bool { return unicode.IsGraphic(r) && (r != utf8.RuneError || size > 1) }
	clean := true
	for i := 0; i < len(s) && clean; {
		r, size := utf8.DecodeRuneInString(s[i:])
		clean = ok(r, size)
		i += size
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case ok(r, size):
			b.WriteString(s[i : i+size])
		case size == 1 && r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		default:
			q := strconv.QuoteRuneToASCII(r) // '\t', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

// writeText writes aligned columns.
func (d *Diff) writeText(w io.Writer, all bool) error {
	v := d.view(all)
	var b strings.Builder
	b.WriteString(v.Title + "\n" + v.Basis + "\n\n")
	if len(v.Main.Rows) > 0 {
		textTable(&b, "", v.Main)
	}
	if s := v.summaryLine(); s != "" {
		b.WriteString(s + "\n")
	}
	for _, t := range v.Only {
		b.WriteString("\n" + t.Title + "\n")
		textTable(&b, "  ", t)
	}
	for _, l := range v.Lists {
		b.WriteString("\n" + l.Title + "\n")
		for _, s := range l.Items {
			b.WriteString("  " + s + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// textTable writes t with columns two spaces apart, numbers right-aligned.
func textTable(b *strings.Builder, indent string, t diffTable) {
	width := make([]int, len(t.Header))
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		for j, c := range row {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		var line strings.Builder
		line.WriteString(indent)
		for j, c := range row {
			if j > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if t.Right[j] {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// writeMD writes GitHub Markdown: a heading, the basis, tables and lists.
func (d *Diff) writeMD(w io.Writer, all bool) error {
	v := d.view(all)
	var b strings.Builder
	b.WriteString("# " + mdEscape(v.Title) + "\n\n" + mdEscape(v.Basis) + "\n\n")
	if len(v.Main.Rows) > 0 {
		mdTable(&b, v.Main)
		b.WriteString("\n")
	}
	if s := v.summaryLine(); s != "" {
		b.WriteString(mdEscape(s) + "\n\n")
	}
	for _, t := range v.Only {
		b.WriteString("## " + t.Title + "\n\n")
		mdTable(&b, t)
		b.WriteString("\n")
	}
	for _, l := range v.Lists {
		b.WriteString("## " + l.Title + "\n\n")
		for _, s := range l.Items {
			b.WriteString("- " + mdEscape(s) + "\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), "\n")+"\n")
	return err
}

func mdTable(b *strings.Builder, t diffTable) {
	b.WriteString("|")
	for _, h := range t.Header {
		b.WriteString(" " + h + " |")
	}
	b.WriteString("\n|")
	for j := range t.Header {
		if t.Right[j] {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for j, c := range row {
			if t.User[j] {
				c = mdEscape(c)
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
}

// mdEscape makes s inert Markdown text (CommonMark and GitHub Markdown):
// a backslash before every character that can open markup anywhere in a
// line (\ ` * _ [ ] < | ~ & $: emphasis, code, links and images, HTML,
// table cells, strikethrough, entities, math), before a leading # > + - =
// (headings, quotes, lists), and before the '.' or ')' of a leading
// number (ordered lists). s holds no line break (see visible).
func mdEscape(s string) string {
	var b strings.Builder
	digits := true // s so far is digits
	for i, r := range s {
		switch {
		case strings.ContainsRune("\\`*_[]<|~&$", r),
			i == 0 && strings.ContainsRune("#>+-=", r),
			digits && i > 0 && (r == '.' || r == ')'):
			b.WriteByte('\\')
		}
		digits = digits && r >= '0' && r <= '9'
		b.WriteRune(r)
	}
	return b.String()
}

// csvSafe prefixes free text that a spreadsheet would run as a formula
// (SPEC 7: beginning with =, +, -, @, tab or CR) with '.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func csvNum(x Num) string {
	if !x.Valid() {
		return ""
	}
	return strconv.FormatFloat(float64(x), 'g', -1, 64)
}

func csvCI(c *CI) (lo, hi string) {
	if c == nil {
		return "", ""
	}
	return csvNum(c.Low), csvNum(c.High)
}

// writeCSV writes one record per metric row: the rows in both bundles,
// then those only in A, then those only in B (column in: both, a, b).
func (d *Diff) writeCSV(w io.Writer, all bool) error {
	rows, _ := d.shown(all)
	cw := csv.NewWriter(w)
	cw.Write([]string{"in", "system", "id", "slice", "a", "a_low", "a_high", "b", "b_low", "b_high", "delta", "sig", "basis", "p"})
	for _, r := range rows {
		al, ah := csvCI(r.CIA)
		bl, bh := csvCI(r.CIB)
		cw.Write([]string{"both", csvSafe(r.System), csvSafe(string(r.ID)), csvSafe(string(r.Slice)),
			csvNum(r.A), al, ah, csvNum(r.B), bl, bh, csvNum(r.Delta), string(r.Sig), string(r.Basis), csvNum(r.P)})
	}
	for _, o := range []struct {
		in   string
		rows []DiffOnly
	}{{"a", d.OnlyA}, {"b", d.OnlyB}} {
		for _, r := range o.rows {
			lo, hi := csvCI(r.CI)
			rec := []string{o.in, csvSafe(r.System), csvSafe(string(r.ID)), csvSafe(string(r.Slice)), "", "", "", "", "", "", "", "", "", ""}
			if o.in == "a" {
				rec[4], rec[5], rec[6] = csvNum(r.Value), lo, hi
			} else {
				rec[7], rec[8], rec[9] = csvNum(r.Value), lo, hi
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeJSON writes the Diff with snake_case keys, undefined numbers as
// null, and hidden_unchanged, the number of rows left out.
func (d *Diff) writeJSON(w io.Writer, all bool) error {
	out := struct {
		*Diff
		HiddenUnchanged int `json:"hidden_unchanged"`
	}{Diff: new(Diff)}
	*out.Diff = *d
	out.Rows, out.HiddenUnchanged = d.shown(all)
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// diffHTML is a fragment for the "Changes since vN" section of
// report.html: no script, no style, every string escaped by html/template.
var diffHTML = template.Must(template.New("diff").Parse(`<div class="diff">
<p class="diff-title">{{.Title}}</p>
<p class="diff-basis">{{.Basis}}</p>
{{- if .Main.Rows}}
{{template "table" .Main}}
{{- end}}
{{- with .Summary}}
<p class="diff-summary">{{.}}</p>
{{- end}}
{{- range .Only}}
<h3>{{.Title}}</h3>
{{template "table" .}}
{{- end}}
{{- range .Lists}}
<h3>{{.Title}}</h3>
<ul>
{{- range .Items}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
</div>
{{define "table"}}<table class="diff-table">
<thead><tr>{{range .Header}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr>{{range $j, $c := .}}<td{{if index $.Right $j}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>{{end}}`))

func (d *Diff) writeHTML(w io.Writer, all bool) error {
	v := d.view(all)
	return diffHTML.Execute(w, struct {
		diffView
		Summary string
	}{v, v.summaryLine()})
}
