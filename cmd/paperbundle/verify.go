package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"paperbundle/bundle"
	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/interrupt"
	"paperbundle/internal/termsafe"
	"paperbundle/report"
	"paperbundle/tables"
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
	bad := 0
	var unreadable *bundle.FileStatus
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
	fmt.Fprintln(stdout, res.note)
	differ := res.files()
	other := !sameBuild(op.Manifest)
	if other && differ > 0 {
		fmt.Fprintln(stdout, otherToolText(op.Manifest, res))
	}
	if (bad > 0 || differ > 0) && !bundleStamp(dir).same(before) {
		return withStatus(exitInternal, fmt.Errorf("verify: %s changed while verify read it (another build replaced it, e.g. with -force): what was listed is no verdict; run verify again", termsafe.Name(dir)))
	}
	switch {
	case bad > 0:
		return withStatus(exitCheck, fmt.Errorf("verify: %s: %d file(s) differ from the manifest, %d from the recomputation", dir, bad, differ))
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
	cfgPath := filepath.Join(tmp, "config.yaml")
	y, err := bundle.ReadFile(dir, "config.yaml", config.MaxFileBytes)
	if err != nil {
		return res, err
	}
	if err := os.WriteFile(cfgPath, y, 0o644); err != nil {
		return res, &bundle.EnvError{Path: cfgPath, Err: err}
	}
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return res, err
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
		return res, fmt.Errorf("config.yaml names inputs the bundle holds no copy of: %s", strings.Join(missing, ", "))
	}
	setMemoryLimit(specBytes(spec))
	ds, err := dataset.Load(spec)
	if err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
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
	hashOnly, chNote, since, err := recomputeChanges(dir, m.Inputs, rep, cfgYAML, &rec)
	if err != nil {
		return res, err
	}
	rec.Summary = summaryInput(rep, rec.Changes, since, was.Version)
	if sm, err := readBundleFile(dir, "SUMMARY.md", maxConfigBytes); err == nil && since != "" && rec.Changes == nil {
		// The changes are listed as the bundle lists them: the previous
		// version is not recompared here (CHANGES.md is read the same way).
		rec.Summary.ChangeLines = tables.SummaryChangeLines(sm)
		if rec.Summary.ChangeLines == nil {
			rec.Summary.ChangeLines = []string{}
		}
	}
	files := mapSink{}
	if err := render(files, rep, rec); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	cmp := compareFiles(dir, files, hashOnly, was, rep)
	res.diffs, res.metrics, res.nFiles = cmp.lines, cmp.metrics, cmp.files
	res.note = fmt.Sprintf("recomputed %d files from inputs/ and config.yaml", cmp.compared) + chNote
	if t := toolVersion(); t != was.Tool {
		res.note += fmt.Sprintf(" (bundle made by %s, verified with %s)", was.Tool, t)
	}
	return res, nil
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

// recomputeChanges sets rec.Changes: CHANGES.md and the report's changes
// section are recomputed from the version they compare with when it is in
// the same root; otherwise they are checked by their hashes only (named in
// hashOnly). since is the version CHANGES.md compares with ("" when the
// bundle has no CHANGES.md); note is the sentence verify adds.
func recomputeChanges(dir string, inputs []bundle.Input, rep *report.Report, cfgYAML []byte, rec *record) (hashOnly map[string]bool, note, since string, err error) {
	hashOnly = map[string]bool{}
	ch, err := readBundleFile(dir, "CHANGES.md", maxConfigBytes)
	if err != nil {
		return hashOnly, "", "", nil
	}
	prev, root := changesSince(ch), filepath.Dir(filepath.Clean(dir))
	if _, err := os.Stat(filepath.Join(root, prev, "metrics_master.json")); bundle.ValidVersion(prev) && err == nil {
		now := side{rep: rep, config: cfgYAML, inputs: map[string]string{}}
		for _, in := range inputs {
			now.inputs[in.Path] = in.SHA256
		}
		if rec.Changes, err = changes(root, prev, now); err != nil {
			return nil, "", "", fmt.Errorf("comparing with %s: %w", prev, err)
		}
		return hashOnly, fmt.Sprintf("; CHANGES.md recomputed against %s", prev), prev, nil
	}
	hashOnly["CHANGES.md"], hashOnly["report.html"] = true, true
	return hashOnly, fmt.Sprintf("; CHANGES.md and report.html checked by hashes only (%q, the version they compare with, is not in the same folder)", prev), prev, nil
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

// changesSince reads the version CHANGES.md compares with from its title
// ("# Changes since v1").
func changesSince(md []byte) string {
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
