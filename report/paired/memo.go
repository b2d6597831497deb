package paired

import (
	"strconv"
	"sync"

	"paperbundle/metrics"
	"paperbundle/stats"
)

// Memo keeps bootstrap replicates that several comparisons share: the
// confusion cells of two sides at one threshold serve every confusion
// metric at it (TP, sensitivity, F1, MCC, ...). Safe for concurrent use.
type Memo struct {
	mu sync.Mutex
	m  map[string]memoEntry
}

type memoEntry struct {
	reps   *stats.Replicates
	n      int
	reason string
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{m: map[string]memoEntry{}} }

func (m *Memo) get(key string, f func() memoEntry) memoEntry {
	if m == nil || key == "" {
		return f()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok {
		e = f()
		m.m[key] = e
	}
	return e
}

// confusionTest is the paired bootstrap of a confusion metric: both
// sides' confusion cells at the metric's threshold in every replicate
// (kept in opt.Memo), read by value.
func confusionTest(id metrics.ID, value func(metrics.Confusion) float64, p Pairs, opt Options) Result {
	_, param, arg := metrics.ParseID(id)
	x, err := strconv.ParseFloat(trimParam(arg), 64)
	if err != nil {
		return untested("a parameter that is not a number")
	}
	key := ""
	if p.X.Key != "" && p.Y.Key != "" {
		key = p.X.Key + "\x00" + p.Y.Key + "\x00" + arg
	}
	e := opt.Memo.get(key, func() memoEntry {
		y, _, _, keep, reason := scoredKeep(p)
		if reason != "" {
			return memoEntry{reason: reason}
		}
		if param == metrics.ParamTau && (!p.X.Prob || !p.Y.Prob) {
			return memoEntry{reason: "the scores are not probabilities"}
		}
		g, ng := groupsOf(p.Group, keep)
		side := func(s Side) ([][4]int64, string) {
			score := make([]float64, len(keep))
			var fold []int
			if s.Fold != nil {
				fold = make([]int, len(keep))
			}
			for k, i := range keep {
				score[k] = s.Score[i]
				if fold != nil {
					fold[k] = s.Fold[i]
				}
			}
			return confusionCells(param, x, y, score, fold, s, g, ng)
		}
		cx, reason := side(p.X)
		if reason != "" {
			return memoEntry{reason: reason}
		}
		cy, reason := side(p.Y)
		if reason != "" {
			return memoEntry{reason: reason}
		}
		plan := stats.Plan{Group: g, NGroups: ng, B: opt.Resamples, Seed: opt.Seed, Workers: opt.Workers}
		reps := stats.RunCounts(plan, 8, func() func(int, []int32, []float64) {
			return func(_ int, cnt []int32, out []float64) {
				weighCells(cx, cnt, out[:4])
				weighCells(cy, cnt, out[4:])
			}
		})
		return memoEntry{reps: reps, n: len(keep)}
	})
	if e.reason != "" {
		return untested(e.reason)
	}
	d := make([]float64, e.reps.B)
	for b := range d {
		row := e.reps.Row(b)
		d[b] = value(confusionOf(row[:4])) - value(confusionOf(row[4:]))
	}
	r := Replicates(d)
	if r.Test != None {
		r.N = e.n
	}
	return r
}

// Recompute returns metric id recomputed from one side's evidence at unit
// weights, the value the paired tests resample: the mean of the per-query
// values, the AUROC, or the scored or gate statistic. The report's value
// must equal it (up to summation rounding); the tests check it, so that a
// test never tests a statistic other than the bundle's.
func Recompute(id metrics.ID, s Side) (float64, string) {
	p := Pairs{X: s, Y: s}
	switch metrics.TestOf(id) {
	case metrics.TestMean:
		if s.Values == nil {
			return 0, "no per-query values of this metric"
		}
		var sum float64
		n := 0
		for _, v := range s.Values {
			if v == v {
				sum += v
				n++
			}
		}
		return sum / float64(n), ""
	case metrics.TestDeLong:
		y, sx, _, reason := scored(p)
		if reason != "" {
			return 0, reason
		}
		return stats.NewScored(y, sx).AUROC(nil), ""
	case metrics.TestScored, metrics.TestGate:
		if value, ok := metrics.ConfusionValue(id.Base()); ok && metrics.TestOf(id) == metrics.TestScored {
			y, _, _, keep, reason := scoredKeep(p)
			if reason != "" {
				return 0, reason
			}
			_, param, arg := metrics.ParseID(id)
			x, _ := strconv.ParseFloat(trimParam(arg), 64)
			score, fold := make([]float64, len(keep)), make([]int, len(keep))
			for k, i := range keep {
				score[k], fold[k] = s.Score[i], s.Fold[i]
			}
			g, ng := groupsOf(nil, keep)
			cells, reason := confusionCells(param, x, y, score, fold, s, g, ng)
			if reason != "" {
				return 0, reason
			}
			var sum [4]float64
			weighCells(cells, ones(ng), sum[:])
			return value(confusionOf(sum[:])), ""
		}
		fx, _, _, _, ng, reason := statistics(id, p)
		if reason != "" {
			return 0, reason
		}
		return fx()(ones(ng)), ""
	}
	return 0, "not recomputed from evidence"
}

func ones(n int) []int32 {
	w := make([]int32, n)
	for i := range w {
		w[i] = 1
	}
	return w
}
