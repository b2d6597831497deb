package figures

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/dataset/demo"
	"paperbundle/report"
)

// The demo Report (6 systems, about 100 figures) is the workload of SPEC
// 11; it is built once per test binary, with 200 resamples instead of
// 10,000 (the figures draw the intervals, they do not depend on B).
var (
	demoOnce sync.Once
	demoRep  *report.Report
	demoErr  error
)

func demoReport(tb testing.TB) *report.Report {
	tb.Helper()
	demoOnce.Do(func() {
		dir := tb.TempDir() // only read while loading
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

// BenchmarkRenderDemo renders every figure of the demo Report as SVG, PDF
// and PNG (the figures share of a bundle build).
func BenchmarkRenderDemo(b *testing.B) {
	benchRender(b, demoReport(b))
}
