package config

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The readers of YAML values used by the value kinds (values.go). want is
// the expectation named in the error when a value has the wrong type.

// isControl reports whether r is a control character paper.yaml text may
// not hold: C0 and C1 controls and DEL, except tab and line feed.
func isControl(r rune) bool {
	return r != '\t' && r != '\n' && unicode.IsControl(r)
}

// scalarString accepts any non-null scalar as text, as YAML decoding into a
// string does: `label: 2024` is the label "2024".
func (d *decoder) scalarString(path string, n *yaml.Node, want string) (string, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
			if i := strings.IndexFunc(n.Value, isControl); i >= 0 {
				// Text of paper.yaml reaches every output and the
				// terminal: a control character there would make an SVG
				// invalid XML or move a terminal's cursor.
				d.bad[path] = true
				r, _ := utf8.DecodeRuneInString(n.Value[i:])
				d.errorAt(n, path, "got the control character U+%04X at character %d of the text, expected printable text (tabs and line ends are kept; remove it, or write it as a visible character)", r, utf8.RuneCountInString(n.Value[:i])+1)
				return "", false
			}
			return n.Value, true
		}
	}
	d.typeError(path, n, want)
	return "", false
}

func (d *decoder) boolean(dst *bool, want string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		var x bool
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&x) != nil {
			d.typeError(path, n, want)
			return
		}
		*dst = x
	}
}

func (d *decoder) intValue(path string, n *yaml.Node, want string) (int, bool) {
	var x int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&x) != nil {
		d.typeError(path, n, want)
		return 0, false
	}
	return x, true
}

func (d *decoder) uint64Value(dst *uint64, want string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		var x uint64
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&x) != nil {
			d.typeError(path, n, want)
			return
		}
		*dst = x
	}
}

func (d *decoder) floatValue(path string, n *yaml.Node, want string) (float64, bool) {
	var x float64
	if n.Kind != yaml.ScalarNode {
		d.typeError(path, n, want)
		return 0, false
	}
	if t := n.ShortTag(); (t != "!!int" && t != "!!float") || n.Decode(&x) != nil {
		d.typeError(path, n, want)
		return 0, false
	}
	return x, true
}

// list reads sequence n, calling elem for each element (resolved) with its
// path. It reports false when n is not a list.
func (d *decoder) list(path string, n *yaml.Node, want string, elem func(i int, path string, e *yaml.Node)) bool {
	if n.Kind != yaml.SequenceNode {
		d.typeError(path, n, want)
		return false
	}
	for i, e := range n.Content {
		p := index(path, i)
		e = resolve(e)
		d.at(p, e)
		elem(i, p, e)
	}
	return true
}

func (d *decoder) intList(dst *[]int, want, elemWant string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		xs := make([]int, 0, len(n.Content))
		d.list(path, n, want, func(_ int, p string, e *yaml.Node) {
			x, ok := d.intValue(p, e, elemWant)
			if ok {
				xs = append(xs, x)
			}
		})
		if !d.bad[path] && len(xs) == len(n.Content) {
			*dst = xs
		}
	}
}

func (d *decoder) floatList(dst *[]float64, want, elemWant string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		xs := make([]float64, 0, len(n.Content))
		d.list(path, n, want, func(_ int, p string, e *yaml.Node) {
			x, ok := d.floatValue(p, e, elemWant)
			if ok {
				xs = append(xs, x)
			}
		})
		if !d.bad[path] && len(xs) == len(n.Content) {
			*dst = xs
		}
	}
}
