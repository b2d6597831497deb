package report

import (
	"slices"

	"paperbundle/dataset"
	"paperbundle/metrics"
)

// InputKind is the kind of input a report is about, decided once in
// Compute from what the inputs hold: it chooses the headline set and the
// words every renderer uses (Vocabulary).
type InputKind string

const (
	// KindEvidence: per-query tables with candidate lists, an
	// evidence-retrieval pipeline (posts, criteria, evidence sentences,
	// the NE gate, the clinical gate).
	KindEvidence InputKind = "evidence"
	// KindTREC: TREC runs judged by qrels (queries, documents, relevant
	// documents, runs).
	KindTREC InputKind = "trec"
	// KindClassifier: a label and a score per case, no candidate lists.
	KindClassifier InputKind = "classifier"
)

// kindOf is the kind of the inputs of ds; cands says whether some row of
// some system has candidates.
func kindOf(ds *dataset.Dataset, cands bool) InputKind {
	switch {
	case ds.TRECConventions != nil:
		return KindTREC
	case !cands:
		return KindClassifier
	}
	return KindEvidence
}

// Kind returns the kind of input of the report: Settings.InputKind, or for
// a report of an older bundle that did not record it, what its dataset
// says (TREC conventions; no ranking capability, candidates or ranking
// metric means a classifier-only table).
func (r *Report) Kind() InputKind {
	switch {
	case r.Settings.InputKind != "":
		return r.Settings.InputKind
	case r.Dataset.TRECConventions != nil:
		return KindTREC
	case !r.Capabilities.Has(Ranking) && r.Dataset.CandidatesMax == 0 && !r.hasFamily("rank"):
		return KindClassifier
	}
	return KindEvidence
}

// hasFamily reports whether some metric of the report is of family f.
func (r *Report) hasFamily(f string) bool {
	for _, m := range r.Metrics {
		if m.ID.Base().Family() == f {
			return true
		}
	}
	return false
}

// LargestCutoffUpTo is the largest cutoff at most limit (the smallest
// cutoff when none is; 0 without cutoffs).
func LargestCutoffUpTo(cutoffs []int, limit int) int {
	k := 0
	for _, x := range cutoffs {
		if x <= limit && x > k {
			k = x
		}
	}
	if k == 0 && len(cutoffs) > 0 {
		k = slices.Min(cutoffs)
	}
	return k
}

// DefaultHeadline is the headline set of a kind of input, before any
// `headline:` of paper.yaml: TREC runs: MAP, P@H, nDCG@H (H the headline
// cutoff, 10 when it is a cutoff), Recall@R (R the largest cutoff up to
// 1000) and MRR; a classifier: AUROC, AUPRC, with probabilities (prob)
// Brier and ECE, then sensitivity and specificity at the first operating
// point (ops); evidence retrieval: the registry's headline flags, cutoff
// metrics at H. Renderers read Report.HeadlineIDs, which keeps the ones
// that apply.
func DefaultHeadline(kind InputKind, cutoffs []int, ops []float64, prob bool) []metrics.ID {
	h := HeadlineCutoff(cutoffs)
	switch kind {
	case KindTREC:
		return []metrics.ID{metrics.RankMAP.ID(), metrics.RankPrecision.At(h), metrics.RankNDCG.At(h),
			metrics.RankRecall.At(LargestCutoffUpTo(cutoffs, 1000)), metrics.RankMRR.ID()}
	case KindClassifier:
		ids := []metrics.ID{metrics.NEAUROC.ID(), metrics.NEAUPRC.ID()}
		if prob {
			ids = append(ids, metrics.NEBrier.ID(), metrics.NEECE.ID())
			if len(ops) > 0 {
				ids = append(ids, metrics.NESensitivity.AtTau(ops[0]), metrics.NESpecificity.AtTau(ops[0]))
			}
		}
		return ids
	}
	var ids []metrics.ID
	for _, id := range metrics.ComparedIDs(h) {
		if metrics.MustDef(id).Headline {
			ids = append(ids, id)
		}
	}
	return ids
}
