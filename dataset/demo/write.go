package demo

import (
	"math"
	"strconv"
	"strings"
)

// csvHeader is the header line of every system file (the per-query table
// columns of docs/input-format.md; no
// state and no selected_uids: paperbundle derives them).
const csvHeader = "post_id,criterion_id,query_id,fold,split,gold_uids,gold_rels," +
	"candidate_uids,candidate_scores,node_probs,ne_prob,has_evidence\n"

// appendRow appends the CSV line of one query of one system to b. No field
// can contain a comma, a quote or a newline, so nothing is quoted.
func appendRow(b []byte, q *Query, r *Row) []byte {
	b = append(b, q.Post...)
	b = append(b, ',')
	b = append(b, q.Criterion...)
	b = append(b, ',')
	b = append(b, q.ID...)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(q.Fold), 10)
	b = append(b, ',')
	b = append(b, q.Split...)
	b = append(b, ',')
	for i, u := range q.Gold {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, u...)
	}
	b = append(b, ',')
	for i, g := range q.GoldRels {
		if i > 0 {
			b = append(b, ';')
		}
		b = strconv.AppendInt(b, int64(g), 10)
	}
	b = append(b, ',')
	for i, u := range r.Candidates {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, u...)
	}
	b = append(b, ',')
	b = appendFloats(b, r.Scores, scoreDecimals)
	b = append(b, ',')
	b = appendFloats(b, r.NodeProbs, probDecimals)
	b = append(b, ',')
	b = appendFixed(b, r.NEProb, probDecimals)
	b = append(b, ',')
	if q.HasEvidence() {
		b = append(b, '1')
	} else {
		b = append(b, '0')
	}
	return append(b, '\n')
}

// appendFloats appends xs, ';'-separated, each already rounded to d
// decimals.
func appendFloats(b []byte, xs []float64, d int) []byte {
	for i, x := range xs {
		if i > 0 {
			b = append(b, ';')
		}
		b = appendFixed(b, x, d)
	}
	return b
}

// appendFixed appends x, already rounded to d <= 4 decimals, exactly as
// strconv.AppendFloat(b, x, 'f', -1, 64) would (the shortest decimal that
// reads back as x is x's own d-decimal expansion without trailing zeros),
// but through integer arithmetic: float formatting was most of Write's
// time.
func appendFixed(b []byte, x float64, d int) []byte {
	scale := pow10[d]
	k := int64(math.Round(x * float64(scale)))
	if k < 0 {
		b = append(b, '-')
		k = -k
	}
	b = strconv.AppendInt(b, k/scale, 10)
	frac := k % scale
	if frac == 0 {
		return b
	}
	for frac%10 == 0 {
		frac /= 10
		d--
	}
	b = append(b, '.')
	var digits [4]byte
	for i := d - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(b, digits[:d]...)
}

var pow10 = [...]int64{1, 10, 100, 1000, 10000}

// paperYAML is the configuration written next to the data: the title, the seed,
// the six systems (the full pipeline first, as the primary system, then the
// ladder from the retriever up; comparisons: reference, every system against
// the retriever), the contract's targets, and the defaults
// (docs/configuration.md) of the keys a user is most likely to change, written
// out so that they are seen.
func paperYAML(seed uint64, resamples int) string {
	var b strings.Builder
	b.WriteString("# Demo dataset written by `paperbundle demo`: synthetic data, see\n")
	b.WriteString("# docs/demo-dataset.md. Build the bundle with\n")
	b.WriteString("#   paperbundle build -config paper.yaml\n")
	b.WriteString("title: \"Demo: evidence retrieval pipeline (synthetic)\"\n")
	b.WriteString("seed: " + strconv.FormatUint(seed, 10) + "\n")
	b.WriteString("systems:                      # the first is the primary system; then the ablation ladder (each system adds one stage)\n")
	order := append([]systemParams{ladder[len(ladder)-1]}, ladder[:len(ladder)-1]...)
	for _, sp := range order {
		b.WriteString("  - {name: " + sp.name + ", label: " + strconv.Quote(sp.label) +
			", input: data/" + sp.name + ".csv}\n")
	}
	b.WriteString("primary: " + ladder[len(ladder)-1].name + "                 # the system the report leads with\n")
	b.WriteString("comparisons: reference        # every system against reference_system (default: primary, the primary against every other)\n")
	b.WriteString("reference_system: " + ladder[0].name + "   # the baseline every system is compared with\n")
	b.WriteString(`cutoffs: [1, 3, 5, 10, 20]
fpr_targets: [0.01, 0.03, 0.05, 0.1]
bootstrap: {resamples: ` + strconv.Itoa(resamples) + `, unit: post, method: percentile, confidence: 0.95}
gate: {screen_sensitivity: 0.995, alert_precision: 0.9}
dynamic_k: {k_min: 2, hard_cap: 10, k_max_ratio: 0.5, gamma: 0.9, gamma_uncertain: 0.95, sweep: [0.7, 0.8, 0.9, 0.95]}
targets: contract             # the targets of the evidence-retrieval metrics contract and the metric specification document; default: none
`)
	return b.String()
}
