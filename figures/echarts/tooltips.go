package echarts

import (
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"paperbundle/figures"
)

// This file holds the tooltips: a spec's figures.Tip as an echarts
// tooltip.

// Series with many points carry no per-point objects: each point is an
// array [x, y, ...]. echarts' string templates for tooltips know {a}
// (series), {b} (item name) and {c} only ({@[n]} works in labels, not in
// tooltips), so a point's tooltip (a figures.Tip: labelled, typed values)
// is either
//
//   - a table: when every tip of the series has the same labels (the
//     thresholds of a ROC curve: threshold, FPR, TPR), each field is a data
//     dimension named by its label, and echarts' default tooltip lists them
//     under the series name; a field that is one of the point's
//     coordinates (the FPR, the TPR, a cell's tau) shows that coordinate,
//     not a copy; or
//   - the tip written out (figures.Tip.Text), as a string dimension that
//     encode.itemName makes the item name, shown by the template
//     "{a}<br/>{b}".
//
// Items that are objects (bars, markers) have the tip written out as their
// name, shown by the same template.

// tip shows each item's name (its tooltip text) under the series name.
func tip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}<br/>{b}")})
}

// noTip gives a series without item tooltips (bands, folds, whiskers) a
// tooltip of its name only.
func noTip() charts.SeriesOpts {
	return charts.WithSeriesTooltipOpts(opts.SeriesTooltip{Formatter: types.FuncStr("{a}")})
}

// tipTable is the tooltips of a series as a table: one slot per field of
// the tips, each shown under its label from a data dimension.
type tipTable struct {
	labels []string
	dim    []int   // per slot: the data dimension shown (a coordinate, or nCoord+k)
	extra  [][]any // per row: the values of the slots that are no coordinate
	ordin  []bool  // per extra dimension: holds text
}

// tipData is a tooltip value as data: its text, or the number at its
// decimals (a value of the shortest form at four significant digits,
// which is finer than a reader needs and keeps the option small).
func tipData(v figures.Value) any {
	switch {
	case v.IsText():
		return v.Text
	case v.Dec < 0:
		return sig4(v.Num)
	}
	return v.Rounded()
}

// makeTipTable returns the table of the tips, or nil when the tips do not
// share their labels (or have none). coord gives the data dimension of a
// coordinate of the points, or -1 when the points do not hold it; a slot
// whose fields all are one coordinate shows that dimension.
func makeTipTable(tips []figures.Tip, nCoord int, coord func(figures.Coord) int) *tipTable {
	if len(tips) == 0 || len(tips[0]) == 0 {
		return nil
	}
	for _, t := range tips[1:] {
		if !t.SameLabels(tips[0]) {
			return nil
		}
	}
	n := len(tips[0])
	tt := &tipTable{labels: make([]string, n), dim: make([]int, n), extra: make([][]any, len(tips))}
	taken := map[int]bool{}
	for k := 0; k < n; k++ {
		tt.labels[k] = tips[0][k].Label
		if tt.labels[k] == "" {
			return nil
		}
		is := tips[0][k].Is
		for _, t := range tips {
			if t[k].Is != is {
				is = figures.NoCoord
			}
		}
		if c := coord(is); is != figures.NoCoord && c >= 0 && !taken[c] {
			tt.dim[k], taken[c] = c, true
			continue
		}
		tt.dim[k] = nCoord + len(tt.ordin)
		text := false
		for r, t := range tips {
			text = text || t[k].Value.IsText()
			tt.extra[r] = append(tt.extra[r], tipData(t[k].Value))
		}
		tt.ordin = append(tt.ordin, text)
	}
	return tt
}

// dims are the data dimensions of a series with nCoord coordinates and
// the table's extra values, named for the tooltip; encode shows the
// table's slots in order.
func (tt *tipTable) dims(nCoord int) ([]dimension, *opts.Encode) {
	d := make([]dimension, nCoord+len(tt.ordin))
	for i := range d {
		d[i].Name = "d" + strconv.Itoa(i)
		if i >= nCoord && tt.ordin[i-nCoord] {
			d[i].Type = "ordinal"
		}
	}
	show := make([]int, len(tt.dim))
	for k, di := range tt.dim {
		d[di].DisplayName = tt.labels[k]
		show[k] = di
	}
	return d, &opts.Encode{X: 0, Y: 1, Tooltip: show}
}
