// Package mdtext makes free text (a user's labels, ids, titles) inert in
// Markdown, CommonMark and GitHub-flavoured: the one escaper of SUMMARY.md,
// METHODS.md, CHANGES.md and diff -format md.
package mdtext

import (
	"strings"
	"unicode"
)

// Inert makes s inert inside a line of GitHub-flavoured Markdown (not at
// its start): a backslash before every character that can open markup
// anywhere in a line (\ ` * _ [ ] < | ~ & $ ^: emphasis, code, links and
// images, HTML and autolinks, table cells, strikethrough, entities, math,
// footnotes), before an '@' that could start an @mention (not after a
// letter or digit) or an e-mail autolink (followed by a domain), and
// before the ':' of "://", so that no URL becomes a link; line breaks and
// tabs become spaces; control and bidirectional characters are dropped.
// A backslash before ASCII punctuation always renders the character
// itself, so the text reads the same rendered, and nearly so raw.
func Inert(s string) string {
	var b strings.Builder
	prev := ' '
	for i, c := range s {
		switch {
		case c == ':' && strings.HasPrefix(s[i+1:], "//"):
			b.WriteString("\\:")
		case c == '\n' || c == '\r' || c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || IsBidi(c):
		case strings.ContainsRune("\\`*_[]<|~&$^", c),
			c == '@' && (!wordRune(prev) || domainAfter(s[i+1:])):
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
		prev = c
	}
	return b.String()
}

func wordRune(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

// domainAfter reports whether s starts like a domain (a label, a dot, a
// letter), as after the '@' of an e-mail address.
func domainAfter(s string) bool {
	n := 0
	for n < len(s) && (s[n] == '-' || s[n] < 0x80 && wordRune(rune(s[n]))) {
		n++
	}
	return n > 0 && n+1 < len(s) && s[n] == '.' && wordRune(rune(s[n+1]))
}

// Line is Inert for text that starts a line: a leading # > + - = (a
// heading, a quote, a list, a setext underline) is escaped too, and so is
// the '.' or ')' after a leading number (an ordered list).
func Line(s string) string {
	s = Inert(s)
	if s != "" && strings.ContainsRune("#>+-=", rune(s[0])) {
		return "\\" + s
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n < len(s) && (s[n] == '.' || s[n] == ')') {
		return s[:n] + "\\" + s[n:]
	}
	return s
}

// IsBidi reports whether c is a bidirectional formatting character, which
// could reorder the text around it.
func IsBidi(c rune) bool {
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c
}
