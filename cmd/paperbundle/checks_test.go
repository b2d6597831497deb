package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checksOf builds a bundle from csv and returns its checks by id, and its
// report.html and tables/checks.csv.
func checksOf(t *testing.T, csv string) (map[string]map[string]any, string, string) {
	t.Helper()
	dir, cfg := writeProject(t, csv)
	root := filepath.Join(dir, "out")
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("build: exit %d: %s", code, msg)
	}
	data, err := os.ReadFile(filepath.Join(root, "v1", "metrics_master.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Checks []map[string]any `json:"checks"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, c := range m.Checks {
		out[c["id"].(string)] = c
	}
	html, _ := os.ReadFile(filepath.Join(root, "v1", "report.html"))
	csvOut, _ := os.ReadFile(filepath.Join(root, "v1", "tables", "checks.csv"))
	return out, string(html), string(csvOut)
}

// TestChecksWithoutTuneRows: a classifier table without tune rows claims
// no tune rows. In two folds, its thresholds are cross-fitted and the
// check and the captions say so; in one fold, no threshold is chosen and
// thresholds_met is not applicable, with the reason, never passed.
func TestChecksWithoutTuneRows(t *testing.T) {
	t.Run("two folds", func(t *testing.T) {
		checks, html, csv := checksOf(t, classifierCSV("ne_score", func(x float64) float64 { return x }))
		tm := checks["thresholds_met"]
		if d, _ := tm["detail"].(string); strings.Contains(d, "on tune rows") || !strings.Contains(d, "cross-fitted") {
			t.Errorf("thresholds_met detail %q: want the cross-fitting named, no tune rows claimed", d)
		}
		te := checks["tune_eval_disjoint"]
		if te["not_applicable"] != true || te["passed"] != false {
			t.Errorf("tune_eval_disjoint %v: want not applicable, not passed", te)
		}
		if strings.Contains(html, "chosen on tune rows") {
			t.Error("report.html says thresholds were chosen on tune rows; the input has none")
		}
		if !strings.Contains(csv, "tune_eval_disjoint,hard,not applicable,") {
			t.Errorf("checks.csv does not say not applicable:\n%s", csv)
		}
	})
	t.Run("one fold", func(t *testing.T) {
		one := strings.ReplaceAll(classifierCSV("ne_score", func(x float64) float64 { return x }), ",1,", ",0,")
		checks, html, _ := checksOf(t, one)
		tm := checks["thresholds_met"]
		if tm["not_applicable"] != true || tm["passed"] != false || !strings.Contains(tm["detail"].(string), "no tune rows") {
			t.Errorf("thresholds_met %v: want not applicable because the input has no tune rows", tm)
		}
		if fs := checks["folds_equal_size"]; fs["not_applicable"] != true {
			t.Errorf("folds_equal_size %v with one fold: want not applicable", fs)
		}
		if strings.Contains(html, "tune rows only") {
			t.Error("report.html claims tune rows the input does not have")
		}
	})
}
