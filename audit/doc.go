// Package audit checks a manuscript against a bundle: every decimal number
// and percentage typed in a LaTeX, Markdown, plain-text or .docx file is
// read with the words around it (system labels and names, metric titles
// and ids, "significant"), and classified against the current bundle's
// Report and the Reports of the older versions in the same root:
//
//   - macro: printed by a paperbundle macro of numbers.tex (LaTeX);
//     nothing to check.
//   - ok: equal, at its printed precision, to a value of the current
//     bundle that fits its context (value, CI bound, fold mean or std, a
//     comparison's difference, CI or p, a dataset count, a rate as a
//     percentage); the finding names the matched key.
//   - stale: fits its context only as a value of an older version.
//   - mismatch: beside a system and a metric of the bundle, equal to no
//     value of any version; or a \pbassert the compile would stop on.
//   - claim: a sentence saying two named systems differ significantly on a
//     named metric when the comparison is not significant at the bundle's
//     alpha, or saying they do not when it is.
//   - unknown: anything else (years, section numbers, hyper-parameters).
//
// The package sits on the read-only model: it reads *report.Report values
// (decoded from metrics_master.json by its caller) and the metric registry,
// and never computes a statistic. Reading is bounded (Limits): a zip bomb,
// an \input loop or a file outside the manuscript's folder ends in an
// error, never a hang. docs/audit.md is the user's manual.
package audit
