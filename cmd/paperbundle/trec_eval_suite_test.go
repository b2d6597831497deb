package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"paperbundle/internal/trecevalout"
	"paperbundle/metrics"
)

// trecEvalMeasures maps the measures of trec_eval's `-m all_trec` output to
// the metric ids they equal (the registry's trec_eval names,
// docs/metrics.md "trec_eval measures"), for the cutoffs init writes for
// TREC runs: every measure trec_eval prints but runid and relstring.
func trecEvalMeasures() map[string]string {
	m := map[string]string{}
	for _, id := range metrics.TrecEvalIDs(trecCutoffs) {
		name, ok := metrics.TrecEvalName(id)
		if !ok {
			panic("no trec_eval name for " + string(id))
		}
		m[name] = string(id)
	}
	return m
}

// TestTrecEvalSuite builds a bundle from each run and qrels file of
// trec_eval 10's own test folder (usnistgov/trec_eval, test/) with the
// defaults `init -qrels` writes, and compares every shared measure with
// trec_eval's output, per query and in the `all` line, to 1e-4 (trec_eval
// prints 4 decimals). The expected outputs are trec_eval's, committed under
// testdata/trec_eval/expected (testdata/trec_eval/README.md says how they
// were made), so the test needs no trec_eval.
func TestTrecEvalSuite(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "trec_eval"))
	if err != nil {
		t.Fatal(err)
	}
	measures := trecEvalMeasures()
	cases := []struct {
		name, qrels, run, trec, expected string
	}{
		{"test", "qrels.test", "results.test", "", "test.txt"},
		// '#' comment lines in the qrels, and a '#' inside a docno.
		{"with-comments", "qrels.test.with-comments", "results.test", "", "with-comments.txt"},
		// ir_metadata-style docnos with '#'; one judged query has no
		// relevant document and scores 0 (trec.no_relevant: zero).
		{"comment", "qrels.comment.test", "results.comment.test", "", "comment.txt"},
		// A qrels query the run lacks scores 0: trec_eval -c.
		{"trunc -c", "qrels.test", "results.trunc", "trec: {missing_run: zero}\n", "trunc-c.txt"},
		// trec_eval -l2: grade 2 and above is relevant; nDCG still gives
		// grade-1 documents their gain, in the ranking and in the ideal.
		{"rel_level -l2", "qrels.rel_level", "results.test", "trec: {relevance_level: 2}\n", "rel_level-l2.txt"},
	}
	total, worst, worstAt := 0, 0.0, ""
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := fmt.Sprintf("title: trec_eval suite\nqrels: %q\nsystems:\n  - {name: run, format: trec, input: %q}\n"+
				"cutoffs: [5, 10, 15, 20, 30, 100, 200, 500, 1000]\ncontract: {ndcg_gain: linear}\n"+
				"bootstrap: {resamples: 0}\nbundle: {copy_inputs: false}\n%s",
				filepath.Join(src, tc.qrels), filepath.Join(src, tc.run), tc.trec)
			if err := os.WriteFile(filepath.Join(dir, "paper.yaml"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(dir, "out")
			if _, stderr, code := runCmd("build", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-q"); code != 0 {
				t.Fatalf("build: exit %d: %s", code, stderr)
			}
			all, perQ, warnings := readBundleValues(t, filepath.Join(root, "v1"), "run")
			want := readTrecEval(t, filepath.Join(src, "expected", tc.expected))
			// The unjudged warning: above 0.1 at the headline cutoff 10.
			unj, _ := strconv.ParseFloat(want["unj_10"]["all"], 64)
			warned := strings.Contains(warnings, "rank.unjudged@10 = ")
			if warned != (unj > 0.1) {
				t.Errorf("unj_10 = %v, unjudged warning %v in %q", unj, warned, warnings)
			}
			n, d, at := compareTrecEval(t, all, perQ, want, measures)
			if d > worst {
				worst, worstAt = d, tc.name+" "+at
			}
			total += n
			t.Logf("%s: %d values compared", tc.name, n)
		})
	}
	t.Logf("%d values compared in all; largest difference %.2g (%s)", total, worst, worstAt)
}

// compareTrecEval compares a system's whole-population values all and
// per-query values perQ with trec_eval's output want, measure by measure
// (measures maps trec_eval's names to metric ids), to 1e-4. It checks that
// the system is evaluated on trec_eval's num_q queries, and returns how
// many values it compared and the largest difference, with where.
func compareTrecEval(t *testing.T, all map[string]bundleValue, perQ map[string]map[string]float64, want map[string]map[string]string, measures map[string]string) (n int, worst float64, worstAt string) {
	t.Helper()
	nq, _ := strconv.Atoi(want["num_q"]["all"])
	if all["rank.map"].n != nq {
		t.Errorf("rank.map over %d queries, trec_eval's num_q is %d", all["rank.map"].n, nq)
	}
	if len(perQ) != nq {
		t.Errorf("%d queries in per_query_metrics.csv, trec_eval's num_q is %d", len(perQ), nq)
	}
	for measure, byQ := range want {
		id, ok := measures[measure]
		if !ok {
			if measure != "runid" && measure != "relstring" {
				t.Errorf("trec_eval's %s has no metric id", measure)
			}
			continue
		}
		for q, s := range byQ {
			w, _ := strconv.ParseFloat(s, 64)
			var got float64
			switch {
			case q == "all":
				v, ok := all[id]
				if !ok {
					t.Errorf("%s (trec_eval %s) missing from metrics_master.json", id, measure)
					continue
				}
				got = v.value
			case measure == "gm_map":
				// trec_eval prints ln(max(AP, 1e-5)) per query.
				got = math.Log(math.Max(perQ[q]["rank.map"], 1e-5))
			default:
				v, ok := perQ[q][id]
				if !ok {
					continue // not a per_query_metrics.csv column
				}
				got = v
			}
			n++
			d := math.Abs(got - w)
			if d > worst {
				worst, worstAt = d, measure+" "+q
			}
			if !(d <= 1e-4) {
				t.Errorf("%s %s: %s = %.6f, trec_eval %s", measure, q, id, got, s)
			}
		}
	}
	return n, worst, worstAt
}

type bundleValue struct {
	value float64
	n     int
}

// readBundleValues reads system's whole-population metrics from
// metrics_master.json and its per-query values from per_query_metrics.csv.
func readBundleValues(t *testing.T, dir, system string) (map[string]bundleValue, map[string]map[string]float64, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metrics []struct {
			System, ID, Slice string
			Value             *float64
			N                 int
		}
		Warnings []string
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	all := map[string]bundleValue{}
	for _, m := range doc.Metrics {
		if m.System == system && m.Slice == "" && m.Value != nil {
			all[m.ID] = bundleValue{*m.Value, m.N}
		}
	}
	f, err := os.Open(filepath.Join(dir, "per_query_metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	perQ := map[string]map[string]float64{}
	head := rows[0]
	for _, r := range rows[1:] {
		if r[0] != system {
			continue
		}
		vals := map[string]float64{}
		for j, col := range head {
			if x, err := strconv.ParseFloat(r[j], 64); err == nil && strings.HasPrefix(col, "rank.") {
				vals[col] = x
			}
		}
		perQ[r[1]] = vals
	}
	return all, perQ, strings.Join(doc.Warnings, "\n")
}

// readTrecEval reads trec_eval -q output: measure, query (or "all"), value.
func readTrecEval(t *testing.T, path string) map[string]map[string]string {
	t.Helper()
	out, err := trecevalout.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTrecNoRelevantSkip: with trec.no_relevant: skip, the judged query of
// trec_eval's comment test that has no relevant document leaves the ranking
// population (positives_only, 30 of 31 queries), and MAP is the mean of
// trec_eval's per-query map over the 30 queries with num_rel > 0.
func TestTrecNoRelevantSkip(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "trec_eval"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := fmt.Sprintf("title: skip\nqrels: %q\nsystems:\n  - {name: run, format: trec, input: %q}\n"+
		"cutoffs: [10]\ncontract: {ndcg_gain: linear}\nbootstrap: {resamples: 0}\nbundle: {copy_inputs: false}\ntrec: {no_relevant: skip}\n",
		filepath.Join(src, "qrels.comment.test"), filepath.Join(src, "results.comment.test"))
	if err := os.WriteFile(filepath.Join(dir, "paper.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	want := readTrecEval(t, filepath.Join(src, "expected", "comment.txt"))
	sum, n := 0.0, 0
	for q, s := range want["map"] {
		if q == "all" || want["num_rel"][q] == "0" {
			continue
		}
		x, _ := strconv.ParseFloat(s, 64)
		sum += x
		n++
	}
	b, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metrics []struct {
			System, ID, Slice, Population string
			Value                         *float64
			N                             int
		}
		Dataset struct {
			TREC map[string]any `json:"trec_conventions"`
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Dataset.TREC["no_relevant"] != "skip" {
		t.Errorf("trec_conventions = %v, want no_relevant: skip", doc.Dataset.TREC)
	}
	for _, m := range doc.Metrics {
		if m.System != "run" || m.ID != "rank.map" || m.Slice != "" {
			continue
		}
		// Each per-query value is rounded to 4 decimals: the mean is within 5e-5.
		if m.Population != "positives_only" || m.N != n || m.Value == nil || math.Abs(*m.Value-sum/float64(n)) > 5e-5 {
			t.Errorf("rank.map = %v over %d (%s), want %.5f over %d (positives_only)", m.Value, m.N, m.Population, sum/float64(n), n)
		}
		return
	}
	t.Error("rank.map missing")
}

// TestTrecNDCGBelowLevel: at relevance level 2, a document graded 1 is not
// relevant but keeps its gain in nDCG, in the ranking and in the ideal, as
// in trec_eval's ndcg and ndcg_cut; a judged query whose documents are all
// graded 1 has map 0 and an nDCG above 0 (no_relevant: zero). By hand,
// with gain = grade and discount 1/log2(rank+1):
//
//	q1 ranks grades [1, 2, 0], ideal [2, 1]:
//	  nDCG   = (1 + 2/log2 3) / (2 + 1/log2 3) = 2.26186 / 2.63093 = 0.85972
//	  nDCG@1 = 1 / 2 = 0.5; map = 1/2 (its one relevant document at rank 2)
//	q2 ranks grades [1, unjudged], ideal [1, 1]:
//	  nDCG = nDCG@2 = 1 / (1 + 1/log2 3) = 0.61315; nDCG@1 = 1; map 0
//
// trec_eval 10 -q -l2 -m ndcg -m ndcg_cut.1,2 -m map prints the same
// (ndcg 0.8597, 0.6131, all 0.7364; ndcg_cut_1 all 0.7500; map all 0.2500).
func TestTrecNDCGBelowLevel(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"qrels.txt": "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq2 0 d4 1\nq2 0 d5 1\n",
		"run.txt":   "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq1 Q0 d3 3 1 r\nq2 Q0 d5 1 2 r\nq2 Q0 d9 2 1 r\n",
		"paper.yaml": "title: below the level\nqrels: qrels.txt\nsystems:\n  - {name: run, format: trec, input: run.txt}\n" +
			"cutoffs: [1, 2]\ncontract: {ndcg_gain: linear}\nbootstrap: {resamples: 0}\nbundle: {copy_inputs: false}\ntrec: {relevance_level: 2}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	all, perQ, _ := readBundleValues(t, filepath.Join(root, "v1"), "run")
	q1 := (1 + 2/math.Log2(3)) / (2 + 1/math.Log2(3))
	q2 := 1 / (1 + 1/math.Log2(3))
	want := map[string]map[string]float64{
		"q1":  {"rank.ndcg": q1, "rank.ndcg@1": 0.5, "rank.ndcg@2": q1, "rank.map": 0.5},
		"q2":  {"rank.ndcg": q2, "rank.ndcg@1": 1, "rank.ndcg@2": q2, "rank.map": 0},
		"all": {"rank.ndcg": (q1 + q2) / 2, "rank.ndcg@1": 0.75, "rank.ndcg@2": (q1 + q2) / 2, "rank.map": 0.25},
	}
	for q, byID := range want {
		for id, w := range byID {
			got, ok := perQ[q][id]
			if q == "all" {
				got, ok = all[id].value, all[id].n == 2
			}
			if !ok || math.Abs(got-w) > 1e-12 {
				t.Errorf("%s %s = %v (present %v), want %.5f", q, id, got, ok, w)
			}
		}
	}
}

// TestTrecPerSystemQueries: two runs that cover different qrels queries,
// under trec.missing_run: skip (the default). Run a is trec_eval's comment
// test run without 3 of its 31 queries, run b the same run without 4 others
// and every score negated (testdata/trec_eval/README.md). Each system is
// evaluated on its own queries: every shared measure equals trec_eval's on
// that run against the qrels of its queries (trec_eval 10 without -c stops
// when a qrels query has no run line), per query and in `all`. The
// comparison of a with b is on the 24 queries both have (31 - 3 - 4); by
// hand from trec_eval's per-query map over those 24 queries: Σ map(a) =
// 6.8589, Σ map(b) = 3.6175, so the difference is (6.8589 - 3.6175) / 24 =
// 0.135058 (each term rounded to 4 decimals, so within 24·5e-5/24 of the
// exact one), where the two systems' own means, 0.2726 over 28 and 0.1514
// over 27, would give 0.1212.
func TestTrecPerSystemQueries(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "trec_eval"))
	if err != nil {
		t.Fatal(err)
	}
	dir := perSystemRunsProject(t, src)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", filepath.Join(dir, "paper.yaml"), "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	v1 := filepath.Join(root, "v1")
	measures := trecEvalMeasures()
	wantMap := map[string]map[string]string{}
	for _, sys := range []string{"a", "b"} {
		all, perQ, _ := readBundleValues(t, v1, sys)
		want := readTrecEval(t, filepath.Join(src, "expected", "skip-"+sys+".txt"))
		n, worst, at := compareTrecEval(t, all, perQ, want, measures)
		t.Logf("system %s: %d values compared, largest difference %.2g (%s)", sys, n, worst, at)
		wantMap[sys] = want["map"]
	}
	b, err := os.ReadFile(filepath.Join(v1, "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Dataset struct {
			Notes         []string
			SystemQueries map[string]int `json:"system_eval_queries"`
		}
		Comparisons []struct {
			System, Reference, ID string
			N                     int
			Diff                  float64
			CI                    *struct{ Low, High float64 }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Dataset.SystemQueries["a"] != 28 || doc.Dataset.SystemQueries["b"] != 27 {
		t.Errorf("system_eval_queries = %v, want a: 28, b: 27", doc.Dataset.SystemQueries)
	}
	notes := strings.Join(doc.Dataset.Notes, "\n")
	for _, s := range []string{`"2024-127266", "2024-12875", "2024-137182"`, "run a is evaluated on its own 28 queries",
		`"2024-69711", "2024-79081", "2024-94706", "2024-96359"`, "run b is evaluated on its own 27 queries"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
	// The difference from trec_eval's per-query map over the shared queries.
	if shared, mean := meanDiff(wantMap["a"], wantMap["b"]); shared != 24 || math.Abs(mean-0.135058) > 1e-6 {
		t.Fatalf("trec_eval's files: %d shared queries, mean difference %.6f; want 24, 0.135058", shared, mean)
	}
	found := false
	for _, c := range doc.Comparisons {
		if c.System != "a" || c.Reference != "b" || c.ID != "rank.map" {
			continue
		}
		found = true
		if c.N != 24 || math.Abs(c.Diff-0.135058) > 1e-4 {
			t.Errorf("a vs b on rank.map: n %d, difference %.6f; want 24, 0.135058", c.N, c.Diff)
		}
		if c.CI == nil || !(c.CI.Low <= c.Diff && c.Diff <= c.CI.High) {
			t.Errorf("a vs b on rank.map: interval %v does not hold the difference %.6f", c.CI, c.Diff)
		}
	}
	if !found {
		t.Error("no comparison of a with b on rank.map")
	}
	summary, err := os.ReadFile(filepath.Join(v1, "SUMMARY.md"))
	if err != nil {
		t.Fatal(err)
	}
	if s := "a (a) on 28, b (b) on 27 queries; each comparison is on the queries both runs have (a (a) with b (b): 24)"; !strings.Contains(string(summary), s) {
		t.Errorf("SUMMARY.md lacks %q", s)
	}
	// report.html: each system's ranking tables say its own n, the
	// comparisons that n is per pair (in TREC words: runs).
	page, err := os.ReadFile(filepath.Join(v1, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Population: judged queries (<code>judged_queries</code>); n = 27", "Population: judged queries (<code>judged_queries</code>); n = 28", "Population: paired, the eval queries both runs have"} {
		if !strings.Contains(string(page), s) {
			t.Errorf("report.html lacks %q", s)
		}
	}
	// verify recomputes the bundle from its copies of the inputs: the
	// notes name the runs as paper.yaml does, not by the copies' paths.
	if stdout, stderr, code := runCmd("verify", v1); code != 0 || !strings.Contains(stdout, "valid and recomputed") {
		t.Errorf("verify: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// perSystemRunsProject writes, in a new folder, the two runs of
// TestTrecPerSystemQueries made from trec_eval's comment test files (as
// testdata/trec_eval/README.md says) and their paper.yaml, and returns the
// folder.
func perSystemRunsProject(t *testing.T, src string) string {
	t.Helper()
	base, err := os.ReadFile(filepath.Join(src, "results.comment.test"))
	if err != nil {
		t.Fatal(err)
	}
	// derive writes the lines of base whose qid is not in drop, the score
	// negated when negate, fields joined by one space (as awk prints them).
	derive := func(drop []string, negate bool) string {
		var b strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(string(base)), "\n") {
			fs := strings.Fields(line)
			if slices.Contains(drop, fs[0]) {
				continue
			}
			if negate {
				if s, ok := strings.CutPrefix(fs[4], "-"); ok {
					fs[4] = s
				} else {
					fs[4] = "-" + fs[4]
				}
				line = strings.Join(fs, " ")
			}
			b.WriteString(line + "\n")
		}
		return b.String()
	}
	dir := t.TempDir()
	files := map[string]string{
		"run.a": derive([]string{"2024-127266", "2024-12875", "2024-137182"}, false),
		"run.b": derive([]string{"2024-69711", "2024-79081", "2024-94706", "2024-96359"}, true),
		"paper.yaml": fmt.Sprintf("title: two runs\nqrels: %q\nsystems:\n  - {name: a, format: trec, input: run.a}\n  - {name: b, format: trec, input: run.b}\n"+
			"cutoffs: [5, 10, 15, 20, 30, 100, 200, 500, 1000]\ncontract: {ndcg_gain: linear}\n"+
			"bootstrap: {resamples: 200}\n", filepath.Join(src, "qrels.comment.test")),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// meanDiff is the mean of a[q] - b[q] over the queries q both have (the
// "all" line aside), from trec_eval's per-query values, and their count.
func meanDiff(a, b map[string]string) (shared int, mean float64) {
	var sum float64
	for q, s := range a {
		if sb, ok := b[q]; ok && q != "all" {
			xa, _ := strconv.ParseFloat(s, 64)
			xb, _ := strconv.ParseFloat(sb, 64)
			sum += xa - xb
			shared++
		}
	}
	return shared, sum / float64(max(shared, 1))
}
