package metrics

// Loader of the reference values in testdata/clf_reference.json (written by
// testdata/clf_gen_reference.py with scikit-learn and scipy) and
// testdata/clf_reference_r.json (written by testdata/clf_gen_reference_r.R
// with R's glm, pROC and prop.test).

import (
	"encoding/json"
	"math"
	"os"
	"sync"
	"testing"
)

// clfFloat is a float64 read from the reference JSON, where null means NaN
// and the strings "+Inf" and "-Inf" mean infinities.
type clfFloat float64

func (f *clfFloat) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		*f = clfFloat(math.NaN())
	case `"+Inf"`:
		*f = clfFloat(math.Inf(1))
	case `"-Inf"`:
		*f = clfFloat(math.Inf(-1))
	default:
		return json.Unmarshal(b, (*float64)(f))
	}
	return nil
}

type clfRefCase struct {
	Name  string
	Y     []int
	P     []float64
	AUROC clfFloat
	AP    clfFloat
	ROC   struct{ FPR, TPR, Thresholds []clfFloat }
	PR    struct{ Precision, Recall, Thresholds []clfFloat }

	TPRAtFPR []struct{ Target, TPR, FPR, Threshold clfFloat } `json:"tpr_at_fpr"`

	Confusion []struct {
		Threshold                                                   clfFloat
		TP, TN, FP, FN                                              int
		Sensitivity, Specificity, FPR, FNR, Precision, NPV, F1, MCC clfFloat
		BalancedAccuracy                                            clfFloat `json:"balanced_accuracy"`
		Accuracy                                                    clfFloat
	}

	Brier clfFloat
	ECE   []struct {
		Bins         int
		ECE          clfFloat
		ECEEqualMass clfFloat `json:"ece_equal_mass"`
	}
	Reliability []struct {
		Bins     int
		Strategy string
		Bin      []struct {
			Lo, Hi   clfFloat
			Count    int
			MeanP    clfFloat `json:"mean_p"`
			ObsFreq  clfFloat `json:"obs_freq"`
			WilsonLo clfFloat `json:"wilson_lo"`
			WilsonHi clfFloat `json:"wilson_hi"`
		}
	}
	CalibrationFit struct{ Intercept, Slope clfFloat } `json:"calibration_fit"`
	Spiegelhalter  struct{ Z, PValue clfFloat }
	NetBenefit     struct {
		Thresholds []float64
		Model      []clfFloat
		TreatAll   []clfFloat `json:"treat_all"`
	} `json:"net_benefit"`

	FPRThreshold []struct {
		Budget, Threshold clfFloat
		OK                bool
	} `json:"fpr_threshold"`
	ScreenThreshold []struct {
		MinSensitivity clfFloat `json:"min_sensitivity"`
		Threshold      clfFloat
		OK             bool
	} `json:"screen_threshold"`
	AlertThreshold []struct {
		TauNeg       clfFloat `json:"tau_neg"`
		MinPrecision clfFloat `json:"min_precision"`
		Threshold    clfFloat
		OK           bool
	} `json:"alert_threshold"`
}

// labels returns the case's labels as booleans.
func (c *clfRefCase) labels() []bool {
	y := make([]bool, len(c.Y))
	for i, v := range c.Y {
		y[i] = v == 1
	}
	return y
}

type clfRefFile struct {
	Sklearn string
	Z95     float64
	Cases   []clfRefCase
	Wilson  []struct {
		Successes, N int
		Z            float64
		Lo, Hi       clfFloat
	}
}

type clfRefRFile struct {
	Cases []struct {
		Name                    string
		AUROC, Intercept, Slope clfFloat
	}
	Wilson []struct {
		Successes, N int
		Lo, Hi       float64
	}
}

var clfRefOnce = sync.OnceValues(func() (*clfRefFile, error) {
	var f clfRefFile
	return &f, clfReadJSON("testdata/clf_reference.json", &f)
})

var clfRefROnce = sync.OnceValues(func() (*clfRefRFile, error) {
	var f clfRefRFile
	return &f, clfReadJSON("testdata/clf_reference_r.json", &f)
})

func clfReadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// clfRef returns the scikit-learn reference file.
func clfRef(t testing.TB) *clfRefFile {
	t.Helper()
	f, err := clfRefOnce()
	if err != nil {
		t.Fatalf("reading reference: %v", err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("reference has no cases")
	}
	return f
}

// clfRefR returns the R reference file.
func clfRefR(t testing.TB) *clfRefRFile {
	t.Helper()
	f, err := clfRefROnce()
	if err != nil {
		t.Fatalf("reading R reference: %v", err)
	}
	return f
}

// clfSame reports whether got equals want within the absolute tolerance
// tol, NaN matching NaN and infinities matching exactly.
func clfSame(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol
}

// clfCheckSlice reports a mismatch between got and want element by element.
func clfCheckSlice(t *testing.T, what string, got []float64, want []clfFloat, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: len %d, want %d", what, len(got), len(want))
		return
	}
	for i := range got {
		if !clfSame(got[i], float64(want[i]), tol) {
			t.Errorf("%s[%d] = %v, want %v", what, i, got[i], float64(want[i]))
		}
	}
}
