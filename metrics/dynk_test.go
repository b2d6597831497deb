package metrics

import (
	"math"
	"slices"
	"sort"
	"testing"
)

// dynkDefault is the published default policy, also the example of
// docs/configuration.md: k_min 2, hard cap 10, k_max ratio 0.5.
var dynkDefault = DynKPolicy{KMin: 2, HardCap: 10, KMaxRatio: 0.5}

// TestDynKMax checks k_max = min(HardCap, ⌊n·KMaxRatio⌋), raised to KMin,
// never above n, by hand.
func TestDynKMax(t *testing.T) {
	for _, tc := range []struct {
		p    DynKPolicy
		n    int
		want int
	}{
		{dynkDefault, 0, 0},
		{dynkDefault, 1, 1},                         // ⌊0.5⌋ = 0 → raised to 2 → capped at n = 1
		{dynkDefault, 3, 2},                         // ⌊1.5⌋ = 1 → raised to 2
		{dynkDefault, 7, 3},                         // ⌊3.5⌋
		{dynkDefault, 20, 10},                       // ⌊10⌋
		{dynkDefault, 21, 10},                       // ⌊10.5⌋
		{dynkDefault, 40, 10},                       // hard cap
		{DynKPolicy{KMaxRatio: 0.29}, 100, 29},      // 0.29·100 = 28.999999999999996
		{DynKPolicy{KMin: 1}, 8, 8},                 // no cap, no ratio
		{DynKPolicy{HardCap: 3}, 8, 3},              //
		{DynKPolicy{KMin: 0, KMaxRatio: 0.5}, 1, 0}, // a policy may allow 0
		{DynKPolicy{KMin: 5, HardCap: 3}, 4, 4},     // KMin wins over the cap, n over KMin
		{DynKPolicy{KMin: 2, HardCap: 10, KMaxRatio: 1}, 6, 6},
	} {
		if got := tc.p.KMax(tc.n); got != tc.want {
			t.Errorf("%+v.KMax(%d) = %d, want %d", tc.p, tc.n, got, tc.want)
		}
	}
}

// TestDynKSelect checks the selection by hand: candidates ordered by
// probability descending (ties in rank order), smallest K whose normalised
// cumulative mass reaches gamma, clamped to [KMin, KMax(n)].
func TestDynKSelect(t *testing.T) {
	open := DynKPolicy{KMin: 1}
	for _, tc := range []struct {
		name  string
		p     DynKPolicy
		probs []float64
		gamma float64
		want  []int
	}{
		// Order 1 (0.5), 2 (0.3), 0 (0.1), 3 (0.1): mass 0.5, 0.8 → K = 2.
		{"basic", open, []float64{0.1, 0.5, 0.3, 0.1}, 0.8, []int{1, 2}},
		// Same, gamma 0.85: 0.9 reached at K = 3; the 0.1 tie goes to rank 0.
		{"tie by rank", open, []float64{0.1, 0.5, 0.3, 0.1}, 0.85, []int{1, 2, 0}},
		// Five equal: 0.2 each; 0.6 >= 0.5 at K = 3, in rank order.
		{"all tied", open, []float64{0.2, 0.2, 0.2, 0.2, 0.2}, 0.5, []int{0, 1, 2}},
		// Not normalised: 0.4/0.8 = 0.5, +0.25 = 0.75 >= 0.75 → K = 2.
		{"normalised", open, []float64{0.4, 0.2, 0.2}, 0.75, []int{0, 1}},
		// 0.6/0.75 = 0.8 exactly, 0.7999999999999999 in float64 → K = 1.
		{"rounding", open, []float64{0.6, 0.1, 0.05}, 0.8, []int{0}},
		// K* = 1 raised to KMin = 2 (KMax(3) = 2).
		{"kmin", dynkDefault, []float64{0.9, 0.05, 0.05}, 0.8, []int{0, 1}},
		// Uniform 20 × 0.05, gamma 0.9: K* = 18, capped at KMax(20) = 10.
		{"kmax", dynkDefault, slices.Repeat([]float64{0.05}, 20), 0.9, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
		// All zero: uniform mass, ⌈0.5·4⌉ = 2, rank order.
		{"all zero", open, []float64{0, 0, 0, 0}, 0.5, []int{0, 1}},
		// gamma above 1: never reached → KMax(n).
		{"gamma>1", DynKPolicy{KMin: 1, HardCap: 3}, []float64{0.1, 0.2, 0.3, 0.4}, 1.5, []int{3, 2, 1}},
		// gamma 0: reached at once → max(1, KMin).
		{"gamma 0", open, []float64{0.1, 0.2}, 0, []int{1}},
		// One candidate, KMin 2: never above n.
		{"tiny pool", dynkDefault, []float64{0.3}, 0.9, []int{0}},
		{"empty", dynkDefault, nil, 0.9, []int{}},
		// The policy may allow nothing (KMin 0, ⌊1·0.5⌋ = 0).
		{"zero allowed", DynKPolicy{KMaxRatio: 0.5}, []float64{1}, 0.9, []int{}},
	} {
		got := tc.p.Select(tc.probs, tc.gamma)
		if !slices.Equal(got, tc.want) || got == nil {
			t.Errorf("%s: Select(%v, %v) = %v, want %v", tc.name, tc.probs, tc.gamma, got, tc.want)
		}
	}
}

func TestDynKSelectPanics(t *testing.T) {
	for _, probs := range [][]float64{{0.1, math.NaN()}, {-0.1}, {math.Inf(1)}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Select(%v) did not panic", probs)
				}
			}()
			dynkDefault.Select(probs, 0.9)
		}()
	}
}

// TestEvidenceSet checks the evidence-set metrics and both edge-case
// conventions (positives only, and all queries where a query without gold
// scores 1 when nothing is selected) by hand.
func TestEvidenceSet(t *testing.T) {
	const tol = 1e-12
	nan := math.NaN()
	for _, tc := range []struct {
		hits, nGold, nSel  int
		recall, precision  float64 // positives only; empty selection: precision 0
		recallAll, precAll float64 // all queries
	}{
		{2, 3, 4, 2.0 / 3, 0.5, 2.0 / 3, 0.5},
		{0, 3, 0, 0, 0, 0, 0},   // gold, nothing selected
		{0, 0, 0, nan, 0, 1, 1}, // no gold, nothing selected: the all-queries convention rewards it
		{0, 0, 5, nan, 0, 0, 0}, // no gold, something selected
		{3, 3, 3, 1, 1, 1, 1},   // perfect
		{1, 4, 10, 0.25, 0.1, 0.25, 0.1},
	} {
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"EvidenceRecall", EvidenceRecall(tc.hits, tc.nGold, tc.nSel), tc.recall},
			{"EvidencePrecision", EvidencePrecision(tc.hits, tc.nSel), tc.precision},
			{"EvidenceRecallAll", EvidenceRecallAll(tc.hits, tc.nGold, tc.nSel), tc.recallAll},
			{"EvidencePrecisionAll", EvidencePrecisionAll(tc.hits, tc.nGold, tc.nSel), tc.precAll},
		} {
			if !rankSame(c.got, c.want, tol) {
				t.Errorf("%s(hits=%d, gold=%d, sel=%d) = %v, want %v", c.name, tc.hits, tc.nGold, tc.nSel, c.got, c.want)
			}
		}
	}
	for name, f := range map[string]func(){
		"hits > gold":     func() { EvidenceRecall(3, 2, 5) },
		"hits > sel":      func() { EvidenceRecallAll(3, 5, 2) },
		"negative":        func() { EvidencePrecisionAll(-1, 2, 2) },
		"precision > sel": func() { EvidencePrecision(2, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// dynkSelectNaive is the policy written the obvious way (sort the whole
// pool, scan, clamp) to cross-check the partial selection of Select.
func dynkSelectNaive(p DynKPolicy, probs []float64, gamma float64) []int {
	n := len(probs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return probs[order[a]] > probs[order[b]] })
	var total float64
	for _, q := range probs {
		total += q
	}
	kStar := n
	var cum float64
	for j, i := range order {
		if total > 0 {
			cum += probs[i] / total
		} else {
			cum += 1 / float64(n)
		}
		if cum >= gamma-1e-12 {
			kStar = j + 1
			break
		}
	}
	k := min(n, max(p.KMin, min(kStar, p.KMax(n))))
	return order[:k]
}

// FuzzDynKSelect checks the invariants of the selection on any input: the
// result has no duplicates, lies in [min(KMin, n), KMax(n)], is ordered by
// probability descending with ties in rank order, and is the smallest
// prefix reaching gamma unless clamped.
func FuzzDynKSelect(f *testing.F) {
	f.Add([]byte{10, 50, 30, 10}, uint8(80), uint8(1), uint8(10), uint8(100))
	f.Add([]byte{0, 0, 0}, uint8(50), uint8(2), uint8(10), uint8(50))
	f.Add([]byte{}, uint8(90), uint8(2), uint8(10), uint8(50))
	f.Add(slices.Repeat([]byte{9, 200, 9, 0, 77}, 20), uint8(150), uint8(3), uint8(0), uint8(90))
	f.Fuzz(func(t *testing.T, raw []byte, g, kmin, hardCap, ratio uint8) {
		probs := make([]float64, len(raw))
		for i, b := range raw {
			probs[i] = float64(b) / 255
		}
		p := DynKPolicy{KMin: int(kmin % 8), HardCap: int(hardCap % 16), KMaxRatio: float64(ratio%101) / 100}
		gamma := float64(g) / 200 // up to 1.275
		sel := p.Select(probs, gamma)
		n := len(probs)
		if len(sel) > p.KMax(n) || len(sel) > n {
			t.Fatalf("selected %d > KMax %d (n=%d)", len(sel), p.KMax(n), n)
		}
		if n > 0 && len(sel) < min(p.KMin, n) {
			t.Fatalf("selected %d < KMin %d", len(sel), p.KMin)
		}
		seen := map[int]bool{}
		for j, i := range sel {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("bad index %d in %v", i, sel)
			}
			seen[i] = true
			if j > 0 {
				a, b := sel[j-1], i
				if probs[a] < probs[b] || (probs[a] == probs[b] && a > b) {
					t.Fatalf("order broken at %d: %v", j, sel)
				}
			}
		}
		if want := dynkSelectNaive(p, probs, gamma); !slices.Equal(sel, want) {
			t.Fatalf("Select(%v, %v) = %v, naive %v", probs, gamma, sel, want)
		}
		// Every unselected candidate ranks after the selected ones.
		if len(sel) > 0 {
			last := sel[len(sel)-1]
			for i := range probs {
				if !seen[i] && (probs[i] > probs[last] || (probs[i] == probs[last] && i < last)) {
					t.Fatalf("candidate %d skipped before %d: %v", i, last, sel)
				}
			}
		}
	})
}
