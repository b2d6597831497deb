package report

import (
	"bytes"
	"encoding/json"
	"fmt"

	"paperbundle/metrics"
)

// JSON returns metrics_master.json: the Report in the shape of SPEC 7.
func (r *Report) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("report: metrics_master.json: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode reads a Report from metrics_master.json. The result renders the
// same tables and figures as the Report that was encoded; what the JSON
// does not carry is the per-query rows (per_query_metrics.csv).
func Decode(data []byte) (*Report, error) {
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("report: metrics_master.json: %w", err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("report: metrics_master.json: schema_version %d, this tool reads %d", r.SchemaVersion, SchemaVersion)
	}
	r.Reindex()
	return &r, nil
}

// metricNoFolds is Metric as metrics_master.json writes it when the
// report has a single fold (the Folds capability is absent, Metric.Folds is
// nil): without folds, fold_mean and fold_std.
type metricNoFolds struct {
	System     string     `json:"system"`
	ID         metrics.ID `json:"id"`
	Slice      Slice      `json:"slice"`
	Population string     `json:"population"`
	N          int        `json:"n"`
	Value      Num        `json:"value"`
	CI         *CI        `json:"ci"`
	Direction  string     `json:"direction"`
	Variant    string     `json:"variant"`
	Target     *Target    `json:"target"`
	TargetMet  *bool      `json:"target_met"`
}

// metricAlias is Metric without its methods.
type metricAlias Metric

// MarshalJSON writes m, without its fold fields when Folds is nil.
func (m Metric) MarshalJSON() ([]byte, error) {
	var v any = metricAlias(m)
	if m.Folds == nil {
		v = metricNoFolds{System: m.System, ID: m.ID, Slice: m.Slice, Population: m.Population, N: m.N, Value: m.Value,
			CI: m.CI, Direction: m.Direction, Variant: m.Variant, Target: m.Target, TargetMet: m.TargetMet}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads a Metric; absent fold fields leave Folds nil and the
// fold mean and std undefined.
func (m *Metric) UnmarshalJSON(b []byte) error {
	a := metricAlias{FoldMean: NaN, FoldStd: NaN}
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*m = Metric(a)
	return nil
}
