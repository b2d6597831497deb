package tables

import (
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// Title is the human name of a metric id, with its parameter written in:
// "Recall@K" of rank.recall@5 is "Recall@5" (metrics.Title).
func Title(id metrics.ID) string { return metrics.Title(id) }

// PatternID is the id of a definition with its parameter as a symbol:
// rank.recall@K, ne.tpr@fpr=X.
func PatternID(d metrics.Def) string {
	b := d.Base.String()
	switch d.Param {
	case metrics.ParamK:
		return b + "@K"
	case metrics.ParamFPR:
		return b + "@fpr=X"
	case metrics.ParamTau:
		return b + "@tau=τ"
	case metrics.ParamGamma:
		return b + "@gamma=γ"
	case metrics.ParamPct:
		return b + "@p=p"
	case metrics.ParamRecall:
		return b + "@recall=X"
	case metrics.ParamMult:
		return b + "@mult=X"
	}
	return b
}

// UsedDefs returns the registry entries of the metrics the report holds,
// in registry id order.
func UsedDefs(r *report.Report) []metrics.Def {
	type key struct {
		base metrics.Base
		p    metrics.Param
	}
	used := map[key]bool{}
	for _, m := range r.Metrics {
		base, p, _ := metrics.ParseID(m.ID)
		used[key{base, p}] = true
	}
	var out []metrics.Def
	for _, d := range metrics.Defs() {
		if used[key{d.Base, d.Param}] {
			out = append(out, d)
		}
	}
	return out
}

// Anchor is the stable deep-link id of a (system, metric, slice): only
// letters, digits, '-' and '_', so it is safe in a URL fragment and an
// HTML id; the same inputs give the same anchor in every bundle.
func Anchor(system string, id metrics.ID, slice report.Slice) string {
	parts := []string{"m", Sanitize(system)}
	if id != "" {
		parts = append(parts, Sanitize(string(id)))
	}
	if slice != "" {
		parts = append(parts, Sanitize(string(slice)))
	}
	return strings.Join(parts, "-")
}

// Sanitize maps a string to letters, digits and '_' (other bytes become
// '_', and a hex code keeps distinct strings apart when it matters).
func Sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.' || r == '@' || r == '=' || r == '_' || r == '-' || r == ':':
			b.WriteByte('_')
		default:
			b.WriteString("_x")
			b.WriteString(strings.ToLower(strings.TrimLeft(hex(uint32(r)), "0")))
			b.WriteByte('_')
		}
	}
	return b.String()
}

func hex(x uint32) string {
	const digits = "0123456789ABCDEF"
	var buf [8]byte
	for i := 7; i >= 0; i-- {
		buf[i] = digits[x&0xf]
		x >>= 4
	}
	return string(buf[:])
}
