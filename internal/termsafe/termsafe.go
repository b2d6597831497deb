// Package termsafe writes untrusted text (file names, a bundle's text) so
// that a terminal shows it and never obeys it: control characters are
// written escaped, as \x1b or \u0085, so an escape sequence in a bundle
// cannot set a window title, clear the screen or forge a line of output.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unsafe reports whether r is written escaped: C0 and C1 control
// characters, DEL, and the bidirectional controls (which reorder the text
// a terminal shows). keep lists the controls a text may hold as they are.
func unsafe(r rune, keep string) bool {
	if strings.ContainsRune(keep, r) {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

func escape(b *strings.Builder, r rune) {
	if r < 0x80 {
		fmt.Fprintf(b, `\x%02x`, r)
		return
	}
	fmt.Fprintf(b, `\u%04x`, r)
}

func clean(s, keep string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unsafe(r, keep) || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r, keep):
			escape(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Name is a file name or one-line value with every control character
// escaped, line ends and tabs included.
func Name(s string) string { return clean(s, "") }

// Text is a text with its control characters escaped except line ends
// and tabs.
func Text(s string) string { return clean(s, "\n\t") }

// Writer escapes what it writes as Text does. Each Write is escaped on
// its own: a character split across two writes is written as its bytes.
type Writer struct{ W io.Writer }

func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
