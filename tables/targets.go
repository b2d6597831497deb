package tables

import (
	"strconv"
	"strings"

	"paperbundle/metrics"
	"paperbundle/report"
)

// TargetMiss is a metric whose value missed its target.
type TargetMiss struct {
	ID     metrics.ID
	Title  string
	Value  float64
	Target report.Target
	Digits int
}

// TargetTally is the targets of one system on the whole population: how
// many apply (a target and a defined value), how many were met, and the
// missed ones in the report's metric order.
type TargetTally struct {
	System string
	Met    int
	Total  int
	Missed []TargetMiss
}

// Targets tallies the targets of system over its whole-population metrics.
func Targets(r *report.Report, system string) TargetTally {
	t := TargetTally{System: system}
	for _, m := range r.Metrics {
		if m.System != system || m.Slice != report.Whole || m.Target == nil || m.TargetMet == nil {
			continue
		}
		t.Total++
		if *m.TargetMet {
			t.Met++
			continue
		}
		d := metrics.MustDef(m.ID)
		t.Missed = append(t.Missed, TargetMiss{ID: m.ID, Title: Title(m.ID), Value: float64(m.Value), Target: *m.Target, Digits: digits(d)})
	}
	return t
}

// PrimaryTargets is Targets of the primary system (a zero tally when the
// report has none).
func PrimaryTargets(r *report.Report) TargetTally {
	p, ok := primaryOf(r)
	if !ok {
		return TargetTally{}
	}
	return Targets(r, p)
}

// Text is the miss in words: "Screening sensitivity 0.9935 < 0.995"
// (the value with the metric's digits, the bound as configured).
func (m TargetMiss) Text() string {
	return m.Title + " " + FormatNum(m.Value, m.Digits) + " " + m.Relation()
}

// Relation is the value's relation to the bound it missed: "< 0.995",
// "> 0.05".
func (m TargetMiss) Relation() string {
	if m.Target.Min != nil && m.Value < *m.Target.Min {
		return "< " + FormatNum(*m.Target.Min, -1)
	}
	if m.Target.Max != nil {
		return "> " + FormatNum(*m.Target.Max, -1)
	}
	return "outside " + TargetText(&m.Target)
}

// Line is the tally in one line: "11 of 12 targets met; not met:
// Screening sensitivity 0.9935 < 0.995"; "" when no target applies.
func (t TargetTally) Line() string { return t.line(func(s string) string { return s }) }

// line is Line with the metric titles passed through esc.
func (t TargetTally) line(esc func(string) string) string {
	if t.Total == 0 {
		return ""
	}
	s := strconv.Itoa(t.Met) + " of " + strconv.Itoa(t.Total) + " targets met"
	if t.Total == 1 {
		s = strconv.Itoa(t.Met) + " of 1 target met"
	}
	if len(t.Missed) == 0 {
		return s
	}
	miss := make([]string, len(t.Missed))
	for i, m := range t.Missed {
		miss[i] = esc(m.Title) + " " + FormatNum(m.Value, m.Digits) + " " + m.Relation()
	}
	return s + "; not met: " + strings.Join(miss, "; ")
}

// TargetText writes a target as "≥ 0.85", "≤ 0.05" or "[a, b]"; "" for
// none.
func TargetText(t *report.Target) string {
	if t == nil {
		return ""
	}
	switch {
	case t.Min != nil && t.Max != nil:
		return "[" + FormatNum(*t.Min, -1) + ", " + FormatNum(*t.Max, -1) + "]"
	case t.Min != nil:
		return "≥ " + FormatNum(*t.Min, -1)
	case t.Max != nil:
		return "≤ " + FormatNum(*t.Max, -1)
	}
	return ""
}
