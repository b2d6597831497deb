// Package trecevalout reads the output of trec_eval -q (testdata of
// trec_eval's own test suite, testdata/trec_eval/expected), for the tests
// that compare the bundle's measures with trec_eval's.
package trecevalout

import (
	"bufio"
	"os"
	"strings"
)

// Read reads trec_eval -q output at path: lines "measure query value",
// by measure then query ("all" for the summary line). Lines of another
// shape are skipped.
func Read(path string) (map[string]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 {
			continue
		}
		if out[fs[0]] == nil {
			out[fs[0]] = map[string]string{}
		}
		out[fs[0]][fs[1]] = fs[2]
	}
	return out, sc.Err()
}
