package config

import (
	"bytes"
	"math"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML returns the configuration as the bundle records it in config.yaml:
// every key written explicitly, in the order of SPEC 2.3, lists and small
// mappings in flow style. The bytes depend only on c, and Parse reads them
// back to a Config equal to c (Dir and File aside) when c is valid.
func (c *Config) YAML() ([]byte, error) {
	systems := seq(false)
	for _, s := range c.Systems {
		systems.Content = append(systems.Content, mapping(true,
			"name", str(s.Name),
			"label", str(s.Label),
			"input", str(s.Input),
			"format", str(s.Format),
			"ne_probs", str(s.NEProbs),
		))
	}
	cutoffs := seq(true)
	for _, k := range c.Cutoffs {
		cutoffs.Content = append(cutoffs.Content, integer(int64(k)))
	}
	b, k, ct := c.Bootstrap, c.DynamicK, c.Contract
	root := mapping(false,
		"title", str(c.Title),
		"version", str(c.Version),
		"out", str(c.Out),
		"seed", scalar("!!int", strconv.FormatUint(c.Seed, 10)),
		"qrels", str(c.Qrels),
		"queries", str(c.Queries),
		"systems", systems,
		"primary", str(c.Primary),
		"comparisons", str(c.Comparisons),
		"reference_system", str(c.ReferenceSystem),
		"significance", mapping(true,
			"alpha", float(c.Significance.Alpha),
			"correction", str(c.Significance.Correction)),
		"cutoffs", cutoffs,
		"fpr_targets", floats(c.FPRTargets),
		"operating_points", floats(c.OperatingPoints),
		"bootstrap", mapping(true,
			"resamples", integer(int64(b.Resamples)),
			"unit", str(b.Unit),
			"method", str(b.Method),
			"confidence", float(b.Confidence)),
		"calibration", mapping(true,
			"bins", integer(int64(c.Calibration.Bins)),
			"strategy", str(c.Calibration.Strategy)),
		"gate", mapping(true,
			"screen_sensitivity", float(c.Gate.ScreenSensitivity),
			"alert_precision", float(c.Gate.AlertPrecision)),
		"dynamic_k", mapping(true,
			"k_min", integer(int64(k.KMin)),
			"hard_cap", integer(int64(k.HardCap)),
			"k_max_ratio", float(k.KMaxRatio),
			"gamma", float(k.Gamma),
			"gamma_uncertain", float(k.GammaUncertain),
			"sweep", floats(k.Sweep)),
		"strata", c.Strata.node(),
		"contract", mapping(true,
			"map_denominator", str(ct.MAPDenominator),
			"fold_std", str(ct.FoldStd),
			"undefined_auroc", str(ct.UndefinedAUROC),
			"ndcg_gain", str(ct.NDCGGain)),
		"targets", c.Targets.node(),
		"bundle", mapping(true, "copy_inputs", scalar("!!bool", strconv.FormatBool(c.Bundle.CopyInputs))),
		"paper", c.Paper.node(),
	)
	if c.HasTREC() {
		// The trec: key is written only when it applies, so that the
		// config.yaml of other inputs keeps its bytes; it goes before
		// targets, as SPEC 2.3 orders the keys.
		trec := mapping(true,
			"relevance_level", integer(int64(c.TREC.RelevanceLevel)),
			"no_relevant", str(c.TREC.NoRelevant),
			"missing_run", str(c.TREC.MissingRun))
		for i := 0; i < len(root.Content); i += 2 {
			if root.Content[i].Value == "targets" {
				root.Content = append(root.Content[:i], append([]*yaml.Node{str("trec"), trec}, root.Content[i:]...)...)
				break
			}
		}
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root},
		HeadComment: "# Resolved paperbundle configuration: every key explicit (docs/configuration.md)."}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// node writes the paper: key; the three lengths only with venue custom
// (a named venue takes them from its class).
func (p Paper) node() *yaml.Node {
	n := mapping(true,
		"venue", str(p.Venue),
		"font_size", float(p.FontSize),
		"uncertainty", str(p.Uncertainty),
		"decimals", integer(int64(p.Decimals)))
	if p.Venue == VenueCustom {
		n.Content = append(n.Content,
			str("column_width"), float(p.ColumnWidth),
			str("text_width"), float(p.TextWidth),
			str("body_size"), float(p.BodySize))
	}
	return n
}

// MarshalYAML writes s as Parse reads it: auto, or a list of [lo, hi] bands
// with null for an open upper bound.
func (s Strata) MarshalYAML() (any, error) { return s.node(), nil }

// MarshalYAML writes t as Parse reads it: default, none, or a mapping of
// metric id to {min, max}, sorted by id.
func (t Targets) MarshalYAML() (any, error) { return t.node(), nil }

func (s Strata) node() *yaml.Node {
	if s.Auto {
		return str("auto")
	}
	n := seq(false)
	for _, b := range s.Bands {
		hi := scalar("!!null", "null")
		if !b.Open() {
			hi = integer(int64(b.Hi))
		}
		band := seq(true)
		band.Content = []*yaml.Node{integer(int64(b.Lo)), hi}
		n.Content = append(n.Content, band)
	}
	return n
}

func (t Targets) node() *yaml.Node {
	if t.Default {
		return str("contract")
	}
	if len(t.Bounds) == 0 {
		return str("none")
	}
	ids := make([]string, 0, len(t.Bounds))
	for id := range t.Bounds {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	n := mapping(false)
	for _, id := range ids {
		tg := t.Bounds[id]
		b := mapping(true)
		if tg.Min != nil {
			b.Content = append(b.Content, str("min"), float(*tg.Min))
		}
		if tg.Max != nil {
			b.Content = append(b.Content, str("max"), float(*tg.Max))
		}
		n.Content = append(n.Content, str(id), b)
	}
	return n
}

func scalar(tag, v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}
}

// str is a string scalar; the encoder quotes it when it would read back as
// anything else (a number, a boolean, null).
func str(s string) *yaml.Node { return scalar("!!str", s) }

func integer(x int64) *yaml.Node { return scalar("!!int", strconv.FormatInt(x, 10)) }

// float writes x with the fewest digits that read back to x, always in a
// form YAML resolves as a float (1 becomes 1.0).
func float(x float64) *yaml.Node {
	switch {
	case math.IsNaN(x):
		return scalar("!!float", ".nan")
	case math.IsInf(x, 1):
		return scalar("!!float", ".inf")
	case math.IsInf(x, -1):
		return scalar("!!float", "-.inf")
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") { // 1.5 and 1e-07 read back as floats
		s += ".0"
	}
	return scalar("!!float", s)
}

func floats(xs []float64) *yaml.Node {
	n := seq(true)
	for _, x := range xs {
		n.Content = append(n.Content, float(x))
	}
	return n
}

func seq(flow bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	return n
}

// mapping builds a mapping from alternating key names and value nodes.
func mapping(flow bool, kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if flow {
		n.Style = yaml.FlowStyle
	}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}
