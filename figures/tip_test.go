package figures

import (
	"math"
	"testing"
)

// TestTipText: a tip is written "label value, ..." with each number at its
// decimals (whole numbers grouped by thousands, the shortest form at six
// significant digits), undefined values as "n/a"; Rounded is the number a
// backend stores.
func TestTipText(t *testing.T) {
	tip := Tip{
		{Label: "threshold", Value: Num(0.28345678, Shortest)},
		{Label: "FPR", Value: Num(0.1, 3), Is: CoordX},
		{Label: "queries", Value: Int(12345)},
		{Label: "bin", Value: TextValue("[0.2, 0.4)")},
		{Label: "mean p", Value: Num(math.NaN(), 3)},
		{Label: "workload", Value: Num(math.Inf(1), 0)},
	}
	if got, want := tip.Text(), "threshold 0.283457, FPR 0.100, queries 12,345, bin [0.2, 0.4), mean p n/a, workload n/a"; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	for _, c := range []struct {
		v    Value
		want float64
	}{
		{Num(0.28345678, Shortest), 0.283457}, {Num(0.0714, 2), 0.07}, {Num(-1.25, 1), -1.3}, {Int(7), 7},
	} {
		if got := c.v.Rounded(); got != c.want {
			t.Errorf("%+v: Rounded() = %v, want %v", c.v, got, c.want)
		}
	}
	if !math.IsNaN(TextValue("x").Rounded()) {
		t.Error("a text has a number")
	}
	if !tip.SameLabels(append(Tip(nil), tip...)) || tip.SameLabels(tip[1:]) || tip[:2].SameLabels(Tip{tip[1], tip[0]}) {
		t.Error("SameLabels")
	}
}
