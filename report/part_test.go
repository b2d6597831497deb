package report

import (
	"reflect"
	"testing"
)

// partLeaves calls f on every slice field of v (a part), descending into
// struct fields (Curves), with the field's path; a field of any other kind
// fails the test, since the guard below would not know how to fill it.
func partLeaves(t *testing.T, v reflect.Value, path string, f func(path string, s reflect.Value)) {
	t.Helper()
	for i := range v.NumField() {
		fv, name := v.Field(i), path+"."+v.Type().Field(i).Name
		switch fv.Kind() {
		case reflect.Slice:
			f(name, fv)
		case reflect.Struct:
			partLeaves(t, fv, name, f)
		default:
			t.Fatalf("%s is a %s: part holds slices (and structs of slices) only; teach shard, take, merge and this test the new kind", name, fv.Kind())
		}
	}
}

// TestPartMergesEveryField: a part with one element in every slice field
// (every Curves kind included) merged into a computer leaves that element
// in what the computer holds, and a shard of it starts with every field
// empty. A field that shard, take or merge leaves out fails here, named.
func TestPartMergesEveryField(t *testing.T) {
	var full part
	partLeaves(t, reflect.ValueOf(&full).Elem(), "part", func(_ string, s reflect.Value) {
		s.Set(reflect.MakeSlice(s.Type(), 1, 1))
	})
	c := &computer{rep: &Report{index: map[metricKey]int{}}}
	c.merge(full)
	got := c.take()
	partLeaves(t, reflect.ValueOf(&got).Elem(), "part", func(path string, s reflect.Value) {
		if s.Len() != 1 {
			t.Errorf("%s: %d elements after merging a part with one (merge or take leaves it out)", path, s.Len())
		}
	})
	sh := c.shard().take()
	partLeaves(t, reflect.ValueOf(&sh).Elem(), "part", func(path string, s reflect.Value) {
		if s.Len() != 0 {
			t.Errorf("%s: a new shard starts with %d elements, not none (shard leaves it out)", path, s.Len())
		}
	})
	// A section's part holds what it added, a warning included.
	p := c.section(func(sh *computer) {
		sh.rep.Warnings = append(sh.rep.Warnings, "w")
		sh.rep.Curves.Decision = append(sh.rep.Curves.Decision, DecisionCurve{System: "s"})
	})
	c.merge(p)
	if w := c.rep.Warnings; len(w) != 2 || w[1] != "w" {
		t.Errorf("warnings after a section's part: %q", w)
	}
	if d := c.rep.Curves.Decision; len(d) != 2 || d[1].System != "s" {
		t.Errorf("decision curves after a section's part: %+v", d)
	}
}
