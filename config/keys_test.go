package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestKeyTable: every row of the key table is complete, each row sets one
// field of Config that no other row sets, and every field of Config
// (Dir and File aside) has its row: a field added without a row fails.
func TestKeyTable(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range keyTable {
		if seen[k.Path] {
			t.Errorf("%s: two rows", k.Path)
		}
		seen[k.Path] = true
		switch {
		case k.Group && (k.val != nil || len(k.children) == 0):
			t.Errorf("%s: a group has keys and no value of its own", k.Path)
		case !k.Group && (k.val == nil || k.Allowed == "" || k.Want == ""):
			t.Errorf("%s: a key needs a value, its allowed values and what a wrong value is expected to be", k.Path)
		}
	}
	// Each row changes a Config that holds no default value in a field
	// of its own.
	changed := map[string]string{}
	for _, k := range keyTable {
		if k.Group {
			continue
		}
		c := poisoned()
		k.val.setDefault(c)
		fields := diffFields(reflect.ValueOf(*poisoned()), reflect.ValueOf(*c), "")
		if len(fields) > 1 {
			t.Errorf("%s: sets %v, expected one field", k.Path, fields)
		}
		for _, f := range fields {
			if other, dup := changed[f]; dup {
				t.Errorf("%s and %s both set %s", k.Path, other, f)
			}
			changed[f] = k.Path
		}
	}

	var all []string
	leaves(reflect.TypeOf(Config{}), "", &all)
	for _, f := range all {
		if _, ok := changed[f]; !ok && f != "Dir" && f != "File" {
			t.Errorf("field %s of Config has no row in the key table", f)
		}
	}
}

// poisoned is a Config whose every field differs from its default.
func poisoned() *Config {
	c := &Config{}
	poison(reflect.ValueOf(c).Elem(), reflect.ValueOf(*Default()))
	c.Systems = []System{{Name: "x"}}
	c.Strata = Strata{Bands: []Band{{Lo: 5, Hi: 6}}}
	c.Targets = Targets{Default: true}
	return c
}

func poison(v, def reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			poison(v.Field(i), def.Field(i))
		}
	case reflect.String:
		v.SetString("\x00poison")
	case reflect.Int:
		v.SetInt(987654)
	case reflect.Uint64:
		v.SetUint(987654)
	case reflect.Float64:
		v.SetFloat(0.987654)
	case reflect.Bool:
		v.SetBool(!def.Bool())
	case reflect.Slice:
		e := reflect.New(v.Type().Elem()).Elem()
		poison(e, reflect.Zero(e.Type()))
		v.Set(reflect.Append(reflect.MakeSlice(v.Type(), 0, 1), e))
	case reflect.Map:
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		poison(k, reflect.Zero(k.Type()))
		poison(e, reflect.Zero(e.Type()))
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(k, e)
	}
}

// leaves names the leaf fields of type t (Strata, Targets and Composition
// are leaves).
func leaves(t reflect.Type, prefix string, out *[]string) {
	if t.Kind() != reflect.Struct || t == reflect.TypeOf(Strata{}) || t == reflect.TypeOf(Targets{}) || t == reflect.TypeOf(Composition{}) {
		*out = append(*out, strings.TrimPrefix(prefix, "."))
		return
	}
	for i := 0; i < t.NumField(); i++ {
		leaves(t.Field(i).Type, prefix+"."+t.Field(i).Name, out)
	}
}

// diffFields names the leaf fields where a and b differ.
func diffFields(a, b reflect.Value, prefix string) []string {
	if a.Kind() != reflect.Struct || a.Type() == reflect.TypeOf(Strata{}) || a.Type() == reflect.TypeOf(Targets{}) || a.Type() == reflect.TypeOf(Composition{}) {
		if reflect.DeepEqual(a.Interface(), b.Interface()) {
			return nil
		}
		return []string{strings.TrimPrefix(prefix, ".")}
	}
	var out []string
	for i := 0; i < a.NumField(); i++ {
		out = append(out, diffFields(a.Field(i), b.Field(i), prefix+"."+a.Type().Field(i).Name)...)
	}
	return out
}
