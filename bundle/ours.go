package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Ours says whether dir is a bundle this tool wrote: its manifest.json
// (read without following links) is JSON whose tool is paperbundle and
// whose version is the folder's name. It returns nil when it is, or an
// error saying what is missing. -force replaces only such a folder: a
// folder of anything else (a thesis, a copy of the inputs) is never
// deleted.
func Ours(dir string) error {
	data, err := ReadFile(dir, ManifestName, MaxManifestBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("it has no %s", ManifestName)
	}
	if err != nil {
		return fmt.Errorf("its %s cannot be read (%v)", ManifestName, err)
	}
	var m struct {
		Tool    string `json:"tool"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("its %s is not a manifest (%v)", ManifestName, err)
	}
	if m.Tool != "paperbundle" && !strings.HasPrefix(m.Tool, "paperbundle ") {
		return fmt.Errorf("its %s names another tool (%q)", ManifestName, m.Tool)
	}
	if m.Version != filepath.Base(filepath.Clean(dir)) {
		return fmt.Errorf("its %s is of version %q, not of this folder", ManifestName, m.Version)
	}
	return nil
}

// Enclosing returns the bundle that holds the folder root, or root itself
// when it is one ("" when neither): the nearest folder from root up whose
// manifest.json is this tool's. A bundle root inside a bundle would put a
// version inside a version, which then fails verify.
func Enclosing(root string) string {
	dir, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, ManifestName)); err == nil && Ours(dir) == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
