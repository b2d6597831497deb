package paper

import (
	"os"
	"path/filepath"
	"testing"

	"paperbundle/report"
)

// TestDump writes the paper files of a bundle's metrics_master.json
// (PAPER_DUMP=path) into PAPER_OUT, for looking at them; skipped without.
func TestDump(t *testing.T) {
	in, out := os.Getenv("PAPER_DUMP"), os.Getenv("PAPER_OUT")
	if in == "" || out == "" {
		t.Skip("PAPER_DUMP and PAPER_OUT not set")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	if v, ok := Venues[os.Getenv("PAPER_VENUE")]; ok {
		opt.Venue = v
	}
	for _, f := range Files(r, opt, nil) {
		p := filepath.Join(out, f.Name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
