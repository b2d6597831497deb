package config

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A value is the kind of a key of the table: how its value is read from
// YAML, checked, defaulted and written out. Each implementation reaches its
// field of Config through get.
type value interface {
	// read stores the value of node n (resolved, not null) at path;
	// want is the expectation named when n has the wrong type.
	read(d *decoder, c *Config, path, want string, n *yaml.Node)
	// check validates the value read (and completes it, e.g. sorts a list).
	check(d *decoder, c *Config, path, want string)
	setDefault(c *Config)
	// node is the value as config.yaml writes it.
	node(c *Config) *yaml.Node
	// text is the value as init's template and the docs write it.
	text(c *Config) string
}

// enumValues is implemented by the enumerated values: their allowed
// spellings, in the order the error messages list them.
type enumValues interface{ allowed() []string }

// textVal is free text. want names the expectation of its check ("a
// non-empty title"); "" means the value is not checked as text.
type textVal struct {
	get      func(*Config) *string
	def      string
	want     string
	required bool
}

func (v textVal) setDefault(c *Config)      { *v.get(c) = v.def }
func (v textVal) node(c *Config) *yaml.Node { return str(*v.get(c)) }
func (v textVal) text(c *Config) string     { return *v.get(c) }

func (v textVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	if s, ok := d.scalarString(path, n, want); ok {
		*v.get(c) = s
	}
}

func (v textVal) check(d *decoder, c *Config, path, _ string) {
	if v.want != "" {
		d.text(path, *v.get(c), v.want, v.required)
	}
}

// enumVal is one of a fixed set of spellings, held as the named type T.
type enumVal[T ~string] struct {
	get    func(*Config) *T
	def    T
	values []T
}

func (v enumVal[T]) setDefault(c *Config)      { *v.get(c) = v.def }
func (v enumVal[T]) node(c *Config) *yaml.Node { return str(string(*v.get(c))) }
func (v enumVal[T]) text(c *Config) string     { return string(*v.get(c)) }

func (v enumVal[T]) allowed() []string {
	s := make([]string, len(v.values))
	for i, x := range v.values {
		s[i] = string(x)
	}
	return s
}

func (v enumVal[T]) allowedText() string { return orList(v.allowed()) }

func (v enumVal[T]) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	if s, ok := d.scalarString(path, n, want); ok {
		*v.get(c) = T(s)
	}
}

func (v enumVal[T]) check(d *decoder, c *Config, path, _ string) {
	d.enum(path, string(*v.get(c)), v.allowed()...)
}

// intVal is an integer from lo to hi.
type intVal struct {
	get         func(*Config) *int
	def, lo, hi int
}

func (v intVal) setDefault(c *Config)      { *v.get(c) = v.def }
func (v intVal) node(c *Config) *yaml.Node { return integer(int64(*v.get(c))) }
func (v intVal) text(c *Config) string     { return strconv.Itoa(*v.get(c)) }

func (v intVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	if x, ok := d.intValue(path, n, want); ok {
		*v.get(c) = x
	}
}

func (v intVal) check(d *decoder, c *Config, path, want string) {
	d.intRange(path, *v.get(c), v.lo, v.hi, want)
}

// floatVal is a number: in (0, 1) when open, in (0, 1] otherwise, or in
// [lo, hi] when hi is set.
type floatVal struct {
	get    func(*Config) *float64
	def    float64
	open   bool
	lo, hi float64
}

func (v floatVal) setDefault(c *Config)      { *v.get(c) = v.def }
func (v floatVal) node(c *Config) *yaml.Node { return float(*v.get(c)) }
func (v floatVal) text(c *Config) string     { return ftoa(*v.get(c)) }

func (v floatVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	if x, ok := d.floatValue(path, n, want); ok {
		*v.get(c) = x
	}
}

func (v floatVal) check(d *decoder, c *Config, path, want string) {
	x := *v.get(c)
	if v.hi == 0 {
		d.floatRange(path, x, v.open, want)
		return
	}
	if !d.skip(path) && !(x >= v.lo && x <= v.hi) {
		d.errorf(path, "got %s, expected %s", ftoa(x), want)
	}
}

// lengthVal is one of the paper lengths that belong to venue custom: there
// all three are required, with a named venue writing one is an error.
type lengthVal struct {
	get    func(*Config) *float64
	lo, hi float64
}

func (v lengthVal) setDefault(c *Config)      { *v.get(c) = 0 }
func (v lengthVal) node(c *Config) *yaml.Node { return float(*v.get(c)) }
func (v lengthVal) text(c *Config) string     { return ftoa(*v.get(c)) }

func (v lengthVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	floatVal{get: v.get}.read(d, c, path, want, n)
}

func (v lengthVal) check(d *decoder, c *Config, path, want string) {
	if d.skip("paper.venue") {
		return
	}
	p, x := &c.Paper, *v.get(c)
	switch {
	case d.skip(path):
	case p.Venue != VenueCustom && d.written(path):
		d.errorf(path, "is only read with venue: custom (venue %s has its own), remove it or set venue: custom", p.Venue)
	case p.Venue == VenueCustom && !d.written(path):
		d.errorf("paper", "venue: custom needs %s (%s)", path[strings.LastIndexByte(path, '.')+1:], want)
	case p.Venue == VenueCustom && !(x >= v.lo && x <= v.hi):
		d.errorf(path, "got %s, expected %s", ftoa(x), want)
	}
}

// seedVal is the seed, an unsigned 64-bit integer.
type seedVal struct{}

func (seedVal) setDefault(c *Config)                    { c.Seed = DefaultSeed }
func (seedVal) node(c *Config) *yaml.Node               { return scalar("!!int", strconv.FormatUint(c.Seed, 10)) }
func (seedVal) text(c *Config) string                   { return strconv.FormatUint(c.Seed, 10) }
func (seedVal) check(*decoder, *Config, string, string) {}

func (seedVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	d.uint64Value(&c.Seed, want)(path, n)
}

// boolVal is true or false.
type boolVal struct {
	get func(*Config) *bool
	def bool
}

func (v boolVal) setDefault(c *Config)                    { *v.get(c) = v.def }
func (v boolVal) node(c *Config) *yaml.Node               { return scalar("!!bool", strconv.FormatBool(*v.get(c))) }
func (v boolVal) text(c *Config) string                   { return strconv.FormatBool(*v.get(c)) }
func (v boolVal) check(*decoder, *Config, string, string) {}

func (v boolVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	d.boolean(v.get(c), want)(path, n)
}

// intsVal is a non-empty list of distinct integers from lo to hi, sorted
// by check; elemWant is the expectation of one element, what names one.
type intsVal struct {
	get            func(*Config) *[]int
	def            []int
	lo, hi         int
	elemWant, what string
}

func (v intsVal) setDefault(c *Config)      { *v.get(c) = append([]int(nil), v.def...) }
func (v intsVal) node(c *Config) *yaml.Node { return ints(*v.get(c)) }
func (v intsVal) text(c *Config) string     { return intsText(*v.get(c)) }

func (v intsVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	d.intList(v.get(c), want, v.elemWant)(path, n)
}

func (v intsVal) check(d *decoder, c *Config, path, _ string) {
	d.intSet(path, *v.get(c), v.lo, v.hi, v.elemWant, v.what)
}

// floatsVal is a non-empty list of distinct numbers in (0, 1) (open) or
// (0, 1], sorted by check.
type floatsVal struct {
	get  func(*Config) *[]float64
	def  []float64
	open bool
	what string
}

func (v floatsVal) setDefault(c *Config)      { *v.get(c) = append([]float64(nil), v.def...) }
func (v floatsVal) node(c *Config) *yaml.Node { return floats(*v.get(c)) }
func (v floatsVal) text(c *Config) string     { return floatsText(*v.get(c)) }

func (v floatsVal) elemWant() string {
	if v.open {
		return wantRate
	}
	return wantShare
}

func (v floatsVal) read(d *decoder, c *Config, path, want string, n *yaml.Node) {
	d.floatList(v.get(c), want, v.elemWant())(path, n)
}

func (v floatsVal) check(d *decoder, c *Config, path, _ string) {
	d.floatSet(path, *v.get(c), v.open, v.elemWant(), v.what)
}

// systemsVal is the list of systems; its keys are systemKeys.
type systemsVal struct{}

func (systemsVal) read(d *decoder, c *Config, path, _ string, n *yaml.Node) { d.systems(path, n, c) }
func (systemsVal) check(d *decoder, c *Config, _, _ string)                 { d.checkSystems(c) }
func (systemsVal) setDefault(c *Config)                                     { c.Systems = nil }
func (systemsVal) text(*Config) string                                      { return "" }

func (systemsVal) node(c *Config) *yaml.Node {
	n := seq(false)
	for i := range c.Systems {
		m := mapping(true)
		for _, k := range systemKeys {
			m.Content = append(m.Content, str(k.Name), str(k.get(&c.Systems[i])))
		}
		n.Content = append(n.Content, m)
	}
	return n
}

// strataVal is auto, ltr or a list of bands.
type strataVal struct{}

func (strataVal) check(d *decoder, c *Config, _, _ string) { d.checkStrata(&c.Strata) }
func (strataVal) setDefault(c *Config)                     { c.Strata = Strata{Auto: true} }
func (strataVal) node(c *Config) *yaml.Node                { return c.Strata.node() }

func (strataVal) read(d *decoder, c *Config, path, _ string, n *yaml.Node) {
	d.strata(path, n, &c.Strata)
}

func (strataVal) text(c *Config) string {
	if c.Strata.Auto {
		return "auto"
	}
	s := make([]string, len(c.Strata.Bands))
	for i, b := range c.Strata.Bands {
		s[i] = b.yamlText()
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// targetsVal is none, contract or a mapping of metric id to bounds.
type targetsVal struct{}

func (targetsVal) check(d *decoder, c *Config, _, _ string) { d.checkTargets(&c.Targets, d.opt) }
func (targetsVal) setDefault(c *Config)                     { c.Targets = Targets{} }
func (targetsVal) node(c *Config) *yaml.Node                { return c.Targets.node() }

func (targetsVal) read(d *decoder, c *Config, path, _ string, n *yaml.Node) {
	d.targets(path, n, &c.Targets)
}

func (targetsVal) text(c *Config) string {
	if n := c.Targets.node(); n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return "a table"
}

func intsText(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func floatsText(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = ftoa(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func ints(xs []int) *yaml.Node {
	n := seq(true)
	for _, x := range xs {
		n.Content = append(n.Content, integer(int64(x)))
	}
	return n
}
