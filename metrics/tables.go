package metrics

// TableID names a table of the bundle (tables/<id>.csv, a sheet of
// tables.xlsx, a table of report.html). Registry entries list the tables
// that show them; package tables builds the rows and columns from that.
type TableID string

const (
	TableScorecard    TableID = "scorecard"     // the headline metrics (Def.Headline), one row per system
	TableNEGate       TableID = "ne_gate"       // NE gate classification
	TableCalibration  TableID = "calibration"   // NE gate calibration
	TableRanking      TableID = "ranking"       // ranking, with the baselines
	TableDynamicK     TableID = "dynamic_k"     // Dynamic-K extraction and the gamma sweep
	TableClinical     TableID = "clinical_gate" // three-state gate and deployment
	TablePerPost      TableID = "per_post"      // per-post multi-label
	TablePerCriterion TableID = "per_criterion" // columns of the per-criterion breakdown (cutoff metrics at the headline cutoff)
	TableStrata       TableID = "strata"        // columns of the stratified analysis (every cutoff)
	TableTrecEval     TableID = "trec_eval"     // every measure of trec_eval's -m all_trec, by its trec_eval name (TREC input)
)

// Shows reports whether the metric appears in table t.
func (d Def) Shows(t TableID) bool {
	for _, x := range d.Tables {
		if x == t {
			return true
		}
	}
	return false
}

// Order returns the position of d in the registry: the order in which
// rows and columns of the tables list metrics.
func (d Def) Order() int {
	for i := range defs {
		if defs[i].Base == d.Base && defs[i].Param == d.Param {
			return i
		}
	}
	return len(defs)
}

// InTable returns the definitions shown in table t, in registry order.
func InTable(t TableID) []Def {
	var out []Def
	for _, d := range defs {
		if d.Shows(t) {
			out = append(out, d)
		}
	}
	return out
}
