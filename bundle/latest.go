package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Latest returns the highest version in root that holds a complete bundle
// (a manifest.json), comparing versions number by number (v10 after v9,
// v1.1 after v1); "" when there is none.
func Latest(root string) (string, error) {
	return highestWith(root, "", ManifestName)
}

// Before returns the highest version in root below version whose folder
// holds the file name (build compares with the highest one holding a
// metrics_master.json); "" when there is none or root cannot be read.
func Before(root, version, name string) string {
	v, _ := highestWith(root, version, name)
	return v
}

// highestWith is the highest version folder of root that holds the file
// name, below version unless version is "".
func highestWith(root, version, name string) (string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	best := ""
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || !ValidVersion(n) || version != "" && !VersionLess(n, version) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, n, name)); err != nil {
			continue
		}
		if best == "" || VersionLess(best, n) {
			best = n
		}
	}
	return best, nil
}

// VersionLess reports whether version a comes before version b, number
// by number ("v2" < "v10", "v1" < "v1.1").
func VersionLess(a, b string) bool {
	pa, pb := strings.Split(strings.TrimPrefix(a, "v"), "."), strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}
