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
