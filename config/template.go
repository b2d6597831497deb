package config

import "strings"

// Template writes paper.yaml's keys at the values of d, one line each (a
// mapping of keys in flow style) followed by its row's comment, as
// `paperbundle init` writes them: only the keys that apply to the inputs
// in ap (a key with no Applies always applies), no key whose row says init
// skips it, a commented-out placeholder for a key init cannot choose
// (primary), and for the keys init writes itself (title, qrels, systems)
// the text of fill, verbatim ("" or absent: nothing).
func Template(d *Config, ap Applies, fill map[string]string) string {
	var b strings.Builder
	for _, k := range topKeys {
		if k.Applies != 0 && k.Applies&ap == 0 {
			continue
		}
		note := k.Note
		if ap&ForTREC != 0 && k.NoteTREC != "" {
			note = k.NoteTREC
		}
		switch k.Init {
		case initSkip:
			continue
		case initCaller:
			b.WriteString(fill[k.Path])
			continue
		case initPlaceholder:
			b.WriteString("# " + k.name + ": <name>" + note + "\n")
			continue
		}
		b.WriteString(k.name + ": " + k.text(d) + note + "\n")
	}
	return b.String()
}

// text is the value of k in c as init and the docs write it: a mapping of
// keys in flow style, {a: 1, b: x}.
func (k *Key) text(c *Config) string {
	if !k.Group {
		return k.val.text(c)
	}
	var s []string
	for _, ch := range k.children {
		if ch.writtenIn(c) {
			s = append(s, ch.name+": "+ch.val.text(c))
		}
	}
	return "{" + strings.Join(s, ", ") + "}"
}
