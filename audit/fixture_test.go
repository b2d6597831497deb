package audit

import (
	"paperbundle/config"
	"paperbundle/metrics"
	"paperbundle/report"
)

// The fixture is two versions of a small bundle, written by hand: v1 and
// v2 differ in Full pipeline's AUROC (0.9402 then 0.8754) and its CI; the
// rest is equal. The manuscripts of testdata/ quote these numbers.

func ci(lo, hi float64) *report.CI {
	return &report.CI{Low: report.Num(lo), High: report.Num(hi), Method: "percentile", Unit: config.Unit("post"), Resamples: 200}
}

func metric(sys, id string, v float64, n int, c *report.CI) report.Metric {
	return report.Metric{System: sys, ID: metrics.ID(id), Value: report.Num(v), N: n, CI: c,
		FoldMean: report.NaN, FoldStd: report.NaN}
}

func fixtureReport(version string, auroc float64, auroCI *report.CI) *report.Report {
	r := &report.Report{
		SchemaVersion: report.SchemaVersion, Version: version,
		Systems: []report.SystemInfo{
			{Name: "full", Label: "Full pipeline (3-state gate)", Kind: report.Pipeline, Primary: true},
			{Name: "retriever", Label: "Retriever only", Kind: report.Pipeline},
		},
		Dataset: report.DatasetSummary{Posts: 1477, EvalQueries: 14770, PositiveQueries: 1380,
			PositiveRate: 0.0934, CandidatesMean: report.NaN, GoldMean: report.NaN},
		Metrics: []report.Metric{
			metric("full", "ne.auroc", auroc, 14770, auroCI),
			metric("full", "rank.ndcg@10", 0.8512, 1380, ci(0.8401, 0.8620)),
			metric("full", "clinical.screen_sensitivity", 0.9857, 1380, ci(0.9749, 0.9963)),
			metric("full", "ne.auroc", 0.6420, 1477, nil),
			metric("retriever", "ne.auroc", 0.7551, 14770, ci(0.7390, 0.7702)),
			metric("retriever", "rank.ndcg@10", 0.6790, 1380, ci(0.6601, 0.6992)),
			metric("retriever", "clinical.screen_sensitivity", 0.9821, 1380, ci(0.9700, 0.9950)),
		},
		Comparisons: []report.Comparison{
			{System: "full", Reference: "retriever", ID: "ne.auroc", N: 14770, Diff: report.Num(auroc - 0.7551),
				Test: "delong", P: 0.0001, PHolm: 0.0004},
			{System: "full", Reference: "retriever", ID: "clinical.screen_sensitivity", N: 1380, Diff: 0.0036,
				Test: "bootstrap", P: 0.111, PHolm: 0.111},
		},
		Settings: report.Settings{Significance: report.SignificanceSettings{Alpha: 0.05, Correction: "holm"}},
	}
	r.Metrics[3].Slice = report.CriterionSlice("A.1")
	r.Reindex()
	return r
}

// fixtureVersions returns v2 (current) and v1.
func fixtureVersions() []Version {
	return []Version{
		{Name: "v2", Report: fixtureReport("v2", 0.8754, ci(0.8601, 0.8912))},
		{Name: "v1", Report: fixtureReport("v1", 0.9402, ci(0.9301, 0.9500))},
	}
}
