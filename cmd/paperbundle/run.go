package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"paperbundle/bundle"
	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/dataset/demo"
	"paperbundle/internal/termsafe"
	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/templates"
)

// Exit statuses: 0 success, 1 internal error, 2 bad input or usage, 3 a
// failed hard consistency check.
const (
	exitOK       = 0
	exitInternal = 1
	exitInput    = 2
	exitCheck    = 3
)

// statusError carries the exit status of a failed command.
type statusError struct {
	code int
	err  error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

func withStatus(code int, err error) error {
	if err == nil {
		return nil
	}
	return &statusError{code, err}
}

// exitCode maps an error to the process exit status: input errors are 2,
// failed hard consistency checks 3, anything else 1.
func exitCode(err error) int {
	var se *statusError
	if errors.As(err, &se) {
		return se.code
	}
	var el dataset.ErrorList
	if errors.As(err, &el) {
		for _, e := range el {
			if !e.Consistency {
				return exitInput
			}
		}
		return exitCheck
	}
	var ie *dataset.InputError
	if errors.As(err, &ie) {
		if ie.Consistency {
			return exitCheck
		}
		return exitInput
	}
	var ce *report.CheckError
	if errors.As(err, &ce) {
		return exitCheck
	}
	return exitInternal
}

const usage = `paperbundle: per-query outputs of a retrieval / ranking pipeline in, a versioned
paper bundle out (report.html, metrics_master.json, figures, tables.xlsx,
LaTeX and CSV tables), every metric with a bootstrap confidence interval.

usage:
  paperbundle init [-out paper.yaml] [-qrels FILE] FILE...
        write a commented paper.yaml for your files (never overwrites)
  paperbundle check [-config paper.yaml]
        validate the inputs and the configuration; writes nothing
  paperbundle build [-config paper.yaml] [-version V] [-out DIR] [-force] [-q]
        compute everything and write DIR/vN/ (next free N)
  paperbundle verify [-strict] BUNDLE_DIR
        check every file's hash and recompute from the bundle's inputs/
  paperbundle diff [-format text|md|csv|json|html] [-all] BUNDLE_A BUNDLE_B
        what changed between two versions, with paired significance tests
  paperbundle summary BUNDLE_DIR
        print SUMMARY.md, the short text for a review ticket
  paperbundle audit [-bundle DIR] [-format text|json|md] [-all] FILE...
        check the numbers of a manuscript (tex, md, docx) against the bundle
  paperbundle demo -out DIR [-seed N]
        write a synthetic demo dataset and its paper.yaml
  paperbundle version                  (also -version)
        the tool version, the Go version and the module versions
  paperbundle help [SUBCOMMAND]        (also SUBCOMMAND -h)
        this page, or a subcommand's: every flag with its default, an example

example: one CSV file per system, one row per query (post_id, criterion_id,
fold, split, gold_uids, candidate_uids, candidate_scores, ne_prob, ...; the
columns are in docs/input-format.md):
  paperbundle init runs/full.csv runs/bm25.csv  # paper.yaml, a system per file
  paperbundle check                             # file:line:col: what is wrong
  paperbundle build     # results/paper_bundle/v1/report.html and the rest
  paperbundle build     # v2, with CHANGES.md: what changed since v1

exit status: 0 ok; 2 bad input or configuration; 3 a consistency check failed
or verify found a bundle that is not valid; 1 internal error or a failure
of the machine (temporary folder, permissions, a full disk, stdout); 130 (143)
interrupted by SIGINT (SIGTERM), nothing written. audit exits 1 when the
manuscript disagrees with the bundle (a stale, mismatched or claimed number).
`

// run is the whole command, testable: it never calls os.Exit.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return withStatus(exitInput, errors.New("missing subcommand: start with `paperbundle init FILE...` or `paperbundle demo -out demo`"))
	}
	var err error
	switch args[0] {
	case "build":
		err = runBuild(ctx, stdout, stderr, args[1:])
	case "check":
		err = runCheck(ctx, stdout, stderr, args[1:])
	case "demo":
		err = runDemo(stdout, stderr, args[1:])
	case "init":
		err = runInit(stdout, stderr, args[1:])
	case "verify":
		err = runVerify(ctx, stdout, stderr, args[1:])
	case "diff":
		err = runDiff(ctx, stdout, stderr, args[1:])
	case "summary":
		err = runSummary(stdout, stderr, args[1:])
	case "audit":
		err = runAudit(ctx, stdout, stderr, args[1:])
	case "version", "-version", "--version":
		err = runVersion(stdout, args[1:])
	case "help":
		err = runHelp(ctx, stdout, stderr, args[1:])
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		return unknownCommand(stderr, args[0])
	}
	return helpOK(err)
}

func runDemo(stdout, stderr io.Writer, args []string) error {
	fs := newFlags("demo")
	out := fs.String("out", "", "the `folder` to write the demo dataset and its paper.yaml into (required)")
	seed := fs.Uint64("seed", 20260118, "random seed")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("demo", "unexpected argument %q", pos[0])
	}
	if *out == "" {
		return usageError("demo", "-out DIR is required, e.g. paperbundle demo -out demo")
	}
	if err := demo.Write(*out, demo.Options{Seed: *seed}); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stdout, "demo dataset written to %s (config: %s)\n", *out, filepath.Join(*out, "paper.yaml"))
	return nil
}

// loadInputs reads paper.yaml and every input it names.
func loadInputs(path string) (*config.Config, *dataset.Dataset, error) {
	cfg, err := loadConfig(path)
	if err != nil {
		return nil, nil, err
	}
	ds, err := loadDataset(cfg)
	if err != nil {
		return nil, nil, err
	}
	return cfg, ds, nil
}

// loadDataset reads every input that cfg names.
func loadDataset(cfg *config.Config) (*dataset.Dataset, error) {
	return loadDatasetWith(cfg, nil)
}

// loadDatasetWith reads every input that cfg names, each opened by open
// (nil: dataset.OpenFile).
func loadDatasetWith(cfg *config.Config, open func(string) (io.ReadCloser, error)) (*dataset.Dataset, error) {
	spec := datasetSpec(cfg, cfg.ResolvePath)
	spec.NamedBy = cfg.NamedBy(cfg.ResolvePath) // a missing input is reported at its line of paper.yaml
	spec.Open = open
	setMemoryLimit(specBytes(spec))
	return dataset.Load(spec)
}

// specBytes is the size of the files spec names, as far as they can be
// read (a missing one is reported by dataset.Load).
func specBytes(spec dataset.Spec) int64 {
	paths := []string{spec.Qrels, spec.Queries}
	for _, s := range spec.Systems {
		paths = append(paths, s.Input, s.NEProbs)
	}
	var n int64
	for _, p := range paths {
		if p == "" {
			continue
		}
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// datasetSpec describes the inputs of cfg for dataset.Load; resolve maps
// a path as given in the configuration to the file to read (build: the
// path beside paper.yaml; verify: the bundle's copy).
func datasetSpec(cfg *config.Config, resolve func(string) string) dataset.Spec {
	var spec dataset.Spec
	for _, s := range cfg.Systems {
		ss := dataset.SystemSpec{Name: s.Name, Label: s.Label, Input: resolve(s.Input), Source: s.Input, Format: inputFormat(s)}
		if s.NEProbs != "" {
			ss.NEProbs = resolve(s.NEProbs)
		}
		spec.Systems = append(spec.Systems, ss)
	}
	if cfg.Qrels != "" {
		spec.Qrels = resolve(cfg.Qrels)
	}
	if cfg.Queries != "" {
		spec.Queries = resolve(cfg.Queries)
	}
	if cfg.Contract.NDCGGain != config.GainLinear {
		spec.MaxGrade = dataset.MaxExpGrade
	}
	spec.TREC = dataset.TREC{RelevanceLevel: cfg.TREC.RelevanceLevel, NoRelevant: string(cfg.TREC.NoRelevant), MissingRunZero: cfg.TREC.MissingRun == config.MissingRunZero}
	return spec
}

// knownMetric reports whether id is a metric of the registry (targets in
// paper.yaml name metrics).
func knownMetric(id string) bool {
	_, ok := metrics.Lookup(metrics.ID(id))
	return ok
}

// givenPath is the form of an input path the manifest records: as the
// configuration gives it, cleaned, with forward slashes.
func givenPath(p string) string { return filepath.ToSlash(filepath.Clean(p)) }

// inputFormat is a system's format: its format: key, which the
// configuration fills in from the input's name when it can; "" lets
// dataset.Load tell it from the name, or report that it cannot.
func inputFormat(s config.System) string {
	if s.Format != "" {
		return string(s.Format)
	}
	return dataset.FormatOf(s.Input)
}

func runCheck(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("check")
	cfgPath := fs.String("config", "paper.yaml", "configuration `file`")
	rest, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError("check", "unexpected argument %q (the configuration is -config FILE)", rest[0])
	}
	_, ds, err := loadInputs(*cfgPath)
	if err != nil {
		return err
	}
	eval, tune, pos := 0, 0, 0
	posts, folds := map[string]bool{}, map[int]bool{}
	for _, q := range ds.Queries {
		posts[q.Post], folds[q.Fold] = true, true
		if q.Split == dataset.SplitTune {
			tune++
			continue
		}
		eval++
		if q.HasEvidence() {
			pos++
		}
	}
	fmt.Fprintf(stdout, "%s: ok: %s, %d queries (%d eval, %d of them with gold evidence; %d tune) in %s and %s\nnext: paperbundle build -config %s\n",
		*cfgPath, plural(len(ds.Systems), "system"), len(ds.Queries), eval, pos, tune, plural(len(posts), "post"), plural(len(folds), "fold"), *cfgPath)
	return nil
}

// buildFlags are the flags of paperbundle build.
type buildFlags struct {
	cfgPath, version, out  *string
	force, quiet           *bool
	cpuprofile, memprofile *string
}

// parseBuildFlags parses the arguments of paperbundle build; pos are the
// positional arguments left (build takes none).
func parseBuildFlags(args []string, stdout io.Writer) (f buildFlags, pos []string, err error) {
	fs := newFlags("build")
	f.cfgPath = fs.String("config", "paper.yaml", "configuration `file`")
	f.version = fs.String("version", "", "bundle `version` such as v2 (default: paper.yaml's version, else the next free vN)")
	f.out = fs.String("out", "", "bundle root `folder` (default: paper.yaml's out)")
	f.force = fs.Bool("force", false, "replace an existing version")
	f.quiet = fs.Bool("q", false, "no progress output")
	f.cpuprofile = fs.String("cpuprofile", "", "write a CPU profile to this `file`")
	f.memprofile = fs.String("memprofile", "", "write a heap profile, taken after rendering, to this `file`")
	fs.Var(&stages, "stages", "write the wall time of each stage to this `file` (make bench)")
	pos, err = parseArgs(fs, args, stdout)
	return f, pos, err
}

// maxEpoch is 9999-12-31T23:59:59Z, the last second a four-digit year
// (RFC 3339, the bundle's dates) can write.
const maxEpoch = 253402300799

// checkSourceDateEpoch refuses a SOURCE_DATE_EPOCH that is set but not a
// whole number of seconds from 0 to maxEpoch: it dates every file of the
// bundle, and one silently ignored would give undated files the user
// asked to date.
func checkSourceDateEpoch(s string) error {
	if s == "" {
		return nil
	}
	if sec, err := strconv.ParseInt(s, 10, 64); err != nil || sec < 0 || sec > maxEpoch {
		return withStatus(exitInput, fmt.Errorf("SOURCE_DATE_EPOCH: got %q, expected a whole number of seconds since 1970-01-01 UTC from 0 to %d, such as 1767225600 (or unset it)", termsafe.Name(s), maxEpoch))
	}
	return nil
}

// check refuses positional arguments and a malformed -version.
func (f buildFlags) check(pos []string) error {
	if len(pos) > 0 {
		return usageError("build", "unexpected argument %q (the configuration is -config FILE)", pos[0])
	}
	if *f.version != "" && bundle.TooLarge(*f.version) {
		return withStatus(exitInput, fmt.Errorf("-version: got %q, a number of more than 9 digits, expected numbers up to %d such as v2 or v2.0.1", *f.version, bundle.MaxVersionNumber))
	}
	if *f.version != "" && !bundle.ValidVersion(*f.version) {
		return withStatus(exitInput, fmt.Errorf("-version: got %q, expected v<N> or v<N>.<N>... such as v2 or v2.0.1 (the name of the bundle's folder under the root)", *f.version))
	}
	return nil
}

// startCPUProfile starts a CPU profile written to path ("": none); stop
// ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func runBuild(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	flags, pos, err := parseBuildFlags(args, stdout)
	if err != nil {
		return err
	}
	cfgPath, version, out, force, quiet, memprofile := flags.cfgPath, flags.version, flags.out, flags.force, flags.quiet, flags.memprofile
	stopProfile, err := startCPUProfile(*flags.cpuprofile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if err := flags.check(pos); err != nil {
		return err
	}
	if err := checkSourceDateEpoch(os.Getenv("SOURCE_DATE_EPOCH")); err != nil {
		return err
	}
	start := time.Now()
	progress := newProgress(stderr, *quiet)
	progress.step("loading inputs")
	endLoad := stages.begin(stageLoad)
	cfgData, err := config.ReadFile(*cfgPath) // read once: parsed, hashed and copied
	if err != nil {
		endLoad()
		return err
	}
	cfg, err := config.ParseWith(*cfgPath, cfgData, filepath.Dir(*cfgPath), config.Options{KnownMetric: knownMetric})
	if err != nil {
		endLoad()
		return err
	}
	root, v, err := buildTarget(cfg, *out, *version, *force)
	if err != nil {
		endLoad()
		return err
	}
	// Each input is read once: the loader's reader hashes the bytes it
	// parses and compresses their copy (inputReaders), so the manifest
	// records what was measured.
	b := bundle.New()
	if cfg.Version == "" && *version == "" && !*force {
		// Building again what the latest version holds writes nothing.
		if cur, ok := unchanged(root, cfg); ok {
			endLoad()
			progress.done()
			fmt.Fprintf(stdout, "unchanged: %s is current (same configuration, inputs and tool; -force writes a new version)\n", cur)
			pointLatest(stderr, root)
			return copyPaper(cfg, filepath.Join(root, cur))
		}
	}
	if cfg.Paper.CopyTo != "" {
		// Refused before anything is computed: a folder holding files
		// that are not ours is never written to.
		if err := bundle.CheckCopyTarget(cfg.ResolvePath(cfg.Paper.CopyTo)); err != nil {
			return withStatus(exitInput, err)
		}
	}
	taps := newInputReaders(cfg, cfgData)
	ds, err := loadDatasetWith(cfg, taps.open)
	endLoad()
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err // interrupted while loading
	}
	if v == "" {
		// Claimed atomically: a build started beside this one takes the
		// version after it.
		var release func()
		if v, release, err = bundle.ClaimNextVersion(root); err != nil {
			if errors.Is(err, bundle.ErrNoNextVersion) {
				return withStatus(exitInput, fmt.Errorf("build: %w", err))
			}
			return err
		}
		defer release()
	}
	cfg.Version = v
	progress.step("computing metrics")
	computeProgress, endCompute := stages.compute(progress.step)
	rep, err := report.Compute(ctx, cfg, ds, report.Options{Version: v, Tool: toolVersion(), Build: toolBuild(), Progress: computeProgress, FreeRows: true, Generated: sourceDateEpoch()})
	endCompute()
	if err != nil {
		return err
	}
	inputs, err := taps.add(b, cfg)
	if err != nil {
		return err
	}
	if err := writeHeapProfile(*memprofile, ""); err != nil {
		return err
	}
	if err := rep.HardCheckError(); err != nil {
		return err // a failed hard check writes no bundle
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, prev, counts, err := writeBundle(ctx, b, rep, cfg, inputs, root, *force, *memprofile, progress)
	if err != nil {
		return err
	}
	progress.done()
	pointLatest(stderr, root)
	if err := copyPaper(cfg, dir); err != nil {
		return err
	}
	if w := reportSizeWarning(b, rep); w != "" {
		fmt.Fprintln(stderr, "paperbundle: warning:", w)
	}
	if err := stages.write(); err != nil {
		fmt.Fprintf(stderr, "paperbundle: -stages: %v\n", err) // the bundle is committed: only the timing is lost
	}
	buildSummary{Dir: dir, Version: v, Files: len(b.Names()) + 1, Seconds: time.Since(start).Seconds(),
		Previous: prev, Significant: counts.significant, Claims: counts.claims}.write(stdout, rep)
	return nil
}

// changeCounts are the numbers of the console summary's changes line.
type changeCounts struct{ significant, claims int }

// writeBundle renders the files of rep into b, with the changes since the
// previous version of root, and commits b as version cfg.Version of root.
// It returns the bundle's folder, the previous version ("": none) and the
// numbers of significant changes and of claims that changed since it.
func writeBundle(ctx context.Context, b *bundle.Bundle, rep *report.Report, cfg *config.Config, inputs []templates.InputFile,
	root string, force bool, memprofile string, progress *progress) (dir, prev string, counts changeCounts, err error) {
	v := cfg.Version
	progress.step("rendering")
	cfgYAML, err := cfg.YAML()
	if err != nil {
		return "", "", changeCounts{}, err
	}
	progress.step("comparing with the previous version")
	prev = bundle.Before(root, v, "metrics_master.json")
	chg, was, err := changesWithPrevious(root, prev, rep, cfgYAML, b.Inputs())
	if err != nil {
		return "", "", changeCounts{}, err
	}
	if chg != nil {
		counts = changeCounts{significant: chg.Significant(), claims: len(chg.Claims)}
	}
	if err := render(b, rep, record{Paper: paperOptions(cfg.Paper), Config: cfgYAML, Inputs: inputs, Changes: chg,
		Summary: summaryInput(rep, chg, prev, v)}); err != nil {
		return "", "", changeCounts{}, err
	}
	if err := writeHeapProfile(memprofile, ".render"); err != nil {
		return "", "", changeCounts{}, err
	}
	if err := ctx.Err(); err != nil {
		return "", "", changeCounts{}, err
	}
	endCommit := stages.begin(stageWrite)
	dir, err = b.Commit(bundle.CommitOptions{Root: root, Version: v, Force: force, Tool: toolVersion(), ToolBuild: toolBuild(), Seed: cfg.Seed, Config: cfgYAML, Previous: was, Context: ctx})
	endCommit()
	if err != nil {
		if errors.Is(err, bundle.ErrExists) {
			return "", "", changeCounts{}, withStatus(exitInput, err)
		}
		return "", "", changeCounts{}, err
	}
	return dir, prev, counts, nil
}

// buildTarget is the bundle root and version of a build (v is "" when the
// next free version is to be claimed), checked before anything is
// computed: a valid version, none numerically equal beside it (v01 or
// v1.0 beside v1), not an existing one without -force, a root that is a
// folder that can be written and a version short enough for a folder
// name. Each problem is an input error at the key of paper.yaml that set
// it (or the flag).
func buildTarget(cfg *config.Config, outFlag, versionFlag string, force bool) (root, v string, err error) {
	root, rootKey := cfg.ResolvePath(cfg.Out), "out"
	if outFlag != "" {
		root, rootKey = outFlag, "-out"
	}
	v, vKey := cfg.Version, "version"
	if versionFlag != "" {
		v, vKey = versionFlag, "-version"
	}
	at := func(key, format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		if !strings.HasPrefix(key, "-") {
			if line, col, ok := cfg.Position(key); ok {
				return withStatus(exitInput, fmt.Errorf("%s:%d:%d: %s: %s", cfg.File, line, col, key, msg))
			}
		}
		return withStatus(exitInput, fmt.Errorf("build: %s: %s", key, msg))
	}
	if enc := bundle.Enclosing(root); enc != "" {
		if wd, err := os.Getwd(); err == nil && !filepath.IsAbs(root) {
			if rel, err := filepath.Rel(wd, enc); err == nil {
				enc = rel // named as the user named root
			}
		}
		return "", "", at(rootKey, "%s is inside the bundle %s (or is one), expected the folder that holds the versions, such as %s", root, enc, filepath.Dir(enc))
	}
	if err := bundle.Preflight(root, v); err != nil {
		key := rootKey
		if len(v) > bundle.MaxVersionLen {
			key = vKey
		}
		return "", "", at(key, "%v", err)
	}
	if v == "" {
		return root, "", nil
	}
	if !bundle.ValidVersion(v) {
		return "", "", at(vKey, "got %q, expected v<N> or v<N>.<N>... such as v2 or v2.0.1", v)
	}
	if other := bundle.Ambiguous(root, v); other != "" {
		return "", "", at(vKey, "%s is ambiguous beside the existing %s (the same number); choose another version, or %s itself", v, filepath.Join(root, other), other)
	}
	if _, err := os.Lstat(filepath.Join(root, v)); err == nil {
		dir := filepath.Join(root, v)
		if why := bundle.Ours(dir); why != nil {
			// Not a bundle of this tool: -force would delete what is
			// not ours, so it is not offered.
			return "", "", withStatus(exitInput, fmt.Errorf("build: %s already exists and is not a bundle of paperbundle: %v; nothing there is replaced, expected another -version or -out", dir, why))
		}
		if !force {
			return "", "", withStatus(exitInput, fmt.Errorf("build: %s already exists; choose another -version or use -force", dir))
		}
	}
	return root, v, nil
}

// inputReaders opens the inputs of a build for dataset.Load, each through
// a bundle.InputReader, so that the bytes parsed are the bytes hashed and
// copied into inputs/.
type inputReaders struct {
	mu      sync.Mutex
	keep    bool
	given   map[string]string              // file as opened -> path as the configuration gives it
	readers map[string]*bundle.InputReader // file as opened -> its first reader
	config  []byte                         // paper.yaml as read and parsed
}

// inputGiven lists the inputs of cfg as the configuration gives them, in
// the order the manifest records them (paper.yaml first).
func inputGiven(cfg *config.Config) []string {
	var given []string
	for _, s := range cfg.Systems {
		given = append(given, s.Input)
		if s.NEProbs != "" {
			given = append(given, s.NEProbs)
		}
	}
	for _, p := range []string{cfg.Qrels, cfg.Queries} {
		if p != "" {
			given = append(given, p)
		}
	}
	return given
}

func newInputReaders(cfg *config.Config, configData []byte) *inputReaders {
	t := &inputReaders{keep: cfg.Bundle.CopyInputs, given: map[string]string{}, readers: map[string]*bundle.InputReader{}, config: configData}
	for _, g := range inputGiven(cfg) {
		if _, ok := t.given[cfg.ResolvePath(g)]; !ok {
			t.given[cfg.ResolvePath(g)] = g
		}
	}
	return t
}

// open is dataset.Spec.Open.
func (t *inputReaders) open(name string) (io.ReadCloser, error) {
	f, err := dataset.OpenFile(name)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.given[name]
	if !ok {
		g = name
	}
	x := bundle.NewInputReader(givenPath(g), f, t.keep)
	if _, seen := t.readers[name]; !seen {
		t.readers[name] = x
	}
	return x, nil
}

// add records paper.yaml and every input read by the loader in the bundle
// (hash, and a gzip copy under inputs/ unless bundle.copy_inputs is
// false), under its path as the configuration gives it, and returns them
// as the report's provenance shows them.
func (t *inputReaders) add(b *bundle.Bundle, cfg *config.Config) ([]templates.InputFile, error) {
	var out []templates.InputFile
	record := func(r bundle.InputRead) {
		in := b.AddRead(r)
		out = append(out, templates.InputFile{Path: in.Path, Size: in.Bytes, SHA256: in.SHA256})
	}
	if cfg.File != "" {
		in := b.AddInput(givenPath(filepath.Base(cfg.File)), t.config, t.keep)
		out = append(out, templates.InputFile{Path: in.Path, Size: in.Bytes, SHA256: in.SHA256})
	}
	done := map[*bundle.InputReader]bool{}
	for _, g := range inputGiven(cfg) {
		x := t.readers[cfg.ResolvePath(g)]
		if done[x] {
			continue // named twice: recorded once
		}
		done[x] = true
		if x == nil {
			return nil, fmt.Errorf("build: %s was not read", g)
		}
		r, err := x.Finish()
		if err != nil {
			return nil, err
		}
		record(r)
	}
	return out, nil
}

// reportBudget is the size report.html should stay under (the demo's is
// about a third of it); a variable for tests.
var reportBudget = 4 << 20

// reportSizeWarning is the warning of a report.html over its budget,
// naming what it grows with ("" within the budget).
func reportSizeWarning(b *bundle.Bundle, rep *report.Report) string {
	page, _ := b.File("report.html")
	if len(page) <= reportBudget {
		return ""
	}
	figs := 0
	for _, n := range b.Names() {
		if strings.HasPrefix(n, "figures/") && strings.HasSuffix(n, ".svg") {
			figs++
		}
	}
	systems := 0
	for _, sys := range rep.Systems {
		if sys.Kind == report.Pipeline {
			systems++
		}
	}
	why := fmt.Sprintf("%s with their sections and figures (%d figures)", plural(systems, "system"), figs)
	if len(rep.Title) > 1000 {
		why += fmt.Sprintf(", a title of %d characters", len(rep.Title))
	}
	return fmt.Sprintf("report.html is %.1f MB, over its %.1f MB budget: it grows with the %s; list fewer systems under systems: in paper.yaml (ablations in a bundle of their own) to trim it",
		float64(len(page))/(1<<20), float64(reportBudget)/(1<<20), why)
}

// writeHeapProfile writes the live heap (pprof format) to path+suffix;
// nothing when path is "".
func writeHeapProfile(path, suffix string) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path + suffix)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plural writes "1 system", "2 systems".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// pointLatest points root/latest at the newest version; a failure is a
// warning (the bundle itself is written).
func pointLatest(stderr io.Writer, root string) {
	if err := bundle.PointLatestNewest(root); err != nil {
		fmt.Fprintln(stderr, "paperbundle: warning:", err)
	}
}

// copyPaper copies the paper/ folder of the bundle in dir to paper.copy_to
// (nothing without it). A refused folder is an input error (exit 2); the
// bundle itself is written.
func copyPaper(cfg *config.Config, dir string) error {
	if cfg.Paper.CopyTo == "" {
		return nil
	}
	if err := bundle.CopyFolder(filepath.Join(dir, "paper"), cfg.ResolvePath(cfg.Paper.CopyTo)); err != nil {
		return withStatus(exitInput, fmt.Errorf("%w (the bundle %s is written)", err, dir))
	}
	return nil
}
