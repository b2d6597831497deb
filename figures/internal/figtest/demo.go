package figtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/dataset/demo"
	"paperbundle/metrics"
	"paperbundle/report"
)

// FixtureAt returns the fixture computed as if the configuration had the
// given cutoffs: every "@10" metric id and per-query column moves to the
// headline cutoff of the list (report.HeadlineCutoff), and Recall@K and Precision@K are
// at the listed cutoffs.
func FixtureAt(cutoffs []int) *report.Report {
	r := Fixture()
	k := report.HeadlineCutoff(cutoffs)
	move := func(id metrics.ID) metrics.ID {
		if base, ok := strings.CutSuffix(string(id), "@10"); ok {
			return metrics.Base(base).At(k)
		}
		return id
	}
	for i := range r.Metrics {
		r.Metrics[i].ID = move(r.Metrics[i].ID)
	}
	for i := range r.PerQueryColumns {
		r.PerQueryColumns[i] = move(r.PerQueryColumns[i])
	}
	var pts []report.RankAtKPoint
	for _, p := range r.Curves.RankAtK {
		if p.K == 1 {
			for _, c := range cutoffs {
				q := p
				q.K = c
				pts = append(pts, q)
			}
		}
	}
	r.Curves.RankAtK = pts
	r.Settings.Cutoffs = cutoffs
	r.Settings.HeadlineCutoff = k
	r.Reindex()
	return r
}

// The demo Report (6 systems, about 100 figures) is benchmark workload (a)
// of docs/performance.md; it is built once per test binary, with 200 resamples instead of
// 10,000 (the figures draw the intervals, they do not depend on B).
var (
	demoOnce sync.Once
	demoRep  *report.Report
	demoErr  error
)

// Demo returns the demo Report (shared: do not modify it).
func Demo(tb testing.TB) *report.Report {
	tb.Helper()
	demoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "figtest-demo")
		if err != nil {
			demoErr = err
			return
		}
		defer os.RemoveAll(dir)
		if demoErr = demo.Write(dir, demo.Options{}); demoErr != nil {
			return
		}
		cfg, err := config.Load(filepath.Join(dir, "paper.yaml"))
		if err != nil {
			demoErr = err
			return
		}
		cfg.Bootstrap.Resamples = 200
		var spec dataset.Spec
		for _, s := range cfg.Systems {
			spec.Systems = append(spec.Systems, dataset.SystemSpec{Name: s.Name, Label: s.Label, Input: cfg.ResolvePath(s.Input), Format: "csv"})
		}
		ds, err := dataset.Load(spec)
		if err != nil {
			demoErr = err
			return
		}
		demoRep, demoErr = report.Compute(context.Background(), cfg, ds, report.Options{Version: "v1", Tool: "figures test"})
	})
	if demoErr != nil {
		tb.Fatal(demoErr)
	}
	return demoRep
}
