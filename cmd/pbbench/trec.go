package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"paperbundle/metrics"
)

// trecEvalArgs ask trec_eval v10 for every measure it has (-m all_trec),
// the measures paperbundle computes for TREC input, at trec_eval's
// cutoffs, which workload (c) uses.
var trecEvalArgs = []string{"-m", "all_trec"}

// trecEvalCutoffs are workload (c)'s cutoffs: trec_eval's.
var trecEvalCutoffs = []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}

// trecEvalIDs maps the names trec_eval prints to paperbundle's metric ids
// (the registry's trec_eval names; cmd/paperbundle/trec_eval_suite_test.go
// checks every one on trec_eval's own test files).
var trecEvalIDs = func() map[string]metrics.ID {
	m := map[string]metrics.ID{}
	for _, id := range metrics.TrecEvalIDs(trecEvalCutoffs) {
		if name, ok := metrics.TrecEvalName(id); ok {
			m[name] = id
		}
	}
	return m
}()

// compareTrecEval runs trec_eval on the files of workload (c), prints its
// cost, the ratio of paperbundle's to it (target: at most 0.45,
// docs/performance.md), and
// whether the bundle in out has trec_eval's values (which it prints to 4
// decimals).
func (b *bench) compareTrecEval(out string) error {
	if b.trecEval == "" {
		fmt.Println("    trec_eval: skipped (not on PATH; give -trec_eval PATH, see docs/performance.md)")
		return nil
	}
	dir := filepath.Join(b.dir, "trec")
	args := append(trecEvalArgs[:len(trecEvalArgs):len(trecEvalArgs)], filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "run.txt"))
	cmd := exec.Command(b.trecEval, args...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	u, err := measure(cmd)
	if err != nil {
		return err
	}
	fmt.Printf("    trec_eval (%s, %d measures, same files): %s\n", b.trecEval, len(trecEvalIDs), u)
	fmt.Printf("    paperbundle / trec_eval: wall %.2f, CPU %.2f (target: at most 0.45)\n",
		b.last.wall.Seconds()/u.wall.Seconds(), b.last.cpu().Seconds()/u.cpu().Seconds())
	want, err := parseTrecEval(stdout.Bytes())
	if err != nil {
		return err
	}
	got, err := bundleValues(out, "run")
	if err != nil {
		return err
	}
	const tol = 1e-4 // trec_eval prints 4 decimals
	var bad []string
	for _, name := range sortedKeys(trecEvalIDs) {
		id := trecEvalIDs[name]
		w, ok := want[name]
		g, found := got[id.String()]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: not printed by trec_eval", name))
		case !found:
			bad = append(bad, fmt.Sprintf("%s: not in metrics_master.json", id))
		case math.IsNaN(g) || math.Abs(g-w) > tol:
			bad = append(bad, fmt.Sprintf("%s %.6f, trec_eval %s %.4f", id, g, name, w))
		}
	}
	if len(bad) == 0 {
		fmt.Printf("    values: the %d measures agree with trec_eval to %g\n", len(trecEvalIDs), tol)
	} else {
		fmt.Printf("    values: %d of %d measures differ from trec_eval: %s\n", len(bad), len(trecEvalIDs), strings.Join(bad, "; "))
	}
	return nil
}

// parseTrecEval reads trec_eval's summary lines "measure all value".
func parseTrecEval(out []byte) (map[string]float64, error) {
	vals := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 || fs[1] != "all" {
			continue
		}
		if fs[0] == "runid" || fs[0] == "relstring" {
			continue // not measures
		}
		x, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			return nil, fmt.Errorf("trec_eval output: %q: %w", line, err)
		}
		vals[fs[0]] = x
	}
	return vals, nil
}

// bundleValues returns the whole-population values of system in the
// metrics_master.json of the bundle in out, by metric id (NaN when null).
func bundleValues(out, system string) (map[string]float64, error) {
	dir, err := versionDir(out)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "metrics_master.json"))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Metrics []struct {
			System, ID, Slice string
			Value             *float64
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("metrics_master.json: %w", err)
	}
	vals := map[string]float64{}
	for _, m := range doc.Metrics {
		if m.System != system || m.Slice != "" {
			continue
		}
		vals[m.ID] = math.NaN()
		if m.Value != nil {
			vals[m.ID] = *m.Value
		}
	}
	return vals, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
