// Package metrics holds the metric kernels and the metric registry. It is
// the bottom of the pipeline's computation (report.Compute calls it) and
// imports nothing of this project.
//
// Kernels are pure functions of one query's ranked grades (ranking,
// Dynamic-K) or of a population's labels and scores (classification,
// calibration, thresholds); each doc comment states its formula, its
// population and its edge cases, and which reference (scikit-learn,
// trec_eval, scipy, a seed contract) it matches. An undefined value is
// math.NaN(), never a silent 0.
//
// The registry (Def, Lookup, Defs) gives every metric id of the catalog
// (docs/metrics.md) its
// population, direction, range, variant and Markdown definition; every
// output reads from it.
package metrics
