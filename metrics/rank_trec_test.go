package metrics

import (
	"math"
	"testing"
)

// The expected values below are worked by hand from trec_eval 10's
// definitions (m_bpref.c, m_iprec_at_recall.c, m_11pt_avg.c, m_unjudged.c);
// the TREC parity test of cmd/paperbundle checks the same kernels against
// trec_eval's own output on its test suite.

func TestBPref(t *testing.T) {
	T, F := true, false
	tests := []struct {
		name         string
		rel          []int
		judged       []bool
		numRel, nonR int
		want         float64
	}{
		// rank 1 relevant before any non-relevant: 1; rank 2 judged
		// non-relevant; rank 3 relevant after 1 of min(N, R) = 2: 1 - 1/2;
		// rank 4 unjudged is skipped. (1 + 0.5) / R = 1.5 / 3.
		{"mixed", []int{1, 0, 1, 0, 0}, []bool{T, T, T, F, T}, 3, 2, 0.5},
		// Unjudged documents above a relevant one cost nothing.
		{"unjudged above", []int{0, 0, 1}, []bool{F, F, T}, 1, 4, 1},
		// Two judged non-relevant above the only relevant: min(2, 1) /
		// min(5, 1) = 1, term 0.
		{"all penalties", []int{0, 0, 1}, []bool{T, T, T}, 1, 5, 0},
		// N < R: the denominator is min(N, R) = 2: (0.5 + 0.5) / 3.
		{"few non-relevant", []int{0, 1, 1}, []bool{T, T, T}, 3, 2, 1.0 / 3},
		{"no relevant", []int{0, 0}, []bool{T, F}, 0, 2, 0},
		{"empty ranking", nil, nil, 2, 1, 0},
		// Graded relevance counts as relevant at any grade > 0.
		{"graded", []int{2, 3}, []bool{T, T}, 2, 0, 1},
	}
	for _, tt := range tests {
		if got := BPref(tt.rel, tt.judged, tt.numRel, tt.nonR); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: BPref = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIPrecAtRecall(t *testing.T) {
	tests := []struct {
		name   string
		rel    []int
		numRel int
		want   [11]float64
		avg    float64
	}{
		// R = 3, relevant at ranks 1 and 3. Level x needs round(3x)
		// relevant: 0 for x <= 0.1, 1 for 0.2-0.4, 2 for 0.5-0.8 (1.5
		// rounds up), 3 (never reached: 0) for 0.9 and 1. Interpolated
		// precision: max P@i over ranks with enough relevant: 1 for 0 or 1
		// relevant (P@1), 2/3 for 2 (P@3). 11pt = (5 + 4·2/3) / 11.
		{"partial", []int{1, 0, 1, 0, 0}, 3,
			[11]float64{1, 1, 1, 1, 1, 2.0 / 3, 2.0 / 3, 2.0 / 3, 2.0 / 3, 0, 0}, (5 + 4*2.0/3) / 11},
		// R = 2, relevant at ranks 2 and 4: P@2 = 1/2, P@4 = 1/2; level 0
		// takes the max over all ranks with >= 0 relevant, P@2 = 0.5.
		{"all found", []int{0, 1, 0, 1}, 2,
			[11]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 0.5},
		// Interpolation lifts a level to a later, better precision:
		// relevant at 2, 3, 4 of R = 3: P@2 = 1/2, P@3 = 2/3, P@4 = 3/4;
		// every level reads 3/4.
		{"interpolated", []int{0, 1, 1, 1}, 3,
			[11]float64{0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.75}, 0.75},
		{"no relevant", []int{0, 0}, 0, [11]float64{}, 0},
		{"empty ranking", nil, 3, [11]float64{}, 0},
	}
	for _, tt := range tests {
		var got [11]float64
		IPrecAtRecall(tt.rel, tt.numRel, RecallLevels, got[:])
		for j := range got {
			if math.Abs(got[j]-tt.want[j]) > 1e-12 {
				t.Errorf("%s: iprec at %g = %v, want %v", tt.name, RecallLevels[j], got[j], tt.want[j])
			}
		}
		if a := ElevenPointAvg(tt.rel, tt.numRel); math.Abs(a-tt.avg) > 1e-12 {
			t.Errorf("%s: 11pt_avg = %v, want %v", tt.name, a, tt.avg)
		}
	}
}

func TestUnjudged(t *testing.T) {
	T, F := true, false
	j := []bool{T, T, T, F, T}
	for _, tt := range []struct {
		k    int
		want float64
	}{{3, 0}, {4, 0.25}, {5, 0.2}, {10, 0.1}} {
		if got := Unjudged(j, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Unjudged(k=%d) = %v, want %v", tt.k, got, tt.want)
		}
	}
	if got := Unjudged(nil, 5); got != 0 {
		t.Errorf("Unjudged of an empty ranking = %v, want 0", got)
	}
}

func TestGMMAPTerm(t *testing.T) {
	// ln(1e-5) = -11.512925464970229; gm_map of AP 0.5 and 0 is
	// exp((ln 0.5 + ln 1e-5) / 2) = sqrt(0.5e-5) = 0.0022360679...
	if got := GMMAPTerm(0); math.Abs(got+11.512925464970229) > 1e-12 {
		t.Errorf("GMMAPTerm(0) = %v", got)
	}
	if got := math.Exp((GMMAPTerm(0.5) + GMMAPTerm(0)) / 2); math.Abs(got-0.0022360679774997898) > 1e-15 {
		t.Errorf("gm of 0.5 and 0 = %v", got)
	}
}
