package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"paperbundle/bundle"
	"paperbundle/compare"
	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/interrupt"
	"paperbundle/internal/termsafe"
	"paperbundle/report"
	"paperbundle/templates"
)

// runVerify checks a bundle against its manifest, then rebuilds it in
// memory from its own inputs/ and config.yaml with the code path of build
// (render) and compares every file byte for byte. Exit 0 when the bundle
// is intact and recomputes, 3 otherwise. A bundle made by another tool
// build (manifest tool_build, or none recorded) is valid when its hashes
// match: what the recomputation changes is what changed between the two
// tools, reported as information (-strict: exit 3 on it).
func runVerify(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("verify")
	strict := fs.Bool("strict", false, "exit 3 also when a bundle made by another tool build recomputes differently")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("verify", "give one bundle folder, e.g. paperbundle verify results/paper_bundle/v1")
	}
	dir := pos[0]
	if err := needBundleDir("verify", dir); err != nil {
		return err
	}
	before := bundleStamp(dir)
	op, err := bundle.Open(dir)
	if err != nil {
		return withStatus(exitCheck, fmt.Errorf("verify: %w", err))
	}
	statuses, err := bundle.Check(dir)
	if err != nil {
		return withStatus(exitCheck, fmt.Errorf("verify: %w", err))
	}
	bad, unreadable := printStatuses(stdout, statuses)
	if unreadable != nil {
		return machineError(&bundle.EnvError{Path: filepath.Join(dir, unreadable.Path), Err: errors.New(unreadable.Detail)})
	}
	res, err := recompute(ctx, dir, op)
	if ctx.Err() != nil {
		return ctx.Err() // interrupted
	}
	var env *bundle.EnvError
	if errors.As(err, &env) {
		return machineError(env)
	}
	if err != nil {
		return withStatus(exitCheck, fmt.Errorf("verify: could not recompute: %w", err))
	}
	for _, d := range res.diffs {
		fmt.Fprintln(stdout, d)
	}
	if res.previous != "" {
		fmt.Fprintln(stdout, termsafe.Name(res.previous))
	}
	fmt.Fprintln(stdout, res.note)
	differ := res.files()
	other := !sameBuild(op.Manifest)
	if other && differ > 0 {
		fmt.Fprintln(stdout, otherToolText(op.Manifest, res))
	}
	if (bad > 0 || differ > 0 || res.previous != "") && !bundleStamp(dir).same(before) {
		return withStatus(exitInternal, fmt.Errorf("verify: %s changed while verify read it (another build replaced it, e.g. with -force): what was listed is no verdict; run verify again", termsafe.Name(dir)))
	}
	switch {
	case bad > 0:
		return withStatus(exitCheck, fmt.Errorf("verify: %s: %d file(s) differ from the manifest, %d from the recomputation", dir, bad, differ))
	case res.previous != "":
		// Whoever made the bundle: the version it was compared with is
		// gone, as a changed file would be.
		return withStatus(exitCheck, fmt.Errorf("verify: %s: the version its changes compare with (%s) is no longer the one it was compared with (manifest.json's previous)", dir, op.Manifest.Previous.Version))
	case differ > 0 && (!other || *strict):
		return withStatus(exitCheck, fmt.Errorf("verify: %s: %d file(s) differ from the recomputation", dir, differ))
	}
	switch {
	case res.hashesOnly:
		fmt.Fprintf(stdout, "%s: valid (hashes only)\n", dir)
	case differ > 0:
		fmt.Fprintf(stdout, "%s: valid (every hash matches); recomputed with another tool build: %d file(s) differ, as information (-strict makes them an error)\n", dir, differ)
	default:
		fmt.Fprintf(stdout, "%s: valid and recomputed\n", dir)
	}
	return nil
}

// printStatuses prints one line per file of the bundle (its status, its
// name and what differs, control characters escaped) and returns the
// number that are not OK and the first that could not be read.
func printStatuses(stdout io.Writer, statuses []bundle.FileStatus) (bad int, unreadable *bundle.FileStatus) {
	for i, s := range statuses {
		if s.Status == bundle.StatusUnreadable && unreadable == nil {
			unreadable = &statuses[i]
		}
		line := fmt.Sprintf("%-8s %s", s.Status, termsafe.Name(s.Path))
		if s.Detail != "" {
			line += ": " + termsafe.Name(s.Detail)
		}
		fmt.Fprintln(stdout, line)
		if s.Status != bundle.StatusOK {
			bad++
		}
	}
	return bad, unreadable
}

// recomputed is what recompute found: one line per difference (a file
// line, then its metric lines, indented), the metric lines' count, and a
// note saying what was done. hashesOnly is set when nothing could be
// recomputed (the bundle holds no copy of its inputs); nFiles is the
// number of files that differ.
type recomputed struct {
	diffs      []string
	metrics    []string
	note       string
	hashesOnly bool
	nFiles     int
	// previous, when set, is the line saying that the version the changes
	// compare with is no longer the one the bundle was compared with.
	previous string
}

// files is the number of files that differ.
func (r recomputed) files() int { return r.nFiles }

// sameBuild reports whether the bundle was made by this very tool build:
// the manifest records a build identity equal to this one.
func sameBuild(m bundle.Manifest) bool {
	return m.ToolBuild != nil && m.ToolBuild.Equal(*toolBuild())
}

// otherToolText says, for a bundle made by another tool build, what the
// recomputation changed: "made by X, recomputed with Y: K metrics differ",
// then the files.
func otherToolText(m bundle.Manifest, res recomputed) string {
	made := m.Tool + " (tool build not recorded)"
	if m.ToolBuild != nil {
		made = m.Tool + " (" + m.ToolBuild.String() + ")"
	}
	now := toolVersion() + " (" + toolBuild().String() + ")"
	verb := "differ"
	if len(res.metrics) == 1 {
		verb = "differs"
	}
	return fmt.Sprintf("made by %s, recomputed with %s: %s %s (%s); information about the change of tool, not an invalid bundle (verify -strict: exit 3)",
		made, now, plural(len(res.metrics), "metric"), verb, plural(res.files(), "file")+" in all")
}

// machineError is verify's error for a failure of the machine (exit 1):
// the path and the error, and that it is no verdict on the bundle.
func machineError(env *bundle.EnvError) error {
	return withStatus(exitInternal, fmt.Errorf("verify: %s: %v: this machine failed (a temporary folder missing or full, permissions, a full disk), not the bundle; nothing was decided about it", termsafe.Name(env.Path), env.Err))
}

// A stamp identifies the state of a bundle folder: its manifest's bytes
// and the folder itself (a -force replace exchanges the folder), so that
// verify can tell a bundle that changed while it was read.
type stamp struct {
	manifest [sha256.Size]byte
	dir      os.FileInfo
}

func bundleStamp(dir string) stamp {
	var s stamp
	if b, err := bundle.ReadFile(dir, bundle.ManifestName, bundle.MaxManifestBytes); err == nil {
		s.manifest = sha256.Sum256(b)
	}
	s.dir, _ = os.Stat(dir)
	return s
}

func (s stamp) same(t stamp) bool {
	return s.manifest == t.manifest && (s.dir == nil) == (t.dir == nil) && (s.dir == nil || os.SameFile(s.dir, t.dir))
}

// recompute rebuilds the bundle in memory from its inputs/ and config.yaml
// and returns one line per difference and a note saying what was done.
func recompute(ctx context.Context, dir string, op *bundle.Opened) (res recomputed, err error) {
	m := op.Manifest
	// The extracted inputs go to a temporary folder, removed on return
	// and on an interrupt; one left by a killed verify is removed here.
	tmp, err := bundle.TempDir("", "paperbundle-verify-")
	if err != nil {
		return res, &bundle.EnvError{Path: os.TempDir(), Err: err}
	}
	defer interrupt.Track(tmp)()
	defer os.RemoveAll(tmp)
	given, err := extractInputs(ctx, tmp, op)
	if err != nil {
		return res, err
	}
	if len(given) == 0 && len(m.Inputs) > 0 {
		res.hashesOnly = true
		res.note = "not recomputed: the bundle holds no copy of its inputs (bundle.copy_inputs: false); checked by hashes only"
		return res, nil
	}
	cfg, ds, err := recordedData(ctx, dir, tmp, given)
	if err != nil {
		return res, err
	}
	old, err := bundle.ReadFile(dir, "metrics_master.json", bundle.MaxFileBytes)
	if err != nil {
		return res, err
	}
	was, err := report.Decode(old)
	if err != nil {
		return res, err
	}
	rep, err := report.Compute(ctx, cfg, ds, report.Options{Version: was.Version, Tool: was.Tool, Build: was.ToolBuild, Progress: func(string) {}, FreeRows: true})
	if err != nil {
		return res, err
	}
	rep.Generated = was.Generated
	cfgYAML, err := cfg.YAML()
	if err != nil {
		return res, err
	}
	rec := record{Paper: paperOptions(cfg.Paper), Config: cfgYAML}
	for _, in := range m.Inputs {
		rec.Inputs = append(rec.Inputs, templates.InputFile{Path: in.Path, Size: in.Bytes, SHA256: in.SHA256})
	}
	prev, err := recomputeChanges(dir, m, nowSide(rep, cfgYAML, m.Inputs))
	if err != nil {
		return res, err
	}
	rec.Changes = prev.changes
	rec.Summary = summaryInput(rep, prev.changes, prev.since, was.Version)
	files := mapSink{}
	if err := render(files, rep, rec); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	cmp := compareFiles(dir, files, prev.hashOnly, was, rep)
	res.diffs, res.metrics, res.nFiles, res.previous = cmp.lines, cmp.metrics, cmp.files, prev.mismatch
	res.note = fmt.Sprintf("recomputed %d files from inputs/ and config.yaml", cmp.compared) + prev.note
	if t := toolVersion(); t != was.Tool {
		res.note += fmt.Sprintf(" (bundle made by %s, verified with %s)", was.Tool, t)
	}
	return res, nil
}

// recordedData loads the bundle's config.yaml and the dataset from the
// extracted copies of its inputs (given: each input as the configuration
// names it, to its copy below tmp).
func recordedData(ctx context.Context, dir, tmp string, given map[string]string) (*config.Config, *dataset.Dataset, error) {
	cfgPath := filepath.Join(tmp, "config.yaml")
	y, err := bundle.ReadFile(dir, "config.yaml", config.MaxFileBytes)
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(cfgPath, y, 0o644); err != nil {
		return nil, nil, &bundle.EnvError{Path: cfgPath, Err: err}
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, nil, err
	}
	var missing []string
	resolve := func(p string) string {
		if f, ok := given[givenPath(p)]; ok {
			return f
		}
		missing = append(missing, p)
		return filepath.Join(tmp, "missing", filepath.Base(p))
	}
	spec := datasetSpec(cfg, resolve)
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("config.yaml names inputs the bundle holds no copy of: %s", strings.Join(missing, ", "))
	}
	setMemoryLimit(specBytes(spec))
	ds, err := dataset.Load(spec)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return cfg, ds, nil
}

// extractInputs extracts the bundle's copies of its inputs below tmp and
// returns, for each input as given, the path of its extracted copy.
func extractInputs(ctx context.Context, tmp string, op *bundle.Opened) (map[string]string, error) {
	given := map[string]string{}
	for i, in := range op.Manifest.Inputs {
		if in.Copy == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := filepath.Join(tmp, "inputs", fmt.Sprint(i), filepath.Base(in.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, &bundle.EnvError{Path: filepath.Dir(p), Err: err}
		}
		// Streamed to the file, stopping at the size the manifest
		// records: a copy that lies about its size takes no memory.
		if err := op.ExtractInput(i, p); err != nil {
			return nil, err
		}
		given[in.Path] = p
	}
	return given, nil
}

// previousFound is what verify found of the version a bundle's changes
// compare with: since is that version ("" for the first version of its
// folder); changes is the comparison made again (nil when it could not
// be); hashOnly names the files checked by their hashes only; note is the
// sentence verify adds; mismatch, when set, says that the version found
// in the folder is not the one the bundle was compared with.
type previousFound struct {
	since    string
	changes  *compare.Changes
	hashOnly map[string]bool
	note     string
	mismatch string
}

// changesFiles are the files that list the changes since the previous
// version: they can be recomputed only against that version.
var changesFiles = []string{"CHANGES.md", "SUMMARY.md", "report.html"}

// recomputeChanges compares the recomputed bundle (now) again with the
// version it was compared with when it was built, named by the manifest's
// previous. When that version is not in the same folder, the files that
// list the changes are checked by their hashes only; when it is there but
// its metrics_master.json or per_query_metrics.csv is not the one the
// manifest records (it was rebuilt or changed since), they are checked by
// their hashes only and mismatch says so (verify exits 3).
func recomputeChanges(dir string, m bundle.Manifest, now side) (previousFound, error) {
	c := previousFound{hashOnly: map[string]bool{}}
	recorded := m.Previous
	if recorded != nil {
		c.since = recorded.Version
	} else {
		c.since = changesSinceFallback(dir)
	}
	if c.since == "" {
		return c, nil // the first version of its folder
	}
	byHash := func(why string) {
		for _, f := range changesFiles {
			c.hashOnly[f] = true
		}
		c.note = "; CHANGES.md, SUMMARY.md and report.html checked by hashes only (" + why + ")"
	}
	root := filepath.Dir(filepath.Clean(dir))
	if _, err := os.Stat(filepath.Join(root, c.since, "metrics_master.json")); !bundle.ValidVersion(c.since) || err != nil {
		byHash(fmt.Sprintf("%q, the version they compare with, is not in the same folder", c.since))
		return c, nil
	}
	if recorded != nil {
		// Checked before the comparison reads the version, so that a
		// replaced one is named as such rather than failing to compare.
		if sum, err := fileSHA256(filepath.Join(root, c.since), "metrics_master.json", maxReportBytes); err == nil && sum != recorded.MetricsSHA256 {
			c.mismatch = previousMismatch(*recorded, "metrics_master.json", sum, recorded.MetricsSHA256)
			byHash(c.since + " is not the version compared with")
			return c, nil
		}
	}
	ch, was, err := changes(root, c.since, now)
	if err != nil {
		return c, fmt.Errorf("comparing with %s: %w", c.since, err)
	}
	if recorded != nil && was != *recorded {
		c.mismatch = previousMismatch(*recorded, "metrics_master.json", was.MetricsSHA256, recorded.MetricsSHA256)
		if was.MetricsSHA256 == recorded.MetricsSHA256 {
			c.mismatch = previousMismatch(*recorded, "per_query_metrics.csv", was.PerQuerySHA256, recorded.PerQuerySHA256)
		}
		byHash(c.since + " is not the version compared with")
		return c, nil
	}
	c.changes = ch
	c.note = "; CHANGES.md recomputed against " + c.since
	if recorded == nil {
		c.note += " (named by CHANGES.md's title: the manifest does not record the version compared with)"
	}
	return c, nil
}

// previousMismatch is verify's line for a previous version that is not
// the one the bundle was compared with: which of its files differs, and
// both sums.
func previousMismatch(p bundle.Previous, file, found, recorded string) string {
	short := func(s string) string {
		if s == "" {
			return "none"
		}
		return s[:min(len(s), 12)] + "…"
	}
	return fmt.Sprintf("PREVIOUS %s: not the version this bundle was compared with: its %s has sha256 %s, manifest.json's previous records %s (%s was rebuilt or changed after this bundle was built); CHANGES.md, SUMMARY.md and report.html cannot be recomputed",
		p.Version, file, short(found), short(recorded), p.Version)
}

// fileSHA256 is the sha256 of a bundle's file, read within limit.
func fileSHA256(dir, name string, limit int64) (string, error) {
	f, err := openBundleFile(dir, name, limit)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileDiffs is what compareFiles found: the lines naming the differences
// in order (a file line, then its metric lines, indented), the metric
// lines alone, the number of files that differ and the number compared.
type fileDiffs struct {
	lines, metrics  []string
	files, compared int
}

func (d *fileDiffs) file(line string) { d.lines = append(d.lines, line); d.files++ }

func (d *fileDiffs) metricLines(ms []string) {
	d.lines = append(d.lines, ms...)
	d.metrics = append(d.metrics, ms...)
}

// compareFiles compares each recomputed file, in name order, with the
// bundle's, except those checked by hashes only. was is the bundle's own
// metrics_master.json, already read and decoded.
func compareFiles(dir string, files mapSink, hashOnly map[string]bool, was, rep *report.Report) fileDiffs {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var d fileDiffs
	for _, n := range names {
		if hashOnly[n] {
			continue
		}
		d.compared++
		disk, err := bundle.ReadFile(dir, n, int64(len(files[n]))) // a longer file differs
		switch {
		case errors.Is(err, bundle.ErrTooLarge):
			d.file("DIFFERS  " + n + ": the recomputed bytes differ (the bundle's file is longer)")
			if n == "metrics_master.json" {
				d.metricLines(metricDiffs(was, rep))
			}
		case errors.Is(err, bundle.ErrNotAFile):
			d.file("NOT A FILE " + n + ": " + bundle.ErrNotAFile.Error())
		case err != nil:
			d.file("NOT RECOMPUTED " + n + ": the bundle lacks a file the recomputation makes")
		case !bytes.Equal(disk, files[n]):
			d.file("DIFFERS  " + n + ": the recomputed bytes differ")
			if n == "metrics_master.json" {
				d.metricLines(metricDiffs(was, rep))
			}
		}
	}
	return d
}

// metricDiffs lists the metrics whose recomputed value differs.
func metricDiffs(was, now *report.Report) []string {
	var out []string
	for _, m := range was.Metrics {
		n, ok := now.Metric(m.System, m.ID, m.Slice)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("  metric %s %s %s: not recomputed", m.System, m.ID, m.Slice))
		case !sameNum(m.Value, n.Value) || !sameCI(m.CI, n.CI):
			out = append(out, fmt.Sprintf("  metric %s %s %s: bundle %v, recomputed %v", m.System, m.ID, m.Slice, m.Value, n.Value))
		}
	}
	return out
}

func sameNum(a, b report.Num) bool {
	return a.Valid() == b.Valid() && (!a.Valid() || a == b)
}

func sameCI(a, b *report.CI) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return sameNum(a.Low, b.Low) && sameNum(a.High, b.High)
}

// comparedVersion is the version a bundle's changes compare with ("" for
// the first version of its folder): the manifest's previous, or for a
// bundle made before the manifest recorded it, changesSinceFallback.
func comparedVersion(dir string, m bundle.Manifest) string {
	if m.Previous != nil {
		return m.Previous.Version
	}
	return changesSinceFallback(dir)
}

// changesSinceFallback serves only bundles whose manifest.json records no
// previous (made before it was recorded): it reads the version their
// CHANGES.md compares with from its title ("# Changes since v1"); "" when
// the bundle has no CHANGES.md. Bundles made now are never read this way.
func changesSinceFallback(dir string) string {
	md, err := readBundleFile(dir, "CHANGES.md", maxConfigBytes)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(md), "\n")
	_, v, _ := strings.Cut(line, "Changes since ")
	return strings.TrimSpace(v)
}

// mapSink collects rendered files in memory.
type mapSink map[string][]byte

func (m mapSink) Add(name string, data []byte) { m[name] = data }

// loadConfig reads a configuration with the metric registry's ids.
func loadConfig(path string) (*config.Config, error) {
	return config.LoadWith(path, config.Options{KnownMetric: knownMetric})
}
