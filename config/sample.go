package config

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// SampleYAML returns paper.yaml lines (without title and systems) that set
// keys the Sample way, each drawing one number from next: a key is left
// out (its default) when bits 40 and up of its number are 4 modulo 5, set to its sample
// otherwise. The paper lengths are written exactly when the venue drawn
// is custom, the only venue that reads them, text_width at least
// column_width. Fuzz targets use it to build
// configurations within the documented ranges.
func SampleYAML(next func() uint64) string {
	var order []string
	groups := map[string][]string{}
	custom, column := false, ""
	for _, k := range Keys() {
		u := next()
		text, ok := k.Sample(u)
		switch k.Path {
		case "paper.column_width":
			column = text
		case "paper.text_width": // at least the column, as the loader requires
			if c, _ := strconv.ParseFloat(column, 64); c > 0 {
				if t, _ := strconv.ParseFloat(text, 64); t < c {
					text = column
				}
			}
		}
		_, isLength := k.val.(lengthVal)
		switch {
		case !ok:
			continue
		case isLength && !custom:
			continue
		case (u>>40)%5 == 4 && !isLength:
			continue
		}
		if k.Path == "paper.venue" {
			custom = text == string(VenueCustom)
		}
		group, name, nested := strings.Cut(k.Path, ".")
		if !nested {
			order = append(order, k.Path+": "+text)
			continue
		}
		if groups[group] == nil {
			order = append(order, group+":")
		}
		groups[group] = append(groups[group], "  "+name+": "+text)
	}
	var b strings.Builder
	for _, line := range order {
		b.WriteString(line + "\n")
		if g, ok := strings.CutSuffix(line, ":"); ok {
			b.WriteString(strings.Join(groups[g], "\n") + "\n")
		}
	}
	return b.String()
}

// Sample returns a value of key k within its documented range, as YAML
// text, chosen by u: one end of the range when u%4 is 0 or 1, a value
// between the ends otherwise (lists hold one to three such values). ok is
// false for the keys whose values are not a range or a fixed set (groups,
// text, paths, the seed, systems, strata, targets): a caller writes those
// itself. Fuzz targets use it to try every key across its range.
func (k *Key) Sample(u uint64) (text string, ok bool) {
	switch v := k.val.(type) {
	case enumValues:
		a := v.allowed()
		return a[u%uint64(len(a))], true
	case boolVal:
		return strconv.FormatBool(u%2 == 1), true
	case intVal:
		return strconv.Itoa(sampleInt(u, v.lo, v.hi)), true
	case floatVal:
		return ftoa(sampleFloat(u, v)), true
	case lengthVal:
		return ftoa(sampleFloat(u, floatVal{lo: v.lo, hi: v.hi})), true
	case intsVal:
		xs := []int{}
		for i := range 1 + u%3 {
			if x := sampleInt(u>>(8*i+2), v.lo, v.hi); !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
		return intsText(xs), true
	case floatsVal:
		var xs []float64
		for i := range 1 + u%3 {
			x := sampleFloat(u>>(8*i+2), floatVal{open: v.open})
			if !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
		return floatsText(xs), true
	}
	return "", false
}

// sampleInt is lo, hi or a value between them, by u.
func sampleInt(u uint64, lo, hi int) int {
	switch u % 4 {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + int((u>>2)%uint64(hi-lo+1))
}

// sampleFloat is a number of v's range by u: the ends of a closed range
// (the smallest number above 0 and the largest below 1 for an open end),
// or a value between them.
func sampleFloat(u uint64, v floatVal) float64 {
	lo, hi := v.lo, v.hi
	if hi == 0 { // (0, 1) or (0, 1]
		lo, hi = math.Nextafter(0, 1), 1.0
		if v.open {
			hi = math.Nextafter(1, 0)
		}
	}
	switch u % 4 {
	case 0:
		return lo
	case 1:
		return hi
	}
	f := float64((u>>2)%1_000_001) / 1_000_000
	return math.Max(lo, math.Min(hi, lo+f*(hi-lo)))
}
