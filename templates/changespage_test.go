package templates

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

// TestChangesPage: diff -format html is a page of its own with the
// report's styles (right-aligned tabular numbers), the fragment as given,
// the title escaped, and no script.
func TestChangesPage(t *testing.T) {
	var b bytes.Buffer
	frag := template.HTML(`<table class="changes-table"><tr><td class="num">0.1</td></tr></table>`)
	if err := ChangesPage(&b, `Changes from v1 to <v2>`, frag); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{"<!DOCTYPE html>", "<style>", ".num{text-align:right", "font-variant-numeric:tabular-nums",
		string(frag), "<title>Changes from v1 to &lt;v2&gt;</title>", "default-src 'none'"} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(s, "<script") {
		t.Error("the page has a script")
	}
}
