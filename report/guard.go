package report

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/sysmem"
)

// intervalWarnings says which published intervals do not contain their
// point estimate, and why that can happen: a percentile interval is made
// of the resamples' values, and for a skewed statistic (an AUROC or a
// precision near 1, a rate near 0) most resamples can fall on one side of
// the estimate computed on the full sample.
func (c *computer) intervalWarnings() {
	var out []string
	with := 0
	for _, m := range c.rep.Metrics {
		if m.CI == nil || !m.Value.Valid() || !m.CI.Low.Valid() || !m.CI.High.Valid() {
			continue
		}
		with++
		v, lo, hi := float64(m.Value), float64(m.CI.Low), float64(m.CI.High)
		tol := 1e-12 * math.Max(1, math.Abs(v))
		if v < lo-tol || v > hi+tol {
			name := m.System + " " + string(m.ID)
			if m.Slice != "" {
				name += " (" + string(m.Slice) + ")"
			}
			out = append(out, fmt.Sprintf("%s %.4g [%.4g, %.4g]", name, v, lo, hi))
		}
	}
	if len(out) == 0 {
		return
	}
	shown := out[:min(len(out), 3)]
	more := ""
	if len(out) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(out)-len(shown))
	}
	c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf("%d of the %d intervals do not contain their point estimate (%s%s): a percentile interval is made of the resamples' values, and for a skewed statistic (an AUROC or a precision near 1, a rate near 0) most resamples can fall on one side of the full sample's value; bootstrap.method: bca corrects for that bias",
		len(out), with, strings.Join(shown, "; "), more))
	sort.Strings(c.rep.Warnings)
}

// bootstrapMemory is the memory, in bytes, that the replicates of a
// bootstrap of B resamples of nStat statistics over G groups take: the
// matrix of replicates, the jackknife's for bca, and each worker's
// columns while the percentile intervals are taken.
func bootstrapMemory(B, nStat, G, workers int, bca bool) float64 {
	m := 8 * float64(B) * float64(nStat)
	if bca {
		m += 8 * float64(G) * float64(nStat)
	}
	return m + 8*8*float64(B)*float64(max(workers, 1))
}

// machineMemory is the memory this process may use (sysmem.Total).
func machineMemory() float64 { return float64(sysmem.Total()) }

// machineMem is machineMemory; a variable for tests.
var machineMem = machineMemory

// checkBootstrapMemory refuses, before it starts, a bootstrap whose
// replicates would not fit in the machine's memory, naming the key to
// lower and a value that fits.
func (c *computer) checkBootstrapMemory(nStat int) error {
	B := c.cfg.Bootstrap.Resamples
	workers := c.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	need := bootstrapMemory(B, nStat, c.nGroups, workers, c.cfg.Bootstrap.Method == config.MethodBCa)
	have := machineMem()
	if have <= 0 || need <= have*0.8 {
		return nil
	}
	fit := int(float64(B) * have * 0.5 / need)
	fit = max(fit/1000*1000, 50)
	e := &dataset.InputError{File: c.cfg.File, Msg: fmt.Sprintf("bootstrap.resamples: %d resamples of %d statistics need about %.1f GB for the bootstrap, more than the %.1f GB of memory here, expected at most about %d (lower bootstrap.resamples)",
		B, nStat, need/1e9, have/1e9, fit)}
	if line, col, ok := c.cfg.Position("bootstrap.resamples"); ok {
		e.Line, e.Column = line, col
	}
	return e
}
