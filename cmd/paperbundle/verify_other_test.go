package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setToolBuild rewrites manifest.json's tool_build: nil removes it (a
// bundle of an older schema), else the executable hash is replaced (a
// bundle made by another build).
func setToolBuild(t *testing.T, dir string, sha *string) {
	t.Helper()
	editManifest(t, dir, func(m map[string]any) {
		if sha == nil {
			delete(m, "tool_build")
		} else {
			m["tool_build"].(map[string]any)["executable_sha256"] = *sha
		}
	})
}

// TestVerifyOtherToolBuild: a bundle whose files recompute differently is
// invalid when this very tool build made it (exit 3), but when another
// build made it (another executable hash, or no tool_build recorded, as
// in bundles of the previous release) its matching hashes make it valid
// (exit 0) and the differences are reported as what changed between the
// tools, "made by X, recomputed with Y: K metrics differ"; -strict makes
// them exit 3. Tampering with a hash is exit 3 in every case.
func TestVerifyOtherToolBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bundles")
	}
	// What another tool would have written: a METHODS.md with one more
	// line and an AUROC of 0.999, each with its hash in the manifest.
	otherTool := func(t *testing.T, dir string) {
		p := filepath.Join(dir, "METHODS.md")
		data, _ := os.ReadFile(p)
		os.WriteFile(p, append(data, "A line an older tool wrote.\n"...), 0o644)
		fixManifest(t, dir, "METHODS.md")
		p = filepath.Join(dir, "metrics_master.json")
		data, _ = os.ReadFile(p)
		i := bytes.Index(data, []byte(`"id": "ne.auroc"`))
		j := bytes.Index(data[i:], []byte(`"value": `))
		k := i + j + len(`"value": `)
		end := bytes.IndexAny(data[k:], ",\n")
		data = append(data[:k:k], append([]byte("0.999"), data[k+end:]...)...)
		os.WriteFile(p, data, 0o644)
		fixManifest(t, dir, "metrics_master.json")
	}
	other := strings.Repeat("0", 64)
	for _, tc := range []struct {
		name string
		sha  *string
		keep bool // keep this build's identity
	}{{"same build", nil, true}, {"another executable", &other, false}, {"no tool build recorded", nil, false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := builtBundle(t)
			otherTool(t, dir)
			if !tc.keep {
				setToolBuild(t, dir, tc.sha)
			}
			out, stderr, code := runCmd("verify", dir)
			if tc.keep {
				if code != exitCheck {
					t.Errorf("made by this build: exit %d, want %d\n%s%s", code, exitCheck, out, stderr)
				}
				return
			}
			if code != 0 || !strings.Contains(out, "recomputed with another tool build: 2 file(s) differ") {
				t.Errorf("made by another build: exit %d, want 0 and the differences as information\n%s%s", code, out, stderr)
			}
			if !strings.Contains(out, "made by paperbundle") || !strings.Contains(out, ": 1 metric differs") || !strings.Contains(out, "metric sys ne.auroc") {
				t.Errorf("no 'made by X, recomputed with Y: 1 metric differ' with the metric listed:\n%s", out)
			}
			if _, _, code := runCmd("verify", "-strict", dir); code != exitCheck {
				t.Errorf("-strict: exit %d, want %d", code, exitCheck)
			}
			os.WriteFile(filepath.Join(dir, "METHODS.md"), []byte("tampered\n"), 0o644)
			if _, _, code := runCmd("verify", dir); code != exitCheck {
				t.Errorf("a changed hash of a bundle of another build: exit %d, want %d", code, exitCheck)
			}
		})
	}
}
