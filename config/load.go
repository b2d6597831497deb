package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"paperbundle/dataset"
)

// Options adjusts how a configuration is checked.
type Options struct {
	// KnownMetric, when not nil, reports whether id is a metric id of the
	// catalog; a targets: entry naming any other id is then an error at its
	// line. The config package does not know the catalog by itself.
	KnownMetric func(id string) bool
}

// Load reads and validates the paper.yaml at path. See ParseWith.
func Load(path string) (*Config, error) { return LoadWith(path, Options{}) }

// LoadWith reads and validates the paper.yaml at path; Dir is the folder
// that holds it. See ParseWith.
func LoadWith(path string, opt Options) (*Config, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWith(path, data, filepath.Dir(path), opt)
}

// MaxFileBytes is the largest configuration file: a paper.yaml of a
// thousand systems is under 200 KB. Past it reading stops with an error
// (exit 2), so that -config /dev/zero ends at once.
const MaxFileBytes = 1 << 20

// ReadFile reads the configuration file at path, at most MaxFileBytes of
// it; a file that cannot be read or is larger is a *dataset.InputError
// list naming the file (and the line where the maximum was passed).
func ReadFile(path string) ([]byte, error) {
	data, err := readBounded(path, MaxFileBytes)
	if len(data) > MaxFileBytes {
		line := bytes.Count(data[:MaxFileBytes], []byte{'\n'}) + 1
		return nil, dataset.ErrorList{{File: path, Line: line,
			Msg: fmt.Sprintf("the configuration is larger than %d MiB, the maximum, expected a paper.yaml (is this the right file?)", MaxFileBytes>>20)}}
	}
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		want := "expected a readable YAML file"
		if errors.Is(err, fs.ErrNotExist) {
			// The usual cause: the command runs in another folder than
			// the configuration, or there is none yet.
			want += " (name it with -config, or write one with paperbundle init)"
		}
		return nil, dataset.ErrorList{{File: path,
			Msg: "cannot read the configuration (" + msg + "), " + want}}
	}
	return data, nil
}

// readBounded reads the file at path up to max+1 bytes.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
	}
	return io.ReadAll(io.LimitReader(f, max+1))
}

// Parse reads a configuration from data; name is the file name used in
// errors and dir the folder relative paths are resolved against. See
// ParseWith.
func Parse(name string, data []byte, dir string) (*Config, error) {
	return ParseWith(name, data, dir, Options{})
}

// ParseWith reads a configuration from data (SPEC 2.3).
//
// Every key may be left out and then takes its value from Default; a key
// written with no value (null) does too. Unknown keys at any level,
// duplicate keys, values of the wrong type (a string where an integer is
// expected, a list where a mapping is) and values out of range are errors.
// An error is a *dataset.InputError that names the file, line and column,
// what was wrong and what was expected; up to dataset.MaxErrors of them are
// returned together, sorted by position, as a dataset.ErrorList. An empty
// file, or one with more than one YAML document, is an error. Anchors,
// aliases and merge keys (<<) are followed.
//
// The returned Config is complete: labels default to names, formats are
// inferred from the input's extension, and cutoffs, fpr_targets, the sweep
// and the strata bands are sorted.
func ParseWith(name string, data []byte, dir string, opt Options) (*Config, error) {
	d := newDecoder(name)
	root := d.document(data)
	if root == nil {
		return nil, d.result()
	}
	c := Default()
	c.File, c.Dir = name, dir
	d.config(root, c)
	d.check(c, opt)
	if err := d.result(); err != nil {
		return nil, err
	}
	return c, nil
}

// Position returns where the value of a key path such as systems[0].input
// or qrels is written in the file c was loaded from (c.File), which it
// reads again: the Config itself keeps no positions. ok is false when the
// key is not written there or the file cannot be read. It lets an error
// found later, such as an input that cannot be opened, point at the line
// of paper.yaml that names it.
func (c *Config) Position(key string) (line, col int, ok bool) {
	if c.File == "" {
		return 0, 0, false
	}
	data, err := readBounded(c.File, MaxFileBytes)
	if err != nil || len(data) > MaxFileBytes {
		return 0, 0, false
	}
	d := newDecoder(c.File)
	root := d.document(data)
	if root == nil {
		return 0, 0, false
	}
	d.config(root, Default())
	p, ok := d.pos[key]
	return p.line, p.col, ok
}

// NamedBy returns a function for dataset.Spec.NamedBy: given an input path
// as resolve maps it (the path dataset.Load opens), it says which key of
// c names that input and where the key is written in c.File, so that a
// file that cannot be opened is reported at the line of paper.yaml to fix.
func (c *Config) NamedBy(resolve func(string) string) func(path string) (dataset.Place, bool) {
	keys := map[string]string{}
	name := func(key, p string) {
		if p == "" {
			return
		}
		if _, dup := keys[resolve(p)]; !dup {
			keys[resolve(p)] = key
		}
	}
	for i, s := range c.Systems {
		name(index("systems", i)+".input", s.Input)
		name(index("systems", i)+".ne_probs", s.NEProbs)
	}
	name("qrels", c.Qrels)
	name("queries", c.Queries)
	return func(path string) (dataset.Place, bool) {
		key, ok := keys[path]
		if !ok {
			return dataset.Place{}, false
		}
		file := c.File
		if file == "" {
			file = "config"
		}
		line, col, _ := c.Position(key)
		return dataset.Place{File: file, Line: line, Column: col, Key: key}, true
	}
}

// Validate checks c as ParseWith checks a file, and completes it the same
// way (labels, formats, sorted lists). Use it after changing a Config in
// code (a -version flag, a generated demo configuration). Its errors name
// the key (cutoffs[2]) but no line.
func (c *Config) Validate() error {
	name := c.File
	if name == "" {
		name = "config"
	}
	d := newDecoder(name)
	d.check(c, Options{})
	return d.result()
}

// A decoder walks the YAML node tree of one file against the schema of
// Config, collecting errors and the position of every value it reads.
type decoder struct {
	file string
	errs dataset.ErrorList
	pos  map[string]position // key path (systems[1].name) -> where its value is
	bad  map[string]bool     // key paths whose value could not be read
	// meant holds the key paths an unknown key was taken for (the
	// "did you mean" of its error): that key is then not also reported
	// as missing.
	meant map[string]bool
}

type position struct{ line, col int }

func newDecoder(file string) *decoder {
	return &decoder{file: file, pos: map[string]position{}, bad: map[string]bool{}, meant: map[string]bool{}}
}

// add records an error at (line, col) unless MaxErrors are already held.
func (d *decoder) add(line, col int, path, msg string) {
	if len(d.errs) >= dataset.MaxErrors {
		return
	}
	if path != "" {
		msg = path + ": " + msg
	}
	d.errs = append(d.errs, &dataset.InputError{File: d.file, Line: line, Column: col, Msg: msg})
}

// errorAt records an error at node n.
func (d *decoder) errorAt(n *yaml.Node, path, format string, args ...any) {
	d.add(n.Line, n.Column, path, fmt.Sprintf(format, args...))
}

// result returns the errors sorted by position, or nil.
func (d *decoder) result() error {
	sort.SliceStable(d.errs, func(i, j int) bool {
		a, b := d.errs[i], d.errs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return d.errs.Err()
}

var yamlLineRe = regexp.MustCompile(`^yaml: line ([0-9]+): (.*)$`)

// document parses data and returns its root mapping, or nil after recording
// why there is none.
func (d *decoder) document(data []byte) *yaml.Node {
	if !d.utf8(data) {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			d.add(1, 1, "", "empty file, expected a YAML mapping with at least the key systems")
		} else {
			d.syntaxError(data, err)
		}
		return nil
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == io.EOF:
	case err != nil:
		d.syntaxError(data, err)
		return nil
	default:
		d.add(extra.Line, extra.Column, "", "a second YAML document, expected one document")
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		d.add(1, 1, "", "empty file, expected a YAML mapping with at least the key systems")
		return nil
	}
	root := resolve(doc.Content[0])
	if isNull(root) {
		d.add(doc.Content[0].Line, doc.Content[0].Column, "", "empty configuration, expected a YAML mapping with at least the key systems")
		return nil
	}
	if root.Kind != yaml.MappingNode {
		d.errorAt(root, "", "got %s, expected a mapping of configuration keys (title, systems, ...)", describe(root))
		return nil
	}
	return root
}

// utf8 reports whether data is valid UTF-8 (or UTF-16 with a byte order
// mark, which the YAML library decodes), recording the position of the
// first invalid byte otherwise: the library's own message has no position.
func (d *decoder) utf8(data []byte) bool {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) || utf8.Valid(data) {
		return true
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			col := utf8.RuneCount(data[start:i]) + 1
			d.add(line, col, "", fmt.Sprintf("invalid UTF-8 (byte 0x%02x), expected a YAML file in UTF-8 (convert it, e.g. iconv -f latin1 -t utf-8)", data[i]))
			return false
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += n
	}
	return true
}

// parserProblems are the messages of go.yaml.in/yaml/v3's parser (v3.0.6,
// parserc.go). For them, unlike for its scanner's, the library writes the
// 0-based line of the enclosing collection (and no line at all for line 0),
// so syntaxError adds one.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

var unknownAnchorRe = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)

// syntaxError turns an error of the YAML parser into an InputError.
func (d *decoder) syntaxError(data []byte, err error) {
	msg := err.Error()
	if strings.HasSuffix(msg, "found unexpected end of stream") {
		// The library's only source of this message is a quoted scalar
		// that is never closed; it names the line where that scalar starts
		// (or, when that is the first line, the end of the input).
		reported := 1
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			reported, _ = strconv.Atoi(m[1])
		}
		for _, l := range []int{reported, 1} {
			if col, q, ok := unclosedQuote(data, l); ok {
				d.add(l, col, "", fmt.Sprintf("invalid YAML: the quoted value that starts here is not closed before the end of the file, expected a closing %c", q))
				return
			}
		}
		d.add(reported, 0, "", "invalid YAML: a quoted value is not closed before the end of the file, expected a closing quote")
		return
	}
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++
		}
		// An error found at the end of the input is on its last line.
		last := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			last++
		}
		line = min(line, max(last, 1))
		d.add(line, 0, "", "invalid YAML: "+m[2])
		return
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if parserProblems[msg] {
		d.add(1, 0, "", "invalid YAML: "+msg)
		return
	}
	if m := unknownAnchorRe.FindStringSubmatch(err.Error()); m != nil {
		// The library gives no position: find the first use of the alias.
		alias := []byte("*" + m[1])
		for i, l := range bytes.Split(data, []byte("\n")) {
			if j := bytes.Index(l, alias); j >= 0 {
				d.add(i+1, utf8.RuneCount(l[:j])+1, "", fmt.Sprintf("alias *%s names no anchor, expected an anchor &%s defined before it", short(m[1]), short(m[1])))
				return
			}
		}
	}
	d.add(0, 0, "", "invalid YAML: "+msg)
}

// unclosedQuote finds, on line (1-based) of data, a quote that starts a
// quoted scalar (at the start of the line's content, or after ':', '-',
// '[', '{', ',' or '?' and spaces) and is not closed anywhere after it. It
// returns the quote's 1-based column in characters.
func unclosedQuote(data []byte, line int) (col int, quote byte, ok bool) {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		start += i + 1
	}
	end := len(data)
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		end = start + i
	}
	text := data[start:end]
	for j, c := range text {
		if c != '"' && c != '\'' {
			continue
		}
		prev := bytes.TrimRight(text[:j], " \t")
		if len(prev) > 0 && !bytes.ContainsAny(prev[len(prev)-1:], ":-[{,?") {
			continue
		}
		if !closed(data[start+j+1:], c) {
			return utf8.RuneCount(text[:j]) + 1, c, true
		}
	}
	return 0, 0, false
}

// closed reports whether rest (the text after an opening quote q) holds
// the closing quote: an unescaped " for a double-quoted scalar, a ' that
// is not doubled for a single-quoted one.
func closed(rest []byte, q byte) bool {
	for i := 0; i < len(rest); i++ {
		switch {
		case q == '"' && rest[i] == '\\':
			i++
		case rest[i] == q && q == '\'' && i+1 < len(rest) && rest[i+1] == '\'':
			i++
		case rest[i] == q:
			return true
		}
	}
	return false
}

// resolve follows an alias to the node it names, and returns a copy of that
// node positioned at the alias: an error about the value as a whole (a list
// where a number is expected) then points at the line that uses it, while
// errors inside it point into the anchored definition.
func resolve(n *yaml.Node) *yaml.Node {
	if n == nil || n.Kind != yaml.AliasNode {
		return n
	}
	t := target(n)
	if t == nil || t.Kind == yaml.AliasNode {
		return n
	}
	cp := *t
	cp.Line, cp.Column = n.Line, n.Column
	return &cp
}

// target follows aliases to the node itself (for identity, not position).
func target(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// describe names the kind and value of n for an error message: "the string
// \"ten\"", "the integer 3", "a list".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := short(n.Value)
		switch n.ShortTag() {
		case "!!str":
			return "the string " + strconv.Quote(v)
		case "!!int":
			return "the integer " + v
		case "!!float":
			return "the number " + v
		case "!!bool":
			return "the boolean " + v
		case "!!null":
			if n.Value == "" {
				return "no value"
			}
			return "null"
		case "!!timestamp":
			return "the date " + v
		case "!!binary":
			return "binary data"
		}
		return "a value tagged " + short(n.Tag)
	}
	return "nothing"
}

// short truncates s to 40 characters for an error message.
func short(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-3]) + "..."
}

// typeError records that the value at path is not what was wanted.
func (d *decoder) typeError(path string, n *yaml.Node, want string) {
	d.bad[path] = true
	d.errorAt(n, path, "got %s, expected %s", describe(n), want)
}

func (d *decoder) at(path string, n *yaml.Node) {
	d.pos[path] = position{n.Line, n.Column}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// A pair is one key: value of a mapping, after merge keys are expanded.
type pair struct {
	key  string
	k, v *yaml.Node
}

// pairs returns the entries of mapping m: its own keys in order, then the
// keys merged in with <<: that m does not set itself (the first merged
// mapping wins, as YAML's merge key specifies). Duplicate keys are errors.
func (d *decoder) pairs(path string, m *yaml.Node) []pair {
	var out []pair
	seen := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := resolve(m.Content[i]), m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, ok := d.keyName(path, k)
		if !ok {
			continue
		}
		if first, dup := seen[key]; dup {
			d.errorAt(k, path, "duplicate key %q, first at line %d, expected each key once", short(key), first.Line)
			continue
		}
		seen[key] = k
		out = append(out, pair{key, k, v})
	}
	visited := map[*yaml.Node]bool{}
	for _, v := range merges {
		out = d.merge(path, v, seen, visited, out, true)
	}
	return out
}

// merge appends the entries of the merge value v that are not in seen.
// Each mapping is expanded once (visited), which also stops cycles.
func (d *decoder) merge(path string, v *yaml.Node, seen map[string]*yaml.Node, visited map[*yaml.Node]bool, out []pair, top bool) []pair {
	t := target(v) // identity before resolve copies it
	v = resolve(v)
	switch {
	case v.Kind == yaml.MappingNode:
		if visited[t] {
			return out
		}
		visited[t] = true
		var sub []*yaml.Node
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := resolve(v.Content[i]), v.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
				sub = append(sub, val)
				continue
			}
			key, ok := d.keyName(path, k)
			if !ok {
				continue
			}
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = k
			out = append(out, pair{key, k, val})
		}
		for _, s := range sub {
			out = d.merge(path, s, seen, visited, out, true)
		}
	case v.Kind == yaml.SequenceNode && top:
		for _, e := range v.Content {
			if r := resolve(e); r.Kind != yaml.MappingNode {
				d.errorAt(r, path, "merge key <<: got %s in the list, expected a mapping", describe(r))
				continue
			}
			out = d.merge(path, e, seen, visited, out, false)
		}
	default:
		d.errorAt(v, path, "merge key <<: got %s, expected a mapping or a list of mappings", describe(v))
	}
	return out
}

func (d *decoder) keyName(path string, k *yaml.Node) (string, bool) {
	if k.Kind != yaml.ScalarNode || isNull(k) {
		d.errorAt(k, path, "got %s as a key, expected a key name", describe(k))
		return "", false
	}
	return k.Value, true
}

// A field is one known key of a mapping and how to read its value.
type field struct {
	key string
	set func(path string, n *yaml.Node) // n is resolved and not null
}

// mapping reads mapping n (at path) key by key. A null value keeps the
// default; an unknown key is an error that lists the known ones.
func (d *decoder) mapping(path string, n *yaml.Node, want string, fields []field) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.typeError(path, n, want)
		return
	}
	for _, p := range d.pairs(path, n) {
		var f *field
		for i := range fields {
			if fields[i].key == p.key {
				f = &fields[i]
				break
			}
		}
		if f == nil {
			d.unknownKey(path, p, fields)
			continue
		}
		sub := join(path, p.key)
		v := resolve(p.v)
		d.at(sub, v)
		if isNull(v) {
			continue
		}
		f.set(sub, v)
	}
}

func (d *decoder) unknownKey(path string, p pair, fields []field) {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.key
	}
	msg := fmt.Sprintf("unknown key %q, expected one of %s", short(p.key), strings.Join(names, ", "))
	if s := closest(p.key, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
		d.meant[join(path, s)] = true
	}
	d.add(p.k.Line, p.k.Column, path, msg)
}

// closest returns the name within edit distance 2 (or a third of its
// length) of key, or "".
func closest(key string, names []string) string {
	if len(key) > 64 {
		return ""
	}
	best, bestD := "", 0
	for _, n := range names {
		dist := editDistance(key, n)
		limit := max(2, len(n)/3)
		if dist <= limit && (best == "" || dist < bestD) {
			best, bestD = n, dist
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Scalar readers. Each returns a setter for a field of Config; want is the
// expectation named in the error when the value has the wrong type.

func (d *decoder) str(dst *string, want string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		if s, ok := d.scalarString(path, n, want); ok {
			*dst = s
		}
	}
}

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

func (d *decoder) integer(dst *int, want string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		if x, ok := d.intValue(path, n, want); ok {
			*dst = x
		}
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

func (d *decoder) float(dst *float64, want string) func(string, *yaml.Node) {
	return func(path string, n *yaml.Node) {
		if x, ok := d.floatValue(path, n, want); ok {
			*dst = x
		}
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

// Expectations, shared by type errors and range errors.
const (
	wantText       = "text"
	wantPath       = "a file path"
	wantCutoffs    = "a list of positive integers such as [1, 3, 5, 10, 20]"
	wantCutoff     = "an integer from 1 to 1000000"
	wantRates      = "a list of numbers strictly between 0 and 1 such as [0.01, 0.05]"
	wantRate       = "a number strictly between 0 and 1"
	wantSweep      = "a list of numbers greater than 0 and at most 1 such as [0.7, 0.9]"
	wantShare      = "a number greater than 0 and at most 1"
	wantResamples  = "an integer from 0 (no intervals) to 1000000"
	wantBins       = "an integer from 2 to 1000"
	wantKMin       = "an integer from 0 to 1000000"
	wantHardCap    = "an integer from 1 to 1000000"
	wantSeed       = "an integer from 0 to 18446744073709551615"
	wantSystems    = "a list of systems, each a mapping with name and input"
	wantSystem     = "a mapping with name, input and optionally label, format, ne_probs"
	wantStrata     = "auto, ltr, or a list of [lo, hi] n_pos bands such as [[1, 2], [3, null]]"
	wantBand       = "a band [lo, hi] of two integers, hi may be null (no upper bound)"
	wantBandLo     = "an integer >= 1"
	wantBandHi     = "an integer >= lo, or null for no upper bound"
	wantTargets    = "default, none, or a mapping of metric id to {min: x} / {max: x}"
	wantTarget     = "a mapping with min, max or both, such as {min: 0.85}"
	wantBound      = "a finite number"
	wantBootstrap  = "a mapping with resamples, unit, method, confidence"
	wantCalib      = "a mapping with bins, strategy"
	wantGate       = "a mapping with screen_sensitivity, alert_precision"
	wantDynamicK   = "a mapping with k_min, hard_cap, k_max_ratio, gamma, gamma_uncertain, sweep"
	wantContract   = "a mapping with map_denominator, fold_std, undefined_auroc, ndcg_gain"
	wantBundle     = "a mapping with copy_inputs"
	wantTREC       = "a mapping with relevance_level, no_relevant, missing_run"
	wantRelLevel   = "an integer from 1 to 1000000 (trec_eval -l)"
	wantTopMapping = "a mapping of configuration keys"
)

// config reads the root mapping into c.
func (d *decoder) config(root *yaml.Node, c *Config) {
	d.pos[""] = position{root.Line, root.Column}
	d.mapping("", root, wantTopMapping, []field{
		{"title", d.str(&c.Title, wantText)},
		{"version", d.str(&c.Version, "a version such as v2 or v2.0")},
		{"out", d.str(&c.Out, wantPath)},
		{"seed", d.uint64Value(&c.Seed, wantSeed)},
		{"qrels", d.str(&c.Qrels, wantPath)},
		{"queries", d.str(&c.Queries, wantPath)},
		{"systems", func(p string, n *yaml.Node) { d.systems(p, n, c) }},
		{"reference_system", d.str(&c.ReferenceSystem, "a system name")},
		{"cutoffs", d.intList(&c.Cutoffs, wantCutoffs, wantCutoff)},
		{"fpr_targets", d.floatList(&c.FPRTargets, wantRates, wantRate)},
		{"bootstrap", func(p string, n *yaml.Node) {
			b := &c.Bootstrap
			d.mapping(p, n, wantBootstrap, []field{
				{"resamples", d.integer(&b.Resamples, wantResamples)},
				{"unit", d.str(&b.Unit, "post or query")},
				{"method", d.str(&b.Method, "percentile or bca")},
				{"confidence", d.float(&b.Confidence, wantRate)},
			})
		}},
		{"calibration", func(p string, n *yaml.Node) {
			b := &c.Calibration
			d.mapping(p, n, wantCalib, []field{
				{"bins", d.integer(&b.Bins, wantBins)},
				{"strategy", d.str(&b.Strategy, "uniform or quantile")},
			})
		}},
		{"gate", func(p string, n *yaml.Node) {
			g := &c.Gate
			d.mapping(p, n, wantGate, []field{
				{"screen_sensitivity", d.float(&g.ScreenSensitivity, wantShare)},
				{"alert_precision", d.float(&g.AlertPrecision, wantShare)},
			})
		}},
		{"dynamic_k", func(p string, n *yaml.Node) {
			k := &c.DynamicK
			d.mapping(p, n, wantDynamicK, []field{
				{"k_min", d.integer(&k.KMin, wantKMin)},
				{"hard_cap", d.integer(&k.HardCap, wantHardCap)},
				{"k_max_ratio", d.float(&k.KMaxRatio, wantShare)},
				{"gamma", d.float(&k.Gamma, wantShare)},
				{"gamma_uncertain", d.float(&k.GammaUncertain, wantShare)},
				{"sweep", d.floatList(&k.Sweep, wantSweep, wantShare)},
			})
		}},
		{"strata", func(p string, n *yaml.Node) { d.strata(p, n, &c.Strata) }},
		{"contract", func(p string, n *yaml.Node) {
			k := &c.Contract
			d.mapping(p, n, wantContract, []field{
				{"map_denominator", d.str(&k.MAPDenominator, "gold, min_gold_k or hits")},
				{"fold_std", d.str(&k.FoldStd, "sample or population")},
				{"undefined_auroc", d.str(&k.UndefinedAUROC, "nan or half")},
				{"ndcg_gain", d.str(&k.NDCGGain, "exponential or linear")},
			})
		}},
		{"trec", func(p string, n *yaml.Node) {
			k := &c.TREC
			d.mapping(p, n, wantTREC, []field{
				{"relevance_level", d.integer(&k.RelevanceLevel, wantRelLevel)},
				{"no_relevant", d.str(&k.NoRelevant, "zero or skip")},
				{"missing_run", d.str(&k.MissingRun, "skip or zero")},
			})
		}},
		{"targets", func(p string, n *yaml.Node) { d.targets(p, n, &c.Targets) }},
		{"bundle", func(p string, n *yaml.Node) {
			d.mapping(p, n, wantBundle, []field{
				{"copy_inputs", d.boolean(&c.Bundle.CopyInputs, "true or false")},
			})
		}},
	})
}

func (d *decoder) systems(path string, n *yaml.Node, c *Config) {
	var out []System
	d.list(path, n, wantSystems, func(_ int, p string, e *yaml.Node) {
		var s System
		defer func() { out = append(out, s) }() // keep indices aligned with paths
		if isNull(e) {
			d.typeError(p, e, wantSystem)
			return
		}
		d.mapping(p, e, wantSystem, []field{
			{"name", d.str(&s.Name, "a system name")},
			{"label", d.str(&s.Label, wantText)},
			{"input", d.str(&s.Input, wantPath)},
			{"format", d.str(&s.Format, "csv, tsv, jsonl, parquet or trec")},
			{"ne_probs", d.str(&s.NEProbs, wantPath)},
		})
	})
	c.Systems = out
}

// strata reads `auto`, `ltr` or a list of [lo, hi] bands. An explicit hi
// below zero is an error: only null means open-ended.
func (d *decoder) strata(path string, n *yaml.Node, s *Strata) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			switch n.Value {
			case "auto":
				*s = Strata{Auto: true}
				return
			case "ltr":
				*s = Strata{Bands: LTRBands()}
				return
			}
		}
	case yaml.SequenceNode:
		bands := make([]Band, 0, len(n.Content))
		d.list(path, n, wantStrata, func(_ int, p string, e *yaml.Node) {
			if e.Kind != yaml.SequenceNode || len(e.Content) != 2 {
				d.typeError(p, e, wantBand)
				return
			}
			lo, hi := resolve(e.Content[0]), resolve(e.Content[1])
			d.at(p+"[0]", lo)
			d.at(p+"[1]", hi)
			b := Band{Hi: -1}
			var ok bool
			if b.Lo, ok = d.intValue(p+"[0]", lo, wantBandLo); !ok {
				return
			}
			if !isNull(hi) {
				if b.Hi, ok = d.intValue(p+"[1]", hi, wantBandHi); !ok {
					return
				}
				if b.Hi < 0 {
					d.typeError(p+"[1]", hi, wantBandHi)
					return
				}
			}
			bands = append(bands, b)
		})
		if len(bands) == len(n.Content) {
			*s = Strata{Bands: bands}
		} else {
			d.bad[path] = true
		}
		return
	}
	d.typeError(path, n, wantStrata)
}

// targets reads `default`, `none` or a mapping of metric id to bounds.
func (d *decoder) targets(path string, n *yaml.Node, t *Targets) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			switch n.Value {
			case "default":
				*t = Targets{Default: true}
				return
			case "none":
				*t = Targets{}
				return
			}
		}
	case yaml.MappingNode:
		bounds := map[string]Target{}
		for _, p := range d.pairs(path, n) {
			sub := path + "[" + p.key + "]"
			d.pos[sub+"#key"] = position{p.k.Line, p.k.Column}
			v := resolve(p.v)
			d.at(sub, v)
			var tg Target
			if isNull(v) {
				d.typeError(sub, v, wantTarget)
				continue
			}
			before := len(d.errs)
			d.mapping(sub, v, wantTarget, []field{
				{"min", func(q string, e *yaml.Node) {
					if x, ok := d.floatValue(q, e, wantBound); ok {
						tg.Min = bound(x)
					}
				}},
				{"max", func(q string, e *yaml.Node) {
					if x, ok := d.floatValue(q, e, wantBound); ok {
						tg.Max = bound(x)
					}
				}},
			})
			if len(d.errs) > before {
				d.bad[sub] = true // no "got no bound" after "unknown key"
			}
			bounds[p.key] = tg
		}
		*t = Targets{Bounds: bounds}
		return
	}
	d.typeError(path, n, wantTargets)
}
