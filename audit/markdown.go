package audit

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// markdownSource prepares a Markdown or plain-text file for scanning:
// fenced code blocks and HTML comments are dropped, a link keeps its text
// and loses its address, emphasis marks and list markers go, a heading or
// a list item is a segment of its own, and a table line ("| a | b |") is a
// row whose cells are split at the pipes (its |---| line is dropped).
func markdownSource(name string, data []byte) *source {
	var b builder
	fence := false
	for off := 0; off < len(data); {
		e := bytes.IndexByte(data[off:], '\n')
		if e < 0 {
			e = len(data)
		} else {
			e += off
		}
		line := data[off:e]
		trim := bytes.TrimLeft(line, " \t")
		ind := off + len(line) - len(trim)
		switch {
		case bytes.HasPrefix(trim, []byte("```")) || bytes.HasPrefix(trim, []byte("~~~")):
			fence = !fence
		case fence:
		case len(trim) > 0 && trim[0] == '|':
			if !isTableRule(trim) {
				mdInline(&b, data, ind+1, e, true)
				b.mark(rowEnd, e-1)
			}
		case len(trim) > 0 && trim[0] == '#':
			b.mark(rowEnd, ind)
			k := bytes.IndexFunc(trim, func(r rune) bool { return r != '#' })
			if k < 0 {
				k = len(trim)
			}
			mdInline(&b, data, ind+k, e, false)
			b.mark(rowEnd, e-1)
		default:
			if k := listMarker(trim); k > 0 {
				b.mark(rowEnd, ind)
				ind += k
			}
			mdInline(&b, data, ind, e, false)
		}
		if e < len(data) {
			b.add('\n', e)
		}
		off = e + 1
	}
	s := b.source(name, data)
	dropHTMLComments(s)
	return s
}

// isTableRule reports whether a table line is the |---|:--:| line.
func isTableRule(t []byte) bool {
	for _, c := range t {
		switch c {
		case '|', '-', ':', ' ', '\t', '\r':
		default:
			return false
		}
	}
	return true
}

// listMarker returns the length of a list item's marker ("- ", "* ",
// "12. ") at the start of t, 0 when there is none.
func listMarker(t []byte) int {
	if len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return 2
	}
	i := 0
	for i < len(t) && i < 3 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return i + 2
	}
	return 0
}

// mdInline adds data[i:e], one line, without emphasis marks, link
// addresses and backticks; in a table line each unescaped pipe separates
// cells.
func mdInline(b *builder, data []byte, i, e int, table bool) {
	for i < e {
		c := data[i]
		switch {
		case c == '\r':
		case c == '\\' && i+1 < e && data[i+1] == '|':
			b.add('|', i+1)
			i++
		case c == '|' && table:
			b.mark(cellSep, i)
		case c == '*' || c == '`':
		case c == ']' && i+1 < e && data[i+1] == '(':
			if k := bytes.IndexByte(data[i:e], ')'); k > 0 {
				i += k
			}
		case c == '[' || c == '!' && i+1 < e && data[i+1] == '[':
		default:
			if c >= utf8.RuneSelf {
				_, n := utf8.DecodeRune(data[i:e])
				for k := 0; k < n; k++ {
					b.add(data[i+k], i+k)
				}
				i += n
				continue
			}
			b.add(c, i)
		}
		i++
	}
}

// dropHTMLComments removes <!-- ... --> from a source's text.
func dropHTMLComments(s *source) {
	for {
		i := bytes.Index(s.text, []byte("<!--"))
		if i < 0 {
			return
		}
		j := bytes.Index(s.text[i:], []byte("-->"))
		if j < 0 {
			j = len(s.text) - i
		} else {
			j += 3
		}
		s.text = append(s.text[:i:i], s.text[i+j:]...)
		s.pos = append(s.pos[:i:i], s.pos[i+j:]...)
	}
}

// lineCol returns the 1-based line and column (in characters) of the
// original offset off.
func (s *source) lineCol(off int) (int, int) {
	if s.lines == nil {
		s.lines = []int{0}
		for i, c := range s.orig {
			if c == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	l := sort.SearchInts(s.lines, off+1) - 1
	if l < 0 {
		l = 0
	}
	off = min(off, len(s.orig))
	// Columns are counted from the last place asked on the same line when
	// it lies before: findings come in order, and a file of one long line
	// must not be counted from its start for each of them.
	from, col := s.lines[l], 0
	if s.colLine == l && s.colOff <= off && s.colOff >= from {
		from, col = s.colOff, s.colRunes
	}
	col += utf8.RuneCount(s.orig[from:off])
	s.colLine, s.colOff, s.colRunes = l, off, col
	return l + 1, col + 1
}
