package config

import "strings"

// Applies says which inputs a key is for. init writes a key only when the
// system files have what it applies to; the loader reads every key for
// every input.
type Applies uint8

// The kinds of input a key can apply to. A key with no Applies is for
// every input.
const (
	ForRanking  Applies = 1 << iota // candidate lists with scores
	ForNE                           // an ne_prob column
	ForDynamicK                     // node_probs or selected_uids
	ForTREC                         // TREC runs judged by qrels
)

// names of the Applies bits, for the docs table.
var appliesNames = []struct {
	a    Applies
	name string
}{{ForRanking, "rankings"}, {ForNE, "`ne_prob`"}, {ForDynamicK, "Dynamic-K"}, {ForTREC, "TREC runs"}}

func (a Applies) String() string {
	if a == 0 {
		return "all"
	}
	var s []string
	for _, n := range appliesNames {
		if a&n.a != 0 {
			s = append(s, n.name)
		}
	}
	return strings.Join(s, ", ")
}

// initStyle says how init's template writes a key.
type initStyle uint8

const (
	initValue       initStyle = iota // key: value, at the default
	initSkip                         // not written
	initPlaceholder                  // commented out: # key: <name>
	initCaller                       // written by init itself (title, qrels, systems)
)

// A Key is one row of the key table: one key of paper.yaml, with how it is
// read, checked, defaulted, written to config.yaml, written by init and
// documented. A mapping of keys (bootstrap) has a row of its own (Group);
// its keys are the rows whose path starts with its path and a dot.
type Key struct {
	Path    string  // dotted path: bootstrap.unit
	Group   bool    // a mapping of the keys below it
	Want    string  // what a value of the wrong type is expected to be (derived for enums and groups)
	Allowed string  // docs: the allowed values and what they mean
	Default string  // docs: the default, when it is not the default value written out
	Applies Applies // the inputs init writes the key for
	Init    initStyle
	Note    string // init: the comment after the value, with the spaces before it
	// NoteTREC replaces Note in the template for TREC runs.
	NoteTREC string
	// written says whether config.yaml writes the key (nil: always).
	written func(c *Config) bool
	val     value
	// pre runs before the value is checked (defaults that depend on
	// other keys); post runs after it, and after a group's keys (checks
	// across keys).
	pre, post func(d *decoder, c *Config)

	name     string // the last component of Path
	children []*Key // of a group, in table order
}

// Keys returns the key table: every key of paper.yaml in the order
// config.yaml writes them. The caller must not change the rows.
func Keys() []*Key { return keyTable }

// Name is the last component of the key's path (unit of bootstrap.unit).
func (k *Key) Name() string { return k.name }

func (k *Key) writtenIn(c *Config) bool { return k.written == nil || k.written(c) }

// keyTable and topKeys are built from keyRows once: topKeys are the
// top-level rows, with the rows of each group as its children.
var keyTable, topKeys = buildKeys(keyRows())

func buildKeys(rows []Key) (all, top []*Key) {
	groups := map[string]*Key{}
	for i := range rows {
		k := &rows[i]
		all = append(all, k)
		parent, name, nested := strings.Cut(k.Path, ".")
		if !nested {
			k.name = k.Path
			top = append(top, k)
		} else {
			k.name = name
			g := groups[parent]
			if g == nil {
				panic("config: key " + k.Path + " comes before its group")
			}
			g.children = append(g.children, k)
		}
		if k.Group {
			groups[k.Path] = k
		}
	}
	for _, k := range all {
		switch {
		case k.Group:
			names := make([]string, len(k.children))
			for i, ch := range k.children {
				names[i] = ch.name
			}
			k.Want = "a mapping with " + strings.Join(names, ", ")
		case k.Want == "":
			if e, ok := k.val.(enumValues); ok {
				k.Want = orList(e.allowed())
			}
		}
	}
	return all, top
}

// orList joins values as "a, b or c".
func orList(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}
