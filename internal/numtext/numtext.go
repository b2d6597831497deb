// Package numtext writes integers for readers: with thousands separators,
// 12,345 and -1,234,567 (golang.org/x/text's English number format).
package numtext

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var english = message.NewPrinter(language.English)

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int64) string { return english.Sprintf("%d", n) }
