package audit

import (
	"fmt"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// macroFinding classifies a paperbundle macro: a number printed from
// numbers.tex (macro), or a \pbassert{system}{metric id}[slice]{x} that
// holds (ok) or that would stop the compile (mismatch).
func macroFinding(s *source, m macroUse, cur *report.Report, decimals int) Finding {
	f := atOrig(s, m.off, shorten(m.call, 80))
	if m.name != "pbassert" {
		f.Class = Macro
		f.Why = "printed from the bundle's numbers.tex"
		return f
	}
	var braces []string
	var slice string
	for _, a := range m.args {
		if t, ok := strings.CutPrefix(a, "["); ok {
			slice = t
			continue
		}
		braces = append(braces, a)
	}
	if len(braces) != 3 {
		f.Class = Mismatch
		f.Why = `\pbassert takes {system}{metric id}[slice]{x}: the compile would stop`
		return f
	}
	sys, id, want := strings.TrimSpace(braces[0]), metrics.ID(strings.TrimSpace(braces[1])), strings.TrimSpace(braces[2])
	f.System, f.Metric, f.Slice, f.Field = sys, string(id), slice, fValue.String()
	met, ok := cur.Metric(sys, id, report.Slice(slice))
	if !ok || !met.Value.Valid() {
		f.Class = Mismatch
		f.Why = fmt.Sprintf(`\pbassert: %s has no value for %s %s %s: the compile would stop`, cur.Version, sys, id, slice)
		return f
	}
	f.Current, f.Value, f.Version = met.Value, met.Value, cur.Version
	got := assertText(met, decimals)
	if assertEqual(want, got) {
		f.Class = OK
		f.Why = fmt.Sprintf(`\pbassert holds: %s gives %s`, cur.Version, got)
		return f
	}
	f.Class = Mismatch
	f.Why = fmt.Sprintf(`\pbassert would stop the compile: the text says %s, %s gives %s`, want, cur.Version, got)
	return f
}

// assertText is a value as numbers.tex writes it for \pbassert: at
// paper.decimals, a count as a whole number, plain ASCII (- for minus, no
// thousands separator).
func assertText(m report.Metric, decimals int) string {
	if d, ok := metrics.Lookup(m.ID); ok && d.Kind == metrics.KindCount {
		decimals = 0
	}
	return normalize(strconv.FormatFloat(float64(m.Value), 'f', decimals, 64))
}

// assertEqual compares the text of an assert with the bundle's: equal as
// written, or equal once a typed minus sign and thousands separators are
// read as numbers.tex writes them.
func assertEqual(want, got string) bool {
	if want == got {
		return true
	}
	w := strings.NewReplacer("−", "-", "{,}", "", ",", "", "$", "", " ", "").Replace(want)
	return w == got || normalize(w) == got
}
