package metrics

// TestKind says how two values of a metric are compared in pairs (two
// systems of one bundle, or one system in two versions of a bundle): it
// follows from what the metric's value is computed from.
type TestKind int

const (
	// TestBootstrap: a statistic the report bootstraps (thresholds from
	// tune rows, fitted curves, rank correlations, micro ratios): the p of
	// the paired bootstrap distribution of the difference. Between two
	// bundles it cannot be formed, since a bundle does not keep the
	// replicates.
	TestBootstrap TestKind = iota
	// TestMean: the mean of per-query values over the metric's
	// population; the paired sign-flip permutation test of those values.
	// Every such metric is a column of per_query_metrics.csv.
	TestMean
	// TestDeLong: the area under the ROC curve; DeLong's test for two
	// correlated ROC curves on each query's label and score.
	TestDeLong
	// TestScored: a statistic of each query's label and score (average
	// precision, calibration error, TPR at an FPR budget, a confusion
	// matrix at a fixed or held-out threshold); the paired bootstrap of
	// the difference, recomputed from both sides' labels and scores.
	TestScored
	// TestGate: a rate of the clinical gate's states and the labels; the
	// paired bootstrap of the difference, recomputed from both sides'
	// states and labels.
	TestGate
	// TestListed: a test statistic or a p-value (a difference of two
	// p-values means nothing), a threshold chosen on the data or a fitted
	// calibration parameter (the report gives them no interval): listed
	// with both values, never tested.
	TestListed
)

func (k TestKind) String() string {
	switch k {
	case TestMean:
		return "mean"
	case TestDeLong:
		return "delong"
	case TestScored:
		return "scored"
	case TestGate:
		return "gate"
	case TestListed:
		return "listed"
	}
	return "bootstrap"
}

// testKinds is the test kind of every metric that is not TestBootstrap.
var testKinds = map[Base]TestKind{
	// Means of per-query values.
	RankRecall: TestMean, RankCappedRecall: TestMean, RankPrecision: TestMean, RankHit: TestMean,
	RankNDCG: TestMean, RankMAP: TestMean, RankMRR: TestMean, RankRPrecision: TestMean,
	RankBpref: TestMean, Rank11ptAvg: TestMean, RankIPrec: TestMean, RankUnjudged: TestMean,
	RankCapKRecall: TestMean, RankPctRecall: TestMean, RankPctPrecision: TestMean,
	RankAdaptiveRecall: TestMean, RankAdaptivePrecision: TestMean,
	DynKEvidenceRecall: TestMean, DynKEvidencePrecision: TestMean,
	DynKEvidenceRecallAll: TestMean, DynKEvidencePrecisionAll: TestMean,
	DynKKMean: TestMean, DynKAvgKAll: TestMean,
	NEBrier: TestMean,

	NEAUROC: TestDeLong,

	NEAUPRC: TestScored, NEECE: TestScored, NEECEEqualMass: TestScored, NETPR: TestScored,
	NETP: TestScored, NETN: TestScored, NEFP: TestScored, NEFN: TestScored,
	NESensitivity: TestScored, NESpecificity: TestScored, NEFPR: TestScored, NEPrecision: TestScored,
	NENPV: TestScored, NEF1: TestScored, NEMCC: TestScored, NEBalancedAccuracy: TestScored,
	NEHeldoutTP: TestScored, NEHeldoutTN: TestScored, NEHeldoutFP: TestScored, NEHeldoutFN: TestScored,
	NEHeldoutTPR: TestScored, NEHeldoutSpecificity: TestScored, NEHeldoutFPR: TestScored,
	NEHeldoutPrecision: TestScored, NEHeldoutNPV: TestScored, NEHeldoutF1: TestScored,
	NEHeldoutMCC: TestScored, NEHeldoutBalancedAccuracy: TestScored,

	ClinicalScreenSensitivity: TestGate, ClinicalAlertPrecision: TestGate, ClinicalNegRate: TestGate,
	ClinicalUncertainRate: TestGate, ClinicalPosRate: TestGate, ClinicalAlertRatePer1000: TestGate,
	ClinicalScreenFNPer1000: TestGate,

	RankSpearmanDifficultyP: TestListed, NESpiegelhalterZ: TestListed, NESpiegelhalterP: TestListed,
	NETPRThreshold: TestListed, NECalibrationIntercept: TestListed, NECalibrationSlope: TestListed,
}

// ListedAs says what a listed metric (TestListed) is, for the reader: a
// test statistic, a threshold or a fitted calibration parameter.
func ListedAs(b Base) string {
	switch b {
	case NETPRThreshold:
		return "a threshold chosen on the data"
	case NECalibrationIntercept, NECalibrationSlope:
		return "a fitted calibration parameter"
	}
	return "a test statistic"
}

// Test returns how the metric is compared in pairs.
func (d Def) Test() TestKind { return testKinds[d.Base] }

// TestOf returns the test kind of metric id (TestBootstrap for an id the
// registry does not know).
func TestOf(id ID) TestKind { return testKinds[id.Base()] }
