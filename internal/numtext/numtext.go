// Package numtext writes numbers for readers: integers with thousands
// separators, 12,345 and -1,234,567 (golang.org/x/text's English number
// format), and p-values as every table and text of the bundle writes them.
package numtext

import (
	"math"
	"strconv"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var english = message.NewPrinter(language.English)

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int64) string { return english.Sprintf("%d", n) }

// P writes a p-value with four decimals, "< 0.0001" below, "n/a" when
// undefined (NaN).
func P(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 0.0001:
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}
