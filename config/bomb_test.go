package config

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"paperbundle/dataset"
)

// bomb writes a "billion laughs" document: anchors nested depth levels
// deep, each a list (or, with merge, a mapping merging) of nine aliases
// of the previous one, so that expanding the last would give 9^depth
// leaves. uses are the lines that refer to the last anchor.
func bomb(depth int, merge bool, uses ...string) string {
	var b strings.Builder
	b.WriteString("x:\n")
	if merge {
		b.WriteString("  a0: &a0 {lol: 1}\n")
	} else {
		b.WriteString("  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	}
	for i := 1; i < depth; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", ")
		if merge {
			fmt.Fprintf(&b, "  a%d: &a%d {<<: [%s]}\n", i, i, refs)
		} else {
			fmt.Fprintf(&b, "  a%d: &a%d [%s]\n", i, i, refs)
		}
	}
	b.WriteString("systems:\n  - {name: s, input: s.csv}\n")
	for _, u := range uses {
		b.WriteString(strings.ReplaceAll(u, "LAST", fmt.Sprintf("*a%d", depth-1)) + "\n")
	}
	return b.String()
}

// TestAliasBomb feeds billion-laughs documents (9^30 leaves once
// expanded) to every kind of key that reads nested values: they must be
// refused with positioned errors, and parsing them must allocate little.
// Aliases are followed one level at a time where a value is read, and
// each merged mapping is expanded once, so nothing grows with the
// expansion. Memory is measured (bytes allocated), not time.
func TestAliasBomb(t *testing.T) {
	for _, tc := range []struct {
		name  string
		doc   string
		first string // the first error
	}{
		{"list values", bomb(30, false, "title: LAST", "cutoffs: LAST", "fpr_targets: [LAST]", "strata: LAST", "targets: {rank.ndcg@10: LAST}", "bootstrap: LAST"),
			`paper.yaml:1:1: unknown key "x", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper`},
		{"merge keys", bomb(30, true, "gate: {<<: LAST}", "dynamic_k: {<<: [LAST, LAST]}", "targets: {ne.auroc: {<<: LAST}}", "systems_extra: {<<: LAST}"),
			`paper.yaml:1:1: unknown key "x", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper`},
		{"a system made of the bomb", strings.Replace(bomb(30, true, "reference_system: s", "bundle: {<<: LAST}"),
			"  - {name: s, input: s.csv}\n", "  - {name: s, input: s.csv}\n  - {name: t, input: t.csv, <<: *a29}\n", 1),
			`paper.yaml:1:1: unknown key "x", expected one of title, version, out, seed, qrels, queries, systems, primary, comparisons, reference_system, significance, cutoffs, fpr_targets, operating_points, bootstrap, calibration, gate, dynamic_k, strata, contract, trec, targets, headline, bundle, paper`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			c, err := Parse("paper.yaml", []byte(tc.doc), ".")
			runtime.ReadMemStats(&after)
			var list dataset.ErrorList
			if c != nil || !errors.As(err, &list) {
				t.Fatalf("Parse = %v, %v; want an ErrorList", c, err)
			}
			if got := list[0].Error(); got != tc.first {
				t.Errorf("first error %q, want %q", got, tc.first)
			}
			for _, e := range list {
				if e.Line < 1 {
					t.Errorf("error without a line: %v", e)
				}
			}
			// The document is a few kB; a parse that expanded even one
			// level in eight would allocate gigabytes.
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d errors, %d kB allocated for a %d-byte document", len(list), alloc>>10, len(tc.doc))
			if alloc > 16<<20 {
				t.Errorf("Parse allocated %d MB for a %d-byte document", alloc>>20, len(tc.doc))
			}
		})
	}
}
