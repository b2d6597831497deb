package dataset

import (
	"encoding/json"
	"fmt"
)

// jsonKind is the type of a JSON value.
type jsonKind uint8

const (
	jsonInvalid jsonKind = iota
	jsonNull
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	switch k {
	case jsonNull:
		return "null"
	case jsonBool:
		return "a boolean"
	case jsonNumber:
		return "a number"
	case jsonString:
		return "a string"
	case jsonArray:
		return "an array"
	case jsonObject:
		return "an object"
	}
	return "invalid JSON"
}

// jsonValue is one scalar read by jsonScanner.value. Text is the decoded
// string, the literal of a number, "true", "false" or "null"; it is empty
// for an array or object, which value skips.
type jsonValue struct {
	Kind jsonKind
	Text string
	Pos  int // byte offset of the value in the scanned text
}

// jsonScanner reads JSON text held in a string, with byte positions for
// error messages. It is a small strict RFC 8259 scanner: strings without
// escapes are returned as substrings of the input (no allocation), and
// arrays and objects nested in values nobody asked for are validated and
// skipped without recursion, so no input can exhaust the stack.
//
// After the first syntax error every method is a no-op; Err reports it.
type jsonScanner struct {
	s      string
	i      int
	err    string
	errPos int
}

func (p *jsonScanner) reset(s string) { *p = jsonScanner{s: s} }

// failed reports whether a syntax error has been seen.
func (p *jsonScanner) failed() bool { return p.err != "" }

func (p *jsonScanner) fail(pos int, format string, args ...any) {
	if p.err == "" {
		p.err = fmt.Sprintf(format, args...)
		p.errPos = pos
	}
}

// found describes the byte at p.i for an error message.
func (p *jsonScanner) found() string {
	if p.i >= len(p.s) {
		return "end of line"
	}
	return fmt.Sprintf("%q", p.s[p.i])
}

func (p *jsonScanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// peek skips white space and returns the next byte (0 at the end).
func (p *jsonScanner) peek() byte {
	p.ws()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// expect consumes c after optional white space.
func (p *jsonScanner) expect(c byte, what string) bool {
	if p.failed() {
		return false
	}
	if p.peek() != c {
		p.fail(p.i, "malformed JSON: found %s, expected %s", p.found(), what)
		return false
	}
	p.i++
	return true
}

// atEnd reports whether only white space is left.
func (p *jsonScanner) atEnd() bool {
	p.ws()
	return p.i >= len(p.s)
}

// more steps through the items of an array or the members of an object
// whose opening bracket has been consumed: it returns true before each item
// and false after the closing bracket (or on error).
func (p *jsonScanner) more(first *bool, closing byte) bool {
	if p.failed() {
		return false
	}
	c := p.peek()
	if c == closing {
		p.i++
		return false
	}
	if !*first {
		if c != ',' {
			p.fail(p.i, "malformed JSON: found %s, expected ',' or '%c'", p.found(), closing)
			return false
		}
		p.i++
		p.ws()
	}
	*first = false
	return true
}

// value reads one value at the current position. Scalars are returned;
// arrays and objects are validated and skipped.
func (p *jsonScanner) value() jsonValue {
	if p.failed() {
		return jsonValue{}
	}
	p.ws()
	pos := p.i
	if p.i >= len(p.s) {
		p.fail(p.i, "malformed JSON: found end of line, expected a value")
		return jsonValue{}
	}
	switch c := p.s[p.i]; {
	case c == '"':
		return jsonValue{Kind: jsonString, Text: p.str(), Pos: pos}
	case c == '-' || ('0' <= c && c <= '9'):
		return jsonValue{Kind: jsonNumber, Text: p.num(), Pos: pos}
	case c == 't':
		return jsonValue{Kind: jsonBool, Text: p.word("true"), Pos: pos}
	case c == 'f':
		return jsonValue{Kind: jsonBool, Text: p.word("false"), Pos: pos}
	case c == 'n':
		return jsonValue{Kind: jsonNull, Text: p.word("null"), Pos: pos}
	case c == '[':
		p.skipNested()
		return jsonValue{Kind: jsonArray, Pos: pos}
	case c == '{':
		p.skipNested()
		return jsonValue{Kind: jsonObject, Pos: pos}
	}
	if w := p.nonFinite(); w != "" {
		p.fail(p.i, "malformed JSON: found %s, which JSON does not allow (Python's json.dumps writes it for a non-finite float), expected a finite number", w)
		return jsonValue{}
	}
	p.fail(p.i, "malformed JSON: found %s, expected a value", p.found())
	return jsonValue{}
}

// nonFinite returns NaN, Infinity or -Infinity when the text at p.i spells
// one (as Python's json module writes them), else "".
func (p *jsonScanner) nonFinite() string {
	for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
		if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
			return w
		}
	}
	return ""
}

func (p *jsonScanner) word(w string) string {
	if len(p.s)-p.i >= len(w) && p.s[p.i:p.i+len(w)] == w {
		p.i += len(w)
		return w
	}
	p.fail(p.i, "malformed JSON: found %s, expected %s", p.found(), w)
	return ""
}

// str reads a string at p.i (which holds '"') and returns its decoded text.
func (p *jsonScanner) str() string {
	start := p.i
	p.i++
	escaped := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			if !escaped {
				return p.s[start+1 : p.i-1]
			}
			var out string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &out); err != nil {
				p.fail(start, "malformed JSON string: %v", err)
				return ""
			}
			return out
		case c == '\\':
			escaped = true
			if p.i+1 >= len(p.s) {
				p.i++
				break
			}
			switch p.s[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if len(p.s)-p.i < 6 || !isHex4(p.s[p.i+2:p.i+6]) {
					p.fail(p.i, `malformed JSON string: bad \u escape, expected four hex digits`)
					return ""
				}
				p.i += 6
			default:
				p.fail(p.i, "malformed JSON string: unknown escape %q", p.s[p.i:p.i+2])
				return ""
			}
		case c < 0x20:
			p.fail(p.i, "malformed JSON string: control character %q, expected it escaped", c)
			return ""
		default:
			p.i++
		}
	}
	p.fail(start, `malformed JSON string: the string that starts here is not closed before the end of the line, expected a closing "`)
	return ""
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// num reads a number with the grammar of RFC 8259 and returns its literal.
func (p *jsonScanner) num() string {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if w := p.nonFinite(); w != "" {
		p.fail(p.i, "malformed JSON: found %s, which JSON does not allow (Python's json.dumps writes it for a non-finite float), expected a finite number", w)
		return ""
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == 'x' || p.s[p.i] == 'X') {
			p.fail(start, "malformed JSON number: found a hexadecimal number, which JSON does not allow, expected a decimal number")
			return ""
		}
	case digits() == 0:
		p.fail(p.i, "malformed JSON number: found %s, expected a digit", p.found())
		return ""
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.fail(p.i, "malformed JSON number: found %s, expected a digit after '.'", p.found())
			return ""
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.fail(p.i, "malformed JSON number: found %s, expected a digit in the exponent", p.found())
			return ""
		}
	}
	return p.s[start:p.i]
}

// skipNested validates and skips the array or object starting at p.i,
// keeping its own stack of open brackets instead of recursing.
func (p *jsonScanner) skipNested() {
	var stack []byte // the closing bracket of each open container
	var first []bool
	open := func(c byte) {
		p.i++
		if c == '[' {
			stack = append(stack, ']')
		} else {
			stack = append(stack, '}')
		}
		first = append(first, true)
	}
	open(p.s[p.i])
	for len(stack) > 0 && !p.failed() {
		top := len(stack) - 1
		if !p.more(&first[top], stack[top]) {
			stack, first = stack[:top], first[:top]
			continue
		}
		if stack[top] == '}' {
			if p.peek() != '"' {
				p.fail(p.i, "malformed JSON: found %s, expected a member name", p.found())
				return
			}
			p.str()
			if !p.expect(':', "':'") {
				return
			}
		}
		switch p.peek() {
		case '[', '{':
			open(p.s[p.i])
		default:
			p.value()
		}
	}
}
