package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The errors of the YAML parser, turned into positioned errors.

var yamlLineRe = regexp.MustCompile(`^yaml: line ([0-9]+): (.*)$`)

// utf8 reports whether data is valid UTF-8 (or UTF-16 with a byte order
// mark, which the YAML library decodes), recording the position of the
// first invalid byte otherwise: the library's own message has no position.
func (d *decoder) utf8(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) || utf8.Valid(data) {
		return true
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			col := utf8.RuneCount(data[start:i]) + 1
			d.add(line, col, "", fmt.Sprintf("invalid UTF-8 (byte 0x%02x), expected a YAML file in UTF-8 (convert it, e.g. iconv -f latin1 -t utf-8)", data[i]))
			return false
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return true
}

// parserProblems are the messages of go.yaml.in/yaml/v3's parser (v3.0.6,
// parserc.go). For them, unlike for its scanner's, the library writes the
// 0-based line of the enclosing collection (and no line at all for line 0),
// so syntaxError adds one.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

var unknownAnchorRe = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)

// syntaxError turns an error of the YAML parser into an InputError.
func (d *decoder) syntaxError(data []byte, err error) {
	msg := err.Error()
	if strings.HasSuffix(msg, "found unexpected end of stream") {
		// The library's only source of this message is a quoted scalar
		// that is never closed; it names the line where that scalar starts
		// (or, when that is the first line, the end of the input).
		reported := 1
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			reported, _ = strconv.Atoi(m[1])
		}
		for _, l := range []int{reported, 1} {
			if col, q, ok := unclosedQuote(data, l); ok {
				d.add(l, col, "", fmt.Sprintf("invalid YAML: the quoted value that starts here is not closed before the end of the file, expected a closing %c", q))
				return
			}
		}
		d.add(reported, 0, "", "invalid YAML: a quoted value is not closed before the end of the file, expected a closing quote")
		return
	}
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++
		}
		// An error found at the end of the input is on its last line.
		last := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			last++
		}
		line = min(line, max(last, 1))
		d.add(line, 0, "", "invalid YAML: "+m[2])
		return
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if parserProblems[msg] {
		d.add(1, 0, "", "invalid YAML: "+msg)
		return
	}
	if m := unknownAnchorRe.FindStringSubmatch(err.Error()); m != nil {
		// The library gives no position: find the first use of the alias.
		alias := []byte("*" + m[1])
		for i, l := range bytes.Split(data, []byte("\n")) {
			if j := bytes.Index(l, alias); j >= 0 {
				d.add(i+1, utf8.RuneCount(l[:j])+1, "", fmt.Sprintf("alias *%s names no anchor, expected an anchor &%s defined before it", short(m[1]), short(m[1])))
				return
			}
		}
	}
	d.add(0, 0, "", "invalid YAML: "+msg)
}

// unclosedQuote finds, on line (1-based) of data, a quote that starts a
// quoted scalar (at the start of the line's content, or after ':', '-',
// '[', '{', ',' or '?' and spaces) and is not closed anywhere after it. It
// returns the quote's 1-based column in characters.
func unclosedQuote(data []byte, line int) (col int, quote byte, ok bool) {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		start += i + 1
	}
	end := len(data)
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		end = start + i
	}
	text := data[start:end]
	for j, c := range text {
		if c != '"' && c != '\'' {
			continue
		}
		prev := bytes.TrimRight(text[:j], " \t")
		if len(prev) > 0 && !bytes.ContainsAny(prev[len(prev)-1:], ":-[{,?") {
			continue
		}
		if !closed(data[start+j+1:], c) {
			return utf8.RuneCount(text[:j]) + 1, c, true
		}
	}
	return 0, 0, false
}

// closed reports whether rest (the text after an opening quote q) holds
// the closing quote: an unescaped " for a double-quoted scalar, a ' that
// is not doubled for a single-quoted one.
func closed(rest []byte, q byte) bool {
	for i := 0; i < len(rest); i++ {
		switch {
		case q == '"' && rest[i] == '\\':
			i++
		case rest[i] == q && q == '\'' && i+1 < len(rest) && rest[i+1] == '\'':
			i++
		case rest[i] == q:
			return true
		}
	}
	return false
}
