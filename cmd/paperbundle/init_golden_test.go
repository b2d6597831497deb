package main

import (
	"path/filepath"
	"strings"
	"testing"

	"paperbundle/internal/golden"
)

// TestInitTemplateGolden pins init's template byte for byte for each kind
// of input (rankings, ne_prob, Dynamic-K, all three, TREC runs). The
// golden was written by the init that spelled every line by hand, before
// the template came from the config key table.
func TestInitTemplateGolden(t *testing.T) {
	systems := []string{`  - {name: a, label: "a", input: "a.csv"}`, `  - {name: b, label: "b", input: "b.csv"}`}
	trec := []string{`  - {name: r1, label: "r1", input: "r1.txt", format: trec}`}
	var b strings.Builder
	for _, tc := range []struct {
		name    string
		systems []string
		qrels   string
		has     columns
		trec    bool
	}{
		{"ranking", systems, "", columns{ranking: true}, false},
		{"ne_prob", systems, "", columns{ne: true}, false},
		{"dynamic_k", systems, "", columns{dynK: true}, false},
		{"all", systems, "", columns{ranking: true, ne: true, dynK: true}, false},
		{"none", systems, "", columns{}, false},
		{"trec", trec, "qrels: \"qrels.txt\"          # TREC relevance judgements shared by the runs\n", columns{ranking: true}, true},
	} {
		b.WriteString("=== " + tc.name + "\n")
		b.WriteString(initTemplate(tc.systems, strings.TrimSpace(strings.Split(strings.Split(tc.systems[0], "name: ")[1], ",")[0]), tc.qrels, tc.has, tc.trec))
	}
	golden.Check(t, filepath.Join("testdata", "init_template.golden"), []byte(b.String()))
}
