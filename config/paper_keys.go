package config

import (
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"paperbundle/metrics"
)

// Composition is what a paper table shows (paper.results,
// paper.ranking_systems): the metric columns in order (nil: the table's
// default set), the systems in order (nil: every system), whether the
// random and oracle baselines get rows, and headers that replace a
// metric's name in the table.
type Composition struct {
	Metrics   []string
	Systems   []string
	Baselines bool
	Headers   map[string]string
}

// IsDefault reports whether c is the default composition.
func (c Composition) IsDefault() bool {
	return len(c.Metrics) == 0 && len(c.Systems) == 0 && !c.Baselines && len(c.Headers) == 0
}

const (
	wantComposition = "a mapping with metrics (a list of metric ids), systems (a list of system names), baselines (true or false) and headers (metric id: text)"
	wantCaptions    = "a mapping of table or figure id (results, roc_overlay, ...) to caption text"
	wantCaptionID   = "a table or figure id: lower-case letters, digits and _"
)

// compositionVal reads a Composition.
type compositionVal struct {
	get func(*Config) *Composition
}

func (v compositionVal) setDefault(c *Config)  { *v.get(c) = Composition{} }
func (v compositionVal) text(c *Config) string { return "" }

func (v compositionVal) node(c *Config) *yaml.Node {
	x := v.get(c)
	n := mapping(true)
	if len(x.Metrics) > 0 {
		n.Content = append(n.Content, str("metrics"), strs(x.Metrics))
	}
	if len(x.Systems) > 0 {
		n.Content = append(n.Content, str("systems"), strs(x.Systems))
	}
	n.Content = append(n.Content, str("baselines"), scalar("!!bool", boolText(x.Baselines)))
	if len(x.Headers) > 0 {
		n.Content = append(n.Content, str("headers"), textMap(x.Headers))
	}
	return n
}

func (v compositionVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	x := Composition{}
	d.mapping(path, n, wantComposition, []field{
		{"metrics", func(p string, e *yaml.Node) {
			x.Metrics = d.textList(p, e, "a list of metric ids such as [ne.auroc, rank.ndcg@10]")
		}},
		{"systems", func(p string, e *yaml.Node) { x.Systems = d.textList(p, e, "a list of system names") }},
		{"baselines", d.boolean(&x.Baselines, "true or false")},
		{"headers", func(p string, e *yaml.Node) { x.Headers = d.textMap(p, e, "a mapping of metric id to header text") }},
	})
	*v.get(c) = x
}

// check: every metric id is in the registry, every system is one of
// systems:, every header names a metric.
func (v compositionVal) check(d *decoder, c *Config, path, _ string) {
	if d.skip(path) {
		return
	}
	x := v.get(c)
	for i, id := range x.Metrics {
		if _, ok := metrics.Lookup(metrics.ID(id)); !ok {
			d.errorf(index(path+".metrics", i), "got %q, expected a metric id of metrics_master.json such as ne.auroc or rank.ndcg@10", short(id))
		}
	}
	names := map[string]bool{}
	for _, s := range c.Systems {
		names[s.Name] = true
	}
	for i, s := range x.Systems {
		if !names[s] {
			d.errorf(index(path+".systems", i), "got %q, expected the name of one of systems:", short(s))
		}
	}
	for id, h := range x.Headers {
		if _, ok := metrics.Lookup(metrics.ID(id)); !ok {
			d.errorf(path+".headers", "got the key %q, expected a metric id such as ne.auroc", short(id))
		}
		d.text(path+".headers", h, "header text", true)
	}
}

// captionsVal reads paper.captions: table or figure id to caption text.
type captionsVal struct{}

func (captionsVal) setDefault(c *Config)      { c.Paper.Captions = nil }
func (captionsVal) text(*Config) string       { return "" }
func (captionsVal) node(c *Config) *yaml.Node { return textMap(c.Paper.Captions) }
func (captionsVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	c.Paper.Captions = d.textMap(path, n, wantCaptions)
}

func (captionsVal) check(d *decoder, c *Config, path, _ string) {
	if d.skip(path) {
		return
	}
	for id, text := range c.Paper.Captions {
		if id == "" || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			d.errorf(path, "got the key %q, expected %s", short(id), wantCaptionID)
		}
		d.text(path, text, "caption text", true)
	}
}

// textList reads a list of strings.
func (d *decoder) textList(path string, n *yaml.Node, want string) []string {
	var out []string
	d.list(path, n, want, func(_ int, p string, e *yaml.Node) {
		if s, ok := d.scalarString(p, e, want); ok {
			out = append(out, s)
		}
	})
	return out
}

// textMap reads a mapping of string to string.
func (d *decoder) textMap(path string, n *yaml.Node, want string) map[string]string {
	if n.Kind != yaml.MappingNode {
		d.typeError(path, n, want)
		return nil
	}
	out := map[string]string{}
	for _, p := range d.pairs(path, n) {
		v := resolve(p.v)
		sub := path + "[" + p.key + "]"
		d.at(sub, v)
		if s, ok := d.scalarString(sub, v, want); ok {
			out[p.key] = s
		}
	}
	return out
}

// strs is a flow list of strings.
func strs(xs []string) *yaml.Node {
	n := seq(true)
	for _, x := range xs {
		n.Content = append(n.Content, str(x))
	}
	return n
}

// textMap is a mapping of strings, sorted by key.
func textMap(m map[string]string) *yaml.Node {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := mapping(true)
	for _, k := range keys {
		n.Content = append(n.Content, str(k), str(m[k]))
	}
	return n
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// paperKeyRows are the rows of the key table for what goes into paper/
// and where it goes (after paper.decimals).
func paperKeyRows() []Key {
	return []Key{
		{Path: "paper.results", Want: wantComposition, Init: initSkip,
			Allowed: "`{metrics: [ids], systems: [names], baselines: false, headers: {id: text}}`: the columns, rows and headers of `paper/tables/results.tex` (default: the headline metrics, every system, no baseline rows)",
			Default: "*(headline metrics, every system, no baselines)*",
			written: func(c *Config) bool { return !c.Paper.Results.IsDefault() },
			val:     compositionVal{get: func(c *Config) *Composition { return &c.Paper.Results }}},
		{Path: "paper.ranking_systems", Want: wantComposition, Init: initSkip,
			Allowed: "the same for `paper/tables/ranking_systems.tex` (default: Recall, Precision, nDCG, MAP at the headline K, MRR, Hit@K; every system; no baselines)",
			Default: "*(ranking metrics at the headline K, every system, no baselines)*",
			written: func(c *Config) bool { return !c.Paper.RankingSystems.IsDefault() },
			val:     compositionVal{get: func(c *Config) *Composition { return &c.Paper.RankingSystems }}},
		{Path: "paper.captions", Want: wantCaptions, Init: initSkip,
			Allowed: "table or figure id (`results`, `ranking`, `roc_overlay`, ... as named in `paper/`) to caption text: replaces that caption in every build (plain text, escaped for LaTeX; Unicode such as γ is converted)",
			Default: "*(none)*",
			written: func(c *Config) bool { return len(c.Paper.Captions) > 0 },
			val:     captionsVal{}},
		{Path: "paper.copy_to", Want: "a folder path", Init: initSkip,
			Allowed: "a folder (relative to paper.yaml) that receives a copy of `paper/` after each build; refused when it holds files paperbundle did not write there",
			Default: "*(none)*",
			written: func(c *Config) bool { return c.Paper.CopyTo != "" },
			val:     textVal{get: func(c *Config) *string { return &c.Paper.CopyTo }, want: "a folder path"}},
	}
}
