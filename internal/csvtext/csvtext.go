// Package csvtext is the one rule that keeps free text in a CSV file from
// running as a spreadsheet formula (CSV injection), for every CSV the
// bundle writes (tables/*.csv, per_query_metrics.csv, diff -format csv).
package csvtext

import "strings"

// leading are the first characters that make a spreadsheet read a cell as
// a formula (= + - @, tab, CR), and the quote that marks a cell as text.
const leading = "=+-@\t\r'"

// Safe gives text that begins with = + - @, a tab or a CR a leading ', which
// a spreadsheet shows as text; text that already begins with ' gets one
// too, so that Unsafe takes exactly one off and gets the text back.
// Numbers are never passed through it.
func Safe(s string) string {
	if s != "" && strings.ContainsRune(leading, rune(s[0])) {
		return "'" + s
	}
	return s
}

// Unsafe undoes Safe.
func Unsafe(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune(leading, rune(s[1])) {
		return s[1:]
	}
	return s
}
