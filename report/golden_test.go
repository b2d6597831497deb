package report

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/golden"
)

// TestGoldenJSON compares metrics_master.json of the hand fixture with
// testdata/hand.golden (regenerate with -update after checking the diff).
func TestGoldenJSON(t *testing.T) {
	r, err := Compute(context.Background(), handConfig(200), handDataset(), Options{Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "hand.golden"), got)
}

// TestDeterministicWorkers: the same seed gives the same bytes on 1 or 2
// bootstrap workers.
func TestDeterministicWorkers(t *testing.T) {
	var out [][]byte
	for _, w := range []int{1, 2, 3} {
		r, err := Compute(context.Background(), handConfig(300), handDataset(), Options{Version: "v1", Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	for i := 1; i < len(out); i++ {
		if !bytes.Equal(out[0], out[i]) {
			t.Fatalf("JSON differs between worker counts")
		}
	}
}

// TestAVX2AndGoSameBytes: the bootstrap's sums weighed by the AVX2
// kernels and by the Go loops give the same report, bit for bit (on a CPU
// without AVX2 both runs take the Go loops).
func TestAVX2AndGoSameBytes(t *testing.T) {
	big := randomDataset(900, 5)
	bigCfg := config.Default()
	bigCfg.Systems = []config.System{{Name: "sys", Input: "x"}}
	bigCfg.Bootstrap.Resamples = 64
	for _, tc := range []struct {
		name string
		cfg  *config.Config
		ds   *dataset.Dataset
	}{{"hand", handConfig(100), handDataset()}, {"random", bigCfg, big}} {
		var out [2][]byte
		for k, noAVX2 := range []bool{false, true} {
			r, err := Compute(context.Background(), tc.cfg, tc.ds, Options{Version: "v1", NoAVX2: noAVX2})
			if err != nil {
				t.Fatal(err)
			}
			if out[k], err = r.JSON(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("%s: JSON differs between the AVX2 kernels and the Go loops", tc.name)
		}
	}
}
