package md

import (
	"strings"
	"testing"
)

// FuzzRender checks that no Markdown makes Render panic or write an
// active element, attribute or link (checkInert).
func FuzzRender(f *testing.F) {
	for _, s := range []string{
		"# Methods\n\n## Protocol\n\n* **all** `eval` rows: $\\sum_n (R_n - R_{n-1}) P_n$.\n",
		"[a](#x) [b](javascript:alert(1)) ![c](http://x/y.png) <https://e.example> <img src=x onerror=alert(1)>",
		"<script>alert(1)</script>\n\n| a | b |\n|---|:-:|\n| $x$ | `$y$` |\n",
		"$a\n$b$ \\$c$ $$d$$ [e](<#f g> \"t\")",
	} {
		f.Add(s)
	}
	for _, s := range hostile(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var ids IDs
		out, err := Render([]byte(src), Options{IDs: &ids, Prefix: "p-", Shift: 1, DropTitle: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := checkInert(string(out)); err != nil {
			t.Fatalf("Render(%q): %v\n%s", src, err, out)
		}
		for _, bad := range []string{"<script", "<img", "<iframe"} {
			if strings.Contains(strings.ToLower(string(out)), bad) {
				t.Fatalf("Render(%q) contains %s:\n%s", src, bad, out)
			}
		}
	})
}
