package metrics

import "strings"

// Title is the human name of a metric id, with its parameter written in:
// "Recall@K" of rank.recall@5 is "Recall@5", "τ" of ne.f1@tau=0.5 becomes
// "τ = 0.5". It is the id itself when the registry does not know it.
func Title(id ID) string {
	d, ok := Lookup(id)
	if !ok {
		return string(id)
	}
	p, arg := id.Param()
	t := d.Title
	switch p {
	case ParamK:
		t = strings.ReplaceAll(t, "K", arg)
	case ParamFPR, ParamRecall, ParamMult:
		t = strings.ReplaceAll(t, "X", arg)
	case ParamTau:
		t = strings.ReplaceAll(t, "τ", "τ = "+arg)
	case ParamGamma:
		t = strings.ReplaceAll(t, "γ", "γ = "+arg)
	case ParamPct:
		t = strings.ReplaceAll(t, "p·", arg+"·")
	}
	return t
}
