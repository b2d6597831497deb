package figures

import (
	"slices"
	"testing"

	"paperbundle/figures/internal/figtest"
)

// TestCutoffAxis: the K axis of Recall@K is log10 exactly when the
// cutoffs span more than a factor of 20, every cutoff is a tick, and the
// labelled ones are a tenth of the log span apart, the last always
// labelled. Expected values by hand: for 5 ... 1000 the span is
// log10(200) = 2.301, the gap 0.2301; 10/5 and 20/10 are log10 2 = 0.301
// apart (labelled), 15/10 and 30/20 log10 1.5 = 0.176 (not); the ends are
// 5 / 10^(0.04 * 2.301) = 4.05 down to 4 and 1000 * 1.236 = 1236 up to
// 1300 (two significant digits). For 1 ... 150 (span 2.176, gap 0.2176)
// 150 is log10 1.5 = 0.176 after 100, so 100 gives its label to 150; the
// ends are 1 / 10^(0.04 * 2.176) = 0.818 down to 0.81 and 150 * 1.222 =
// 183.3 up to 190.
func TestCutoffAxis(t *testing.T) {
	tests := []struct {
		ks       []int
		log      bool
		labels   []string
		min, max float64
	}{
		{[]int{5, 10, 15, 20, 30, 100, 200, 500, 1000}, true, []string{"5", "10", "20", "100", "200", "500", "1000"}, 4, 1300},
		{[]int{1, 2, 5, 10, 20, 50, 100, 150}, true, []string{"1", "2", "5", "10", "20", "50", "150"}, 0.81, 190},
		{[]int{1, 3, 5, 20}, false, []string{"1", "3", "5", "20"}, 0.5, 20.5}, // a factor of 20 exactly: linear
		{[]int{1, 3, 5, 10}, false, []string{"1", "3", "5", "10"}, 0.5, 10.5},
	}
	for _, tt := range tests {
		a := cutoffAxis("K", tt.ks)
		var labels []string
		for _, tk := range a.Ticks {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if a.Log != tt.log || !slices.Equal(labels, tt.labels) || len(a.Ticks) != len(tt.ks) || a.Min != tt.min || a.Max != tt.max {
			t.Errorf("%v: log %v, %d ticks, labels %v, ends %g-%g; want log %v, %d ticks, labels %v, ends %g-%g",
				tt.ks, a.Log, len(a.Ticks), labels, a.Min, a.Max, tt.log, len(tt.ks), tt.labels, tt.min, tt.max)
		}
		for i, tk := range a.Ticks {
			if tk.Value != float64(tt.ks[i]) {
				t.Errorf("%v: tick %d at %g, want %d", tt.ks, i, tk.Value, tt.ks[i])
			}
		}
	}
}

// TestRankAtKLogAxis: the Recall@K and Precision@K figures of a report at
// trec_eval's cutoffs draw K on a log axis; at the fixture's 1 ... 10 on a
// linear one.
func TestRankAtKLogAxis(t *testing.T) {
	for _, tc := range []struct {
		cutoffs []int
		log     bool
	}{{[]int{5, 10, 15, 20, 30, 100, 200, 500, 1000}, true}, {[]int{1, 3, 5, 10}, false}} {
		r := figtest.FixtureAt(tc.cutoffs)
		for _, id := range []string{"recall_at_k_sys_a", "precision_at_k_sys_a"} {
			s := specByID(t, r, id)
			if got := s.Panels[0].X.Log; got != tc.log {
				t.Errorf("cutoffs %v, %s: log x axis %v, want %v", tc.cutoffs, id, got, tc.log)
			}
			if n := len(s.Panels[0].X.Ticks); n != len(tc.cutoffs) {
				t.Errorf("cutoffs %v, %s: %d ticks, want one per cutoff", tc.cutoffs, id, n)
			}
		}
	}
}
