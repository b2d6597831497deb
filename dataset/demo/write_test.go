package demo

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// This file tests the written demo files: byte determinism, the CSV format,
// paper.yaml and write errors.

func hashDir(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	h := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		h[filepath.ToSlash(rel)] = sha256.Sum256(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestDeterminism writes the demo twice and compares the sha256 of every
// file; it also checks that Write renders exactly what Generate returns and
// that another seed gives other data.
func TestDeterminism(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	if err := Write(a, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, Options{Seed: DefaultSeed}); err != nil {
		t.Fatal(err)
	}
	ha, hb := hashDir(t, a), hashDir(t, b)
	want := []string{"data/dynamic_k.csv", "data/full.csv", "data/graph.csv", "data/ne_gate.csv", "data/reranker.csv", "data/retriever.csv", "paper.yaml"}
	var got []string
	for k := range ha {
		got = append(got, k)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	for _, k := range want {
		if ha[k] != hb[k] {
			t.Errorf("%s: sha256 %x then %x for the same seed", k, ha[k], hb[k])
		}
	}
	t.Logf("data/full.csv sha256 %x", ha["data/full.csv"])

	// Write renders Generate's data.
	d := defaultDemo(t)
	for _, sys := range d.Systems {
		h := sha256.New()
		io.WriteString(h, csvHeader)
		var buf []byte
		for i := range d.Queries {
			buf = appendRow(buf[:0], &d.Queries[i], &sys.Rows[i])
			h.Write(buf)
		}
		var sum [32]byte
		h.Sum(sum[:0])
		if k := "data/" + sys.Name + ".csv"; sum != ha[k] {
			t.Errorf("%s differs from the rendering of Generate's data", k)
		}
	}

	// Another seed, other bytes.
	if err := Write(c, Options{Seed: 42}); err != nil {
		t.Fatal(err)
	}
	hc := hashDir(t, c)
	for _, k := range want {
		if hc[k] == ha[k] {
			t.Errorf("%s: seed 42 gives the same bytes as the default seed", k)
		}
	}
}

// TestCSVFormat reads a written system file back with encoding/csv and
// checks the header, the field count, the list syntax and the number format.
func TestCSVFormat(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, Options{Seed: 3}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "data", "retriever.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = 12
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := "post_id,criterion_id,query_id,fold,split,gold_uids,gold_rels,candidate_uids,candidate_scores,node_probs,ne_prob,has_evidence"
	if got := strings.Join(header, ","); got != wantHeader {
		t.Fatalf("header %q, want %q", got, wantHeader)
	}
	checkNum := func(line int, s string, decimals int) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || strings.ContainsAny(s, "eE+") || s == "-0" || strings.HasPrefix(s, "-0") && x == 0 {
			t.Fatalf("line %d: number %q is not plain decimal", line, s)
		}
		if dot := strings.IndexByte(s, '.'); dot >= 0 && len(s)-dot-1 > decimals {
			t.Fatalf("line %d: %q has more than %d decimals", line, s, decimals)
		}
		return x
	}
	line := 1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		line++
		cands := strings.Split(rec[7], ";")
		scores := strings.Split(rec[8], ";")
		nodes := strings.Split(rec[9], ";")
		if len(scores) != len(cands) || len(nodes) != len(cands) {
			t.Fatalf("line %d: %d candidates, %d scores, %d node probs", line, len(cands), len(scores), len(nodes))
		}
		for i := range cands {
			checkNum(line, scores[i], 3)
			checkNum(line, nodes[i], 4)
		}
		checkNum(line, rec[10], 4)
		nGold := 0
		if rec[5] != "" {
			nGold = len(strings.Split(rec[5], ";"))
			if len(strings.Split(rec[6], ";")) != nGold {
				t.Fatalf("line %d: gold_rels %q does not match gold_uids %q", line, rec[6], rec[5])
			}
		} else if rec[6] != "" {
			t.Fatalf("line %d: gold_rels without gold", line)
		}
		if want := strconv.Itoa(min(nGold, 1)); rec[11] != want {
			t.Fatalf("line %d: has_evidence %q with %d gold", line, rec[11], nGold)
		}
		if rec[4] != SplitEval && rec[4] != SplitTune {
			t.Fatalf("line %d: split %q", line, rec[4])
		}
	}
	if line < 30000 {
		t.Errorf("only %d lines", line)
	}
}

// TestPaperYAML parses the written paper.yaml with the keys of
// docs/configuration.md it
// should use (and no other) and checks the systems and their inputs.
func TestPaperYAML(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, Options{Seed: 5}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "paper.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Title   string `yaml:"title"`
		Seed    uint64 `yaml:"seed"`
		Systems []struct {
			Name  string `yaml:"name"`
			Label string `yaml:"label"`
			Input string `yaml:"input"`
		} `yaml:"systems"`
		Primary         string    `yaml:"primary"`
		Comparisons     string    `yaml:"comparisons"`
		ReferenceSystem string    `yaml:"reference_system"`
		Targets         string    `yaml:"targets"`
		Cutoffs         []int     `yaml:"cutoffs"`
		FPRTargets      []float64 `yaml:"fpr_targets"`
		Bootstrap       struct {
			Resamples  int     `yaml:"resamples"`
			Unit       string  `yaml:"unit"`
			Method     string  `yaml:"method"`
			Confidence float64 `yaml:"confidence"`
		} `yaml:"bootstrap"`
		Gate struct {
			ScreenSensitivity float64 `yaml:"screen_sensitivity"`
			AlertPrecision    float64 `yaml:"alert_precision"`
		} `yaml:"gate"`
		DynamicK struct {
			KMin           int       `yaml:"k_min"`
			HardCap        int       `yaml:"hard_cap"`
			KMaxRatio      float64   `yaml:"k_max_ratio"`
			Gamma          float64   `yaml:"gamma"`
			GammaUncertain float64   `yaml:"gamma_uncertain"`
			Sweep          []float64 `yaml:"sweep"`
		} `yaml:"dynamic_k"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("paper.yaml: %v\n%s", err, b)
	}
	if cfg.Title != "Demo: evidence retrieval pipeline (synthetic)" || cfg.Seed != 5 {
		t.Errorf("title %q seed %d", cfg.Title, cfg.Seed)
	}
	// The full pipeline first (the primary system), then the ladder.
	wantNames := []string{"full", "retriever", "reranker", "graph", "dynamic_k", "ne_gate"}
	wantLabels := []string{"Full pipeline (3-state gate)", "Retriever only", "+ Reranker", "+ Graph reranker", "+ Dynamic-K", "+ NE gate"}
	if cfg.Primary != "full" || cfg.Comparisons != "reference" || cfg.ReferenceSystem != "retriever" || cfg.Targets != "contract" {
		t.Errorf("primary %q, comparisons %q, reference_system %q, targets %q; want full, reference, retriever, contract",
			cfg.Primary, cfg.Comparisons, cfg.ReferenceSystem, cfg.Targets)
	}
	if len(cfg.Systems) != len(wantNames) {
		t.Fatalf("%d systems, want %d", len(cfg.Systems), len(wantNames))
	}
	for i, s := range cfg.Systems {
		if s.Name != wantNames[i] || s.Label != wantLabels[i] || s.Input != "data/"+wantNames[i]+".csv" {
			t.Errorf("system %d = %+v, want %s %q data/%s.csv", i, s, wantNames[i], wantLabels[i], wantNames[i])
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(s.Input))); err != nil {
			t.Errorf("system %s: %v", s.Name, err)
		}
	}
	if !slices.Equal(cfg.Cutoffs, []int{1, 3, 5, 10, 20}) ||
		!slices.Equal(cfg.FPRTargets, []float64{0.01, 0.03, 0.05, 0.10}) ||
		cfg.Bootstrap.Resamples != 10000 || cfg.Bootstrap.Unit != "post" || cfg.Bootstrap.Method != "percentile" || cfg.Bootstrap.Confidence != 0.95 ||
		cfg.Gate.ScreenSensitivity != 0.995 || cfg.Gate.AlertPrecision != 0.90 ||
		cfg.DynamicK.KMin != 2 || cfg.DynamicK.HardCap != 10 || cfg.DynamicK.KMaxRatio != 0.5 ||
		cfg.DynamicK.Gamma != 0.9 || cfg.DynamicK.GammaUncertain != 0.95 ||
		!slices.Equal(cfg.DynamicK.Sweep, []float64{0.7, 0.8, 0.9, 0.95}) {
		t.Errorf("paper.yaml does not carry the defaults:\n%s", b)
	}
}

func TestWriteErrors(t *testing.T) {
	if err := Write("", Options{}); err == nil {
		t.Error("Write(\"\") succeeded")
	}
	// A regular file where the data folder should be.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, Options{}); err == nil {
		t.Error("Write over a file named data succeeded")
	}
}
