package mdtext

import "testing"

// TestInert: by hand, what each rule does to a hostile string.
func TestInert(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, inert, line string }{
		{"criterion=A.1", "criterion=A.1", "criterion=A.1"},
		{"a|b", `a\|b`, `a\|b`},
		{"<b>&", `\<b>\&`, `\<b>\&`},
		{"> q", "> q", `\> q`},
		{"`x`", "\\`x\\`", "\\`x\\`"},
		{"# h", "# h", `\# h`},
		{"-2+3", "-2+3", `\-2+3`},
		{"+ Reranker", "+ Reranker", `\+ Reranker`},
		{"12. x", "12. x", `12\. x`},
		{"3) x", "3) x", `3\) x`},
		{"[l](u)", `\[l\](u)`, `\[l\](u)`},
		{"$x^2$", `\$x\^2\$`, `\$x\^2\$`},
		{`a\b`, `a\\b`, `a\\b`},
		{"@team see https://x.invalid", `\@team see https\://x.invalid`, `\@team see https\://x.invalid`},
		{"rank.recall@10 ne.tpr@fpr=0.05", "rank.recall@10 ne.tpr@fpr=0.05", "rank.recall@10 ne.tpr@fpr=0.05"},
		{"mail a@b.example", `mail a\@b.example`, `mail a\@b.example`},
		{"(@x)", `(\@x)`, `(\@x)`},
		{"a\nb\u202ec", "a bc", "a bc"},
	} {
		if got := Inert(c.in); got != c.inert {
			t.Errorf("Inert(%q) = %s, want %s", c.in, got, c.inert)
		}
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %s, want %s", c.in, got, c.line)
		}
	}
}
