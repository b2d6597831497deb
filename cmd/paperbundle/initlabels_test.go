package main

import (
	"slices"
	"testing"
)

// TestInitLabels: init gives every system a distinct label: the file's
// stem when the stems differ, else the shortest distinct suffix or prefix
// of the names (cut at '.', '_', '-'), the folder too when the names are
// equal.
func TestInitLabels(t *testing.T) {
	for _, tc := range []struct{ files, want []string }{
		{[]string{"runs/bm25.csv", "runs/dense.csv.gz"}, []string{"bm25", "dense"}},
		{[]string{"covidex.t5", "covidex.sim"}, []string{"t5", "sim"}},
		{[]string{"x/run.txt", "y/run.txt"}, []string{"x", "y"}},
		{[]string{"bm25_rm3.run", "bm25_rm3.base.run", "dense.run"}, []string{"bm25_rm3", "bm25_rm3.base", "dense"}},
		{[]string{"only_one.csv"}, []string{"only_one"}},
	} {
		got := initLabels(tc.files)
		if !slices.Equal(got, tc.want) {
			t.Errorf("initLabels(%q) = %q, want %q", tc.files, got, tc.want)
		}
	}
}
