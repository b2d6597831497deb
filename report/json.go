package report

import (
	"bytes"
	"encoding/json"
	"fmt"
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
