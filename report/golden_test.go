package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

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
	golden := filepath.Join("testdata", "hand.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./report -run Golden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("metrics_master.json differs from %s; rerun with -update after checking:\n%s", golden, lineDiff(want, got))
	}
}

// lineDiff shows where two texts differ: the common head and tail are cut,
// and up to 40 lines of the middle of each are printed.
func lineDiff(want, got []byte) string {
	a, b := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	var s strings.Builder
	fmt.Fprintf(&s, "@@ line %d @@\n", i+1)
	for k, l := range a[i : len(a)-j] {
		if k == 40 {
			s.WriteString("...\n")
			break
		}
		s.WriteString("- " + l + "\n")
	}
	for k, l := range b[i : len(b)-j] {
		if k == 40 {
			s.WriteString("...\n")
			break
		}
		s.WriteString("+ " + l + "\n")
	}
	return s.String()
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
