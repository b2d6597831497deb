package audit

import "paperbundle/report"

// Class is what a number of the manuscript is with respect to the bundle.
type Class int

// The classes, in the order the counts are printed.
const (
	Macro Class = iota
	OK
	Stale
	Mismatch
	Claim
	Unknown
)

var classNames = [...]string{"macro", "ok", "stale", "mismatch", "claim", "unknown"}

func (c Class) String() string { return classNames[c] }

// Failing reports whether the class makes audit exit 1: a number or a
// claim the bundle contradicts.
func (c Class) Failing() bool { return c == Stale || c == Mismatch || c == Claim }

// Finding is one number, macro or claim of the manuscript.
type Finding struct {
	File string // as named on the command line, or as \input names it relative to that
	Line int    // 1-based; for .docx the paragraph number
	Col  int    // 1-based, in characters
	Text string // the number as typed, the macro call, or the claim's words
	Class
	// The key the text was matched to, when there is one: a metric
	// (system, metric id, slice, field such as value or ci_low), a
	// comparison (system "a vs b", metric, field diff or p_holm) or a
	// dataset count (metric "", field the count's key).
	System, Metric, Slice, Field string
	Value                        report.Num // the matched value, in Version (NaN: none)
	Current                      report.Num // the current bundle's value of that key (NaN: none)
	Version                      string     // the version Value comes from
	Why                          string     // the explanation printed after the dash
	Para                         string     // .docx: the paragraph's text (shortened)
}
