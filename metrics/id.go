package metrics

import "strconv"

// ID is a metric id (docs/metrics.md "Ids"): "family.name", then "@K" for a
// cutoff (rank.recall@10), "@fpr=X" for an FPR target, "@tau=X" for an
// operating point, "@gamma=X" for a sweep point or "@p=X" for a percentile
// K. Ids are part of the interface: scripts outside the project read them
// from metrics_master.json, so their string form never changes.
type ID string

// String returns the id as written in metrics_master.json.
func (id ID) String() string { return string(id) }

// Base returns the id without its parameter ("rank.recall" of
// "rank.recall@10").
func (id ID) Base() string { b, _, _ := ParseID(id); return b }

// Param returns the kind of the id's parameter and its written value.
func (id ID) Param() (Param, string) { _, p, a := ParseID(id); return p, a }

// Def returns the registry entry of the id.
func (id ID) Def() (Def, bool) { return Lookup(id) }

// At returns the id of base at cutoff k: At("rank.ndcg", 10) = "rank.ndcg@10".
func At(base string, k int) ID { return ID(base + "@" + strconv.Itoa(k)) }

// AtFPR returns the id of base at FPR target x: "ne.tpr@fpr=0.05".
func AtFPR(base string, x float64) ID { return ID(base + "@fpr=" + FormatParam(x)) }

// AtTau returns the id of base at operating point x: "ne.mcc@tau=0.5".
func AtTau(base string, x float64) ID { return ID(base + "@tau=" + FormatParam(x)) }

// AtGamma returns the id of base at sweep point x: "dynk.mean_k@gamma=0.9".
func AtGamma(base string, x float64) ID { return ID(base + "@gamma=" + FormatParam(x)) }

// AtRecall returns the id of base at recall level x:
// "rank.iprec@recall=0.1".
func AtRecall(base string, x float64) ID { return ID(base + "@recall=" + FormatParam(x)) }

// AtPct returns the id of base at percentile x: "rank.pct_recall@p=0.25".
func AtPct(base string, x float64) ID { return ID(base + "@p=" + FormatParam(x)) }
