package compare

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden compares the text and Markdown forms of the fixture's
// changes with testdata/*.golden (regenerate with -update after checking
// the diff printed on a mismatch).
func TestGolden(t *testing.T) {
	c := fixtureDiff(t)
	for _, g := range []struct {
		file, format string
		opt          WriteOptions
	}{
		{"changes_text.golden", FormatText, WriteOptions{}},
		{"changes_md.golden", FormatMD, WriteOptions{}},
		{"changes_md_all.golden", FormatMD, WriteOptions{All: true}},
	} {
		var b bytes.Buffer
		if err := c.Write(&b, g.format, g.opt); err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", g.file), b.Bytes())
	}
}

// golden compares got with the file at path, printing a line diff on a
// mismatch; -update rewrites the file.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./compare -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (go test ./compare -run %s -update rewrites it after checking):\n%s", path, t.Name(), lineDiff(want, got))
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
	for _, side := range []struct {
		mark  string
		lines []string
	}{{"- ", a[i : len(a)-j]}, {"+ ", b[i : len(b)-j]}} {
		for k, l := range side.lines {
			if k == 40 {
				s.WriteString("...\n")
				break
			}
			s.WriteString(side.mark + l + "\n")
		}
	}
	return s.String()
}
