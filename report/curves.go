package report

import "paperbundle/config"

// Curves holds the data behind every figure, per system.
type Curves struct {
	ROC         []ROCCurve      `json:"roc"`
	PR          []PRCurve       `json:"pr"`
	Reliability []Reliability   `json:"reliability"`
	DynKHist    []Histogram     `json:"dynk_hist"`
	GammaSweep  []SweepPoint    `json:"gamma_sweep"`
	GateGrid    []GridCell      `json:"threshold_grid"`
	Decision    []DecisionCurve `json:"decision_curve"`
	RankAtK     []RankAtKPoint  `json:"rank_at_k"`
}

// ROCCurve is one system's ROC: the full-sample step curve, its values on
// the fixed FPR grid with the bootstrap band, and one grid curve per fold.
type ROCCurve struct {
	System     string  `json:"system"`
	FPR        []Num   `json:"fpr"`
	TPR        []Num   `json:"tpr"`
	Thresholds []Num   `json:"thresholds"` // null for the (0,0) start (threshold +Inf)
	Grid       []Num   `json:"grid"`
	GridTPR    []Num   `json:"grid_tpr"`
	BandLow    []Num   `json:"band_low"`
	BandHigh   []Num   `json:"band_high"`
	Folds      [][]Num `json:"folds"` // TPR on Grid, one per fold
	AUROC      Num     `json:"auroc"`
	// Operating points: the held-out TPR/FPR of each FPR budget.
	Points []OpPoint `json:"operating_points"`
}

// OpPoint is a marked operating point.
type OpPoint struct {
	Label string `json:"label"`
	FPR   Num    `json:"fpr"`
	TPR   Num    `json:"tpr"`
}

// PRCurve is one system's precision-recall curve with its band.
type PRCurve struct {
	System        string  `json:"system"`
	Recall        []Num   `json:"recall"`
	Precision     []Num   `json:"precision"`
	Thresholds    []Num   `json:"thresholds"`
	Grid          []Num   `json:"grid"`
	GridPrecision []Num   `json:"grid_precision"`
	BandLow       []Num   `json:"band_low"`
	BandHigh      []Num   `json:"band_high"`
	Folds         [][]Num `json:"folds"`
	PositiveRate  Num     `json:"positive_rate"`
	AP            Num     `json:"ap"`
}

// Reliability is one system's reliability diagram.
type Reliability struct {
	System   string          `json:"system"`
	Strategy config.Strategy `json:"strategy"`
	Bins     []Bin           `json:"bins"`
}

// Bin is one reliability bin.
type Bin struct {
	Lo       Num `json:"lo"`
	Hi       Num `json:"hi"`
	Count    int `json:"count"`
	MeanP    Num `json:"mean_p"`
	ObsFreq  Num `json:"observed"`
	WilsonLo Num `json:"wilson_low"`
	WilsonHi Num `json:"wilson_high"`
}

// Histogram is a distribution of selected K in one group.
type Histogram struct {
	System string `json:"system"`
	Group  string `json:"group"` // "all", "state=POS", "has_evidence=1", ...
	K      []int  `json:"k"`
	Count  []int  `json:"count"`
}

// SweepPoint is one gamma of the Dynamic-K sweep.
type SweepPoint struct {
	System            string `json:"system"`
	Gamma             Num    `json:"gamma"`
	MeanK             Num    `json:"mean_k"`
	EvidenceRecall    Num    `json:"evidence_recall"`
	EvidencePrecision Num    `json:"evidence_precision"`
	WorkloadPer1000   Num    `json:"workload_per_1000"`
}

// GridCell is one (tau_neg, tau_pos) cell of the clinical threshold grid.
type GridCell struct {
	System            string `json:"system"`
	On                string `json:"on"` // "tune" or "eval"
	TauNeg            Num    `json:"tau_neg"`
	TauPos            Num    `json:"tau_pos"`
	ScreenSensitivity Num    `json:"screen_sensitivity"`
	AlertPrecision    Num    `json:"alert_precision"`
	WorkloadPer1000   Num    `json:"workload_per_1000"`
}

// DecisionCurve is net benefit over threshold probabilities.
type DecisionCurve struct {
	System    string `json:"system"`
	Threshold []Num  `json:"threshold"`
	Model     []Num  `json:"net_benefit"`
	TreatAll  []Num  `json:"treat_all"`
}

// RankAtKPoint is recall and precision at one cutoff in one stratum.
type RankAtKPoint struct {
	System    string `json:"system"`
	Stratum   string `json:"stratum"`
	K         int    `json:"k"`
	Recall    Num    `json:"recall"`
	Precision Num    `json:"precision"`
}
