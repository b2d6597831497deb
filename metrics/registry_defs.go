package metrics

// confusionDefs are the confusion-matrix metrics (TP, TN, FP, FN,
// sensitivity, specificity, FPR, precision, NPV, F1, MCC, balanced
// accuracy), generated for an operating point.
type confusionDef struct {
	name, title string
	dir         Direction
	kind        Kind
	lo, hi      float64
	formula     string
	meaning     string
}

var confusionDefs = []confusionDef{
	{"tp", "TP", Neutral, KindCount, 0, unbounded, "queries with evidence that are flagged", "Evidence queries caught."},
	{"tn", "TN", Neutral, KindCount, 0, unbounded, "queries without evidence that are not flagged", "Empty queries correctly skipped."},
	{"fp", "FP", Neutral, KindCount, 0, unbounded, "queries without evidence that are flagged", "False alarms."},
	{"fn", "FN", Neutral, KindCount, 0, unbounded, "queries with evidence that are not flagged", "Evidence queries missed."},
	{"sensitivity", "Sensitivity", Higher, KindScore, 0, 1, "TP / (TP + FN)", "Share of evidence queries flagged."},
	{"specificity", "Specificity", Higher, KindScore, 0, 1, "TN / (TN + FP)", "Share of empty queries correctly skipped."},
	{"fpr", "FPR", Lower, KindScore, 0, 1, "FP / (FP + TN)", "False-alarm rate among empty queries."},
	{"precision", "Precision (PPV)", Higher, KindScore, 0, 1, "TP / (TP + FP)", "Share of flagged queries that truly have evidence."},
	{"npv", "NPV", Higher, KindScore, 0, 1, "TN / (TN + FN)", "Share of skipped queries that truly have no evidence."},
	{"f1", "F1", Higher, KindScore, 0, 1, "2TP / (2TP + FP + FN)", "Balance of precision and sensitivity."},
	{"mcc", "MCC", Higher, KindValue, -1, 1, "(TP·TN − FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN))", "Correlation between flags and truth; 0 is chance."},
	{"balanced_accuracy", "Balanced accuracy", Higher, KindScore, 0, 1, "(sensitivity + specificity) / 2", "Accuracy with both classes weighted equally."},
}

func init() {
	for _, c := range confusionDefs {
		defs = append(defs, Def{
			Base: Base("ne." + c.name), Param: ParamTau, Title: c.title + " at τ", Population: AllQueries,
			Direction: c.dir, Kind: c.kind, Lo: c.lo, Hi: c.hi, Tables: []TableID{TableNEGate},
			Definition: "At the fixed operating point τ (a query is flagged when `ne_prob` ≥ τ): " + c.formula + ". A 0/0 ratio is undefined (null, shown as n/a), never 0.",
			Meaning:    c.meaning,
		})
		if c.name == "sensitivity" || c.name == "fpr" {
			continue // ne.heldout_tpr and ne.heldout_fpr are defined above
		}
		var shown []TableID
		if c.name == "precision" {
			shown = []TableID{TableNEGate}
		}
		defs = append(defs, Def{
			Tables: shown,
			Base:   Base("ne.heldout_" + c.name), Param: ParamFPR, Title: c.title + " at held-out FPR budget X", Population: AllQueries,
			Direction: c.dir, Kind: c.kind, Lo: c.lo, Hi: c.hi, Variant: "threshold from tune rows",
			Definition: "At each fold's tune-chosen threshold for FPR budget X (see `ne.heldout_tpr`), counts summed over folds: " + c.formula + ". A 0/0 ratio is undefined.",
			Meaning:    c.meaning,
		})
	}
	for _, c := range confusionDefs {
		if c.name == "npv" || c.name == "specificity" || c.name == "mcc" || c.name == "balanced_accuracy" || c.name == "sensitivity" {
			continue
		}
		base := Base("e2e." + c.name)
		if c.name == "precision" {
			continue // defined below with its end-to-end name
		}
		defs = append(defs, Def{
			Compared: c.name == "f1", // e2e.f1
			Base:     base, Title: "Deployment " + c.title, Population: AllQueries, Tables: []TableID{TableClinical},
			Direction: c.dir, Kind: c.kind, Lo: c.lo, Hi: c.hi,
			Definition: "End to end (end-to-end metrics specification D): a query is predicted positive when the system returns at least one sentence. " + c.formula + ".",
			Meaning:    c.meaning,
		})
	}
	defs = append(defs, rankDefs...)
	defs = append(defs, otherDefs...)
}

var rankDefs = []Def{
	{Base: "rank.recall", Param: ParamK, TrecEval: "recall_K", Tables: []TableID{TableRanking, TablePerCriterion, TableStrata}, Headline: true, Title: "Recall@K", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "denominator |gold|",
		Definition: "$|\\mathrm{gold} \\cap \\mathrm{top}_K| / |\\mathrm{gold}|$ (the evidence-retrieval metrics contract, the metric specification document and the end-to-end metrics specification), ranking by candidate score (ties in input order; TREC input: docno descending, as trec_eval). Gold missing from the candidates still counts in the denominator.",
		Meaning:    "Share of a query's evidence sentences a reviewer sees in the first K."},
	{Base: "rank.capped_recall", Param: ParamK, TrecEval: "relative_P_K", Compared: true, Tables: []TableID{TableRanking}, Title: "Capped recall@K", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "denominator min(K, n_pos)",
		Definition: "$|\\mathrm{gold} \\cap \\mathrm{top}_K| / \\min(K, n_{pos})$ (LTR evaluation methodology §3.1): 1 when the first K hold as many gold items as fit.",
		Meaning:    "How full of evidence the first K are, relative to what could fit."},
	{Base: "rank.precision", Param: ParamK, TrecEval: "P_K", Tables: []TableID{TableRanking, TableStrata}, Title: "Precision@K", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "$|\\mathrm{gold} \\cap \\mathrm{top}_K| / K$, denominator K even when fewer candidates exist (trec_eval's P_k).",
		Meaning:    "Share of the first K sentences that are evidence."},
	{Base: "rank.hit", Param: ParamK, TrecEval: "success_K", Compared: true, Tables: []TableID{TableRanking}, Title: "Hit@K", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "1 when at least one gold item is in the top K, else 0; averaged over queries (evidence-retrieval metrics contract §3.3).",
		Meaning:    "Share of queries where the reviewer sees some evidence in the first K."},
	{Base: "rank.ndcg", Param: ParamK, TrecEval: "ndcg_cut_K", Tables: []TableID{TableRanking, TablePerCriterion}, Headline: true, Title: "nDCG@K", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "$\\mathrm{DCG@K} = \\sum_{i \\le K} g(rel_i)/\\log_2(i+1)$ with gain $g = 2^{rel}-1$ (default) or $g = rel$ (`contract.ndcg_gain: linear`, trec_eval); IDCG@K is the DCG of all gold grades in ideal order cut at K; nDCG = DCG/IDCG.",
		Meaning:    "Ranking quality of the first K, rewarding evidence near the top; 1 is perfect."},
	{Base: "rank.map", Param: ParamK, TrecEval: "map_cut_K", Compared: true, Tables: []TableID{TableRanking}, Title: "MAP@K", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "$AP@K = \\frac{1}{D} \\sum_{i \\le K} \\mathrm{rel}_i \\cdot P@i$, with D = |gold| (default, trec_eval), min(|gold|, K) (metric specification document) or the hits in the top K (end-to-end metrics specification), per `contract.map_denominator`.",
		Meaning:    "Precision averaged over the positions where evidence appears."},
	{Base: "rank.mrr", TrecEval: "recip_rank", Compared: true, Tables: []TableID{TableRanking, TablePerCriterion}, Title: "MRR", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "Mean over queries of 1 / rank of the first gold item in the whole list (0 when no gold item is ranked).",
		Meaning:    "1/MRR is roughly the rank at which the first evidence sentence appears."},
	{Base: "rank.map", TrecEval: "map", Compared: true, Tables: []TableID{TableRanking}, Title: "MAP", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "whole ranking, denominator |gold|",
		Definition: "Mean over queries of AP = (1/|gold|) · Σ_i rel_i · P@i over the whole ranking, where rel_i is 1 when the candidate at rank i is gold (grade ≥ 1) and P@i the precision at rank i; gold never ranked adds 0 (trec_eval's `map`; `contract.map_denominator` applies to MAP@K only).",
		Meaning:    "Precision averaged over the positions of all evidence sentences, however deep."},
	{Base: "rank.ndcg", TrecEval: "ndcg", Tables: []TableID{TableRanking}, Title: "nDCG", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "whole ranking",
		Definition: "nDCG@K with no cutoff (trec_eval's `ndcg`): DCG = Σ_i g(rel_i) / log2(i + 1) over the whole ranking, with the gain g of `rank.ndcg@K` (`contract.ndcg_gain`); IDCG is the DCG of all gold grades in ideal order, uncut; nDCG = DCG / IDCG.",
		Meaning:    "Ranking quality of the whole list, rewarding evidence near the top; 1 is perfect."},
	{Base: "rank.r_precision", TrecEval: "Rprec", Tables: []TableID{TableRanking}, Title: "R-precision", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "Precision at rank R = |gold|: |gold ∩ top_R| / R (trec_eval's `Rprec`); when fewer than R candidates are ranked, the hits of the whole ranking over R. At rank R precision equals recall.",
		Meaning:    "Share of a query's evidence found in as many sentences as it has evidence."},
	// TREC input only: these need judged non-relevant documents (qrels).
	{Base: "rank.bpref", TrecEval: "bpref", Title: "bpref", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's `bpref` (Buckley and Voorhees 2004): $\\frac1R \\sum_r \\left(1 - \\frac{\\min(n_r, R)}{\\min(N, R)}\\right)$ over the relevant documents r retrieved, where R is the number of relevant and N of judged non-relevant documents of the query in the qrels, and n_r the judged non-relevant documents ranked above r (the term is 1 when n_r = 0). Unjudged documents are skipped; R = 0 gives 0. TREC input only.",
		Meaning:    "How often relevant documents are ranked above judged non-relevant ones, ignoring unjudged documents; robust to incomplete judgments."},
	{Base: "rank.gm_map", TrecEval: "gm_map", Title: "GM-MAP", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments, AP floored at 1e-5",
		Definition: "trec_eval's `gm_map`: the geometric mean of the queries' AP (`rank.map`), each floored at 0.00001: $\\exp\\left(\\frac1n \\sum_q \\ln \\max(AP_q, 10^{-5})\\right)$. TREC input only.",
		Meaning:    "MAP that rewards improving the hardest queries; one query with AP near 0 pulls it down."},
	{Base: "rank.iprec", Param: ParamRecall, TrecEval: "iprec_at_recall_X", Title: "Interpolated precision at recall X", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's `iprec_at_recall_X`: the largest precision P@i over the ranks i whose top i holds at least round(X·R) relevant documents (R relevant documents in the qrels, rounding half away from zero); 0 when the ranking never reaches that many. X is 0, 0.1, ..., 1. TREC input only.",
		Meaning:    "The best precision a reader can have while finding a share X of the relevant documents."},
	{Base: "rank.11pt_avg", TrecEval: "11pt_avg", Title: "11-point average precision", Population: JudgedQueries, Direction: Higher, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's `11pt_avg`: the mean of `rank.iprec@recall=X` over X = 0, 0.1, ..., 1. TREC input only.",
		Meaning:    "Interpolated precision averaged over the standard 11 recall levels."},
	{Base: "rank.unjudged", Param: ParamK, TrecEval: "unj_K", Title: "Unjudged@K", Population: JudgedQueries, Direction: Lower, Hi: 1, Variant: "TREC judgments",
		Definition: "trec_eval's `unj_K`: the number of documents in the top K that have no judgment in the qrels (or a negative one) divided by K, also when fewer than K are ranked. Above 0.1 at the headline cutoff the report warns. TREC input only.",
		Meaning:    "Share of the top K nobody judged: pooled judgments then understate every measure."},
	{Base: "rank.mrr", Param: ParamK, Compared: true, Tables: []TableID{TableRanking}, Title: "MRR@K", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "Reciprocal rank of the first gold item when it is within the top K, else 0, averaged over queries (trec_eval's `recip_rank` cut at K).",
		Meaning:    "How early the first evidence sentence appears, counting only the first K."},
}

var otherDefs = []Def{
	// Query-specific K (docs/metrics.md "Query-specific cutoffs").
	{Base: "rank.pct_recall", Param: ParamPct, Title: "Recall at K = p·n_pos", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "macro",
		Definition: "Per query K = max(1, ⌈p·n_pos⌉); capped recall hits/min(K, n_pos); mean over queries (LTR evaluation methodology, strategy 1).",
		Meaning:    "Recall at a depth proportional to the query's evidence count."},
	{Base: "rank.pct_recall_weighted", Param: ParamPct, Title: "Recall at K = p·n_pos (n_pos-weighted)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "n_pos-weighted",
		Definition: "As `rank.pct_recall`, averaged with weights n_pos.",
		Meaning:    "As above, large queries weighing more."},
	{Base: "rank.pct_precision", Param: ParamPct, Title: "Precision at K = p·n_pos", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "macro",
		Definition: "Per query K = max(1, ⌈p·n_pos⌉); hits/K; mean over queries.",
		Meaning:    "Precision at a depth proportional to the query's evidence count."},
	{Base: "rank.pct_precision_weighted", Param: ParamPct, Title: "Precision at K = p·n_pos (n_pos-weighted)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "n_pos-weighted",
		Definition: "As `rank.pct_precision`, averaged with weights n_pos.", Meaning: "As above, large queries weighing more."},
	{Base: "rank.capk_recall", Param: ParamK, Title: "Recall at min(K, n_pos)", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "K_q = min(K, n_pos); hits in the top K_q / K_q (LTR evaluation methodology, strategy 2; precision at K_q is the same number).", Meaning: "Recall at a standard depth capped by the query's evidence count."},
	{Base: "rank.adaptive_recall", Tables: []TableID{TableRanking}, Title: "Recall at adaptive K", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "macro",
		Definition: "Per query, the mean capped recall over its adaptive K set (n_pos < 10: {1, 3, n_pos}; 10-49: {5, 10, 20, n_pos}; ≥ 50: {10, 20, 50, n_pos}; LTR evaluation methodology, strategy 3), then the mean over queries.",
		Meaning:    "Recall at depths adapted to each query's size (the recommendation of the LTR evaluation methodology)."},
	{Base: "rank.adaptive_recall_weighted", Tables: []TableID{TableRanking}, Title: "Recall at adaptive K (n_pos-weighted)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "n_pos-weighted",
		Definition: "As `rank.adaptive_recall`, averaged with weights n_pos.", Meaning: "As above, large queries weighing more."},
	{Base: "rank.adaptive_precision", Tables: []TableID{TableRanking}, Title: "Precision at adaptive K", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "macro",
		Definition: "Per query, the mean of hits/K over its adaptive K set, then the mean over queries.", Meaning: "Precision at depths adapted to each query's size."},
	{Base: "rank.adaptive_precision_weighted", Tables: []TableID{TableRanking}, Title: "Precision at adaptive K (n_pos-weighted)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "n_pos-weighted",
		Definition: "As `rank.adaptive_precision`, averaged with weights n_pos.", Meaning: "As above, large queries weighing more."},
	{Base: "rank.spearman_difficulty", Param: ParamK, Title: "Spearman ρ(difficulty, recall@K)", Population: PositivesOnly, Direction: Neutral, Lo: -1, Hi: 1, Kind: KindValue,
		Definition: "Spearman rank correlation (average ranks for ties) between difficulty n_neg / n_pos and recall@K over positive queries (LTR evaluation methodology §4.3).",
		Meaning:    "Negative: the system struggles on queries with few evidence sentences among many candidates."},
	{Base: "rank.spearman_difficulty_p", Param: ParamK, Title: "p-value of ρ(difficulty, recall@K)", Population: PositivesOnly, Direction: Neutral, Hi: 1, Kind: KindValue,
		Definition: "Two-sided p-value of the Spearman correlation from the t distribution with n − 2 degrees of freedom (as scipy).",
		Meaning:    "Small values: the correlation is unlikely to be chance."},

	// Dynamic-K (docs/metrics.md "Dynamic-K").
	{Base: "dynk.evidence_recall", Tables: []TableID{TableDynamicK}, Headline: true, Title: "Evidence recall (selected K)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "positives only (evidence-retrieval metrics contract)",
		Definition: "Mean over positive queries of |gold ∩ selected| / |gold| (evidence-retrieval metrics contract §4.2). A query the gate sends to NEG selects nothing.",
		Meaning:    "Share of each query's evidence that the extracted set contains."},
	{Base: "dynk.evidence_precision", Compared: true, Tables: []TableID{TableDynamicK}, Title: "Evidence precision (selected K)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "positives only; empty selection = 0 (evidence-retrieval metrics contract)",
		Definition: "Mean over positive queries of |gold ∩ selected| / |selected|, 0 for an empty selection (evidence-retrieval metrics contract §4.3).",
		Meaning:    "Share of extracted sentences a reviewer reads that are evidence."},
	{Base: "dynk.evidence_recall_all", Tables: []TableID{TableDynamicK}, Title: "Evidence recall, all queries", Population: AllQueries, Direction: Higher, Hi: 1, Variant: "empty-set conventions of the metric specification document",
		Definition: "Mean over all queries of |gold ∩ selected| / |gold|; a query without gold counts 1 when nothing is selected, else 0 (metric specification document §3.1).",
		Meaning:    "Rewards both finding evidence and returning nothing when there is none."},
	{Base: "dynk.evidence_precision_all", Tables: []TableID{TableDynamicK}, Title: "Evidence precision, all queries", Population: AllQueries, Direction: Higher, Hi: 1, Variant: "empty-set conventions of the metric specification document",
		Definition: "Mean over all queries of |gold ∩ selected| / |selected|; an empty selection counts 1 when the query has no gold, else 0 (metric specification document §3.2).",
		Meaning:    "Share of returned sentences that are evidence, crediting correct silence."},
	{Base: "dynk.avg_k_all", Tables: []TableID{TableDynamicK}, Title: "Mean K, all queries", Population: AllQueries, Direction: Lower, Kind: KindValue, Lo: 0, Hi: unbounded,
		Definition: "Mean selected K over all queries, K = 0 for queries the gate sends to NEG (end-to-end metrics specification C.2).",
		Meaning:    "Sentences a reviewer reads per query on average."},
	{Base: "dynk.avg_k_pred_pos", Tables: []TableID{TableDynamicK}, Title: "Mean K, predicted positive", Population: PredPositive, Direction: Neutral, Kind: KindValue, Lo: 0, Hi: unbounded,
		Definition: "Mean selected K over queries that return at least one sentence (end-to-end metrics specification C.1).",
		Meaning:    "Size of the extracted set when the system does return one."},
	{Base: "dynk.evidence_recall_micro", Tables: []TableID{TableDynamicK}, Title: "Evidence recall, micro (unconditional)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "micro",
		Definition: "Σ|gold ∩ returned| / Σ|gold| over positive queries, NEG queries returning nothing (end-to-end metrics specification C.3).",
		Meaning:    "Share of all evidence sentences that reach the reviewer."},
	{Base: "dynk.evidence_recall_micro_conditional", Tables: []TableID{TableDynamicK}, Title: "Evidence recall, micro (conditional)", Population: PositivesOnly, Direction: Higher, Hi: 1, Variant: "micro, gate passed",
		Definition: "Σ|gold ∩ returned| / Σ|gold| over positive queries that return at least one sentence (end-to-end metrics specification C.4).",
		Meaning:    "Share of evidence found when the gate lets the query through."},
	{Base: "dynk.k_mean", Tables: []TableID{TableDynamicK}, Title: "Mean selected K", Population: AllQueries, Direction: Neutral, Kind: KindValue, Lo: 0, Hi: unbounded,
		Definition: "Mean of the selected K (0 for NEG) over the slice's queries; the full distribution is in `curves.dynk_hist`.",
		Meaning:    "Average extraction size in this group."},
	{Base: "dynk.mean_k", Param: ParamGamma, Tables: []TableID{TableDynamicK}, Title: "Mean K at γ", Population: AllQueries, Direction: Neutral, Kind: KindValue, Lo: 0, Hi: unbounded,
		Definition: "Gamma sweep (evidence-retrieval metrics contract §8.2): the policy re-run with γ (and the gate's states kept), mean K over all queries.", Meaning: "Extraction size at this mass threshold."},
	{Base: "dynk.evidence_recall", Param: ParamGamma, Tables: []TableID{TableDynamicK}, Title: "Evidence recall at γ", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "Gamma sweep: `dynk.evidence_recall` with the policy run at γ.", Meaning: "Evidence found at this mass threshold."},
	{Base: "dynk.evidence_precision", Param: ParamGamma, Tables: []TableID{TableDynamicK}, Title: "Evidence precision at γ", Population: PositivesOnly, Direction: Higher, Hi: 1,
		Definition: "Gamma sweep: `dynk.evidence_precision` with the policy run at γ.", Meaning: "Precision of the extracted set at this mass threshold."},
	{Base: "dynk.workload_per_1000", Param: ParamGamma, Tables: []TableID{TableDynamicK}, Title: "Workload per 1,000 queries at γ", Population: AllQueries, Direction: Lower, Kind: KindPer1000, Lo: 0, Hi: unbounded,
		Definition: "Gamma sweep: sentences returned per 1,000 queries.", Meaning: "Reading burden at this mass threshold."},

	// Clinical gate (three states NEG, UNCERTAIN, POS) and end to end.
	{Base: "clinical.neg_rate", Tables: []TableID{TableClinical}, Title: "NEG rate", Population: AllQueries, Direction: Neutral, Hi: 1, Definition: "n_NEG / N.", Meaning: "Share of queries skipped."},
	{Base: "clinical.uncertain_rate", Tables: []TableID{TableClinical}, Title: "UNCERTAIN rate", Population: AllQueries, Direction: Neutral, Hi: 1, Definition: "n_UNCERTAIN / N.", Meaning: "Share of queries needing conservative review."},
	{Base: "clinical.pos_rate", Tables: []TableID{TableClinical}, Title: "POS rate", Population: AllQueries, Direction: Neutral, Hi: 1, Definition: "n_POS / N.", Meaning: "Share of queries raised as high-confidence alerts."},
	{Base: "clinical.alert_rate_per_1000", Tables: []TableID{TableClinical}, Title: "Alerts per 1,000 queries", Population: AllQueries, Direction: Lower, Kind: KindPer1000, Lo: 0, Hi: 1000,
		Definition: "1000 · n_POS / N (evidence-retrieval metrics contract §5.4).", Meaning: "High-confidence alerts a clinician receives per 1,000 queries."},
	{Base: "clinical.screen_sensitivity", Tables: []TableID{TableClinical}, Headline: true, Title: "Screening sensitivity", Population: AllQueries, Direction: Higher, Hi: 1,
		Definition: "Share of evidence queries not sent to NEG: TP_screen / (TP_screen + FN_screen) (evidence-retrieval metrics contract §5.3).", Meaning: "Evidence cases that survive screening; the target is 99.5%."},
	{Base: "clinical.screen_fn_per_1000", Tables: []TableID{TableClinical}, Title: "Screening misses per 1,000 queries", Population: AllQueries, Direction: Lower, Kind: KindPer1000, Lo: 0, Hi: 1000,
		Definition: "1000 · FN_screen / N.", Meaning: "Evidence cases lost at screening per 1,000 queries; the target is at most 5."},
	{Base: "clinical.alert_precision", Tables: []TableID{TableClinical}, Headline: true, Title: "Alert precision", Population: AllQueries, Direction: Higher, Hi: 1,
		Definition: "Share of POS queries that have evidence: TP_alert / (TP_alert + FP_alert) (evidence-retrieval metrics contract §5.4). Undefined without POS queries.", Meaning: "How often a high-confidence alert is right; the target is 90%."},
	{Base: "clinical.workload_per_1000", Tables: []TableID{TableClinical}, Title: "Review workload per 1,000 queries", Population: AllQueries, Direction: Lower, Kind: KindPer1000, Lo: 0, Hi: unbounded,
		Definition: "Sentences returned (Dynamic-K selections, NEG returning none) per 1,000 queries.", Meaning: "Sentences a reviewer reads per 1,000 queries."},
	{Base: "e2e.precision", Tables: []TableID{TableClinical, TablePerCriterion}, Title: "Deployment precision", Population: AllQueries, Direction: Higher, Hi: 1,
		Definition: "End to end (end-to-end metrics specification D.4): TP / (TP + FP) where predicted positive = the system returns at least one sentence.", Meaning: "Share of queries with returned sentences that truly have evidence."},
	{Base: "e2e.recall", Tables: []TableID{TableClinical, TablePerCriterion}, Title: "Deployment recall", Population: AllQueries, Direction: Higher, Hi: 1,
		Definition: "End to end (end-to-end metrics specification D.5): TP / (TP + FN).", Meaning: "Share of evidence queries for which the system returns something."},
	{Base: "e2e.fnr", Tables: []TableID{TableClinical}, Title: "Deployment FNR", Population: AllQueries, Direction: Lower, Hi: 1,
		Definition: "End to end (end-to-end metrics specification D.3): FN / (FN + TP).", Meaning: "Share of evidence queries for which the system returns nothing."},

	// Per-post multi-label (posts whose every criterion is in eval).
	{Base: "multilabel.exact_match", Tables: []TableID{TablePerPost}, Title: "Exact match", Population: Posts, Direction: Higher, Hi: 1,
		Definition: "Share of posts whose every criterion's deployment decision equals the truth (evidence-retrieval metrics contract §6.1).", Meaning: "Posts screened entirely right."},
	{Base: "multilabel.hamming_score", Tables: []TableID{TablePerPost}, Title: "Hamming score", Population: Posts, Direction: Higher, Hi: 1,
		Definition: "Mean over posts of the share of criteria decided right (evidence-retrieval metrics contract §6.2).", Meaning: "Criteria decided right per post."},
	{Base: "multilabel.hamming_loss", Tables: []TableID{TablePerPost}, Title: "Hamming loss", Population: Posts, Direction: Lower, Hi: 1,
		Definition: "1 − Hamming score (evidence-retrieval metrics contract §6.3).", Meaning: "Criteria decided wrong per post."},
	{Base: "multilabel.micro_f1", Tables: []TableID{TablePerPost}, Title: "Micro F1", Population: Posts, Direction: Higher, Hi: 1,
		Definition: "F1 of all (post, criterion) decisions pooled.", Meaning: "Overall F1 of the evidence decisions."},
	{Base: "multilabel.macro_f1_posts", Tables: []TableID{TablePerPost}, Title: "Macro F1 over posts", Population: Posts, Direction: Higher, Hi: 1, Variant: "over posts (evidence-retrieval metrics contract)",
		Definition: "Mean of per-post F1 (evidence-retrieval metrics contract §6.4); a post with no positive in truth or prediction has F1 = 0 (scikit-learn's default).", Meaning: "F1 of a typical post."},
	{Base: "multilabel.macro_f1_criteria", Tables: []TableID{TablePerPost}, Title: "Macro F1 over criteria", Population: Posts, Direction: Higher, Hi: 1, Variant: "over criteria (end-to-end metrics specification)",
		Definition: "Mean of per-criterion F1 (end-to-end metrics specification E.4); a criterion with no positive in truth or prediction has F1 = 0.", Meaning: "F1 of a typical criterion."},
	{Base: "multilabel.weighted_f1", Tables: []TableID{TablePerPost}, Title: "Weighted F1", Population: Posts, Direction: Higher, Hi: 1,
		Definition: "Per-criterion F1 weighted by the criterion's number of positive posts (scikit-learn's `average='weighted'`).", Meaning: "F1 where common criteria weigh more."},

	// Counts for slices (per criterion, per stratum).
	{Base: "data.n", Tables: []TableID{TablePerCriterion, TableStrata}, Title: "Queries", Population: AllQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Definition: "Number of eval queries in the slice.", Meaning: "Sample size."},
	{Base: "data.n_pos", Tables: []TableID{TablePerCriterion}, Title: "Queries with evidence", Population: AllQueries, Direction: Neutral, Kind: KindCount, Lo: 0, Hi: unbounded, Definition: "Number of eval queries with at least one gold item.", Meaning: "Positive sample size."},
	{Base: "data.positive_rate", Tables: []TableID{TablePerCriterion}, Title: "Positive rate", Population: AllQueries, Direction: Neutral, Hi: 1, Definition: "n_pos / n.", Meaning: "Prevalence of evidence; the chance level of AUPRC."},
}
