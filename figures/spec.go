// Package figures is the one catalogue of the figures of a paper bundle:
// it sits after report.Compute in the pipeline
//
//	inputs -> dataset -> report.Compute -> *report.Report -> figures (specs) -> figures/plot    (SVG, PDF, PNG)
//	                                                                        -> figures/echarts (chart option JSON)
//
// Catalogue turns the finished report into a list of Specs, one per
// figure, in a fixed order. A Spec says what a figure shows (titles, a
// text alternative, axes, and typed elements: lines, bands, points, bars,
// histograms, heat maps, scatter clouds, text tags, with tooltips) and
// nothing about how a backend draws it: package figures/plot draws every
// Spec as SVG, PDF and 300-dpi PNG with gonum/plot, and package
// figures/echarts turns every Spec into an interactive go-echarts option.
// Missing says, for every figure the report has no data for, why.
//
// Specs only read the Report: every number drawn is a number of the
// Report, and undefined values (NaN) are left out of the specs, never
// drawn as 0 (a gap in a line, a bar left out and tagged "n/a", a grey
// heat-map cell). docs/figures.md lists every figure.
package figures

import (
	"slices"
	"strings"
)

// FigureID names a figure: its kind and, for a figure of one system, the
// system's key. Its String is the file stem of its static files
// (figures/<id>.svg) and the key of its interactive chart: "<kind>" or
// "<kind>_<key>". Catalogue gives every system a key that no other
// (kind, key) pair can spell (see systemKeys), so two figures never share
// a file name whatever the systems are called.
type FigureID struct {
	Kind   Kind
	System string // the system's key ([a-z0-9_]); "" for a figure of all systems
}

// String returns the id's file stem: "<kind>" or "<kind>_<system key>".
func (id FigureID) String() string {
	if id.System == "" {
		return string(id.Kind)
	}
	return string(id.Kind) + "_" + id.System
}

// Valid reports whether the id names a known kind and its system key uses
// only [a-z0-9_], neither starting nor ending with '_'.
func (id FigureID) Valid() bool {
	if !slices.Contains(Kinds, id.Kind) {
		return false
	}
	if id.System == "" {
		return true
	}
	s := id.System
	if s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Kind is the kind of a figure: every figure of one kind has the same
// layout (one per system, or one for all systems).
type Kind string

// The kinds of figure, in catalogue order. Kinds holds them all.
const (
	KindROC                    Kind = "roc"
	KindROCOverlay             Kind = "roc_overlay"
	KindPR                     Kind = "pr"
	KindPROverlay              Kind = "pr_overlay"
	KindReliability            Kind = "reliability"
	KindDecision               Kind = "decision_curve"
	KindCriteriaAUROC          Kind = "criteria_auroc"
	KindCriteriaRanking        Kind = "criteria_ranking"
	KindDynKHist               Kind = "dynk_hist"
	KindDynKHistState          Kind = "dynk_hist_state"
	KindDynKHistEvid           Kind = "dynk_hist_evidence"
	KindRecallAtK              Kind = "recall_at_k"
	KindPrecisionAtK           Kind = "precision_at_k"
	KindDifficulty             Kind = "difficulty"
	KindGammaSweep             Kind = "gamma_sweep"
	KindGateGridSensitivity    Kind = "gate_grid_screen_sensitivity"
	KindGateGridAlertPrecision Kind = "gate_grid_alert_precision"
	KindGateGridWorkload       Kind = "gate_grid_workload"
	KindPerQueryHeatmap        Kind = "per_query_heatmap"
	KindSystems                Kind = "systems"
)

// KindGateGrid is the family of the three threshold-grid kinds (see
// Family); no figure has it as its own kind.
const KindGateGrid Kind = "gate_grid"

// Kinds lists every kind a figure can have, in catalogue order.
var Kinds = []Kind{
	KindROC, KindROCOverlay, KindPR, KindPROverlay, KindReliability, KindDecision,
	KindCriteriaAUROC, KindCriteriaRanking, KindDynKHist, KindDynKHistState, KindDynKHistEvid,
	KindRecallAtK, KindPrecisionAtK, KindDifficulty, KindGammaSweep,
	KindGateGridSensitivity, KindGateGridAlertPrecision, KindGateGridWorkload,
	KindPerQueryHeatmap, KindSystems, KindROCPair,
}

// Family is the group a kind is drawn and shown with: KindGateGrid for the
// three threshold grids (one layout, one report section), else the kind.
func (k Kind) Family() Kind {
	switch k {
	case KindGateGridSensitivity, KindGateGridAlertPrecision, KindGateGridWorkload:
		return KindGateGrid
	}
	return k
}

// kindTails are the words that follow "<kind>_" in another kind's name
// ("overlay" after "roc_", "state" after "dynk_hist_"): a system key that
// is one of them, or starts with one and '_', could spell another figure's
// id, so systemKeys never hands one out.
var kindTails = func() []string {
	var out []string
	for _, a := range Kinds {
		for _, b := range Kinds {
			if tail, ok := strings.CutPrefix(string(b), string(a)+"_"); ok && !slices.Contains(out, tail) {
				out = append(out, tail)
			}
		}
	}
	return out
}()

// Layout arranges the panels of a figure.
type Layout int

const (
	// Single is one panel (the title above it).
	Single Layout = iota
	// Row is panels side by side with aligned data areas, under one title.
	Row
	// Stack is panels one above the other sharing the x axis, with
	// heights in the proportions of Spec.Weights; the title is the top
	// panel's.
	Stack
)

// Spec is one figure: everything both backends need to draw it.
type Spec struct {
	ID       FigureID
	Kind     Kind   // ID.Kind
	System   string // the system shown, by name ("" for a figure of all systems)
	Title    string // plain text; backends escape it
	Subtitle string // one line of caption: the numbers a reader needs beside the figure, true in every medium (page, PDF, paper)
	// Hint says what only the interactive chart of report.html does
	// ("hover a bar for its exact K and count"); the page shows it with
	// that chart, never under a static or printed figure.
	Hint  string
	Alt   string // one-sentence text alternative (accessibility)
	Notes []string

	Layout  Layout
	Weights []float64 // Stack: relative panel heights
	Panels  []Panel
	Legend  []LegendEntry // in reading order; empty: no legend
	Scale   *ColorScale   // heat maps: the colour scale all panels share
}

// Panel is one plotting area with its axes and elements, drawn in order
// (later elements on top).
type Panel struct {
	Title    string
	X, Y     Axis
	Elements []Element
}

// Axis describes one axis of a panel.
type Axis struct {
	Label string
	// Min and Max fix the range when Fixed; otherwise the backend fits the
	// data.
	Min, Max float64
	Fixed    bool
	Log      bool // log10 scale (data > 0)
	// Step asks for ticks every Step from Min (Fixed ranges only); Ticks,
	// when set, are the ticks (an empty label: an unlabelled tick).
	Step  float64
	Ticks []Tick
	// Categories name the positions 0, 1, ... of a nominal axis.
	Categories []string
	// IndexTicks marks a long nominal axis by position (1, 2, 5, 10, ...)
	// instead of naming every category.
	IndexTicks bool
	// HideTickLabels keeps the ticks but not their labels (an axis shared
	// with the panel beside).
	HideTickLabels bool
}

// Tick is one axis tick.
type Tick struct {
	Value float64
	Label string
}

// Role is what a drawn element stands for; each backend maps a role to its
// colour, width, dashes and marker.
type Role int

const (
	// Primary is the figure's own data (first palette colour).
	Primary Role = iota
	// Series is one of several comparable series (palette colour,
	// dash pattern and marker shape of Style.Series).
	Series
	// Total is the all-population series among strata (black, thick).
	Total
	// Fold is a faint per-fold line.
	Fold
	// Confidence is a confidence band (the primary colour, translucent).
	Confidence
	// Diagonal is a chance line or perfect calibration (thin, grey, dashed).
	Diagonal
	// Reference is a level to beat: the positive rate, treat-all (grey, dashed).
	Reference
	// Zero is the zero line (treat-none).
	Zero
	// Summary is the all-criteria value among per-criterion bars (second
	// palette colour, dashed).
	Summary
	// Operating is a marked operating point (black; shape Style.Series).
	Operating
	// Chosen marks the chosen thresholds on a heat map (a ring).
	Chosen
	// Count is a bar of counts beneath another panel (light grey).
	Count
	// Whisker is the confidence interval of a bar (black, thin).
	Whisker
	// NA is an "n/a" tag (grey text).
	NA
	// Undefined is the grey of an undefined heat-map cell (legend swatch).
	Undefined
	// Blank is the white of a cell that is not evaluated (legend swatch).
	Blank
)

// Style is the look of an element as a role, with hints.
type Style struct {
	Role    Role
	Series  int     // palette slot, dash pattern and marker shape (Okabe-Ito order)
	Width   float64 // line width in points; 0: the role's default
	Size    float64 // marker radius in points; 0: the role's default
	Opacity float64 // fill (or marker) opacity; 0: opaque
	Outline bool    // bars: a thin black outline
}

// Element is one drawn thing of a panel: *Line, *Band, *Points, *Bars,
// *Histogram, *Counts, *HeatMap, *Scatter or *Text.
type Element interface{ element() }

// XY is a point of a line.
type XY struct{ X, Y float64 }

// Line is a polyline in runs of defined points: a gap in the data is a gap
// between Segments.
type Line struct {
	Name     string // series name (interactive legend, tooltip)
	Style    Style
	Segments [][]XY
	Tips     [][]Tip // optional, aligned with Segments: the tooltip of each point
	Steps    bool    // drawn as steps: to the next x at the same y, then up or down
}

// Band is a confidence band over a grid, in runs where both bounds are
// defined.
type Band struct {
	Name  string
	Style Style
	Runs  []BandRun
}

// BandRun is one run of a band: at each X the interval [Lo, Hi].
type BandRun struct{ X, Lo, Hi []float64 }

// Interval is a whisker [Lo, Hi] along the value axis.
type Interval struct{ Lo, Hi float64 }

// Point is a marked point.
type Point struct {
	X, Y float64
	Err  *Interval // whisker along the value axis (Y, or X when Horizontal)
	Tag  string    // short text written beside the point
	Tip  Tip       // tooltip
}

// Points are markers, with optional whiskers and tags.
type Points struct {
	Name       string
	ErrName    string // series name of the whiskers
	Style      Style
	Points     []Point
	Horizontal bool // values along X, categories along Y
}

// Bar is one bar of a categorical bar chart: the category's position on
// the x axis, the value and its interval.
type Bar struct {
	Cat   int
	Value float64
	Err   *Interval
	Tip   Tip
}

// Bars is one series of a bar chart; several Bars in a panel are grouped
// side by side at each category. Undefined values have no Bar.
type Bars struct {
	Name  string
	Style Style
	Bars  []Bar
}

// Histogram is the counts of a discrete variable (the selected K); several
// Histograms in a panel are grouped side by side at each K.
type Histogram struct {
	Name  string
	Style Style
	K     []int
	Count []int
	Tips  []Tip // the exact K and count of each bar
}

// CountBin is a bar of counts over an interval of a continuous axis.
type CountBin struct {
	Lo, Hi float64
	Count  int
	Tip    Tip
}

// Counts are bars of counts over bins (the queries per reliability bin);
// empty bins have no bar.
type Counts struct {
	Name  string
	Style Style
	Bins  []CountBin
}

// Cell is one heat-map cell; an undefined cell is grey, a cell that is not
// in the list is blank.
type Cell struct {
	Col, Row  int
	Value     float64 // meaningful when !Undefined
	Undefined bool
	Tip       Tip
}

// HeatMap is a grid of coloured cells with the colour scale of its Spec.
type HeatMap struct {
	Name       string
	Cols, Rows []string  // labels
	ColAt      []float64 // optional: the numeric centre of each column (else its index)
	RowAt      []float64
	Cells      []Cell
	Decimals   int // of the values in tooltips
}

// Weighted is a point standing for N observations.
type Weighted struct {
	X, Y float64
	N    int
	Tip  Tip
}

// Scatter is a cloud of light points; a point standing for N observations
// is drawn as dark as N overplotted ones.
type Scatter struct {
	Name   string
	Style  Style
	Alpha  float64 // opacity of one observation
	Points []Weighted
}

// Anchor places a text relative to its point.
type Anchor int

const (
	// Above centres the text above the point (a tag at the foot of a bar).
	Above Anchor = iota
	// Right starts the text at the point, centred vertically.
	Right
)

// Text writes short texts at data positions (the "n/a" of an undefined
// bar).
type Text struct {
	Style  Style
	Anchor Anchor
	At     []XY
	Texts  []string
}

func (*Line) element()      {}
func (*Band) element()      {}
func (*Points) element()    {}
func (*Bars) element()      {}
func (*Histogram) element() {}
func (*Counts) element()    {}
func (*HeatMap) element()   {}
func (*Scatter) element()   {}
func (*Text) element()      {}

// Mark is the kind of swatch of a legend entry.
type Mark int

const (
	MarkLine   Mark = iota // a line in the style
	MarkMarker             // a marker in the style
	MarkFill               // a filled box in the style's colour
	MarkBar                // a bar in the style
)

// Key is one swatch of a legend entry.
type Key struct {
	Mark  Mark
	Style Style
}

// LegendEntry is one legend line: swatches and text (which may hold a
// line break). An entry without keys is a note.
type LegendEntry struct {
	Keys []Key
	Text string
}

// legendLine is the longest line of a legend text, in runes, that a
// figure draws whole (figures/plot cuts a longer one with "…"): a longer
// text of ours breaks into two lines instead.
const legendLine = 40

// ColorScale is the continuous colour scale (viridis) of a heat map.
type ColorScale struct {
	Min, Max float64
	Label    string
	Step     float64 // ticks every Step from Min; 0: automatic
}

// MissingFigure is a figure of the catalogue that the report has no data
// for, and why.
type MissingFigure struct {
	ID     FigureID
	Title  string
	Reason string
}
