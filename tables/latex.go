package tables

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// latexSymbols maps the non-ASCII characters our own titles use, and the
// common ones of user strings, to LaTeX commands that need no package
// beyond the preamble.
var latexSymbols = map[rune]string{
	'α': `$\alpha$`, 'β': `$\beta$`, 'γ': `$\gamma$`, 'δ': `$\delta$`, 'ε': `$\varepsilon$`, 'θ': `$\theta$`,
	'κ': `$\kappa$`, 'λ': `$\lambda$`, 'μ': `$\mu$`, 'π': `$\pi$`, 'ρ': `$\rho$`, 'σ': `$\sigma$`, 'τ': `$\tau$`,
	'φ': `$\varphi$`, 'χ': `$\chi$`, 'ω': `$\omega$`, 'Δ': `$\Delta$`, 'Σ': `$\Sigma$`, 'Ω': `$\Omega$`,
	'≤': `$\leq$`, '≥': `$\geq$`, '≠': `$\neq$`, '≈': `$\approx$`, '±': `$\pm$`, '×': `$\times$`, '÷': `$\div$`,
	'−': `$-$`, '·': `$\cdot$`, '√': `$\surd$`, '∞': `$\infty$`, '→': `$\rightarrow$`, '←': `$\leftarrow$`,
	'∩': `$\cap$`, '∪': `$\cup$`, '∑': `$\sum$`, '°': `$^\circ$`, '²': `\textsuperscript{2}`, '³': `\textsuperscript{3}`,
	'–': `--`, '—': `---`, '‘': "`", '’': `'`, '“': "``", '”': `''`, '…': `\ldots{}`, '•': `\textbullet{}`,
	'€': `EUR`, '£': `\pounds{}`, '§': `\S{}`, '¶': `\P{}`, '©': `\copyright{}`, '®': `(R)`,
	'ß': `\ss{}`, 'æ': `\ae{}`, 'Æ': `\AE{}`, 'ø': `\o{}`, 'Ø': `\O{}`, 'ł': `\l{}`, 'Ł': `\L{}`, 'œ': `\oe{}`, 'Œ': `\OE{}`,
	'å': `\aa{}`, 'Å': `\AA{}`, 'ı': `\i{}`, '¡': `\textexclamdown{}`, '¿': `\textquestiondown{}`, '\u00a0': `~`,
}

// latexAccents maps combining marks (after NFD decomposition) to accent
// commands: é = e + U+0301 = \'{e}.
var latexAccents = map[rune]string{
	'\u0300': "\\`", '\u0301': `\'`, '\u0302': `\^`, '\u0303': `\~`, '\u0304': `\=`, '\u0306': `\u`,
	'\u0307': `\.`, '\u0308': `\"`, '\u030a': `\r`, '\u030b': `\H`, '\u030c': `\v`, '\u0327': `\c`, '\u0328': `\k`,
}

// latexASCII escapes the ASCII characters LaTeX treats specially (and
// those the default OT1 font prints as other glyphs).
var latexASCII = map[rune]string{
	'\\': `\textbackslash{}`, '&': `\&`, '%': `\%`, '$': `\$`, '#': `\#`, '_': `\_`, '{': `\{`, '}': `\}`,
	'~': `\textasciitilde{}`, '^': `\textasciicircum{}`, '<': `\textless{}`, '>': `\textgreater{}`, '|': `\textbar{}`,
}

// invisible reports whether r is a control, format or bidirectional
// character, which is dropped: it would either break the compile or
// reorder the text the reader sees (a right-to-left override).
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Bidi_Control, r) ||
		r == unicode.ReplacementChar || unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r)
}

// LatexText escapes any string for LaTeX text mode in one pass: specials
// escaped, symbols mapped to commands, accented letters to accent
// commands, control and bidirectional characters dropped, line breaks and
// tabs made spaces, and any other non-ASCII character replaced by '?'. The
// result contains only ASCII and compiles with pdflatex.
func LatexText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case invisible(r):
		case r < 0x80:
			if e, ok := latexASCII[r]; ok {
				b.WriteString(e)
			} else {
				b.WriteRune(r)
			}
		default:
			b.WriteString(latexRune(r))
		}
	}
	return b.String()
}

// latexRune writes one non-ASCII rune.
func latexRune(r rune) string {
	if e, ok := latexSymbols[r]; ok {
		return e
	}
	d := []rune(norm.NFD.String(string(r)))
	if len(d) >= 2 && d[0] < 0x80 && unicode.IsLetter(d[0]) {
		out := string(d[0])
		if d[0] == 'i' {
			out = `\i{}`
		}
		for _, m := range d[1:] {
			acc, ok := latexAccents[m]
			if !ok {
				return "?"
			}
			out = acc + "{" + out + "}"
		}
		return out
	}
	return "?"
}
