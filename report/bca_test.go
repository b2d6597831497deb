package report

import (
	"context"
	"testing"

	"paperbundle/config"
)

// TestBCaAndQueryUnit: the bca method and the query unit run end to end and
// are recorded on every interval; a BCa interval contains its estimate.
func TestBCaAndQueryUnit(t *testing.T) {
	ds := randomDataset(300, 5)
	for _, unit := range []config.Unit{config.UnitPost, config.UnitQuery} {
		cfg := config.Default()
		cfg.Systems = []config.System{{Name: "sys", Input: "x"}}
		cfg.Bootstrap.Resamples = 400
		cfg.Bootstrap.Method = "bca"
		cfg.Bootstrap.Unit = unit
		r, err := Compute(context.Background(), cfg, ds, Options{})
		if err != nil {
			t.Fatal(err)
		}
		withCI := 0
		for _, m := range r.Metrics {
			if m.CI == nil {
				continue
			}
			withCI++
			if m.CI.Unit != unit || m.CI.Resamples != 400 || (m.CI.Method != "bca" && m.CI.Method != "percentile") {
				t.Fatalf("%s: CI %+v", m.ID, *m.CI)
			}
		}
		if withCI < 20 {
			t.Errorf("unit %s: only %d metrics with a CI", unit, withCI)
		}
		m, _ := r.Metric("sys", "ne.auroc", "")
		if m.CI == nil || m.CI.Method != "bca" || !(m.CI.Low <= m.Value && m.Value <= m.CI.High) {
			t.Errorf("unit %s: ne.auroc %v with CI %+v", unit, m.Value, m.CI)
		}
	}
}
