package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// placements returns DeLong's structural components for the scores p of
// the items labelled y: for each positive (case) item, the fraction of
// negatives (controls) it outscores, ties counting one half,
//
//	V10(x) = (#{controls < x} + ½ #{controls = x}) / n,
//
// and for each control, the fraction of cases that outscore it,
//
//	V01(c) = (#{cases > c} + ½ #{cases = c}) / m,
//
// in item order (v[i] is V10 for a case, V01 for a control), with m cases
// and n controls. The mean of V10 over cases and of V01 over controls are
// both the AUROC (direction "controls < cases").
func placements(y []bool, p []float64) (v []float64, auc float64, m, n int) {
	var cases, controls []float64
	for i, s := range p {
		if math.IsNaN(s) {
			panic(fmt.Sprintf("stats: NaN score at item %d", i))
		}
		if y[i] {
			cases = append(cases, s)
		} else {
			controls = append(controls, s)
		}
	}
	m, n = len(cases), len(controls)
	if m == 0 || n == 0 {
		return nil, math.NaN(), m, n
	}
	slices.Sort(cases)
	slices.Sort(controls)
	// count returns #{x < s} and #{x = s} in the sorted slice x.
	count := func(x []float64, s float64) (less, equal int) {
		less = sort.SearchFloat64s(x, s)
		le := sort.Search(len(x), func(i int) bool { return x[i] > s })
		return less, le - less
	}
	v = make([]float64, len(p))
	var sum float64
	for i, s := range p {
		if y[i] {
			less, eq := count(controls, s)
			v[i] = (float64(less) + 0.5*float64(eq)) / float64(n)
			sum += v[i]
		} else {
			less, eq := count(cases, s)
			v[i] = (float64(m-less-eq) + 0.5*float64(eq)) / float64(m)
		}
	}
	return v, sum / float64(m), m, n
}

// TwoSidedNormalP returns the two-sided p-value 2 Φ(-|z|) of a standard
// normal test statistic z.
func TwoSidedNormalP(z float64) float64 { return 2 * normCDF(-math.Abs(z)) }

// DeLongPaired compares the AUROCs of two scores p1 and p2 of the same
// items (labels y; true = case) with DeLong's test for two correlated ROC
// curves (DeLong, DeLong and Clarke-Pearson 1988), as pROC's
// roc.test(roc1, roc2, paired = TRUE, method = "delong") with
// levels = c(FALSE, TRUE) and direction = "<" (cases score higher).
//
// With the structural components of each score (see placements) over the
// m cases, X_k, and the n controls, Y_k, and their covariance matrices
// S10 (over cases, m-1) and S01 (over controls, n-1),
//
//	S = S10/m + S01/n,   z = (auc1 - auc2) / sqrt(S11 + S22 - 2 S12),   p = 2 Φ(-|z|).
//
// As pROC, z is 0 when both the difference and its standard error are 0.
// Every result is NaN when a class is empty; z and p are NaN with a single
// case or control. It panics if the lengths differ or a score is NaN.
func DeLongPaired(y []bool, p1, p2 []float64) (auc1, auc2, z, pvalue float64) {
	if len(y) != len(p1) || len(y) != len(p2) {
		panic("stats: DeLongPaired: length mismatch")
	}
	v1, auc1, m, n := placements(y, p1)
	v2, auc2, _, _ := placements(y, p2)
	if m == 0 || n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	if m < 2 || n < 2 {
		return auc1, auc2, math.NaN(), math.NaN()
	}
	var s10, s01 [3]float64 // 11, 22, 12
	for i, c := range y {
		d1, d2 := v1[i]-auc1, v2[i]-auc2
		t := &s01
		if c {
			t = &s10
		}
		t[0] += d1 * d1
		t[1] += d2 * d2
		t[2] += d1 * d2
	}
	fm, fn := float64(m), float64(n)
	var s [3]float64
	for k := range s {
		s[k] = s10[k]/(fm-1)/fm + s01[k]/(fn-1)/fn
	}
	d := auc1 - auc2
	sig := math.Sqrt(s[0] + s[1] - 2*s[2])
	z = d / sig
	if d == 0 && sig == 0 {
		z = 0
	}
	return auc1, auc2, z, TwoSidedNormalP(z)
}

// DeLongClusteredSE returns the standard error of auc1 - auc2, the
// difference of the AUROCs of scores p1 and p2 of the same items, when the
// items come in clusters (e.g. the queries of a post) that are independent
// of each other but correlated within: Obuchowski's (1997) nonparametric
// clustered-ROC variance, extended to two paired scores.
//
// With the structural components V10 (cases) and V01 (controls) of each
// score computed against all items (see placements), cluster g's sums
// V10_g and V01_g, its case and control counts m_g and n_g, the totals M
// and N, I10 (I01) the number of clusters holding a case (a control), I the
// number of non-empty clusters, and for scores a, b ∈ {1, 2} with AUROCs
// θa, θb, A_g = V10a_g - m_g θa, B_g = V01a_g - n_g θa (likewise A'_g, B'_g
// for b):
//
//	S10(a,b) = I10 / ((I10-1) M) Σ_g A_g A'_g
//	S01(a,b) = I01 / ((I01-1) N) Σ_g B_g B'_g
//	S11(a,b) = I / (I-1) Σ_g A_g B'_g
//	Cov(θa, θb) = S10(a,b)/M + S01(a,b)/N + (S11(a,b) + S11(b,a)) / (M N)
//	SE = sqrt(Var θ1 + Var θ2 - 2 Cov(θ1, θ2)).
//
// When every cluster holds one item this is exactly DeLong's paired
// standard error (the S11 terms vanish), so z = (auc1-auc2)/SE gives
// DeLongPaired's z. A nil group makes every item its own cluster. The
// result is NaN when a class is empty, I10 or I01 is below 2, or rounding
// makes the variance negative beyond 1e-15.
func DeLongClusteredSE(y []bool, p1, p2 []float64, group []int32, nGroups int) float64 {
	if len(y) != len(p1) || len(y) != len(p2) {
		panic("stats: DeLongClusteredSE: length mismatch")
	}
	if group == nil {
		group = make([]int32, len(y))
		for i := range group {
			group[i] = int32(i)
		}
		nGroups = len(y)
	}
	if len(group) != len(y) {
		panic("stats: DeLongClusteredSE: len(group) != len(y)")
	}
	v1, t1, bigM, bigN := placements(y, p1)
	v2, t2, _, _ := placements(y, p2)
	if bigM == 0 || bigN == 0 {
		return math.NaN()
	}
	// Per cluster: V10 sums of both scores, V01 sums, case and control counts.
	a1 := make([]float64, nGroups)
	a2 := make([]float64, nGroups)
	b1 := make([]float64, nGroups)
	b2 := make([]float64, nGroups)
	mg := make([]int, nGroups)
	ng := make([]int, nGroups)
	for i, g := range group {
		if g < 0 || int(g) >= nGroups {
			panic(fmt.Sprintf("stats: DeLongClusteredSE: group[%d] = %d outside [0, %d)", i, g, nGroups))
		}
		if y[i] {
			a1[g] += v1[i]
			a2[g] += v2[i]
			mg[g]++
		} else {
			b1[g] += v1[i]
			b2[g] += v2[i]
			ng[g]++
		}
	}
	var i10, i01, ii int
	var s10, s01, s11 [2][2]float64
	for g := range nGroups {
		if mg[g] > 0 {
			i10++
		}
		if ng[g] > 0 {
			i01++
		}
		if mg[g]+ng[g] > 0 {
			ii++
		}
		fm, fn := float64(mg[g]), float64(ng[g])
		A := [2]float64{a1[g] - fm*t1, a2[g] - fm*t2}
		B := [2]float64{b1[g] - fn*t1, b2[g] - fn*t2}
		for a := range 2 {
			for b := range 2 {
				s10[a][b] += A[a] * A[b]
				s01[a][b] += B[a] * B[b]
				s11[a][b] += A[a] * B[b]
			}
		}
	}
	if i10 < 2 || i01 < 2 {
		return math.NaN()
	}
	fM, fN := float64(bigM), float64(bigN)
	c10 := float64(i10) / (float64(i10-1) * fM)
	c01 := float64(i01) / (float64(i01-1) * fN)
	c11 := float64(ii) / float64(ii-1)
	var cov [2][2]float64
	for a := range 2 {
		for b := range 2 {
			cov[a][b] = c10*s10[a][b]/fM + c01*s01[a][b]/fN + c11*(s11[a][b]+s11[b][a])/(fM*fN)
		}
	}
	v := cov[0][0] + cov[1][1] - 2*cov[0][1]
	if v < 0 {
		if v < -1e-15 {
			return math.NaN()
		}
		v = 0
	}
	return math.Sqrt(v)
}

// DeLongCI returns the AUROC of scores p against labels y (true = case)
// and its confidence interval from DeLong's variance, as pROC's
// ci.auc(roc, method = "delong", conf.level = conf) with levels =
// c(FALSE, TRUE) and direction = "<":
//
//	var = s²(V10)/m + s²(V01)/n  (sample variances, m cases, n controls),
//	[lo, hi] = auc ∓ Φ⁻¹((1 + conf)/2) · sqrt(var), clipped to [0, 1].
//
// The interval is NaN when a class has fewer than two items (the variance
// cannot be estimated); auc is NaN when a class is empty. It panics if the
// lengths differ or a score is NaN.
func DeLongCI(y []bool, p []float64, conf float64) (auc, lo, hi float64) {
	if len(y) != len(p) {
		panic("stats: DeLongCI: length mismatch")
	}
	v, auc, m, n := placements(y, p)
	if m < 2 || n < 2 {
		return auc, math.NaN(), math.NaN()
	}
	var s10, s01 float64
	for i, c := range y {
		d := v[i] - auc
		if c {
			s10 += d * d
		} else {
			s01 += d * d
		}
	}
	fm, fn := float64(m), float64(n)
	se := math.Sqrt(s10/(fm-1)/fm + s01/(fn-1)/fn)
	z := normQuantile((1 + conf) / 2)
	lo, hi = auc-z*se, auc+z*se
	return auc, math.Max(0, lo), math.Min(1, hi)
}
