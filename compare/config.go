package compare

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"paperbundle/report"
)

// datasetChanges lists the changes of the dataset summary and of the
// systems, in the words v of the kind of input; posts only when they
// group queries in one of the bundles (else they are the eval queries).
func datasetChanges(a, b *report.Report, v report.Vocabulary) []string {
	out := []string{}
	da, db := a.Dataset, b.Dataset
	for _, c := range []struct {
		key    string
		av, bv int
	}{
		{"eval queries", da.EvalQueries, db.EvalQueries},
		{"posts", da.Posts, db.Posts},
		{"positive queries", da.PositiveQueries, db.PositiveQueries},
		{"rows", da.Rows, db.Rows},
		{"tune rows", da.TuneRows, db.TuneRows},
		{"train rows ignored", da.TrainRowsIgnored, db.TrainRowsIgnored},
		{"folds", len(da.Folds), len(db.Folds)},
		{"gold items missing from the candidates", da.GoldMissing, db.GoldMissing},
	} {
		if c.key == "posts" && v.Kind != report.KindEvidence && !a.Grouped() && !b.Grouped() {
			continue
		}
		if c.av != c.bv {
			out = append(out, fmt.Sprintf("%s: %d -> %d", v.Say(c.key), c.av, c.bv))
		}
	}
	added, removed := setChanges(da.Criteria, db.Criteria)
	for _, c := range removed {
		out = append(out, "criterion "+c+": removed")
	}
	for _, c := range added {
		out = append(out, "criterion "+c+": added")
	}
	added, removed = setChanges(a.SystemNames(), b.SystemNames())
	for _, s := range removed {
		out = append(out, v.System+" "+s+": removed")
	}
	for _, s := range added {
		out = append(out, v.System+" "+s+": added")
	}
	for _, sb := range b.Systems {
		sa, ok := a.System(sb.Name)
		if !ok {
			continue
		}
		if sa.Label != sb.Label {
			out = append(out, fmt.Sprintf("%s %s: label %s -> %s", v.System, sb.Name, leafText(sa.Label), leafText(sb.Label)))
		}
		if sa.Primary != sb.Primary {
			out = append(out, fmt.Sprintf("%s %s: primary %t -> %t", v.System, sb.Name, sa.Primary, sb.Primary))
		}
	}
	return out
}

// setChanges returns the members of b missing from a (added, in b's order)
// and of a missing from b (removed, in a's order).
func setChanges(a, b []string) (added, removed []string) {
	for _, x := range b {
		if !slices.Contains(a, x) {
			added = append(added, x)
		}
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			removed = append(removed, x)
		}
	}
	return added, removed
}

// settingKeys maps a settings key (metrics_master.json) to the config.yaml
// key that sets it, where the names differ; the changes are listed under
// the config.yaml name, the one a user edits.
var settingKeys = map[string]string{
	"gamma_sweep":                 "dynamic_k.sweep",
	"conventions.map_denominator": "contract.map_denominator",
	"conventions.fold_std":        "contract.fold_std",
	"conventions.undefined_auroc": "contract.undefined_auroc",
	"conventions.ndcg_gain":       "contract.ndcg_gain",
}

// settingChanges compares the configuration once: the report's settings
// field by field as typed values (under their config.yaml names), then
// the config.yaml keys that no setting covers (systems, inputs, targets,
// ...), when both config.yaml files are given. The version key names the
// bundle itself and is left out.
//
// Only settings both bundles record are compared: a typed setting an
// older metrics_master.json lacks, or a top-level config.yaml key an
// older config.yaml lacks, is "not recorded" on that side, never its
// zero value; and a value spelled another way by an older tool (targets:
// default for contract) is the same value.
func settingChanges(a, b *report.Report, cfgA, cfgB []byte) ([]Setting, error) {
	sa, sb := map[string]string{}, map[string]string{}
	typedLeaves("", reflect.ValueOf(a.Settings), sa)
	typedLeaves("", reflect.ValueOf(b.Settings), sb)
	var unrecorded []Setting
	for k := range sa {
		ra, rb := a.SettingRecorded(k), b.SettingRecorded(k)
		if ra && rb {
			continue
		}
		unrecorded = append(unrecorded, notRecorded(configKey(k), ra, sa[k], sb[k]))
		delete(sa, k)
		delete(sb, k)
	}
	covered := map[string]bool{"version": true}
	for k := range sb {
		covered[configKey(k)] = true
	}
	for _, s := range unrecorded {
		covered[s.Key] = true
	}
	fa, fb := map[string]string{}, map[string]string{}
	for _, m := range []struct{ from, to map[string]string }{{sa, fa}, {sb, fb}} {
		for k, v := range m.from {
			m.to[configKey(k)] = v
		}
	}
	if cfgA != nil && cfgB != nil {
		ya, err := yamlLeaves("A", cfgA)
		if err != nil {
			return nil, err
		}
		yb, err := yamlLeaves("B", cfgB)
		if err != nil {
			return nil, err
		}
		topA, topB := topKeys(ya), topKeys(yb)
		for _, m := range []struct{ from, to map[string]string }{{ya, fa}, {yb, fb}} {
			for k, v := range m.from {
				if covered[k] {
					continue
				}
				top := topKey(k)
				if topA[top] != topB[top] {
					// A key the other config.yaml lacks altogether: that
					// tool did not record it.
					if !covered[top] {
						unrecorded = append(unrecorded, notRecorded(top, topA[top], "", ""))
						covered[top] = true
					}
					continue
				}
				m.to[k] = spelled(k, v)
			}
		}
	}
	out := keyChanges(fa, fb)
	slices.SortFunc(unrecorded, func(x, y Setting) int { return strings.Compare(x.Key, y.Key) })
	return append(out, unrecorded...), nil
}

// configKey is the config.yaml name of a settings key.
func configKey(k string) string {
	if c, ok := settingKeys[k]; ok {
		return c
	}
	return k
}

// notRecorded is a setting one side does not record (inA: A records it).
func notRecorded(key string, inA bool, a, b string) Setting {
	s := Setting{Key: key, Kind: "not recorded in B", A: a}
	if !inA {
		s = Setting{Key: key, Kind: "not recorded in A", B: b}
	}
	return s
}

// topKey is the top-level config.yaml key of a dotted key
// ("bootstrap.resamples" -> "bootstrap", "systems[0].input" -> "systems").
func topKey(k string) string {
	if i := strings.IndexAny(k, ".["); i >= 0 {
		return k[:i]
	}
	return k
}

func topKeys(leaves map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range leaves {
		out[topKey(k)] = true
	}
	return out
}

// spellings are earlier spellings of a config.yaml value that mean the
// same setting (config reads both).
var spellings = map[string]map[string]string{
	"targets": {"default": "contract"},
}

// spelled is v in its current spelling.
func spelled(key, v string) string {
	if now, ok := spellings[key][v]; ok {
		return now
	}
	return v
}

// typedLeaves walks a settings struct: a field's key is its json name
// (dotted below a struct); a scalar or a list of scalars is one leaf.
func typedLeaves(prefix string, v reflect.Value, out map[string]string) {
	if v.Kind() == reflect.Struct {
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if prefix != "" {
				name = prefix + "." + name
			}
			typedLeaves(name, v.Field(i), out)
		}
		return
	}
	out[prefix] = leafText(v.Interface())
}

// yamlLeaves maps a config.yaml to dotted keys and leaf texts: maps are
// descended ("bootstrap.resamples"), lists of scalars are one leaf
// ("[1, 3, 5]"), other lists are indexed ("systems[0].input").
func yamlLeaves(side string, data []byte) (map[string]string, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("compare: config.yaml of %s: %w", side, err)
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, e := range x {
				walk(join(k), e)
			}
		case map[any]any:
			if len(x) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, e := range x {
				walk(join(fmt.Sprint(k)), e)
			}
		case []any:
			if !slices.ContainsFunc(x, isComposite) {
				out[prefix] = leafText(x)
				return
			}
			for i, e := range x {
				walk(prefix+"["+strconv.Itoa(i)+"]", e)
			}
		default:
			if prefix != "" || x != nil {
				out[prefix] = leafText(x)
			}
		}
	}
	walk("", v)
	return out, nil
}

func isComposite(v any) bool {
	switch v.(type) {
	case map[string]any, map[any]any, []any:
		return true
	}
	return false
}

// leafText writes a typed value the same way whether it came from the
// settings or from config.yaml: strings bare unless empty or ambiguous
// (then quoted), null for nil, numbers as Go writes them shortest
// (0.95, 10000), lists as "[a, b]".
func leafText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "" || strings.TrimSpace(x) != x || strings.ContainsAny(x, ",[]{}\"") || strings.Contains(x, "->") {
			return strconv.Quote(x)
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = leafText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = leafText(rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Float32:
		return strconv.FormatFloat(rv.Float(), 'g', -1, 32)
	case reflect.String:
		return leafText(rv.String())
	}
	return fmt.Sprint(v)
}

// inputChanges lists inputs added, removed or with another sha256.
func inputChanges(a, b map[string]string) []string {
	out := []string{}
	if a == nil || b == nil {
		return out
	}
	for _, s := range mapChanges(a, b) {
		switch s.Kind {
		case "changed":
			out = append(out, s.Key+": changed")
		default:
			out = append(out, s.Key+": "+s.Kind)
		}
	}
	return out
}

// keyChanges lists, in key order, the keys added to b, removed from a and
// changed between them.
func keyChanges(a, b map[string]string) []Setting {
	return mapChanges(a, b)
}

func mapChanges(a, b map[string]string) []Setting {
	out := []Setting{}
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, okA := a[k]
		vb, okB := b[k]
		switch {
		case !okA:
			out = append(out, Setting{Key: k, Kind: "added", B: vb})
		case !okB:
			out = append(out, Setting{Key: k, Kind: "removed", A: va})
		case va != vb:
			out = append(out, Setting{Key: k, Kind: "changed", A: va, B: vb})
		}
	}
	return out
}

// Text writes a setting change as "key: a -> b", "key: added",
// "key: removed", or "key: not recorded in A (B: value)" for a setting
// only one bundle records.
func (s Setting) Text() string {
	switch s.Kind {
	case "changed":
		return s.Key + ": " + s.A + " -> " + s.B
	case "not recorded in A":
		if s.B != "" {
			return s.Key + ": not recorded in A (B: " + s.B + ")"
		}
	case "not recorded in B":
		if s.A != "" {
			return s.Key + ": not recorded in B (A: " + s.A + ")"
		}
	}
	return s.Key + ": " + s.Kind
}
