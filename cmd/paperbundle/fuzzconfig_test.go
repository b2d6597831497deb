package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"paperbundle/config"
)

// fuzzTables are the inputs FuzzConfigRange builds: a four-row classifier
// (the smallest that once made calibration.bins overflow a buffer) and
// the retrieval table of the command's tests (folds, tune rows, criteria,
// candidates and ne_prob).
var fuzzTables = []string{
	"query_id,label,ne_prob\nq1,1,0.9\nq2,0,0.2\nq3,1,0.6\nq4,0,0.4\n",
	goodCSV,
}

// splitmix returns the splitmix64 sequence from seed, the numbers
// config.SampleYAML draws.
func splitmix(seed uint64) func() uint64 {
	return func() uint64 {
		seed += 0x9E3779B97F4A7C15
		z := (seed ^ seed>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
}

var resamplesLine = regexp.MustCompile(`(?m)^  resamples: ([0-9]+)$`)

// FuzzConfigRange builds a bundle for configurations whose every key is
// within its documented range (config.SampleYAML, drawn from seed) on a
// classifier and a retrieval table with two systems, and checks that no
// configuration panics: each build exits 0, or 2 with a message about
// the configuration (a cross-key rule such as 1 to 49 resamples). The
// number of resamples is reduced modulo 2,000 so that one build stays
// under a second: its size changes the time a build takes, not which
// buffers it needs.
func FuzzConfigRange(f *testing.F) {
	for _, seed := range []uint64{0, 1, 54} {
		f.Add(seed, uint8(0))
		f.Add(seed, uint8(1))
	}
	f.Fuzz(func(t *testing.T, seed uint64, table uint8) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "s.csv"), []byte(fuzzTables[int(table)%len(fuzzTables)]))
		body := resamplesLine.ReplaceAllStringFunc(config.SampleYAML(splitmix(seed)), func(line string) string {
			n, _ := strconv.Atoi(resamplesLine.FindStringSubmatch(line)[1])
			return "  resamples: " + strconv.Itoa(n%2000)
		})
		doc := "title: fuzz\nsystems:\n  - {name: a, input: s.csv}\n  - {name: b, input: s.csv}\n" + body
		cfg := filepath.Join(dir, "paper.yaml")
		writeFile(t, cfg, []byte(doc))
		code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", filepath.Join(dir, "out"))
		switch {
		case code == 0:
		case code == 2 && strings.Contains(msg, "paper.yaml:"):
		default:
			t.Fatalf("exit %d: %s\nconfiguration:\n%s", code, msg, doc)
		}
		if code != 0 {
			if _, err := os.Stat(filepath.Join(dir, "out", "v1")); err == nil {
				t.Fatal("a refused configuration wrote v1")
			}
		}
	})
}

var anyResamples = regexp.MustCompile(`resamples: *([0-9]+)`)

// FuzzVerifyConfig hands verify a bundle whose config.yaml is the fuzz
// input (a received bundle is untrusted: its config.yaml may say
// anything) and checks that verify never panics: it exits 0 or 3. The
// seeds are the bundle's own config.yaml with calibration.bins 54 (which
// once overflowed a buffer) and configurations within the documented
// ranges. Resamples are reduced modulo 2,000, as in FuzzConfigRange.
func FuzzVerifyConfig(f *testing.F) {
	src := f.TempDir()
	writeFile(f, filepath.Join(src, "s.csv"), []byte(fuzzTables[0]))
	writeFile(f, filepath.Join(src, "paper.yaml"), []byte("title: t\nsystems:\n  - {name: s, input: s.csv}\nbootstrap: {resamples: 0}\n"))
	if code, msg := runGuarded(f, "build", "-q", "-config", filepath.Join(src, "paper.yaml"), "-out", filepath.Join(src, "out")); code != 0 {
		f.Fatalf("build: exit %d: %s", code, msg)
	}
	bundleDir := filepath.Join(src, "out", "v1")
	own, err := os.ReadFile(filepath.Join(bundleDir, "config.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(own)
	f.Add([]byte(strings.Replace(string(own), "bins: 10", "bins: 54", 1)))
	for seed := range uint64(4) {
		f.Add([]byte("title: t\nsystems:\n  - {name: s, input: s.csv}\n" + config.SampleYAML(splitmix(seed))))
	}
	f.Fuzz(func(t *testing.T, cfg []byte) {
		cfg = anyResamples.ReplaceAllFunc(cfg, func(b []byte) []byte {
			n, _ := strconv.Atoi(string(anyResamples.FindSubmatch(b)[1]))
			return []byte("resamples: " + strconv.Itoa(n%2000))
		})
		dir := filepath.Join(t.TempDir(), "v1")
		copyTree(t, bundleDir, dir)
		writeFile(t, filepath.Join(dir, "config.yaml"), cfg)
		if code, msg := runGuarded(t, "verify", dir); code != 0 && code != 3 {
			t.Fatalf("exit %d: %s\nconfig.yaml:\n%s", code, msg, cfg)
		}
	})
}
