package report

import "strings"

// Slice names the subset of the eval population a metric is computed on:
// "" for the whole population, "criterion=A.1", "stratum=4-7" or
// "state=POS". The string form is part of metrics_master.json.
type Slice string

// SliceKind is the part of a slice before "=".
type SliceKind string

const (
	SliceAll       SliceKind = ""
	SliceCriterion SliceKind = "criterion"
	SliceStratum   SliceKind = "stratum"
	SliceState     SliceKind = "state"
	SliceEvidence  SliceKind = "has_evidence"
)

// Whole is the slice of the whole population.
const Whole Slice = ""

// CriterionSlice returns the slice of one criterion.
func CriterionSlice(name string) Slice { return Slice("criterion=" + name) }

// StratumSlice returns the slice of one n_pos stratum, such as "4-7".
func StratumSlice(label string) Slice { return Slice("stratum=" + label) }

// StateSlice returns the slice of one gate state (NEG, UNCERTAIN, POS).
func StateSlice(state string) Slice { return Slice("state=" + state) }

// EvidenceSlice returns the slice of the queries with (true) or without
// gold evidence: "has_evidence=1" or "has_evidence=0".
func EvidenceSlice(has bool) Slice {
	if has {
		return "has_evidence=1"
	}
	return "has_evidence=0"
}

// Kind returns what the slice selects on.
func (s Slice) Kind() SliceKind {
	k, _, _ := strings.Cut(string(s), "=")
	return SliceKind(k)
}

// Value returns the slice's value: "A.1" of "criterion=A.1".
func (s Slice) Value() string {
	_, v, _ := strings.Cut(string(s), "=")
	return v
}

// String returns the slice as written in metrics_master.json.
func (s Slice) String() string { return string(s) }

// SystemKind says what a system of the report is.
type SystemKind string

const (
	// Pipeline is a system read from the inputs.
	Pipeline SystemKind = "pipeline"
	// Baseline is a reference computed by the tool (baseline:random,
	// baseline:oracle): it has ranking metrics only.
	Baseline SystemKind = "baseline"
)

// HeadlineCutoff is the headline cutoff K: 10 when the cutoffs
// hold 10, else the largest cutoff below 10, else the smallest cutoff.
// Every table, figure and comparison that the contracts write as "@10" uses
// it. It is 0 when there are no cutoffs.
func HeadlineCutoff(cutoffs []int) int {
	k := 0
	for _, x := range cutoffs {
		if x <= 10 && x > k {
			k = x
		}
	}
	if k == 0 {
		for _, x := range cutoffs {
			if k == 0 || x < k {
				k = x
			}
		}
	}
	return k
}
