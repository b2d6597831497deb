package bundle

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLatestAndBefore: versions compare number by number; a folder counts
// only when it holds the file asked for, and Before stays below the given
// version.
func TestLatestAndBefore(t *testing.T) {
	root := t.TempDir()
	for dir, file := range map[string]string{
		"v2": ManifestName, "v9": ManifestName, "v10": "metrics_master.json", "v1.1": ManifestName,
		"v11": "", "x3": ManifestName, ".v12.tmp-1-2": ManifestName,
	} {
		os.MkdirAll(filepath.Join(root, dir), 0o755)
		if file != "" {
			os.WriteFile(filepath.Join(root, dir, file), []byte("{}"), 0o644)
		}
	}
	if v, err := Latest(root); v != "v9" || err != nil {
		t.Errorf("Latest = %q, %v; want v9 (v10 has no manifest, v11 nothing)", v, err)
	}
	if v, err := Latest(filepath.Join(root, "absent")); v != "" || err != nil {
		t.Errorf("Latest of a missing root = %q, %v", v, err)
	}
	for _, tc := range []struct{ version, name, want string }{
		{"v11", ManifestName, "v9"},
		{"v11", "metrics_master.json", "v10"},
		{"v9", ManifestName, "v2"},
		{"v2", ManifestName, "v1.1"},
		{"v1.1", ManifestName, ""},
		{"v3", "metrics_master.json", ""},
	} {
		if got := Before(root, tc.version, tc.name); got != tc.want {
			t.Errorf("Before(%s, %s) = %q, want %q", tc.version, tc.name, got, tc.want)
		}
	}
}
