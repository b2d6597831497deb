package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzOpen: any manifest.json is refused with an error or opened, never a
// panic; an opened one names only paths inside the bundle, sha256 sums,
// and a previous version before its own.
func FuzzOpen(f *testing.F) {
	sum := strings.Repeat("0", 64)
	f.Add(`{"schema_version": 1, "version": "v2", "previous": {"version": "v1", "metrics_sha256": "` + sum + `"}, "files": [{"path": "a", "bytes": 1, "sha256": "` + sum + `"}]}`)
	f.Add(`{"schema_version": 1, "version": "v1.0", "previous": {"version": "v1", "metrics_sha256": "` + sum + `", "per_query_sha256": ""}}`)
	f.Add(`{"schema_version": 1, "version": "v2", "previous": {"version": "../../v1"}}`)
	f.Add(`{"schema_version": 1, "previous": null, "inputs": [{"path": "x", "sha256": "` + sum + `", "copy": "inputs/x.gz"}]}`)
	f.Fuzz(func(t *testing.T, manifest string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := Open(dir)
		if err != nil {
			return
		}
		m := o.Manifest
		if p := m.Previous; p != nil && (!ValidVersion(p.Version) || !VersionLess(p.Version, m.Version) || !sha256RE.MatchString(p.MetricsSHA256)) {
			t.Errorf("opened a manifest whose previous is %+v (version %q)", *p, m.Version)
		}
		for _, e := range m.Files {
			if !validName(e.Path) || !sha256RE.MatchString(e.SHA256) {
				t.Errorf("opened a manifest with the file entry %+v", e)
			}
		}
	})
}
