package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/dataset"
)

// TestConfigMaximum: a configuration larger than MaxFileBytes (and
// /dev/zero) is refused after reading MaxFileBytes+1 bytes, with the line
// where the maximum was passed.
func TestConfigMaximum(t *testing.T) {
	p := filepath.Join(t.TempDir(), "paper.yaml")
	// 100-byte lines: the maximum (1 MiB) is passed on line 10486.
	line := "# " + strings.Repeat("x", 97) + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(line, 11000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	var el dataset.ErrorList
	if !errors.As(err, &el) || el[0].Line != 1<<20/100+1 || !strings.Contains(el[0].Msg, "larger than 1 MiB") {
		t.Errorf("1.1 MB paper.yaml: %v, want line %d: larger than 1 MiB", err, 1<<20/100+1)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := Load("/dev/zero")
		if !errors.As(err, &el) || el[0].File != "/dev/zero" || !strings.Contains(el[0].Msg, "larger than 1 MiB") {
			t.Errorf("-config /dev/zero: %v", err)
		}
	}
}

// TestResamplesMinimum: 1 to 49 resamples are refused at the key (an
// interval of the one or two most extreme resamples); 0 (no intervals)
// and 50 are accepted.
func TestResamplesMinimum(t *testing.T) {
	base := "title: t\nsystems:\n  - {name: a, input: a.csv}\n"
	for _, c := range []struct {
		n    string
		want string // "" = accepted
	}{
		{"0", ""}, {"1", "paper.yaml:4:24: bootstrap.resamples: got 1, expected 0 (no intervals) or at least 50"},
		{"49", "got 49, expected 0 (no intervals) or at least 50"}, {"50", ""},
	} {
		_, err := Parse("paper.yaml", []byte(base+"bootstrap: {resamples: "+c.n+"}\n"), ".")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("resamples %s: %v", c.n, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("resamples %s: %v, want %q", c.n, err, c.want)
		}
	}
}
