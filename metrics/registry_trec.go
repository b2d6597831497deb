package metrics

import (
	"slices"
	"strconv"
	"strings"
)

// trecDefs are the measures of trec_eval 10's `-m all_trec` output that
// only TREC judgments allow and that no other entry of the registry
// holds (rank_trec_all.go computes them). Each is over the judged queries
// of the qrels, as trec_eval.
var trecDefsList = []Def{
	{Base: "rank.num_q", TrecEval: "num_q", Title: "Queries evaluated", Population: JudgedQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Variant: "TREC judgments, a count",
		Definition: "trec_eval's `num_q`: the number of queries evaluated. TREC input only.",
		Meaning:    "How many queries every mean is over."},
	{Base: "rank.num_ret", TrecEval: "num_ret", Title: "Documents retrieved", Population: JudgedQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Variant: "TREC judgments, a sum over queries",
		Definition: "trec_eval's `num_ret`: per query the number of documents the run ranks; over the queries, their sum (not a mean, as trec_eval). TREC input only.",
		Meaning:    "The depth of the run, summed over queries."},
	{Base: "rank.num_rel", TrecEval: "num_rel", Title: "Relevant documents", Population: JudgedQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Variant: "TREC judgments, a sum over queries",
		Definition: "trec_eval's `num_rel`: per query the number of documents the qrels judge relevant (grade at least `trec.relevance_level`); over the queries, their sum. TREC input only.",
		Meaning:    "How many relevant documents there are to find."},
	{Base: "rank.num_rel_ret", TrecEval: "num_rel_ret", Title: "Relevant documents retrieved", Population: JudgedQueries, Direction: Higher, Kind: KindCount, Lo: 0, Hi: unbounded, Variant: "TREC judgments, a sum over queries",
		Definition: "trec_eval's `num_rel_ret`: per query the number of relevant documents the run ranks; over the queries, their sum. TREC input only.",
		Meaning:    "How many relevant documents the run found at any depth."},
	{Base: "rank.num_nonrel_judged_ret", TrecEval: "num_nonrel_judged_ret", Title: "Judged non-relevant documents retrieved", Population: JudgedQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Variant: "TREC judgments, a sum over queries",
		Definition: "trec_eval's `num_nonrel_judged_ret`: per query the number of ranked documents judged non-relevant (grade from 0 to below the relevance level); over the queries, their sum. Unjudged documents are not counted. TREC input only.",
		Meaning:    "Ranked documents a judge saw and rejected."},
	{Base: "rank.set_precision", TrecEval: "set_P", Title: "Set precision", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, the whole ranking as a set",
		Definition: "trec_eval's `set_P`: relevant documents retrieved / documents retrieved, over the whole ranking (0 when nothing is retrieved). TREC input only.",
		Meaning:    "Share of everything the run returns that is relevant."},
	{Base: "rank.set_recall", TrecEval: "set_recall", Title: "Set recall", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, the whole ranking as a set",
		Definition: "trec_eval's `set_recall`: relevant documents retrieved / relevant documents (0 without relevant documents). TREC input only.",
		Meaning:    "Share of the relevant documents the run returns at any depth."},
	{Base: "rank.set_f", TrecEval: "set_F", Title: "Set F1", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, weight 1",
		Definition: "trec_eval's `set_F` with its default weight 1: 2PR / (P + R) of set precision P and set recall R (0 when nothing relevant is retrieved). TREC input only.",
		Meaning:    "Balance of set precision and set recall."},
	{Base: "rank.set_map", TrecEval: "set_map", Title: "Set MAP", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, unranked",
		Definition: "trec_eval's `set_map`: relevant retrieved² / (retrieved · relevant), set precision times set recall (0 when either count is 0). TREC input only.",
		Meaning:    "Average precision of the run read as an unordered set."},
	{Base: "rank.set_relative_precision", TrecEval: "set_relative_P", Title: "Set relative precision", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's `set_relative_P`: relevant retrieved / min(retrieved, relevant), the set precision over the largest it could be for a set of that size (0 when either count is 0). TREC input only.",
		Meaning:    "How full of relevant documents the returned set is, relative to what could fit."},
	{Base: "rank.rprec_mult", Param: ParamMult, TrecEval: "Rprec_mult_X", Title: "Precision at X·R", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, rank ⌊X·R + 0.9⌋",
		Definition: "trec_eval's `Rprec_mult_X`: the precision at rank c = ⌊X·R + 0.9⌋, R the query's relevant documents (hits in the top c over c, also when fewer than c are ranked; 0 when c = 0), for X = 0.2, 0.4, ..., 2. TREC input only.",
		Meaning:    "Precision at a depth proportional to the query's relevant documents: low X favours precision, high X recall."},
	{Base: "rank.infap", TrecEval: "infAP", Title: "Inferred AP", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, sampled pool",
		Definition: "trec_eval's `infAP` (Yilmaz and Aslam, CIKM 2006): documents outside the qrels are skipped; a relevant document at rank k ≥ 2 adds $\\frac1k + \\frac{k-1}{k}\\cdot\\frac{d}{k-1}\\cdot\\frac{r+\\epsilon}{r+n+2\\epsilon}$, where above it r are relevant, n judged non-relevant and d = r + n + those in the pool but not judged (a negative grade in the qrels), ε = 0.00001; at rank 1 it adds 1; the sum is divided by the relevant documents. Without negative grades in the qrels it is AP over the judged documents. TREC input only.",
		Meaning:    "AP estimated from a sampled judgment pool."},
	{Base: "rank.gm_bpref", TrecEval: "gm_bpref", Title: "GM-bpref", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, bpref floored at 1e-5",
		Definition: "trec_eval's `gm_bpref`: the geometric mean of the queries' bpref (`rank.bpref`), each floored at 0.00001: $\\exp\\left(\\frac1n \\sum_q \\ln \\max(bpref_q, 10^{-5})\\right)$. trec_eval prints no per-query value. TREC input only.",
		Meaning:    "bpref that rewards improving the hardest queries."},
	{Base: "rank.g", TrecEval: "G", Title: "Normalized gain G", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, gain = grade",
		Definition: "trec_eval's experimental `G`: a retrieved document of gain g (its grade) at rank i adds $g / \\log_2(2 + C_i - S_i)$, where $S_i$ is the gain of the top i and $C_i = \\sum_{j \\le i} \\max(g^*_j, 1)$ with $g^*_j$ the ideal ranking's gain at rank j (0 past its end); the sum is divided by the total gain of the judged documents. TREC input only.",
		Meaning:    "Gain of the ranking where each document's reward depends on what came before it; 1 is ideal."},
	{Base: "rank.bin_g", TrecEval: "binG", Title: "Binary G", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's experimental `binG`: the sum over the relevant documents retrieved of 1 / log2(2 + the non-relevant or unjudged documents ranked above it), divided by the relevant documents. TREC input only.",
		Meaning:    "G with relevance read as 0 or 1."},
	{Base: "rank.rndcg", TrecEval: "Rndcg", Title: "nDCG at R levels", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, gain = grade",
		Definition: "trec_eval's experimental `Rndcg`: the mean of nDCG (gain = grade, discount log2(rank + 1)) at each rank where the ideal ranking's gain changes (the last where it falls to 0), and at the end of the ranking when it is longer than the ideal one; 0 without relevant documents. TREC input only.",
		Meaning:    "nDCG averaged over the depths where the ideal ranking changes grade."},
	{Base: "rank.ndcg_rel", TrecEval: "ndcg_rel", Title: "nDCG at relevant documents", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, gain = grade",
		Definition: "trec_eval's experimental `ndcg_rel`: the mean, over the documents judged with a grade above 0, of the nDCG (gain = grade) at the rank each is retrieved, with the ideal DCG cut at that rank (or at the ideal ranking's end); one not retrieved takes the nDCG of the whole ranking. TREC input only.",
		Meaning:    "nDCG averaged at the relevant documents, as AP averages precision."},
	{Base: "rank.utility", TrecEval: "utility", Title: "Utility", Population: JudgedQueries, Direction: Higher, Kind: KindValue, Lo: 0, Hi: unbounded, Variant: "TREC judgments, coefficients (1, −1, 0, 0)",
		Definition: "trec_eval's `utility` with its default coefficients: relevant documents retrieved minus the other documents retrieved, per query; the mean over queries (as trec_eval). TREC input only.",
		Meaning:    "Net worth of the returned set when a relevant document gains 1 and any other costs 1."},
	{Base: "rank.rbp", TrecEval: "rbp", Title: "Rank-biased precision", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, persistence 0.9",
		Definition: "trec_eval's `rbp` (Moffat and Zobel, TOIS 2008) with persistence p = 0.9: $(1-p)\\sum_i g_i\\,p^{i-1}$ over the ranked documents, where $g_i$ is the document's grade divided by the query's highest grade when that is above 1 (else its grade); unjudged documents gain 0. TREC input only.",
		Meaning:    "Expected rate of relevance a patient reader meets; about P@10 at p = 0.9."},
	{Base: "rank.rbp_resid", TrecEval: "rbp_resid", Title: "RBP residual", Population: JudgedQueries, Direction: Lower, Hi: 1, Variant: "TREC judgments, persistence 0.9",
		Definition: "trec_eval's `rbp_resid`: how much rbp could rise if every unjudged retrieved document and every rank past the end were fully relevant, $p^n + (1-p)\\sum_{i\\ \\mathrm{unjudged}} p^{i-1}$ for a ranking of n documents; 0 when every retrieved document is judged, as trec_eval prints it. TREC input only.",
		Meaning:    "Uncertainty of rbp from unjudged documents; small is good."},
}

func init() {
	defs = append(defs, trecDefsList...)
}

// TrecEvalName returns the name trec_eval 10 prints for metric id, with
// its parameter written as trec_eval writes it (P_10,
// iprec_at_recall_0.10, Rprec_mult_0.20), and whether trec_eval has one.
func TrecEvalName(id ID) (string, bool) {
	d, ok := Lookup(id)
	if !ok || d.TrecEval == "" {
		return "", false
	}
	p, arg := id.Param()
	switch p {
	case ParamK:
		return strings.Replace(d.TrecEval, "K", arg, 1), true
	case ParamRecall, ParamMult:
		x, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return "", false
		}
		return strings.Replace(d.TrecEval, "X", strconv.FormatFloat(x, 'f', 2, 64), 1), true
	}
	return d.TrecEval, true
}

// TrecEvalSuccessCutoffs and TrecEvalUnjudgedCutoffs are the cutoffs at
// which trec_eval 10 prints success_K and unj_K by default.
var (
	TrecEvalSuccessCutoffs  = []int{1, 5, 10}
	TrecEvalUnjudgedCutoffs = []int{5, 10, 20}
)

// TrecEvalIDs returns the ids of every measure trec_eval 10 prints with
// `-m all_trec` (runid and relstring aside), in trec_eval's order, at the
// cutoffs of a bundle: P_K, recall_K, ndcg_cut_K, map_cut_K and
// relative_P_K at each of cutoffs, success_K at 1 and at 5 and 10 where
// they are cutoffs, unj_K at 5, 10 and 20 where they are cutoffs.
func TrecEvalIDs(cutoffs []int) []ID {
	at := func(b Base) []ID {
		out := make([]ID, len(cutoffs))
		for i, k := range cutoffs {
			out[i] = b.At(k)
		}
		return out
	}
	var ids []ID
	add := func(x ...ID) { ids = append(ids, x...) }
	add(RankNumQ.ID(), RankNumRet.ID(), RankNumRel.ID(), RankNumRelRet.ID(), RankMAP.ID(), RankGMMAP.ID(),
		RankRPrecision.ID(), RankBpref.ID(), RankMRR.ID())
	for _, l := range RecallLevels {
		add(RankIPrec.AtRecall(l))
	}
	add(at(RankPrecision)...)
	add(at(RankRecall)...)
	add(RankInfAP.ID(), RankGMBpref.ID())
	for _, x := range RPrecMults {
		add(RankRPrecMult.AtMult(x))
	}
	add(RankUtility.ID(), Rank11ptAvg.ID(), RankBinG.ID(), RankG.ID(), RankNDCG.ID(), RankNDCGRel.ID(), RankRNDCG.ID())
	add(at(RankNDCG)...)
	add(at(RankMAP)...)
	add(at(RankCappedRecall)...)
	for _, k := range TrecEvalSuccessCutoffs {
		if k == 1 || slices.Contains(cutoffs, k) {
			add(RankHit.At(k))
		}
	}
	add(RankSetPrecision.ID(), RankSetRelativePrecision.ID(), RankSetRecall.ID(), RankSetMAP.ID(), RankSetF.ID(),
		RankNumNonrelJudgedRet.ID(), RankRBP.ID(), RankRBPResid.ID())
	for _, k := range TrecEvalUnjudgedCutoffs {
		if slices.Contains(cutoffs, k) {
			add(RankUnjudged.At(k))
		}
	}
	return ids
}
