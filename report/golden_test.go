package report

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

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
