package report

import (
	"fmt"

	"paperbundle/metrics"
)

// clipShare is the share of a system's probabilities within the clip of 0
// or 1 above which the calibration slope and intercept are said to rest on
// the clip.
const clipShare = 0.10

// clipWarnings warns, for each system whose eval probabilities lie within
// metrics.CalibClip of 0 or 1 in more than a tenth of the rows, that the
// clip to [1e-6, 1 − 1e-6] decides its calibration slope and intercept (a
// model as overconfident as Gaussian naive Bayes moves its slope from
// 0.36 to 0.14 with the clip's bound).
func (c *computer) clipWarnings() {
	if !c.ds.HasNEProb || !c.has(Calibration) || len(c.eval) == 0 {
		return
	}
	for _, sys := range c.ds.Systems {
		n := 0
		for _, i := range c.eval {
			r := &sys.Rows[i]
			if r.HasNEProb && (r.NEProb <= metrics.CalibClip || r.NEProb >= 1-metrics.CalibClip) {
				n++
			}
		}
		if share := float64(n) / float64(len(c.eval)); share > clipShare {
			c.rep.Warnings = append(c.rep.Warnings, fmt.Sprintf(
				"system %s: %d of %d probabilities (%.1f%%) are within 1e-6 of 0 or 1; the calibration slope and intercept clip p to [1e-6, 1 − 1e-6] before the logit, so the clip, not the model, decides those two numbers (the ECE and the Brier score do not clip)",
				sys.Name, n, len(c.eval), 100*share))
		}
	}
}
