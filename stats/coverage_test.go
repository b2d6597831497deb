package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Coverage of the 95% percentile interval on simulated data with a known
// population value (400 simulations, fixed seeds). The Monte Carlo standard
// error of a coverage near 0.95 is 0.011, so 0.93-0.97 is a ±1.8 SE band.

const (
	covSims = 400
	covB    = 1000
	covConf = 0.95
)

// TestCoverageQueryUnit: independent queries, resampling unit query. The
// statistic is the AUROC of a binormal score (cases N(1, 1), controls
// N(0, 1)), whose population value is Φ(1/√2).
func TestCoverageQueryUnit(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation")
	}
	truth := normCDF(1 / math.Sqrt2)
	r := rand.New(rand.NewPCG(2026, 1))
	const n = 200
	y := make([]bool, n)
	p := make([]float64, n)
	hit := 0
	for sim := range covSims {
		for i := range n {
			y[i] = r.IntN(2) == 0
			p[i] = r.NormFloat64()
			if y[i] {
				p[i]++
			}
		}
		s := NewScored(y, p)
		reps := Run(Plan{NGroups: n, B: covB, Seed: uint64(sim)}, 1, func(_ int, w []int32, out []float64) {
			out[0] = s.AUROC(w)
		})
		if iv := Percentile(reps.Column(0), covConf); iv.Low <= truth && truth <= iv.High {
			hit++
		}
	}
	cov := float64(hit) / covSims
	t.Logf("query unit, independent data: coverage %.3f", cov)
	if cov < 0.93 || cov > 0.97 {
		t.Errorf("coverage %.3f outside [0.93, 0.97]", cov)
	}
}

// TestCoveragePostUnit: clustered data, a per-query value
// x = μ + u_post + e with u ~ N(0, 0.6²), e ~ N(0, 1), 100 posts of 8
// queries (intra-class correlation 0.26). The statistic is the mean of x,
// population value μ. The post-unit bootstrap covers at the nominal rate;
// the query-unit bootstrap ignores the correlation and under-covers.
func TestCoveragePostUnit(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation")
	}
	const mu, posts, per = 0.7, 100, 8
	r := rand.New(rand.NewPCG(2026, 2))
	n := posts * per
	x := make([]float64, n)
	group := make([]int32, n)
	for i := range group {
		group[i] = int32(i / per)
	}
	hitPost, hitQuery := 0, 0
	for sim := range covSims {
		for g := range posts {
			u := 0.6 * r.NormFloat64()
			for k := range per {
				x[g*per+k] = mu + u + r.NormFloat64()
			}
		}
		gm := NewGroupedMean(x, group, posts)
		post := Run(Plan{Group: group, NGroups: posts, B: covB, Seed: uint64(sim)}, 1, func(_ int, w []int32, out []float64) {
			out[0] = gm.Mean(w)
		})
		if iv := Percentile(post.Column(0), covConf); iv.Low <= mu && mu <= iv.High {
			hitPost++
		}
		// 500 replicates suffice to show the query unit's under-coverage.
		query := Run(Plan{NGroups: n, B: covB / 2, Seed: uint64(sim)}, 1, func(_ int, w []int32, out []float64) {
			out[0] = WeightedMean(x, w)
		})
		if iv := Percentile(query.Column(0), covConf); iv.Low <= mu && mu <= iv.High {
			hitQuery++
		}
	}
	cp, cq := float64(hitPost)/covSims, float64(hitQuery)/covSims
	t.Logf("clustered data: coverage post unit %.3f, query unit %.3f", cp, cq)
	if cp < 0.93 || cp > 0.97 {
		t.Errorf("post-unit coverage %.3f outside [0.93, 0.97]", cp)
	}
	// Design effect 1 + 7·0.26 = 2.8: the query-unit interval is ~1/√2.8
	// as wide and should cover about 75%.
	if cq > 0.85 {
		t.Errorf("query-unit coverage %.3f on clustered data, want clear under-coverage (< 0.85)", cq)
	}
}
