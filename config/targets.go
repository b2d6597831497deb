package config

import (
	"math"
	"strconv"

	"paperbundle/metrics"
)

func bound(x float64) *float64 { return &x }

// DefaultTargets returns the built-in target table used by `targets:
// default` (docs/configuration.md "targets"): the deployment targets of the
// metric contracts (AUROC >= 0.85, AUPRC >= 0.55,
// ECE <= 0.05, Brier <= 0.1, evidence recall >= 0.70, screening sensitivity
// >= 0.995, screening FN <= 5 per 1,000, alert precision >= 0.90) and the
// lower ends of the contracts' "good range" (nDCG@10 >= 0.85, Recall@10 >= 0.90,
// MRR@10 >= 0.80, TPR at 5% FPR >= 0.20). The contract writes the ECE and Brier
// targets as strict inequalities; a Target bound is inclusive.
//
// Each call returns a new map the caller may change.
func DefaultTargets() map[string]Target {
	return map[string]Target{
		metrics.NEAUROC.String():                   {Min: bound(0.85)},
		metrics.NEAUPRC.String():                   {Min: bound(0.55)},
		metrics.NEECE.String():                     {Max: bound(0.05)},
		metrics.NEBrier.String():                   {Max: bound(0.1)},
		metrics.NETPR.AtFPR(0.05).String():         {Min: bound(0.20)},
		metrics.DynKEvidenceRecall.String():        {Min: bound(0.70)},
		metrics.ClinicalScreenSensitivity.String(): {Min: bound(0.995)},
		metrics.ClinicalScreenFNPer1000.String():   {Max: bound(5)},
		metrics.ClinicalAlertPrecision.String():    {Min: bound(0.90)},
		metrics.RankNDCG.At(10).String():           {Min: bound(0.85)},
		metrics.RankRecall.At(10).String():         {Min: bound(0.90)},
		metrics.RankMRR.At(10).String():            {Min: bound(0.80)},
	}
}

// TargetFor returns the target of metric id: from DefaultTargets when
// Targets.Default is set, else from Targets.Bounds. The second result is
// false when the metric has no target.
func (c *Config) TargetFor(id string) (Target, bool) {
	var t Target
	var ok bool
	if c.Targets.Default {
		t, ok = DefaultTargets()[id]
	} else {
		t, ok = c.Targets.Bounds[id]
	}
	if !ok {
		return Target{}, false
	}
	return t.clone(), true
}

func (t Target) clone() Target {
	var u Target
	if t.Min != nil {
		u.Min = bound(*t.Min)
	}
	if t.Max != nil {
		u.Max = bound(*t.Max)
	}
	return u
}

// Met reports whether value v meets t: v >= *t.Min when Min is set and
// v <= *t.Max when Max is set. ok is false, and met meaningless, when v is
// NaN (an undefined metric) or t has no bound; the bundle then writes
// target_met as null.
func (t Target) Met(v float64) (met, ok bool) {
	if math.IsNaN(v) || (t.Min == nil && t.Max == nil) {
		return false, false
	}
	met = true
	if t.Min != nil && v < *t.Min {
		met = false
	}
	if t.Max != nil && v > *t.Max {
		met = false
	}
	return met, true
}

// String formats t for a target badge: "≥ 0.85", "≤ 0.05", "[0.2, 0.35]",
// or "" when t has no bound.
func (t Target) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch {
	case t.Min != nil && t.Max != nil:
		return "[" + f(*t.Min) + ", " + f(*t.Max) + "]"
	case t.Min != nil:
		return "≥ " + f(*t.Min)
	case t.Max != nil:
		return "≤ " + f(*t.Max)
	}
	return ""
}
