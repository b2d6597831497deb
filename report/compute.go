package report

import (
	"cmp"
	"context"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/par"
	"paperbundle/internal/toolid"
	"paperbundle/metrics"
	"paperbundle/report/engine"
)

// Options are the settings of Compute that do not come from paper.yaml.
type Options struct {
	Version  string
	Tool     string
	Build    *toolid.ID        // the tool's build identity, shown in the provenance; nil: not recorded
	Workers  int               // bootstrap workers; 0 = GOMAXPROCS
	Progress func(step string) // may be nil
	// Generated is the generation time the report records
	// (Report.Generated, RFC 3339 in UTC); zero records none. Compute never
	// reads the clock nor the environment: the command passes
	// SOURCE_DATE_EPOCH.
	Generated time.Time

	// FreeRows lets Compute free the per-candidate lists of the dataset's
	// rows (ids, scores, grades, node probabilities, selections) as soon
	// as it has no more use for them: the ids of rows without a selected
	// set at once, the rest after the per-query rows. The caller must not
	// read them afterwards. On benchmark workload (b) (1,000,000 queries) it brings the live heap at the
	// start of the bootstrap from 1.9 to 1.1 GB (docs/performance.md).
	FreeRows bool

	// NoAVX2 makes the bootstrap weigh its sums with the Go loops even
	// where the CPU has the AVX2 kernels; both give the same bits (the
	// tests compare them).
	NoAVX2 bool
}

// Compute computes every number of the bundle from a validated dataset.
func Compute(ctx context.Context, cfg *config.Config, ds *dataset.Dataset, opt Options) (*Report, error) {
	if len(ds.Systems) == 0 {
		return nil, errNoSystems
	}
	if opt.Progress == nil {
		opt.Progress = func(string) {}
	}
	c := newComputer(cfg, ds, opt)
	r := &Report{
		SchemaVersion:  SchemaVersion,
		Version:        opt.Version,
		Title:          cfg.Title,
		Tool:           opt.Tool,
		ToolBuild:      opt.Build,
		Warnings:       []string{},
		Comparisons:    []Comparison{},
		ComparisonMode: string(cmp.Or(cfg.Comparisons, config.ComparePrimary)),
		Distributions:  []Distribution{},
		Metrics:        []Metric{},
		Thresholds:     []Thresholds{},
		index:          map[metricKey]int{},
	}
	if !opt.Generated.IsZero() {
		r.Generated = opt.Generated.UTC().Format(time.RFC3339)
	}
	c.rep = r
	r.Settings = settingsOf(cfg)
	if opt.FreeRows {
		c.freeCandidateIDs()
	}
	c.summarize()
	c.dynK = c.dynKSystems()
	c.capabilities()
	c.headlineSet()
	c.dropInapplicable()
	c.warnings()
	opt.Progress("metrics")
	// The baselines run on a shard of their own beside the systems'
	// sections and are merged after them, as in a serial run. The shard is
	// made before the systems' parts are merged into c.
	bsh := c.shard()
	var bl part
	var wg sync.WaitGroup
	wg.Go(func() { bsh.baselines(); bl = bsh.take() })
	err := c.systems(ctx)
	if err == nil {
		c.perQueryRows()
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	c.merge(bl)
	c.rep.Reindex()
	if opt.FreeRows {
		c.freeRows(c.primary, false)
	}
	opt.Progress("bootstrap")
	if err := c.bootstrapAll(ctx); err != nil {
		return nil, err
	}
	if err := c.checkHeadline(); err != nil {
		return nil, err
	}
	c.comparisons()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.checks()
	if c.ds.TRECConventions != nil {
		c.unjudgedWarnings()
		sort.Strings(c.rep.Warnings)
	}
	c.finish()
	c.intervalWarnings()
	c.sayModel()
	return r, nil
}

// computer holds what every section shares.
type computer struct {
	cfg *config.Config
	ds  *dataset.Dataset
	opt Options
	rep *Report

	// cands: some row of some system has candidates (a classifier-only
	// table has none: no ranking, Dynamic-K or per-post results).
	// neScore: every row has an NE-gate score, ne_prob or ne_score
	// (dataset.Row.NEScore); without ds.HasNEProb the scores are not
	// probabilities and only the rank-based NE metrics apply.
	cands, neScore bool

	eval      []int   // indexes of eval queries in ds.Queries
	y         []bool  // has evidence, per eval row
	fold      []int   // fold per eval row
	folds     []int   // distinct folds, ascending
	group     []int32 // bootstrap group per eval row
	groupFold []int   // fold of each group (a post is evaluated in one fold)
	nGroups   int
	crit      []int         // criterion index per eval row (-1 none)
	criteria  []string      // distinct criteria
	tuneOf    map[int][]int // fold -> tune query indexes (or cross-fitted eval rows)
	crossFit  map[int]bool
	strata    []stratum
	stratOf   []int          // stratum per eval row (-1: not positive / none)
	critSel   []*engine.Rows // rows of each criterion
	stratSel  []*engine.Rows // rows of each stratum

	sys     []*sysCalc
	boots   []*sysBoot
	primary int    // index of the primary system (config primary)
	dynK    []bool // per system: it has a Dynamic-K selection of its own (dynKSystems)

	qscratch []float64         // scratch of engine.PercentileInterval
	pct      []engine.Interval // percentile interval of every replicate column
}

type stratum struct {
	lo, hi int // hi < 0: open
	label  string
}

// sysCalc is the per-system state: its columns and statistics.
type sysCalc struct {
	name   string
	tab    *engine.Table
	stats  []*sumStat
	scored []*scoredStat
	ne     []float64 // ne_prob per eval row (nil without)
	k      []int     // selected K per eval row
	state  []dataset.State
	perQ   map[metrics.ID][]float64 // per-query values by metric id (for comparisons, CSV); see keepPerQ
	// perQSeen indexes the vectors of perQ by their bits' hash, so that
	// equal vectors are kept once (keepPerQ); nil once perQ is complete.
	perQSeen map[uint64][][]float64
}

// newComputer prepares one computation: the eval rows, labels, folds,
// groups, criteria and strata every section reads. It is a little over
// 100 lines because it is one list of independent fields filled in order,
// each a few lines; splitting it would only move the list.
func newComputer(cfg *config.Config, ds *dataset.Dataset, opt Options) *computer {
	c := &computer{cfg: cfg, ds: ds, opt: opt, tuneOf: map[int][]int{}, crossFit: map[int]bool{}, primary: max(0, cfg.PrimaryIndex())}
	postIdx := map[string]int32{}
	critIdx := map[string]int{}
	foldSet := map[int]bool{}
	nEval := 0
	for qi := range ds.Queries {
		if ds.Queries[qi].Split == dataset.SplitEval {
			nEval++
		}
	}
	c.eval, c.y, c.fold, c.group = make([]int, 0, nEval), make([]bool, 0, nEval), make([]int, 0, nEval), make([]int32, 0, nEval)
	var lastKey string
	var lastGroup int32
	for qi := range ds.Queries {
		q := &ds.Queries[qi]
		if q.Split != dataset.SplitEval {
			c.tuneOf[q.Fold] = append(c.tuneOf[q.Fold], qi)
			continue
		}
		c.eval = append(c.eval, qi)
		c.y = append(c.y, q.HasEvidence())
		c.fold = append(c.fold, q.Fold)
		foldSet[q.Fold] = true
		key := q.Post
		if cfg.Bootstrap.Unit == config.UnitQuery {
			key = q.ID
		}
		// A post's queries are adjacent (dataset order): the map is read
		// once per run of them.
		if len(c.group) == 0 || key != lastKey {
			g, ok := postIdx[key]
			if !ok {
				g = int32(len(postIdx))
				postIdx[key] = g
			}
			lastKey, lastGroup = key, g
		}
		c.group = append(c.group, lastGroup)
		if q.Criterion != "" {
			if _, ok := critIdx[q.Criterion]; !ok {
				critIdx[q.Criterion] = -1
			}
		}
	}
	c.nGroups = len(postIdx)
	c.groupFold = make([]int, c.nGroups)
	for i, g := range c.group {
		c.groupFold[g] = c.fold[i]
	}
	for f := range foldSet {
		c.folds = append(c.folds, f)
	}
	sort.Ints(c.folds)
	for k := range critIdx {
		c.criteria = append(c.criteria, k)
	}
	sortCriteria(c.criteria)
	for i, k := range c.criteria {
		critIdx[k] = i
	}
	c.crit = make([]int, len(c.eval))
	for i, qi := range c.eval {
		c.crit[i] = -1
		if cr := ds.Queries[qi].Criterion; cr != "" {
			c.crit[i] = critIdx[cr]
		}
	}
	critRows := make([][]int, len(c.criteria))
	for i, ci := range c.crit {
		if ci >= 0 {
			critRows[ci] = append(critRows[ci], i)
		}
	}
	for ci := range c.criteria {
		c.critSel = append(c.critSel, engine.NewRows(critRows[ci], func(i int) bool { return c.crit[i] == ci }))
	}
	// Folds without tune rows: cross-fit on the other folds' eval rows.
	for _, f := range c.folds {
		if len(c.tuneOf[f]) > 0 {
			continue
		}
		c.crossFit[f] = true
		other := 0
		for _, fi := range c.fold {
			if fi != f {
				other++
			}
		}
		c.tuneOf[f] = make([]int, 0, other)
		for _, qi := range c.eval {
			if ds.Queries[qi].Fold != f {
				c.tuneOf[f] = append(c.tuneOf[f], qi)
			}
		}
	}
	c.makeStrata()
	c.neScore = ds.HasNEScore || ds.HasNEProb
	for si := range ds.Systems {
		for qi := range ds.Systems[si].Rows {
			if len(ds.Systems[si].Rows[qi].Scores) > 0 {
				c.cands = true
				break
			}
		}
		if c.cands {
			break
		}
	}
	return c
}

// dropInapplicable forgets the criteria and the strata when their
// sections do not apply, so that no section computes a slice of them.
func (c *computer) dropInapplicable() {
	if !c.has(PerCriterion) {
		c.criteria, c.critSel = nil, nil
		for i := range c.crit {
			c.crit[i] = -1
		}
	}
	if !c.has(Strata) {
		c.strata, c.stratSel = nil, nil
		for i := range c.stratOf {
			c.stratOf[i] = -1
		}
	}
}

// sortCriteria orders criterion ids naturally: A.2 before A.10.
func sortCriteria(s []string) {
	sort.Slice(s, func(i, j int) bool { return naturalLess(s[i], s[j]) })
}

func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		ia, ib := digitsPrefix(a), digitsPrefix(b)
		if ia > 0 && ib > 0 {
			na, _ := strconv.Atoi(a[:ia])
			nb, _ := strconv.Atoi(b[:ib])
			if na != nb {
				return na < nb
			}
			a, b = a[ia:], b[ib:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitsPrefix(s string) int {
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// makeStrata builds the n_pos bands of the stratified analysis
// (docs/metrics.md "Stratified analysis").
func (c *computer) makeStrata() {
	var npos []int
	for _, qi := range c.eval {
		if n := len(c.ds.Queries[qi].Gold); n > 0 {
			npos = append(npos, n)
		}
	}
	var bands []stratum
	if c.cfg.Strata.Auto {
		sort.Ints(npos)
		if len(npos) > 0 {
			q := func(p float64) int { return npos[int(math.Floor(p*float64(len(npos)-1)))] }
			edges := []int{npos[0], q(1.0 / 3), q(2.0 / 3), npos[len(npos)-1]}
			lo := edges[0]
			for i := 1; i < len(edges); i++ {
				hi := edges[i] // a band ends at a tertile; the next starts after it
				if hi < lo {
					continue
				}
				bands = append(bands, stratum{lo: lo, hi: hi})
				lo = hi + 1
			}
		}
	} else {
		for _, b := range c.cfg.Strata.Bands {
			bands = append(bands, stratum{lo: b.Lo, hi: b.Hi})
		}
	}
	// Drop empty bands (merging them away).
	c.stratOf = make([]int, len(c.eval))
	for _, b := range bands {
		cnt := 0
		for _, n := range npos {
			if n >= b.lo && (b.hi < 0 || n <= b.hi) {
				cnt++
			}
		}
		if cnt == 0 {
			continue
		}
		if b.hi < 0 {
			b.label = strconv.Itoa(b.lo) + "+"
		} else if b.lo == b.hi {
			b.label = strconv.Itoa(b.lo)
		} else {
			b.label = strconv.Itoa(b.lo) + "-" + strconv.Itoa(b.hi)
		}
		c.strata = append(c.strata, b)
	}
	for i, qi := range c.eval {
		c.stratOf[i] = -1
		n := len(c.ds.Queries[qi].Gold)
		if n == 0 {
			continue
		}
		for si, b := range c.strata {
			if n >= b.lo && (b.hi < 0 || n <= b.hi) {
				c.stratOf[i] = si
				break
			}
		}
	}
	for si := range c.strata {
		c.stratSel = append(c.stratSel, engine.SelectRows(len(c.eval), func(i int) bool { return c.stratOf[i] == si }))
	}
}

// settingsOf copies the facts of the configuration that renderers need.
func settingsOf(cfg *config.Config) Settings {
	return Settings{
		HeadlineCutoff:  HeadlineCutoff(cfg.Cutoffs),
		Cutoffs:         append([]int{}, cfg.Cutoffs...),
		FPRTargets:      append([]float64{}, cfg.FPRTargets...),
		OperatingPoints: append([]float64{}, cfg.OperatingPoints...),
		GammaSweep:      append([]float64{}, cfg.DynamicK.Sweep...),
		Seed:            cfg.Seed,
		Significance:    SignificanceSettings{Alpha: cfg.Significance.Alpha, Correction: cfg.Significance.Correction},
		Bootstrap: BootstrapSettings{Resamples: cfg.Bootstrap.Resamples, Unit: cfg.Bootstrap.Unit,
			Method: cfg.Bootstrap.Method, Confidence: cfg.Bootstrap.Confidence},
		Calibration: CalibrationSettings{Bins: cfg.Calibration.Bins, Strategy: cfg.Calibration.Strategy},
		Gate:        GateSettings{ScreenSensitivity: cfg.Gate.ScreenSensitivity, AlertPrecision: cfg.Gate.AlertPrecision},
		Conventions: Conventions{MAPDenominator: cfg.Contract.MAPDenominator, FoldStd: cfg.Contract.FoldStd,
			UndefinedAUROC: cfg.Contract.UndefinedAUROC, NDCGGain: cfg.Contract.NDCGGain},
	}
}

// systems computes the metrics of every system, on all cores: each system
// returns its part (metrics, thresholds, curves, distributions, ...), and
// the parts are merged in system order, which gives the report a loop over
// the systems would.
func (c *computer) systems(ctx context.Context) error {
	n := len(c.ds.Systems)
	parts := make([]part, n)
	par.Jobs(c.opt.Workers, n, func() func(int) {
		return func(si int) {
			if ctx.Err() == nil {
				parts[si] = c.section(func(sh *computer) { sh.system(si) })
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, p := range parts {
		c.merge(p)
	}
	c.rep.Reindex()
	return nil
}

// rows calls f on consecutive ranges of 0..n-1 that together cover it, on
// all cores unless n is small (the TREC workload has 5,000 queries of 1,000
// documents each).
// f must only write to its own rows.
func (c *computer) rows(n int, f func(lo, hi int)) {
	const chunk = 1 << 9
	if n < 4*chunk {
		f(0, n)
		return
	}
	par.Jobs(c.opt.Workers, (n+chunk-1)/chunk, func() func(int) {
		return func(k int) { f(k*chunk, min((k+1)*chunk, n)) }
	})
}
