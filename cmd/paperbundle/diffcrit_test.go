package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables"
)

// handBundle writes the two files diff reads from a bundle folder:
// metrics_master.json and per_query_metrics.csv of one system over 40
// queries (two a post) whose criteria are -x, =x, +x and @x in turn. In
// the newer bundle every query's recall@10 is 0.5 higher; the metrics'
// intervals overlap, so only the paired test can find the change.
func handBundle(t *testing.T, dir, version string, shift float64) {
	t.Helper()
	crit := []string{"-x", "=x", "+x", "@x"}
	r := &report.Report{SchemaVersion: report.SchemaVersion, Version: version, Title: "t",
		Systems:         []report.SystemInfo{{Name: "full", Label: "full", Kind: report.Pipeline, Primary: true}},
		Settings:        report.Settings{HeadlineCutoff: 10, Cutoffs: []int{10}, Seed: 1},
		Dataset:         report.DatasetSummary{EvalQueries: 40, Posts: 20, Criteria: crit},
		PerQueryColumns: []metrics.ID{metrics.RankRecall.At(10), metrics.RankCappedRecall.At(10)},
		PerQueryFields:  report.EvidenceFields{Label: true, Criteria: true, Candidates: true},
	}
	sum := map[string]float64{}
	whole := 0.0
	for i := range 40 {
		v := float64(i%3)/4 + shift
		if i%2 == 1 {
			v = float64(i%5)/8 + shift/4 // a smaller change, for a p-value that is not the least possible
		}
		whole += v / 40
		c := crit[i%4]
		sum[c] += v / 10
		r.PerQuery = append(r.PerQuery, report.Evidence{System: "full", Query: fmt.Sprintf("q%d", i), Post: fmt.Sprintf("p%d", i/2),
			Criterion: c, Label: true, NGold: 1, NCand: 5, Difficulty: report.NaN, Score: report.NaN}.WithValues(report.Num(v), report.Num(v)))
	}
	for _, c := range crit {
		r.Metrics = append(r.Metrics, report.Metric{System: "full", ID: metrics.RankRecall.At(10), Slice: report.CriterionSlice(c),
			N: 10, Value: report.Num(sum[c]), CI: &report.CI{Low: 0, High: 1, Method: "percentile", Unit: "post", Resamples: 100},
			FoldMean: report.NaN, FoldStd: report.NaN})
	}
	// recall@10 and capped_recall@10 have the same per-query values; their
	// intervals are disjoint between the bundles for one and overlap for
	// the other.
	lo := whole - 0.05 + shift*0.2
	r.Metrics = append(r.Metrics,
		report.Metric{System: "full", ID: metrics.RankRecall.At(10), N: 40, Value: report.Num(whole),
			CI: &report.CI{Low: report.Num(lo), High: report.Num(lo + 0.1)}, FoldMean: report.NaN, FoldStd: report.NaN},
		report.Metric{System: "full", ID: metrics.RankCappedRecall.At(10), N: 40, Value: report.Num(whole),
			CI: &report.CI{Low: 0, High: 1}, FoldMean: report.NaN, FoldStd: report.NaN})
	r.Reindex()
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"metrics_master.json": js, "per_query_metrics.csv": tables.PerQueryCSV(r)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiffFormulaCriteria: a criterion whose id begins with -, =, + or @
// (written to per_query_metrics.csv with a leading ') is decided by the
// paired permutation test on its queries, like any other criterion, and
// not by CI overlap.
func TestDiffFormulaCriteria(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "v1"), filepath.Join(root, "v2")
	handBundle(t, a, "v1", 0)
	handBundle(t, b, "v2", 0.5)
	out, stderr, code := runCmd("diff", a, b)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	for _, c := range []string{"-x", "=x", "+x", "@x"} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "criterion="+c+" ") {
				found = true
				if !strings.Contains(line, "permutation p=") || strings.Contains(line, "CIs overlap") {
					t.Errorf("criterion %s is not decided by the permutation test: %s", c, line)
				}
			}
		}
		if !found {
			t.Errorf("no row of criterion %s in:\n%s", c, out)
		}
	}
	// Identical per-query vectors: the same test, p-value and verdict.
	verdict := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		for _, id := range []string{"rank.recall@10", "rank.capped_recall@10"} {
			if strings.Contains(line, " "+id+" ") && strings.Contains(line, " all ") {
				_, after, _ := strings.Cut(line, "+")
				f := strings.Fields(after)
				verdict[id] = strings.Join(f[1:], " ") // sig and test
			}
		}
	}
	if v := verdict["rank.recall@10"]; v == "" || v != verdict["rank.capped_recall@10"] || !strings.Contains(v, "permutation") {
		t.Errorf("identical per-query values judged differently: recall@10 %q, capped_recall@10 %q\n%s", v, verdict["rank.capped_recall@10"], out)
	}
}
