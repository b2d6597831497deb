package config

import (
	"os"
	"strings"
	"testing"

	"paperbundle/internal/golden"
)

const (
	docsFile     = "../docs/configuration.md"
	docsBegin    = "<!-- The tables below are generated from the key table (config/table.go): go test ./config -run TestDocsKeyTable -update rewrites them. -->\n"
	docsEnd      = "<!-- End of the generated tables. -->\n"
	docsKeysHead = "| key | default | allowed values | applies to |\n|---|---|---|---|\n"
)

// docsTables is the Markdown of the key table: one row per key (a mapping
// of keys is its keys), then the keys of a system.
func docsTables() string {
	var b strings.Builder
	b.WriteString(docsKeysHead)
	def := Default()
	for _, k := range keyTable {
		if k.Group {
			continue
		}
		dflt := k.Default
		if dflt == "" {
			dflt = "`" + k.text(def) + "`"
		}
		ap := k.Applies
		if ap == 0 && strings.Contains(k.Path, ".") {
			ap = topKey(k.Path[:strings.IndexByte(k.Path, '.')]).Applies
		}
		b.WriteString("| `" + k.Path + "` | " + dflt + " | " + k.Allowed + " | " + ap.String() + " |\n")
	}
	b.WriteString("\n### `systems`\n\nEach entry is a mapping:\n\n| key | default | allowed values |\n|---|---|---|\n")
	for _, k := range systemKeys {
		b.WriteString("| `" + k.Name + "` | " + k.Default + " | " + k.Allowed + " |\n")
	}
	return b.String()
}

// TestDocsKeyTable fails when the tables of docs/configuration.md differ
// from the key table; -update rewrites them.
func TestDocsKeyTable(t *testing.T) {
	data, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, docsBegin), strings.Index(doc, docsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the markers of the generated key table:\n%s%s", docsFile, docsBegin, docsEnd)
	}
	want := doc[:i+len(docsBegin)] + docsTables() + docsEnd + doc[j+len(docsEnd):]
	if want == doc {
		return
	}
	if golden.Updating() {
		if err := os.WriteFile(docsFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the key tables are stale; go test ./config -run TestDocsKeyTable -update rewrites them", docsFile)
}
