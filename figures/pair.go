package figures

import "paperbundle/report"

// KindROCPair is the paper's ROC of the primary system against the system
// it is compared with, each with its bootstrap band. It is not in the
// catalogue (report.html and figures/ have the overlay of every system):
// paper/ asks for it with ROCPair.
const KindROCPair Kind = "roc_pair"

// ROCPair is the ROC of system and reference on one plot, each curve with
// its bootstrap band in its own colour, and the chance diagonal: the
// difference a paper's comparison is about, at print size. ok is false
// when either system has no ROC curve.
func ROCPair(r *report.Report, system, reference string, decimals int) (Spec, bool) {
	c := &cat{r: r, keys: systemKeys(r), k: headlineK(r), dec: decimals}
	p := Panel{X: unitAxis(fprLabel), Y: unitAxis(tprLabel)}
	p.Elements = append(p.Elements, diagonal())
	var leg []LegendEntry
	for i, sys := range []string{system, reference} {
		rc := c.rocCurve(sys)
		if rc == nil {
			return Spec{}, false
		}
		segs, tips := segments(rc.FPR, rc.TPR, func(j int) Tip { return rocTip(rc, j) })
		if len(segs) == 0 {
			return Spec{}, false
		}
		if runs := bandRuns(rc.Grid, rc.BandLow, rc.BandHigh); len(runs) > 0 {
			p.Elements = append(p.Elements, &Band{Name: ciName(r), Style: Style{Role: Confidence, Series: i}, Runs: runs})
		}
		st := Style{Role: Series, Series: i}
		lbl := label(r, sys) + " (AUROC " + c.fmtv(num(rc.AUROC)) + ")"
		p.Elements = append(p.Elements, &Line{Name: lbl, Style: st, Segments: segs, Tips: tips})
		leg = append(leg, LegendEntry{Keys: []Key{{MarkFill, Style{Role: Confidence, Series: i}}, {MarkLine, st}}, Text: lbl})
	}
	leg = append(leg, LegendEntry{Keys: []Key{{MarkLine, Style{Role: Diagonal}}}, Text: "Chance"})
	id := FigureID{Kind: KindROCPair, System: c.keys[system]}
	return Spec{ID: id, Kind: KindROCPair, System: system,
		Title:    "ROC: " + label(r, system) + " against " + label(r, reference),
		Subtitle: "bands: " + ciName(r),
		Alt: "ROC curves of " + label(r, system) + " and " + label(r, reference) + " on one plot, each with its " +
			ciName(r) + " band, and the chance diagonal.",
		Panels: []Panel{p}, Legend: leg}, true
}
