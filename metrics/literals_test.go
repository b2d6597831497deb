package metrics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// idRun is the longest run at the start of a string that could be a
// metric id or base: lower-case letters, digits, '_', '.', then an
// optional "@" parameter.
var idRun = regexp.MustCompile(`^[a-z0-9_]+\.[a-z0-9_.]*(@[a-z]*=?[0-9.]+)?`)

// literalIDs returns why s, a string literal of code outside this
// package, spells a metric id: it starts with a registered base (a base,
// an id, a key built from one such as "rank.gm_map||x"), or it is the head
// of one to be completed by concatenation ("ne.heldout_"); "" otherwise.
func literalIDs(s string, bases map[Base]bool) string {
	run := idRun.FindString(s)
	if run == "" {
		return ""
	}
	if b, _, _ := ParseID(ID(run)); bases[b] {
		return "metric id " + strconv.Quote(run)
	}
	if strings.HasSuffix(run, ".") || strings.HasSuffix(run, "_") {
		for b := range bases {
			if strings.HasPrefix(string(b), run) && len(run) < len(b) {
				return "the head " + strconv.Quote(run) + " of metric ids such as " + strconv.Quote(string(b))
			}
		}
	}
	return ""
}

// TestNoIDLiterals: code outside package metrics (tests aside) writes
// metric ids only through the Base constants of bases.go and their
// methods, never as string literals, so that every id the code uses is a
// registry entry the compiler checks.
func TestNoIDLiterals(t *testing.T) {
	bases := map[Base]bool{}
	for _, d := range defs {
		bases[d.Base] = true
	}
	// Literals that look like a metric id but are not one (none today).
	allowed := map[string]bool{}
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir("..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			name := e.Name()
			if path != ".." && (name == "metrics" && filepath.Dir(path) == ".." || name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		ast.Inspect(f, func(x ast.Node) bool {
			lit, ok := x.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || allowed[s] {
				return true
			}
			if why := literalIDs(s, bases); why != "" {
				t.Errorf("%s: %s as a string literal; write it with the constants of metrics/bases.go (metrics.RankRecall.At(k))", fset.Position(lit.Pos()), why)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d Go files found outside metrics/: the walk is wrong", n)
	}
}

// TestLiteralIDs: the check flags ids, bases, keys built from a base and
// heads of ids, and nothing else.
func TestLiteralIDs(t *testing.T) {
	bases := map[Base]bool{"rank.recall": true, "rank.gm_map": true, "ne.heldout_tp": true}
	for s, flag := range map[string]bool{
		"rank.recall": true, "rank.recall@10": true, "rank.gm_map||x": true, "ne.": true, "ne.heldout_": true,
		"rank.recallx": false, "gate.screen_sensitivity": false, "targets": false, "see rank.recall": false, "": false,
	} {
		if got := literalIDs(s, bases) != ""; got != flag {
			t.Errorf("literalIDs(%q) flagged %v, want %v", s, got, flag)
		}
	}
}
