package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"paperbundle/bundle"
	"paperbundle/config"
	"paperbundle/metrics"
	"paperbundle/report"
)

// runDiff compares two bundles: paperbundle diff [-format F] [-all] A B.
func runDiff(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("diff")
	format := fs.String("format", "text", "output `format`: text, md, csv, json or html")
	all := fs.Bool("all", false, "also show unchanged rows (~)")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("diff", "give two bundle folders, e.g. paperbundle diff results/paper_bundle/v1 results/paper_bundle/v2")
	}
	switch *format {
	case "text", "md", "csv", "json", "html":
	default:
		msg := fmt.Sprintf("-format %q: want text, md, csv, json or html", *format)
		if s := suggest(*format, []string{"text", "md", "csv", "json", "html"}); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		return usageError("diff", "%s", msg)
	}
	for _, dir := range pos {
		if err := needBundleDir("diff", dir); err != nil {
			return err
		}
	}
	d, err := diffBundles(ctx, pos[0], pos[1])
	if ctx.Err() != nil {
		return ctx.Err() // interrupted
	}
	if hostile(err) {
		return withStatus(exitCheck, fmt.Errorf("diff: %w", err)) // NOT A FILE, or too large
	}
	if err != nil {
		return withStatus(exitInput, fmt.Errorf("diff: %w", err))
	}
	return d.Write(stdout, *format, *all)
}

// side is one bundle of a comparison.
type side struct {
	rep    *report.Report
	config []byte
	inputs map[string]string // input path -> sha256 (nil: unknown)
	pq     *perQuery         // nil: no per-query values
}

// loadSide reads what a comparison needs from a bundle folder.
func loadSide(dir string) (side, error) {
	r, err := readReport(dir)
	if err != nil {
		return side{}, err
	}
	s := side{rep: r}
	op, err := bundle.Open(dir)
	if hostile(err) {
		return side{}, err
	}
	if err == nil {
		s.inputs = inputSums(op)
	}
	// A bundle may come from elsewhere: its files are read without
	// following a link, never from a FIFO or device, and up to a maximum
	// (bundle.ReadFile); a missing one is left out of the comparison.
	var err2 error
	s.config, err2 = bundle.ReadFile(dir, "config.yaml", config.MaxFileBytes)
	if hostile(err2) {
		return side{}, err2
	}
	data, err2 := bundle.ReadFile(dir, "per_query_metrics.csv", bundle.MaxFileBytes)
	if hostile(err2) {
		return side{}, err2
	}
	if err2 == nil {
		s.pq, _ = parsePerQuery(data)
	}
	return s, nil
}

// diffBundles compares bundle a (older) with bundle b (newer).
func diffBundles(ctx context.Context, a, b string) (*report.Diff, error) {
	sa, err := loadSide(a)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sb, err := loadSide(b)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return compare(sa, sb)
}

// compare diffs two bundles. When both hold the same eval queries,
// significance comes from paired tests on the per-query values of
// per_query_metrics.csv (DeLong for AUROC); otherwise from CI overlap.
func compare(a, b side) (*report.Diff, error) {
	opt := report.DefaultDiffOptions()
	opt.Permutations = 10000 // as the comparisons of SPEC 4.8
	opt.ConfigA, opt.ConfigB = a.config, b.config
	opt.InputsA, opt.InputsB = a.inputs, b.inputs
	if pa, pb := a.pq, b.pq; pa != nil && pb != nil && pa.sameQueries(pb) {
		opt.Paired = func(system string, id metrics.ID, slice report.Slice) (report.PairedValues, bool) {
			return pairedValues(pa, pb, system, id, slice)
		}
		opt.PairedAUROC = func(system string, slice report.Slice) (report.PairedScores, bool) {
			return pairedScores(pa, pb, system, slice)
		}
	}
	return report.DiffReports(a.rep, b.rep, opt)
}

// hostile reports whether err is a bundle file that is not a regular file
// or is larger than its maximum.
func hostile(err error) bool {
	return errors.Is(err, bundle.ErrNotAFile) || errors.Is(err, bundle.ErrTooLarge)
}

func readReport(dir string) (*report.Report, error) {
	data, err := bundle.ReadFile(dir, "metrics_master.json", bundle.MaxFileBytes)
	if hostile(err) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not a bundle: %w", dir, err)
	}
	r, err := report.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return r, nil
}

// inputSums maps each input of a bundle's manifest to its sha256.
func inputSums(op *bundle.Opened) map[string]string {
	m := map[string]string{}
	for _, in := range op.Manifest.Inputs {
		m[in.Path] = in.SHA256
	}
	return m
}

// perQuery is per_query_metrics.csv of a bundle.
type perQuery struct {
	col  map[string]int
	rows [][]string
	at   map[[2]string]int // (system, query id) -> row
}

func parsePerQuery(data []byte) (*perQuery, error) {
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) == 0 {
		return nil, fmt.Errorf("per_query_metrics.csv: %v", err)
	}
	p := &perQuery{col: map[string]int{}, rows: recs[1:], at: map[[2]string]int{}}
	for i, h := range recs[0] {
		p.col[h] = i
	}
	for _, k := range []string{"system", "query_id", "post_id", "criterion_id", "n_gold", "ne_prob"} {
		if _, ok := p.col[k]; !ok {
			return nil, fmt.Errorf("per_query_metrics.csv: no %s column", k)
		}
	}
	for i, r := range p.rows {
		p.at[[2]string{r[p.col["system"]], r[p.col["query_id"]]}] = i
	}
	return p, nil
}

// sameQueries reports whether both tables hold the same (system, query)
// rows.
func (p *perQuery) sameQueries(q *perQuery) bool {
	if len(p.at) != len(q.at) {
		return false
	}
	for k := range p.at {
		if _, ok := q.at[k]; !ok {
			return false
		}
	}
	return true
}

// pairs calls f for each query of system in b (in b's order) that is in
// the slice, with its row in a and in b.
func pairs(a, b *perQuery, system string, slice report.Slice, f func(ra, rb []string)) bool {
	crit := ""
	switch {
	case slice == report.Whole:
	case slice.Kind() == report.SliceCriterion:
		crit = slice.Value()
	default:
		return false
	}
	for _, rb := range b.rows {
		if rb[b.col["system"]] != system || (crit != "" && rb[b.col["criterion_id"]] != crit) {
			continue
		}
		i, ok := a.at[[2]string{system, rb[b.col["query_id"]]}]
		if !ok {
			return false
		}
		f(a.rows[i], rb)
	}
	return true
}

func cellNum(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

func pairedValues(a, b *perQuery, system string, id metrics.ID, slice report.Slice) (report.PairedValues, bool) {
	ca, okA := a.col[string(id)]
	cb, okB := b.col[string(id)]
	if !okA || !okB {
		return report.PairedValues{}, false
	}
	var v report.PairedValues
	posts := map[string]int32{}
	ok := pairs(a, b, system, slice, func(ra, rb []string) {
		v.A = append(v.A, cellNum(ra[ca]))
		v.B = append(v.B, cellNum(rb[cb]))
		post := rb[b.col["post_id"]]
		g, seen := posts[post]
		if !seen {
			g = int32(len(posts))
			posts[post] = g
		}
		v.Group = append(v.Group, g)
	})
	v.Groups = len(posts)
	return v, ok && len(v.A) > 0
}

func pairedScores(a, b *perQuery, system string, slice report.Slice) (report.PairedScores, bool) {
	var s report.PairedScores
	ok := pairs(a, b, system, slice, func(ra, rb []string) {
		s.Y = append(s.Y, cellNum(rb[b.col["n_gold"]]) > 0)
		s.A = append(s.A, cellNum(ra[a.col["ne_prob"]]))
		s.B = append(s.B, cellNum(rb[b.col["ne_prob"]]))
	})
	return s, ok && len(s.Y) > 0
}

// changes compares the bundle being built with the previous version in
// root (the highest version below it; none: nil) and returns CHANGES.md,
// the version compared with and the number of significant changes.
func changes(root, version string, now side) (md []byte, prev string, significant int, err error) {
	prev = previousVersion(root, version)
	if prev == "" {
		return nil, "", 0, nil
	}
	old, err := loadSide(filepath.Join(root, prev))
	if err != nil {
		return nil, "", 0, err
	}
	d, err := compare(old, now)
	if err != nil {
		return nil, "", 0, err
	}
	var b bytes.Buffer
	if err := d.Write(&b, "md", false); err != nil {
		return nil, "", 0, err
	}
	body := b.String()
	if strings.HasPrefix(body, "# ") { // the diff's own title: ours names the version
		_, body, _ = strings.Cut(body, "\n")
	}
	md = []byte(fmt.Sprintf("# Changes since %s\n%s", prev, body))
	return md, prev, d.Significant(), nil
}

// previousVersion is the highest version in root below version ("" when
// there is none).
func previousVersion(root, version string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return ""
	}
	best := ""
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || !bundle.ValidVersion(n) || versionLess(version, n) || n == version {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, n, "metrics_master.json")); err != nil {
			continue
		}
		if best == "" || versionLess(best, n) {
			best = n
		}
	}
	return best
}

// versionLess orders versions numerically: v2 < v10, v1 < v1.1.
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a[1:], "."), strings.Split(b[1:], ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}
