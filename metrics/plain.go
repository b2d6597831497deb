package metrics

import "strings"

// plainTitles are the plain-language names of the headline metrics, the
// column headers of the results matrix (a reader who does not know the
// acronym learns what the column measures); "K" is replaced by the cutoff.
// They sit beside the registry rather than in its entries so that adding a
// header never touches a metric's definition.
var plainTitles = map[Base]string{
	"ne.auroc":                    "Tells positives from negatives",
	"ne.auprc":                    "Precision over all thresholds",
	"ne.ece":                      "Calibration error",
	"rank.recall":                 "Evidence found in the top K",
	"rank.ndcg":                   "Ranking quality of the top K",
	"dynk.evidence_recall":        "Evidence kept by Dynamic-K",
	"clinical.screen_sensitivity": "Evidence cases screened in",
	"clinical.alert_precision":    "Alerts that are right",
}

// PlainTitle is the plain-language name of a metric id ("Evidence found in
// the top 10" for rank.recall@10), or "" when the registry has none.
func PlainTitle(id ID) string {
	base, p, arg := ParseID(id)
	t := plainTitles[base]
	if t != "" && p == ParamK {
		t = strings.ReplaceAll(t, "K", arg)
	}
	return t
}
