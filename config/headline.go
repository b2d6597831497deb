package config

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"paperbundle/metrics"
)

// wantHeadline is the expectation of the headline: key.
const wantHeadline = "a list of metric ids such as [rank.map, rank.ndcg@10]"

// headlineVal is headline:, a list of metric ids that replaces the
// headline set of the kind of input (results matrix, SUMMARY.md, cards,
// paper/results.tex, order of changes). Unknown ids are errors here; ids
// the inputs do not support are errors of the build, which knows them.
type headlineVal struct{}

func (headlineVal) setDefault(c *Config) { c.Headline = nil }

func (headlineVal) node(c *Config) *yaml.Node {
	n := seq(true)
	for _, id := range c.Headline {
		n.Content = append(n.Content, str(string(id)))
	}
	return n
}

func (headlineVal) text(c *Config) string {
	s := make([]string, len(c.Headline))
	for i, id := range c.Headline {
		s[i] = string(id)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func (headlineVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	var ids []metrics.ID
	seen := map[metrics.ID]bool{}
	d.list(path, n, want, func(_ int, p string, e *yaml.Node) {
		s, ok := d.scalarString(p, e, "a metric id such as rank.map")
		if !ok {
			return
		}
		id := metrics.ID(strings.TrimSpace(s))
		switch _, known := metrics.Lookup(id); {
		case !known:
			d.errorAt(e, p, "unknown metric id %q, expected an id of docs/metrics.md such as rank.map or rank.ndcg@10", clipText(s))
		case seen[id]:
			d.errorAt(e, p, "metric id %q is listed twice, expected each id once", clipText(s))
		default:
			seen[id] = true
			ids = append(ids, id)
		}
	})
	if !d.bad[path] && len(ids) == len(n.Content) {
		c.Headline = ids
	}
}

func (headlineVal) check(*decoder, *Config, string, string) {}

// clipText shortens a user's text for a message.
func clipText(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
