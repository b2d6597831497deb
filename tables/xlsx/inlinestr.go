package xlsx

import (
	"encoding/xml"
	"strings"

	"github.com/xuri/excelize/v2"
)

// appendInlineStr appends the rest of a text cell after its style, as
// excelize v2.11.0's stream writer writes a string value (setInlineStr,
// then writeCell): ` t="inlineStr"`, the text cut to 32,767 UTF-16 units,
// xml:space="preserve" when it starts or ends with white space, escaped
// with xml.EscapeText (line feeds kept as they are), "_xHHHH_" escaped as
// excelize's bstrMarshal does. A plain text, the common case, is copied
// as it is. The tests compare the result with the stream writer's.
func appendInlineStr(dst []byte, s string) []byte {
	dst = append(dst, ` t="inlineStr"><is><t`...)
	if plainText(s) {
		dst = append(dst, '>')
		dst = append(dst, s...)
		return append(dst, `</t></is></c>`...)
	}
	s = truncateUTF16(s, excelize.TotalCellChars)
	if s != "" && (isXMLSpace(s[0]) || isXMLSpace(s[len(s)-1])) {
		dst = append(dst, ` xml:space="preserve"`...)
	}
	dst = append(dst, '>')
	if s != "" {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		s = bstrMarshal(strings.ReplaceAll(b.String(), "&#xA;", "\n"))
	}
	dst = append(dst, s...)
	return append(dst, `</t></is></c>`...)
}

// isXMLSpace reports whether c is one of the bytes that make excelize
// mark a text xml:space="preserve" when it starts or ends it.
func isXMLSpace(c byte) bool { return c == '\t' || c == '\n' || c == '\r' || c == ' ' }

// plainText reports whether appendInlineStr may copy s as it is: printable
// ASCII without the characters XML escapes, no "_x" (the start of an
// escaped character), no white space at either end, within the length of
// a cell.
func plainText(s string) bool {
	if len(s) > excelize.TotalCellChars {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '&', c == '\'', c == '<', c == '>':
			return false
		case c == '_' && i+1 < len(s) && s[i+1] == 'x':
			return false
		}
	}
	return s == "" || s[0] != ' ' && s[len(s)-1] != ' '
}

// bstrMarshal is excelize v2.11.0's bstrMarshal (lib.go, BSD-3-Clause,
// copyright the excelize authors), which its stream writer applies to
// every string: each "_xHHHH_" that stands for a character gets its "_"
// escaped as "_x005F", and "_x005F_" itself is escaped. Kept as it is,
// including what it does with an escape of a UTF-16 surrogate (drops
// it), so that the rows written here are the bytes excelize writes.
func bstrMarshal(s string) string {
	if !strings.Contains(s, "_x") {
		return s
	}
	var result strings.Builder
	l, cursor := len(s), 0
	for _, match := range bstrMatches(s) {
		result.WriteString(s[cursor:match[0]])
		subStr := s[match[0]:match[1]]
		if subStr == "_x005F_" {
			cursor = match[1]
			if match[1]+6 <= l && isBstrTail(s[match[1]:match[1]+6]) {
				if validHexRune(s[match[1]+1 : match[1]+5]) {
					result.WriteString(subStr + "x005F" + subStr)
					continue
				}
			}
			result.WriteString(subStr + "x005F_")
			continue
		}
		cursor = match[1]
		if validHexRune(s[match[0]+2 : match[1]-1]) {
			result.WriteString("_x005F" + subStr)
		}
	}
	if cursor < l {
		result.WriteString(s[cursor:])
	}
	return result.String()
}

// bstrMatches returns the non-overlapping matches, leftmost first, of
// the regular expression `_x[a-fA-F\d]{4}_` in s.
func bstrMatches(s string) [][2]int {
	var out [][2]int
	for i := 0; i+7 <= len(s); {
		if isXEscape(s[i:]) {
			out = append(out, [2]int{i, i + 7})
			i += 7
			continue
		}
		i++
	}
	return out
}

// isBstrTail reports whether the six bytes t match `x[a-fA-F\d]{4}_`.
func isBstrTail(t string) bool { return len(t) == 6 && isXEscape("_"+t) }

// validHexRune reports whether strconv.Unquote accepts `"\u` + h + `"`:
// four hex digits that are not a UTF-16 surrogate.
func validHexRune(h string) bool {
	v := 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return false
		}
	}
	return len(h) == 4 && (v < 0xD800 || v > 0xDFFF)
}
