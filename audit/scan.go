package audit

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// segment is a sentence, a paragraph's piece or a table row of a source's
// scan text: the context a number is read in. A row has two or more
// cells; a sentence one.
type segment struct {
	start, end int
	cells      [][2]int
	header     *segment // a table row's first row, when it is not the first
}

// segments splits a source's scan text into segments: at row ends, blank
// lines and the ends of sentences (outside table rows). Consecutive rows
// form a table whose first row is the header of the others.
func segments(text []byte) []*segment {
	var out []*segment
	var table *segment // the header of the table being read
	for _, blk := range blocks(text) {
		if blk[1]-blk[0] <= maxSegment && bytes.IndexByte(text[blk[0]:blk[1]], cellSep) >= 0 {
			g := &segment{start: blk[0], end: blk[1], cells: cellsOf(text, blk[0], blk[1])}
			if table == nil {
				table = g
			} else {
				g.header = table
			}
			out = append(out, g)
			continue
		}
		if len(bytes.TrimSpace(text[blk[0]:blk[1]])) == 0 {
			continue
		}
		table = nil
		for _, s := range sentences(text, blk[0], blk[1]) {
			for _, p := range pieces(text, s[0], s[1]) {
				out = append(out, &segment{start: p[0], end: p[1], cells: [][2]int{p}})
			}
		}
	}
	return out
}

// maxSegment bounds a segment: a "sentence" or row longer than this
// (no full stop in 4 KB: a list of numbers, a generated file) is cut at
// blanks, so that the words around a number stay near it and the work per
// number stays bounded.
const maxSegment = 4096

// pieces cuts text[start:end] at blanks into pieces of at most maxSegment
// bytes.
func pieces(text []byte, start, end int) [][2]int {
	var out [][2]int
	for end-start > maxSegment {
		cut := start + maxSegment
		if k := bytes.LastIndexByte(text[start:cut], ' '); k > 0 {
			cut = start + k
		}
		out = append(out, [2]int{start, cut})
		start = cut
	}
	return append(out, [2]int{start, end})
}

// blocks splits text at row ends and blank lines.
func blocks(text []byte) [][2]int {
	var out [][2]int
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case rowEnd:
			out = append(out, [2]int{start, i})
			start = i + 1
		case '\n':
			j := i + 1
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
				j++
			}
			if j < len(text) && text[j] == '\n' {
				out = append(out, [2]int{start, i})
				start = j
				i = j - 1
			}
		}
	}
	return append(out, [2]int{start, len(text)})
}

func cellsOf(text []byte, start, end int) [][2]int {
	var out [][2]int
	for i := start; i <= end; i++ {
		if i == end || text[i] == cellSep {
			out = append(out, [2]int{start, i})
			start = i + 1
		}
	}
	return out
}

// abbreviations end with a dot that does not end a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "al": true, "fig": true, "sec": true, "eq": true,
	"vs": true, "cf": true, "tab": true, "resp": true, "approx": true, "no": true, "dr": true, "etc": true, "ref": true}

// sentences splits a block at ".", "!" or "?" followed by a blank and a
// capital letter, a digit or the end, unless the dot ends an
// abbreviation (e.g., Fig., vs.).
func sentences(text []byte, start, end int) [][2]int {
	var out [][2]int
	s := start
	for i := start; i < end-1; i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if !isSpace(text[i+1]) {
			continue
		}
		j := i + 1
		for j < end && isSpace(text[j]) {
			j++
		}
		if j < end && !(text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
			continue
		}
		if c == '.' {
			w := i
			for w > s && (isLetter(text[w-1]) || text[w-1] == '.') {
				w--
			}
			if abbreviations[strings.ToLower(string(text[w:i]))] {
				continue
			}
		}
		out = append(out, [2]int{s, i + 1})
		s = j
	}
	if s < end {
		out = append(out, [2]int{s, end})
	}
	return out
}

// number is a decimal number or a percentage as typed.
type number struct {
	start, end int    // in the scan text, the sign and % included
	neg        bool   // a minus sign
	intPart    string // digits before the point, without thousands separators
	frac       string // digits after the point
	pct        bool
	point      bool // typed with a decimal point
}

// decimals is the number of decimals of the value the number stands for
// (a percentage has two more).
func (n number) decimals() int {
	if n.pct {
		return len(n.frac) + 2
	}
	return len(n.frac)
}

// key is the number as the index writes a value: an optional minus, the
// integer part without leading zeros ("0" when none), and for decimals
// the point and exactly decimals() digits. A percentage is divided by 100
// by moving the point; a negative zero has no sign.
func (n number) key() string {
	ip, fr := n.intPart, n.frac
	if n.pct {
		for len(ip) < 2 {
			ip = "0" + ip
		}
		ip, fr = ip[:len(ip)-2], ip[len(ip)-2:]+fr
	}
	return canonical(n.neg, ip, fr)
}

// canonical writes a decimal from its parts as key() does.
func canonical(neg bool, ip, fr string) string {
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	s := ip
	if fr != "" {
		s += "." + fr
	}
	if neg && strings.Trim(ip+fr, "0") != "" {
		s = "-" + s
	}
	return s
}

// sigDigits counts the significant digits as typed: leading zeros do not
// count, trailing ones do.
func (n number) sigDigits() int {
	return len(strings.TrimLeft(n.intPart+n.frac, "0"))
}

// integer reports whether the number is a whole number without a point
// and not a percentage: a count.
func (n number) integer() bool { return !n.point && !n.pct }

// numbers finds the numbers of text[start:end], skipping the spans in
// masked (metric ids and titles such as nDCG@10, sorted by start) and
// digits that are part of a word (v1, A.1, P0005, top-10, 10pt, 1.2.3).
func numbers(text []byte, start, end int, masked [][2]int) []number {
	var out []number
	m := 0
	for i := start; i < end; {
		for m < len(masked) && masked[m][1] <= i {
			m++
		}
		if m < len(masked) && masked[m][0] <= i {
			i = masked[m][1]
			continue
		}
		c := text[i]
		switch {
		case isLetter(c) || c == '_' || c == '@' || c >= 0x80 && letterAt(text[i:end]):
			i = wordEnd(text, i, end)
		case c >= 0x80 && !isMinus(text[i:end]): // ±, ≈, —, quotes, spaces: separators
			_, n := utf8.DecodeRune(text[i:end])
			i += n
		case c >= '0' && c <= '9' || c == '.' && i+1 < end && isDigit(text[i+1]) || signStart(text, i, end):
			if i > start && (isDigit(text[i-1]) || text[i-1] == '.' || text[i-1] == '/') {
				i = max(wordEnd(text, i, end), i+1) // a sign is not a word character
				continue
			}
			n, next, ok := parseNumber(text, i, end)
			if ok {
				out = append(out, n)
			}
			i = next
		default:
			i++
		}
	}
	return out
}

// spaceAt returns the length of a no-break or thin space at the start of
// b (87.5 %), 0 when there is none.
func spaceAt(b []byte) int {
	r, n := utf8.DecodeRune(b)
	switch r {
	case '\u00a0', '\u2009', '\u202f':
		return n
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isMinus reports whether b starts with a Unicode minus or en dash.
func isMinus(b []byte) bool {
	return bytes.HasPrefix(b, []byte("−")) || bytes.HasPrefix(b, []byte("–"))
}

// signStart reports whether text[i] starts a signed number: -, +, − or –
// followed by a digit or a point and a digit, not after a word or number.
func signStart(text []byte, i, end int) bool {
	w := 0
	switch {
	case text[i] == '-' || text[i] == '+':
		w = 1
	case isMinus(text[i:end]):
		w = 3
	default:
		return false
	}
	if i > 0 && (isLetter(text[i-1]) || isDigit(text[i-1]) || text[i-1] == ')' || text[i-1] == '_') {
		return false
	}
	j := i + w
	return j < end && (isDigit(text[j]) || text[j] == '.' && j+1 < end && isDigit(text[j+1]))
}

// letterAt reports whether b starts with a non-ASCII letter (é, γ, τ):
// part of a word, unlike ±, ≈, a dash, a quote or a no-break space.
func letterAt(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return unicode.IsLetter(r)
}

// wordEnd returns the end of the word at text[i]: letters (non-ASCII
// ones too), digits, _, @, and dots or hyphens between them.
func wordEnd(text []byte, i, end int) int {
	for i < end {
		c := text[i]
		switch {
		case isLetter(c) || isDigit(c) || c == '_' || c == '@':
			i++
		case c >= 0x80 && letterAt(text[i:end]):
			_, n := utf8.DecodeRune(text[i:end])
			i += n
		case (c == '.' || c == '-') && i+1 < end && (isLetter(text[i+1]) || isDigit(text[i+1])):
			i++
		default:
			return i
		}
	}
	return i
}

// parseNumber reads the number at text[i]; ok is false when it is part of
// a word after all (10pt, 3rd, 1.2.3), and next is where scanning goes on.
func parseNumber(text []byte, i, end int) (n number, next int, ok bool) {
	n.start = i
	switch {
	case text[i] == '-':
		n.neg = true
		i++
	case text[i] == '+':
		i++
	case isMinus(text[i:end]):
		n.neg = true
		i += 3
	}
	d := i
	for i < end && isDigit(text[i]) {
		i++
	}
	ip := string(text[d:i])
	// thousands separators: 1,477 or 1,234,567 (a comma and three digits,
	// not a fourth)
	if len(ip) >= 1 && len(ip) <= 3 {
		for i+3 < end && text[i] == ',' && isDigit(text[i+1]) && isDigit(text[i+2]) && isDigit(text[i+3]) &&
			(i+4 >= end || !isDigit(text[i+4])) {
			n.intPart += ip
			ip = string(text[i+1 : i+4])
			i += 4
		}
	}
	n.intPart += ip
	if i+1 < end && text[i] == '.' && isDigit(text[i+1]) {
		n.point = true
		f := i + 1
		for i = f; i < end && isDigit(text[i]); i++ {
		}
		n.frac = string(text[f:i])
		if i+1 < end && text[i] == '.' && isDigit(text[i+1]) { // 1.2.3
			return n, wordEnd(text, i, end), false
		}
	}
	if i < end && (isLetter(text[i]) || text[i] == '_' || text[i] == '@') {
		return n, wordEnd(text, i, end), false
	}
	j := i
	for k := 0; k < 2 && j < end; k++ {
		if text[j] == ' ' {
			j++
		} else if sp := spaceAt(text[j:end]); sp > 0 {
			j += sp
		} else {
			break
		}
	}
	if j < end && text[j] == '%' {
		n.pct, i = true, j+1
	}
	n.end = i
	return n, i, true
}
