package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"paperbundle/dataset"
)

// FuzzParse checks that no input makes Parse panic, that every failure is an
// ErrorList of 1 to dataset.MaxErrors positioned errors, and that every
// configuration Parse accepts survives the YAML round trip unchanged.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range errCases {
		f.Add([]byte(tc.doc))
	}
	// The configurations of the bad-input corpus (testdata/bad, docs/reliability.md); one of them
	// is a folder, and one case has none.
	bad, _ := filepath.Glob(filepath.Join("..", "testdata", "bad", "*", "paper.yaml"))
	for _, name := range bad {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("a: &a [*a]\nsystems: [{<<: *a}]\n"))
	f.Add([]byte("b: &b {<<: *b}\nsystems: [*b]\n"))
	f.Add([]byte("systems:\n  - &a {name: a, input: a.csv}\n  - &b {<<: [*a, *a, *a], name: b}\n" +
		"  - &c {<<: [*b, *b, *b], name: c}\n  - {<<: [*c, *c, *c], name: d}\n"))
	f.Add([]byte("systems:\n  - &s {name: a, input: a.csv}\n  - {<<: [*s, *s], name: b}\nstrata: [[1, ~]]\ntargets: {ne.auroc: {min: 0.5}}\n"))

	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("paper.yaml", data, "/d")
		if err != nil {
			var list dataset.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			if len(list) == 0 || len(list) > dataset.MaxErrors {
				t.Fatalf("%d errors", len(list))
			}
			for _, e := range list {
				if e.File != "paper.yaml" || e.Msg == "" || e.Line < 0 || e.Column < 0 {
					t.Fatalf("malformed error %+v", e)
				}
			}
			if c != nil {
				t.Fatal("Config returned with an error")
			}
			return
		}
		out, err := c.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		back, err := Parse("paper.yaml", out, "/d")
		if err != nil {
			t.Fatalf("Parse(YAML()) failed: %v\ninput:\n%s\noutput:\n%s", err, data, out)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the Config\n got: %+v\nwant: %+v", back, c)
		}
		if again, _ := back.YAML(); !bytes.Equal(again, out) {
			t.Fatalf("YAML not stable:\n%s\n---\n%s", out, again)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	data := mustRead(b, "paper_spec.yaml")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("paper.yaml", data, "."); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkYAML(b *testing.B) {
	c, err := Parse("paper.yaml", mustRead(b, "paper_trec.yaml"), ".")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.YAML(); err != nil {
			b.Fatal(err)
		}
	}
}
