package audit

import (
	"fmt"
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// macroFinding classifies a paperbundle macro: a number printed from
// numbers.tex (macro; a mismatch when the bundle has no such key, for the
// compile would stop), or a \pbassert{system}{metric id}[slice]{x} that
// holds (ok) or that would stop the compile (mismatch).
func macroFinding(s *source, m macroUse, cur *report.Report, decimals int) Finding {
	f := atOrig(s, m.off, shorten(m.call, 80))
	var braces []string
	var slice string
	for _, a := range m.args {
		if t, ok := strings.CutPrefix(a, "["); ok {
			slice = t
			continue
		}
		braces = append(braces, strings.TrimSpace(a))
	}
	if m.name != "pbassert" {
		f.Class = Macro
		f.Why = "printed from the bundle's numbers.tex"
		if missing := missingKey(m.name, braces, slice, cur); missing != "" {
			f.Class = Mismatch
			f.Why = fmt.Sprintf("%s has no %s: the compile would stop", cur.Version, missing)
		}
		return f
	}
	if len(braces) != 3 {
		f.Class = Mismatch
		f.Why = `\pbassert takes {system}{metric id}[slice]{x}: the compile would stop`
		return f
	}
	sys, id, want := braces[0], metrics.ID(braces[1]), braces[2]
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

// missingKey names the key of a numbers.tex macro when the bundle does
// not have it ("" when it does, or when the macro is not keyed that way):
// {system}{metric id}[slice] for \pbvalue, \pbci, \pbpm, \pbn, \pbpct;
// {system}{reference}{metric id} for \pbdiff, \pbdiffci, \pbp,
// \pbpvalue; {key} for \pbdata, \pbdatapct.
func missingKey(name string, args []string, slice string, cur *report.Report) string {
	switch name {
	case "pbvalue", "pbci", "pbpm", "pbn", "pbpct":
		if len(args) != 2 {
			return ""
		}
		if _, ok := cur.Metric(args[0], metrics.ID(args[1]), report.Slice(slice)); !ok {
			return strings.TrimSpace(fmt.Sprintf("value for %s %s %s", args[0], args[1], slice))
		}
	case "pbdiff", "pbdiffci", "pbp", "pbpvalue":
		if len(args) != 3 {
			return ""
		}
		for _, c := range cur.Comparisons {
			if c.System == args[0] && c.Reference == args[1] && string(c.ID) == args[2] {
				return ""
			}
		}
		return fmt.Sprintf("comparison of %s with %s on %s", args[0], args[1], args[2])
	case "pbdata", "pbdatapct":
		if len(args) != 1 {
			return ""
		}
		for _, d := range dataCounts(cur.Dataset) {
			if d.key == args[0] {
				return ""
			}
		}
		return "dataset count " + args[0]
	}
	return ""
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
