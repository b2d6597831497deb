package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
	"paperbundle/metrics"
	"paperbundle/report"
)

// trecCutoffs are trec_eval's default cutoffs.
var trecCutoffs = []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}

// edgeReports are the reports whose every figure TestNothingCut draws:
// the fixture, the fixture at trec_eval's cutoffs, and one without AUROC
// (a TREC run: the systems chart has a single panel, with the oracle's
// dot at 1).
func edgeReports(tb testing.TB) map[string]*report.Report {
	noAUROC := figtest.FixtureAt(trecCutoffs)
	ms := noAUROC.Metrics[:0]
	for _, m := range noAUROC.Metrics {
		if m.ID != metrics.NEAUROC.ID() {
			ms = append(ms, m)
		}
	}
	noAUROC.Metrics = ms
	noAUROC.Reindex()
	// One system with curves: a paper shows its own precision-recall
	// curve (there is no overlay), at a column's width.
	oneCurve := figtest.Fixture()
	oneCurve.Curves.ROC, oneCurve.Curves.PR = oneCurve.Curves.ROC[:1], oneCurve.Curves.PR[:1]
	return map[string]*report.Report{"one curve": oneCurve, "demo": figtest.Demo(tb), "fixture": figtest.Fixture(), "trec cutoffs": figtest.FixtureAt(trecCutoffs), "no AUROC": noAUROC}
}

// TestNothingCut: in every figure of the edge reports at report size (the
// demo, the fixture at its own and at trec_eval's cutoffs, one without
// AUROC, one whose curves are a single system's), and in those a paper shows at an acm paper's sizes, no text and
// no marker runs past the page's edge (or comes within half a point of it
// at report size), no two texts overlap, and no number standing alone (a
// tick label: an axis end is one when labelled) has more than three
// significant digits.
func TestNothingCut(t *testing.T) {
	for name, r := range edgeReports(t) {
		specs := figures.Catalogue(r)
		paper := map[figures.FigureID]bool{}
		primary := ""
		for _, s := range r.Systems {
			if s.Primary {
				primary = s.Name
			}
		}
		for _, s := range PaperSet(specs, primary) {
			paper[s.ID] = true
		}
		for i := range specs {
			s := &specs[i]
			pw := vg.Length(241.14749) * tex
			if Wide(s) {
				pw = vg.Length(506.295) * tex
			}
			for _, lk := range []struct {
				name   string
				lk     look
				pw     vg.Length
				margin vg.Length
			}{{"report", screen, 0, 0.5}, {"paper", paperLook(8), pw, -0.01}} {
				if lk.name == "paper" && !paper[s.ID] {
					continue // drawn for the report only
				}
				f := buildFig(t, s, lk.lk, lk.pw)
				for _, b := range offPage(f, lk.margin) {
					t.Errorf("%s, %s, %s: past the page's edge: %s", name, s.ID, lk.name, b)
				}
				for _, b := range overlappingTexts(f) {
					t.Errorf("%s, %s, %s: texts overlap: %s", name, s.ID, lk.name, b)
				}
				for _, k := range ink(f) {
					if d := sigDigits(k.text); d > 3 {
						t.Errorf("%s, %s, %s: a tick label of %d significant digits: %v", name, s.ID, lk.name, d, k)
					}
				}
			}
		}
	}
}

// TestCutoffLabelsApart: on the log K axis of Recall@K over trec_eval's
// cutoffs, at report size and at paper sizes from 8 to 10 pt in the
// narrowest columns, the tick labels keep at least 2 pt apart, measured
// from the glyphs of the font they are set in; and the labels shown
// include the first and the last cutoff.
func TestCutoffLabelsApart(t *testing.T) {
	r := figtest.FixtureAt(trecCutoffs)
	s := specByID(t, r, "recall_at_k_sys_a")
	type size struct {
		name string
		lk   look
		pw   vg.Length
	}
	sizes := []size{{"report", screen, 0}}
	for _, pt := range []float64{8, 9, 10} {
		for _, col := range []float64{241.14749, 252} {
			sizes = append(sizes, size{fmt.Sprintf("paper %g pt in %g pt", pt, col), paperLook(pt), vg.Length(col) * tex})
		}
	}
	for _, sz := range sizes {
		var first *inked
		var labels []inked
		for _, k := range ink(buildFig(t, s, sz.lk, sz.pw)) {
			if k.text == "5" && first == nil {
				first = &k
			}
			if _, err := strconv.Atoi(k.text); err == nil && first != nil && math.Abs(float64(k.box.Min.Y-first.box.Min.Y)) < 1 {
				labels = append(labels, k)
			}
		}
		if len(labels) < 4 || labels[0].text != "5" || labels[len(labels)-1].text != "1000" {
			t.Errorf("%s: K labels %v, want 5 first, 1000 last and some between", sz.name, labels)
			continue
		}
		for i := 1; i < len(labels); i++ {
			if gap := labels[i].box.Min.X - labels[i-1].box.Max.X; gap < vg.Points(2) {
				t.Errorf("%s: %v and %v are %.1f pt apart, want at least 2", sz.name, labels[i-1], labels[i], gap)
			}
		}
	}
}

// sigDigits is the number of significant digits of s when s is a number
// on its own ("0.725": 3, "1,500": 2, "-0.04": 1), else 0.
func sigDigits(s string) int {
	n := strings.ReplaceAll(s, ",", "")
	if _, err := strconv.ParseFloat(n, 64); err != nil {
		return 0
	}
	n = strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(n, "-−"), ".", ""), "0")
	return len(strings.TrimRight(n, "0"))
}

func TestSigDigits(t *testing.T) {
	for s, want := range map[string]int{"0.725": 3, "1,500": 2, "-0.04": 1, "1000": 1, "0.7251": 4, "12,345": 5, "n = 3": 0, "0": 0} {
		if got := sigDigits(s); got != want {
			t.Errorf("sigDigits(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestOnePanelGridTitled: a gate grid with its eval panel only (no tune
// rows: thresholds cross-fitted on the other folds' eval rows) still
// draws the figure's title, with the system's name, above "Eval rows".
func TestOnePanelGridTitled(t *testing.T) {
	s := *specByID(t, figtest.Fixture(), "gate_grid_screen_sensitivity_sys_a")
	if len(s.Panels) != 2 {
		t.Fatalf("%d panels, want tune and eval", len(s.Panels))
	}
	s.Panels = s.Panels[1:]
	var texts []string
	for _, k := range ink(buildFig(t, &s, screen, 0)) {
		texts = append(texts, k.text)
	}
	all := strings.Join(texts, "\n")
	_, system, _ := strings.Cut(s.Title, ": ")
	if system == "" || !strings.Contains(all, system) || !strings.Contains(all, "Eval rows") {
		t.Errorf("texts drawn %q, want the title %q and \"Eval rows\"", texts, s.Title)
	}
}
