// Package stats holds the resampling statistics of paperbundle: the
// cluster bootstrap, percentile and BCa intervals, paired significance tests
// (sign-flip permutation test, Holm adjustment, Cohen's d and d_z, DeLong's
// test of two correlated ROC curves and its clustered form) and the
// prepared, integer-weighted metric kernels that let one bootstrap replicate
// be evaluated in a single linear pass.
//
// Place in the pipeline:
//
//	inputs -> dataset -> report.Compute -> renderers -> bundle
//	                          |
//	                          +-- stats (this package) and metrics
//
// report.Compute builds a [Plan] from the dataset (one group per post for
// bootstrap.unit = post, no groups for unit = query) and prepares, once,
// the weighted kernels: a [Scored] per system and score (AUROC, AP, ROC and
// PR grids, confusion counts, through a per-worker [Eval]), a [Calibration]
// (Brier, ECE) and a [GroupedMean] per per-query metric. It then calls
// [RunWorkers] with a function that evaluates every statistic of one
// replicate from its item weights, and reduces the replicate matrix to
// intervals with [Percentile] or [BCa]. Comparisons between systems use
// [Diff], [PermutationTest], [Holm], [CohensD], [CohensDz], [DeLongPaired]
// and [DeLongClusteredSE]. Package stats imports nothing of paperbundle; it
// depends only on the standard library.
//
// # Determinism
//
// Replicate b draws from its own math/rand/v2 PCG stream whose two seed
// words are derived from Plan.Seed and b alone (see [Plan.Weights]), and its
// results are stored in row b of the result matrix. The output is therefore
// the same for any number of workers and any scheduling.
//
// # Undefined values
//
// A statistic that is undefined (a 0/0 ratio, an AUROC over one class, a
// mean over nothing) is math.NaN(), never a silent 0 or 0.5. Interval
// functions drop NaN replicates and report how many they dropped.
//
// The methods are described for readers of the paper bundle in
// docs/statistics.md.
package stats
