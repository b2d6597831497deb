package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestNumbers: what the scanner reads as a number, and the key it looks
// the number up by (a percentage divided by 100 by moving the point).
func TestNumbers(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"an AUROC of 0.875.", "0.875=0.875"},
		{"of .875", ".875=0.875"},
		{"87.5% and 87.5 %", "87.5%=0.875 87.5 %=0.875"},
		{"5% of 100%", "5%=0.05 100%=1.00"},
		{"1,477 posts and 1,234,567 rows", "1,477=1477 1,234,567=1234567"},
		{"−0.021 and -0.021 and +0.021 and –0.5", "−0.021=-0.021 -0.021=-0.021 +0.021=0.021 –0.5=-0.5"},
		{"[0.840, 0.862]", "0.840=0.840 0.862=0.862"},
		{"-0.000", "-0.000=0.000"},
		{"v1 A.1 P0005 top-10 10pt 3rd 1.2.3 x_2 a@5", ""},
		{"p=0.03, (0.5)", "0.03=0.03 0.5=0.5"},
		{"3-5 and 1,2,3", "3=3 5=5 1=1 2=2 3=3"},
		{"007.50", "007.50=7.50"},
		{"0.875±0.012, ≈0.87, “0.5”, —0.25", "0.875=0.875 0.012=0.012 0.87=0.87 0.5=0.5 0.25=0.25"},
		{"87.5\u00a0% and 1\u202f%", "87.5\u00a0%=0.875 1\u202f%=0.01"},
		{"γ0.5 and é2", ""},
	} {
		text := []byte(c.in)
		var got []string
		for _, n := range numbers(text, 0, len(text), nil) {
			got = append(got, string(text[n.start:n.end])+"="+n.key())
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q: got %q, want %q", c.in, g, c.want)
		}
	}
}

func TestSigDigits(t *testing.T) {
	for in, want := range map[string]int{"0.05": 1, "0.50": 2, "3": 1, "10": 2, "2026": 4, "0.875": 3, "87.5%": 3} {
		text := []byte(in)
		ns := numbers(text, 0, len(text), nil)
		if len(ns) != 1 || ns[0].sigDigits() != want {
			t.Errorf("%s: %v", in, ns)
		}
	}
}

// TestRoundHalfUp: both roundings of a tie are indexed; strconv rounds
// the binary value (0.8125 is exact: half to even, 0.812), a person the
// decimal (0.813).
func TestRoundHalfUp(t *testing.T) {
	for _, c := range []struct {
		s    string
		d    int
		want string
	}{
		{"0.8125", 3, "0.813"}, {"0.8745", 3, "0.875"}, {"0.9996", 3, "1.000"}, {"-0.0004", 3, "0.000"},
		{"-0.0215", 3, "-0.022"}, {"0.5", 3, "0.500"}, {"99.95", 1, "100.0"}, {"12", 2, "12.00"},
	} {
		if got := roundHalfUp(c.s, c.d); got != c.want {
			t.Errorf("roundHalfUp(%s, %d) = %s, want %s", c.s, c.d, got, c.want)
		}
	}
}

// TestLaTeXCleaning: what LaTeX text the scanner sees.
func TestLaTeXCleaning(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`a % 0.5 comment` + "\nb", "a b"},
		{`87.5\% and 87.5\,\%`, "87.5% and 87.5 %"},
		{`\ensuremath{-}0.021 and $-0.021$`, "-0.021 and -0.021"},
		{`1{,}477`, "1,477"},
		{`\label{x:0.5}\ref{fig:1.5}\cite{a2020}\cite[p.~3]{b}`, ""},
		{`\textbf{0.851}`, "0.851"},
		{`\includegraphics[width=0.5\linewidth]{fig0.3}`, ""},
		{`\pbvalue{full}{ne.auroc}[criterion=A.1] x`, "x"},
		{`a & b \\ c`, "a\x1fb\x1ec"},
		{`\begin{tabular}{S[table-format=1.3]}x\end{tabular}`, "\x1ex\x1e"},
		{"a \\begin{verbatim}\n0.5 % x\n\\end{verbatim} b", "a\x1eb"},
		{`a \verb|0.5%| b \iffalse 0.7 \fi c`, "a b c"},
	} {
		s, _ := latexSource("x.tex", []byte(c.in))
		got := strings.Join(strings.Fields(strings.ReplaceAll(string(s.text), "\x1f", " \x1f ")), " ")
		got = strings.ReplaceAll(strings.ReplaceAll(got, " \x1f ", "\x1f"), "\x1e ", "\x1e")
		got = strings.ReplaceAll(got, " \x1e", "\x1e")
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSentences(t *testing.T) {
	text := []byte("A is 0.5, e.g. here. Fig. 3 shows it vs. that. Next one! The 0.875. End")
	var got []string
	for _, s := range sentences(text, 0, len(text)) {
		got = append(got, string(text[s[0]:s[1]]))
	}
	want := "[A is 0.5, e.g. here.|Fig. 3 shows it vs. that.|Next one!|The 0.875.|End]"
	if g := "[" + strings.Join(got, "|") + "]"; g != want {
		t.Errorf("got %s\nwant %s", g, want)
	}
}

func ExampleResult_Write() {
	versions := fixtureVersions()
	src := markdownSource("README.md", []byte("Full pipeline reaches an AUROC of 0.940 (v1); nDCG@10 is 0.851.\n"))
	res, _ := check([]*source{src}, versions, DefaultOptions())
	var b strings.Builder
	res.Write(&b, "text", false)
	fmt.Print(b.String())
	// Output:
	// README.md:1:35: stale: 0.940 — 0.940 is v1's AUROC of Full pipeline (3-state gate); v2 gives 0.875
	// README.md:1:58: ok: 0.851 — v2's nDCG@10 of Full pipeline (3-state gate)
	//
	// 1 stale, 0 mismatch, 0 claim, 1 ok, 0 macro, 0 unknown against v2
}

// TestClaims: which sentences are claims, and which pair they are held
// against.
func TestClaims(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Full pipeline is significantly better than Retriever only on screening sensitivity.", "claim"},
		{"Full pipeline is not significantly better than Retriever only on screening sensitivity.", "ok"},
		{"Full pipeline did not differ significantly from Retriever only in screening sensitivity.", "ok"},
		{"Full pipeline is significantly better than Retriever only on AUROC.", "ok"},
		{"Full pipeline shows no significant gain over Retriever only in AUROC.", "claim"},
		{"Full pipeline is significantly better on AUROC.", ""},                   // one system
		{"Full pipeline is significantly better than Retriever only.", ""},        // no metric
		{"Full pipeline, Retriever only and AUROC. Significantly, it works.", ""}, // two sentences
		{"Full pipeline (3-state gate) and Retriever only differ significantly in AUROC.", "ok"},
	} {
		res, _ := check([]*source{markdownSource("x.md", []byte(c.text))}, fixtureVersions(), DefaultOptions())
		got := ""
		for _, f := range res.Findings {
			if f.Field == "p_holm" {
				got = f.Class.String()
			}
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// TestMacroKeys: a macro whose key the bundle lacks would stop the
// compile: a mismatch.
func TestMacroKeys(t *testing.T) {
	tex := `\pbvalue{full}{ne.auroc} \pbvalue{full}{ne.auroc}[criterion=A.1] \pbvalue{bm25}{ne.auroc}
\pbp{full}{retriever}{ne.auroc} \pbdiff{retriever}{full}{ne.auroc} \pbdata{posts} \pbdata{sessions} \pbmethods`
	s, _ := latexSource("x.tex", []byte(tex))
	res, _ := check([]*source{s}, fixtureVersions(), DefaultOptions())
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Class.String())
	}
	if g := strings.Join(got, " "); g != "macro macro mismatch macro mismatch macro mismatch" {
		t.Errorf("got %s", g)
	}
}
