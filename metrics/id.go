package metrics

import (
	"strconv"
	"strings"
)

// ID is a metric id (docs/metrics.md "Ids"): "family.name", then "@K" for a
// cutoff (rank.recall@10), "@fpr=X" for an FPR target, "@tau=X" for an
// operating point, "@gamma=X" for a sweep point or "@p=X" for a percentile
// K. Ids are part of the interface: scripts outside the project read them
// from metrics_master.json, so their string form never changes.
//
// Code outside this package builds ids from the Base constants of
// bases.go (RankRecall.At(10), NEAUROC.ID()), never from string literals;
// a test of the module enforces it.
type ID string

// String returns the id as written in metrics_master.json.
func (id ID) String() string { return string(id) }

// Base returns the id without its parameter (RankRecall of
// "rank.recall@10").
func (id ID) Base() Base { b, _, _ := ParseID(id); return b }

// Param returns the kind of the id's parameter and its written value.
func (id ID) Param() (Param, string) { _, p, a := ParseID(id); return p, a }

// Def returns the registry entry of the id.
func (id ID) Def() (Def, bool) { return Lookup(id) }

// Base is a metric id without its parameter, "family.name"
// ("rank.recall"). bases.go, generated from the registry, names every
// base the registry defines.
type Base string

// String returns the base as written in metric ids.
func (b Base) String() string { return string(b) }

// Family returns the part of the base before the first dot: "rank" of
// "rank.recall".
func (b Base) Family() string {
	if i := strings.IndexByte(string(b), '.'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

// ID returns the id of a metric without a parameter: RankMRR.ID() =
// "rank.mrr".
func (b Base) ID() ID { return ID(b) }

// At returns the id at cutoff k: RankNDCG.At(10) = "rank.ndcg@10".
func (b Base) At(k int) ID { return ID(string(b) + "@" + strconv.Itoa(k)) }

// AtFPR returns the id at FPR target x: NETPR.AtFPR(0.05) =
// "ne.tpr@fpr=0.05".
func (b Base) AtFPR(x float64) ID { return ID(string(b) + "@fpr=" + FormatParam(x)) }

// AtTau returns the id at operating point x: NEMCC.AtTau(0.5) =
// "ne.mcc@tau=0.5".
func (b Base) AtTau(x float64) ID { return ID(string(b) + "@tau=" + FormatParam(x)) }

// AtGamma returns the id at sweep point x: DynKMeanK.AtGamma(0.9) =
// "dynk.mean_k@gamma=0.9".
func (b Base) AtGamma(x float64) ID { return ID(string(b) + "@gamma=" + FormatParam(x)) }

// AtRecall returns the id at recall level x: RankIPrec.AtRecall(0.1) =
// "rank.iprec@recall=0.1".
func (b Base) AtRecall(x float64) ID { return ID(string(b) + "@recall=" + FormatParam(x)) }

// AtMult returns the id at multiple x of the relevant documents:
// RankRPrecMult.AtMult(0.2) = "rank.rprec_mult@mult=0.2".
func (b Base) AtMult(x float64) ID { return ID(string(b) + "@mult=" + FormatParam(x)) }

// AtPct returns the id at percentile x: RankPctRecall.AtPct(0.25) =
// "rank.pct_recall@p=0.25".
func (b Base) AtPct(x float64) ID { return ID(string(b) + "@p=" + FormatParam(x)) }

// DynKSelectedK is the id of the distribution of the selected K over the
// queries (a distribution of the report, not a metric of the registry).
const DynKSelectedK ID = "dynk.k"
