package config

import "go.yaml.in/yaml/v3"

// The readers of YAML values used by the value kinds (values.go). want is
// the expectation named in the error when a value has the wrong type.

// scalarString accepts any non-null scalar as text, as YAML decoding into a
// string does: `label: 2024` is the label "2024".
func (d *decoder) scalarString(path string, n *yaml.Node, want string) (string, bool) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
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
