package termsafe

import (
	"bytes"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, name, text string }{
		{"plain é ✓", "plain é ✓", "plain é ✓"},
		{"\x1b]0;PWNED\a\x1b[2J", `\x1b]0;PWNED\x07\x1b[2J`, `\x1b]0;PWNED\x07\x1b[2J`},
		{"a\nb\tc", `a\x0ab\x09c`, "a\nb\tc"},
		{"x\u0085y\u009bz", `x\u0085y\u009bz`, `x\u0085y\u009bz`},
		{"rlo\u202Eevil", `rlo\u202eevil`, `rlo\u202eevil`},
		{"bad\xffutf8\x7f", `bad\xffutf8\x7f`, `bad\xffutf8\x7f`},
		{"nul\x00", `nul\x00`, `nul\x00`},
	} {
		if got := Name(tc.in); got != tc.name {
			t.Errorf("Name(%q) = %q, want %q", tc.in, got, tc.name)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
	var b bytes.Buffer
	w := Writer{&b}
	in := "ok\nthen \x1b[2J\rover\n"
	if n, err := w.Write([]byte(in)); n != len(in) || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if want := "ok\nthen \\x1b[2J\\x0dover\n"; b.String() != want {
		t.Errorf("Writer wrote %q, want %q", b.String(), want)
	}
}
