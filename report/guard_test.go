package report

import (
	"context"
	"errors"
	"strings"
	"testing"

	"paperbundle/dataset"
)

// TestBootstrapMemoryRefused: a bootstrap whose replicates exceed the
// machine's memory is refused before it starts, as an input error that
// names bootstrap.resamples and a value that fits.
func TestBootstrapMemoryRefused(t *testing.T) {
	defer func(f func() float64) { machineMem = f }(machineMem)
	machineMem = func() float64 { return 1 << 20 } // 1 MiB
	_, err := Compute(context.Background(), handConfig(100000), handDataset(), Options{})
	var ie *dataset.InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "bootstrap.resamples: 100000 resamples of") || !strings.Contains(ie.Msg, "lower bootstrap.resamples") {
		t.Errorf("bootstrap over the memory: %v", err)
	}
	machineMem = func() float64 { return 0 } // unknown: no check
	if _, err := Compute(context.Background(), handConfig(50), handDataset(), Options{}); err != nil {
		t.Errorf("memory unknown: %v", err)
	}
	// 1,000 resamples of 10 statistics over 100 groups with 2 workers:
	// 8 B x (1000 x 10 + 8 x 1000 x 2) = 208,000 B; bca adds 8 x 100 x 10.
	if got := bootstrapMemory(1000, 10, 100, 2, false); got != 208000 {
		t.Errorf("bootstrapMemory = %v, want 208000", got)
	}
	if got := bootstrapMemory(1000, 10, 100, 2, true); got != 216000 {
		t.Errorf("bootstrapMemory bca = %v, want 216000", got)
	}
}

// TestIntervalWarnings: an interval that excludes its estimate is named in
// a warning that says why that can happen; intervals that contain theirs
// (an end equal to it included) give none.
func TestIntervalWarnings(t *testing.T) {
	c := &computer{rep: &Report{Metrics: []Metric{
		{System: "full", ID: "ne.auroc", Value: 0.9933, CI: &CI{Low: 0.9787, High: 0.9787}},
		{System: "full", ID: "ne.auprc", Value: 0.5, CI: &CI{Low: 0.5, High: 0.6}},
	}}}
	c.intervalWarnings()
	if len(c.rep.Warnings) != 1 || !strings.HasPrefix(c.rep.Warnings[0], "1 of the 2 intervals do not contain their point estimate (full ne.auroc 0.9933 [0.9787, 0.9787])") ||
		!strings.Contains(c.rep.Warnings[0], "skewed statistic") {
		t.Errorf("warnings: %q", c.rep.Warnings)
	}
	c.rep.Metrics = c.rep.Metrics[1:]
	c.rep.Warnings = nil
	c.intervalWarnings()
	if len(c.rep.Warnings) != 0 {
		t.Errorf("warnings for an interval with its estimate at an end: %q", c.rep.Warnings)
	}
}
