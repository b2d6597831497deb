package xlsx

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// maxSheetName is Excel's limit on a sheet name, in UTF-16 units.
const maxSheetName = 31

// sheetName makes id a valid sheet name not yet in used (keys are lower
// case: Excel compares sheet names without case) and records it: the
// characters []:*?/\ and control or format characters become "_", leading
// and trailing quotes and spaces go, the name is cut to 31 UTF-16 units,
// and a duplicate gets " 2", " 3", ...
func sheetName(id string, used map[string]bool) string {
	base := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || unicode.In(r, unicode.Cc, unicode.Cf) {
			return '_'
		}
		return r
	}, id)
	base = trimName(truncateUTF16(trimName(base), maxSheetName))
	if base == "" {
		base = "Table"
	}
	name := base
	for i := 2; used[lower(name)]; i++ {
		suffix := " " + strconv.Itoa(i)
		name = trimName(truncateUTF16(base, maxSheetName-len(suffix))) + suffix
	}
	used[lower(name)] = true
	return name
}

func trimName(s string) string { return strings.Trim(s, "' ") }

func lower(s string) string { return strings.ToLower(s) }

// truncateUTF16 cuts s to at most n UTF-16 units, at a rune boundary.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		units += utf16.RuneLen(r)
		if units > n {
			return s[:i]
		}
	}
	return s
}
