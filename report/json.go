package report

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// JSON returns metrics_master.json: the Report as JSON (docs/bundle.md);
// Decode reads it back.
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
// does not carry is the per-query rows (per_query_metrics.csv). It also
// reads schema_version 1 (an earlier version of a bundle, for diff and the
// changes since it): its sections become the capabilities, its comparisons
// are left out.
func Decode(data []byte) (*Report, error) {
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("report: metrics_master.json: %w", err)
	}
	switch r.SchemaVersion {
	case SchemaVersion:
	case 1:
		// A bundle written before the capabilities: its sections become
		// them, and its comparisons (another shape, one Holm family for
		// the whole bundle) are not read.
		var old struct {
			Sections []Section `json:"sections"`
		}
		if err := json.Unmarshal(data, &old); err != nil {
			return nil, fmt.Errorf("report: metrics_master.json: %w", err)
		}
		r.Capabilities = Capabilities{Present: []Capability{}, Absent: []AbsentCapability{}}
		for _, s := range old.Sections {
			r.Capabilities.record(Capability(s.ID), s.Present, s.Reason)
		}
		r.Comparisons = []Comparison{}
	default:
		return nil, fmt.Errorf("report: metrics_master.json: schema_version %d, this tool reads %d (and 1)", r.SchemaVersion, SchemaVersion)
	}
	r.recorded = recordedSettings(data)
	r.Reindex()
	return &r, nil
}

// recordedSettings lists the settings keys a metrics_master.json holds,
// as dotted json names ("significance.alpha"): an older schema lacks
// some, which are then not recorded rather than zero.
func recordedSettings(data []byte) map[string]bool {
	var top struct {
		Settings map[string]any `json:"settings"`
	}
	out := map[string]bool{}
	if json.Unmarshal(data, &top) != nil {
		return out
	}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := prefix + k
			out[key] = true
			if sub, ok := v.(map[string]any); ok {
				walk(key+".", sub)
			}
		}
	}
	walk("", top.Settings)
	return out
}

// SettingRecorded reports whether a settings key (dotted json names, as
// "significance.alpha") was recorded: always for a report this tool
// computed, and for a decoded one when its metrics_master.json held it.
func (r *Report) SettingRecorded(key string) bool {
	return r.recorded == nil || r.recorded[key]
}

// metricNoFolds is Metric as metrics_master.json writes it when the
// report has a single fold (the Folds capability is absent, Metric.Folds is
// nil): without folds, fold_mean and fold_std. Its own fields, always nil
// and left out, hide the embedded ones of the same names (encoding/json
// takes the shallower field), and the others keep Metric's order.
type metricNoFolds struct {
	metricAlias
	Folds    *struct{} `json:"folds,omitempty"`
	FoldMean *struct{} `json:"fold_mean,omitempty"`
	FoldStd  *struct{} `json:"fold_std,omitempty"`
}

// metricAlias is Metric without its methods.
type metricAlias Metric

// MarshalJSON writes m, without its fold fields when Folds is nil.
func (m Metric) MarshalJSON() ([]byte, error) {
	var v any = metricAlias(m)
	if m.Folds == nil {
		v = metricNoFolds{metricAlias: metricAlias(m)}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ShownN is the n a reader should see beside m's value: the denominator
// of a ratio of counts, else the population size.
func (m Metric) ShownN() int {
	if m.Denominator != nil {
		return *m.Denominator
	}
	return m.N
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
