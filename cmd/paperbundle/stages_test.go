package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBuildStages checks the shape of a -stages file: every stage once, in
// order, with numbers that fit together. The times themselves are measured
// by make bench, never asserted.
func TestBuildStages(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	path := filepath.Join(dir, "stages.txt")
	t.Cleanup(func() { stages.Set("") })
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", filepath.Join(dir, "out"), "-q", "-stages", path); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"load", "metrics", "bootstrap", "figures", "html", "xlsx", "write", "other", "total"}
	var names []string
	var total float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("line %q: want 4 fields: stage start end seconds", line)
		}
		names = append(names, f[0])
		start, err1 := strconv.ParseFloat(f[1], 64)
		end, err2 := strconv.ParseFloat(f[2], 64)
		sec, err3 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("line %q: not numbers", line)
		}
		if start < 0 || end < start || sec < 0 || sec > end-start+0.002 {
			t.Errorf("line %q: want 0 <= start <= end and seconds <= end - start", line)
		}
		if f[0] == "total" {
			total = end
		}
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("stages %v, want %v", names, want)
	}
	if total <= 0 {
		t.Errorf("total %v, want > 0", total)
	}
}

func TestCovered(t *testing.T) {
	s := func(a, b int) span { return span{time.Duration(a), time.Duration(b)} }
	for _, c := range []struct {
		spans []span
		want  int
	}{
		{nil, 0},
		{[]span{s(0, 10)}, 10},
		{[]span{s(5, 10), s(0, 3)}, 8},
		{[]span{s(0, 10), s(2, 4), s(8, 12)}, 12}, // nested and overlapping
		{[]span{s(0, 4), s(4, 6)}, 6},
	} {
		if got := covered(c.spans); got != time.Duration(c.want) {
			t.Errorf("covered(%v) = %d, want %d", c.spans, got, c.want)
		}
	}
}
