package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyPrevious: a v2 whose recorded previous no longer matches the
// v1 beside it fails verify (exit 3) with a line naming the file and both
// sums, whether the record or v1 was changed; a record that does not name
// an earlier version is an invalid manifest. A bundle whose manifest
// records no previous (made before it was recorded) still verifies: its
// version compared with is read from CHANGES.md's title.
func TestVerifyPrevious(t *testing.T) {
	built := twoVersions(t)
	other := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, root string)
		code   int
		want   []string
	}{
		{"record's metrics sum edited", func(t *testing.T, root string) {
			editPrevious(t, root, func(p map[string]any) { p["metrics_sha256"] = other })
		}, exitCheck, []string{
			"PREVIOUS v1: not the version this bundle was compared with: its metrics_master.json has sha256 ",
			"manifest.json's previous records abababababab… (v1 was rebuilt or changed after this bundle was built)",
			"CHANGES.md, SUMMARY.md and report.html checked by hashes only (v1 is not the version compared with)",
			"the version its changes compare with (v1) is no longer the one it was compared with",
		}},
		{"record's per-query sum edited", func(t *testing.T, root string) {
			editPrevious(t, root, func(p map[string]any) { p["per_query_sha256"] = other })
		}, exitCheck, []string{"PREVIOUS v1: not the version this bundle was compared with: its per_query_metrics.csv has sha256 "}},
		{"v1 rebuilt with another seed", func(t *testing.T, root string) {
			p := filepath.Join(root, "v1", "metrics_master.json")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(data), `"seed": 20260118`, `"seed": 20260119`, 1)), 0o644)
			fixManifest(t, filepath.Join(root, "v1"), "metrics_master.json")
		}, exitCheck, []string{"PREVIOUS v1: not the version this bundle was compared with: its metrics_master.json"}},
		{"record names no earlier version", func(t *testing.T, root string) {
			editPrevious(t, root, func(p map[string]any) { p["version"] = "../v1" })
		}, exitCheck, []string{`invalid manifest: previous: version "../v1" is not a version before "v2"`}},
		{"manifest of a bundle made before previous was recorded", func(t *testing.T, root string) {
			editManifest(t, filepath.Join(root, "v2"), func(m map[string]any) { delete(m, "previous") })
		}, 0, []string{"CHANGES.md recomputed against v1 (named by CHANGES.md's title: the manifest does not record the version compared with)", "valid and recomputed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "out")
			for _, v := range []string{"v1", "v2"} {
				copyTree(t, filepath.Join(built, v), filepath.Join(root, v))
			}
			tc.tamper(t, root)
			out, stderr, code := runCmd("verify", filepath.Join(root, "v2"))
			for _, w := range tc.want {
				if !strings.Contains(out+stderr, w) {
					t.Errorf("verify lacks %q", w)
				}
			}
			if code != tc.code || t.Failed() {
				t.Errorf("verify: exit %d, want %d\n%s%s", code, tc.code, out, stderr)
			}
		})
	}
}

// editPrevious rewrites the previous record of root/v2's manifest.
func editPrevious(t *testing.T, root string, edit func(p map[string]any)) {
	t.Helper()
	editManifest(t, filepath.Join(root, "v2"), func(m map[string]any) {
		p, ok := m["previous"].(map[string]any)
		if !ok {
			t.Fatalf("v2's manifest records no previous: %v", m)
		}
		edit(p)
	})
}

// TestSummaryOfOldBundle: summary of a bundle made before SUMMARY.md
// existed writes one from metrics_master.json, naming the version compared
// with from the manifest's previous, or, in a bundle older still, from
// CHANGES.md's title.
func TestSummaryOfOldBundle(t *testing.T) {
	root := twoVersions(t)
	v2 := filepath.Join(root, "v2")
	os.Remove(filepath.Join(v2, "SUMMARY.md"))
	editManifest(t, v2, func(m map[string]any) {
		var keep []any
		for _, f := range m["files"].([]any) {
			if f.(map[string]any)["path"] != "SUMMARY.md" {
				keep = append(keep, f)
			}
		}
		m["files"] = keep
	})
	ch := filepath.Join(v2, "CHANGES.md")
	for _, name := range []string{"previous recorded", "previous not recorded"} {
		if name == "previous recorded" {
			// Named by the manifest alone: CHANGES.md is out of the way.
			os.Rename(ch, ch+".away")
		} else {
			os.Rename(ch+".away", ch)
			editManifest(t, v2, func(m map[string]any) { delete(m, "previous") })
		}
		out, stderr, code := runCmd("summary", v2)
		if code != 0 || !strings.Contains(out, "## Changes since v1\n\nSee CHANGES.md in the bundle.\n") {
			t.Errorf("%s: summary: exit %d\n%s%s", name, code, out, stderr)
		}
	}
}
