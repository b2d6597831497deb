package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExponentialGainGrades: under the default exponential nDCG gain a
// grade of 1024 or more has a gain 2^grade − 1 that is infinite in
// float64; it is refused (exit 2) naming the file, the line and the
// grade, never left out of nDCG's mean. Under linear gain it is a grade
// like any other. 1023 (2^1023 − 1 ≈ 9e307) is still finite.
func TestExponentialGainGrades(t *testing.T) {
	table := "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,s1,1,s1;s2,2;1\nP2,s2,GRADE,s1;s2,2;1\n"
	for _, tc := range []struct {
		grade, gain string
		code        int
	}{
		{"1100", "", 2},
		{"1024", "", 2},
		{"1023", "", 0},
		{"1100", "contract: {ndcg_gain: linear}\n", 0},
	} {
		dir, cfg := writeProject(t, strings.Replace(table, "GRADE", tc.grade, 1))
		if tc.gain != "" {
			y, _ := os.ReadFile(cfg)
			os.WriteFile(cfg, append(y, tc.gain...), 0o644)
		}
		_, stderr, code := runCmd("build", "-q", "-config", cfg, "-out", filepath.Join(dir, "out"))
		if code != tc.code {
			t.Errorf("grade %s %s: exit %d, want %d: %s", tc.grade, tc.gain, code, tc.code, stderr)
			continue
		}
		if code == 2 && (!strings.Contains(stderr, "sys.csv:3:") || !strings.Contains(stderr, "grade "+tc.grade)) {
			t.Errorf("grade %s: %q, want the file, line 3 and the grade named", tc.grade, stderr)
		}
	}
}
