package report

import (
	"strings"
	"testing"
)

// TestFoldCheck: folds are of equal size when the largest has at most 5%
// more posts than the smallest, or one more. The sizes are hand-made:
// 297/295 = 1.0068 (the contract's split of 1,477 posts), 114/113 (the
// most even 5-fold split of 569 cases), 21/20 (one more, 5%), 106/100
// (6% and 6 more), 12/10 (20%, two more).
func TestFoldCheck(t *testing.T) {
	for _, tc := range []struct {
		sizes  []int
		passed bool
		na     bool
		detail string
	}{
		{[]int{295, 295, 295, 295, 297}, true, false, "Posts per fold: 295; 295; 295; 295; 297."},
		{[]int{114, 114, 114, 114, 113}, true, false, "Posts per fold: 114; 114; 114; 114; 113."},
		{[]int{20, 21}, true, false, "Posts per fold: 20; 21."},
		{[]int{3, 4}, true, false, "Posts per fold: 3; 4."}, // 33% more, but only one more
		{[]int{100, 106}, false, false, "Posts per fold: 100; 106. The largest fold has 6.0% more posts than the smallest (more than 5% and more than one)."},
		{[]int{10, 12}, false, false, "Posts per fold: 10; 12."},
		{[]int{50}, false, true, "One fold"},
	} {
		var folds []FoldSummary
		for i, n := range tc.sizes {
			folds = append(folds, FoldSummary{Fold: i, Posts: n})
		}
		var l checkList
		foldCheck(&l, folds)
		c := l[0]
		if c.Passed != tc.passed || c.NotApplicable != tc.na || !strings.HasPrefix(c.Detail, tc.detail) {
			t.Errorf("%v: passed %v, not applicable %v, detail %q; want %v, %v, starting %q", tc.sizes, c.Passed, c.NotApplicable, c.Detail, tc.passed, tc.na, tc.detail)
		}
		if c.NotApplicable && c.Result() != CheckNotApplicable {
			t.Errorf("%v: result %q, want %q", tc.sizes, c.Result(), CheckNotApplicable)
		}
	}
}

// TestCheckResultWords: one word per result, the same wherever a check
// is shown; a check with nothing to check never passes.
func TestCheckResultWords(t *testing.T) {
	for _, tc := range []struct {
		c    Check
		want string
	}{
		{Check{Hard: true, Passed: true}, "passed"},
		{Check{Hard: true}, "FAILED"},
		{Check{}, "not passed"},
		{Check{NotApplicable: true}, "not applicable"},
		{Check{Hard: true, NotApplicable: true}, "not applicable"},
	} {
		if got := tc.c.Result(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
	r := &Report{Checks: []Check{{ID: "x", Hard: true, NotApplicable: true, Detail: "nothing to check."}}}
	if err := r.HardCheckError(); err != nil {
		t.Errorf("a hard check that does not apply stopped the build: %v", err)
	}
}

func TestDetailList(t *testing.T) {
	if got, want := detailList([]string{"b x", "a y"}, "ok.", "things"), "2 things: a y; b x."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	many := strings.Split("a b c d e f g h i j k l", " ")
	if got, want := detailList(many, "ok.", "things"), "12 things; the first 10: a; b; c; d; e; f; g; h; i; j."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
