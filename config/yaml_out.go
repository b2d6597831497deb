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
// every key of the key table written explicitly, in the table's order,
// lists and the mappings of keys in flow style (a key whose row says when
// it is written, such as trec: or the custom paper lengths, only then).
// The bytes depend only on c, and Parse reads them back to a Config equal
// to c (Dir and File aside) when c is valid.
func (c *Config) YAML() ([]byte, error) {
	root := mapping(false)
	for _, k := range topKeys {
		if !k.writtenIn(c) {
			continue
		}
		v := k.val
		if k.Group {
			m := mapping(true)
			for _, ch := range k.children {
				if ch.writtenIn(c) {
					m.Content = append(m.Content, str(ch.name), ch.val.node(c))
				}
			}
			root.Content = append(root.Content, str(k.name), m)
			continue
		}
		root.Content = append(root.Content, str(k.name), v.node(c))
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
