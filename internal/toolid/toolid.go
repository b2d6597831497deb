// Package toolid is the build identity of the running paperbundle: the
// module version, the VCS revision and modified flag when the build info
// has them, and the sha256 of the executable. The manifest records it
// (bundle), the report shows it (report, templates, tables/xlsx), and
// `build` answers "unchanged" only when the identity of the tool that made
// the latest bundle equals this one: a version string alone never decides,
// since every build without VCS stamping says "(devel)" and every edited
// tree "+dirty".
package toolid

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// ID is a tool build's identity. The zero value is an unknown identity,
// equal to nothing.
type ID struct {
	Version  string `json:"version"`                // module version; "(devel)" for a build outside a module download
	Revision string `json:"vcs_revision,omitempty"` // vcs.revision of the build info, when stamped
	Modified *bool  `json:"vcs_modified,omitempty"` // vcs.modified of the build info, when stamped
	SHA256   string `json:"executable_sha256"`      // sha256 of the executable; "" when it could not be read
}

// Equal reports whether two identities name the same build: the same
// executable bytes, version and VCS stamp. An identity without an
// executable hash equals nothing, itself included.
func (a ID) Equal(b ID) bool {
	if a.SHA256 == "" || a.SHA256 != b.SHA256 || a.Version != b.Version || a.Revision != b.Revision {
		return false
	}
	if (a.Modified == nil) != (b.Modified == nil) {
		return false
	}
	return a.Modified == nil || *a.Modified == *b.Modified
}

// Known reports whether the identity was recorded (a bundle of an older
// schema has none).
func (a ID) Known() bool { return a.Version != "" || a.SHA256 != "" }

// String is the identity in one line: "version (devel), revision 0123abcd…
// (modified), executable sha256 89ab…". The revision and the hash are
// shortened to 12 hex digits; Long gives them whole.
func (a ID) String() string { return a.text(12) }

// Long is String with the revision and the executable hash in full.
func (a ID) Long() string { return a.text(0) }

func (a ID) text(short int) string {
	if !a.Known() {
		return "not recorded"
	}
	cut := func(s string) string {
		if short > 0 && len(s) > short {
			return s[:short]
		}
		return s
	}
	parts := []string{"version " + a.Version}
	if a.Revision != "" {
		r := "revision " + cut(a.Revision)
		if a.Modified != nil && *a.Modified {
			r += " (modified)"
		}
		parts = append(parts, r)
	}
	if a.SHA256 != "" {
		parts = append(parts, "executable sha256 "+cut(a.SHA256))
	} else {
		parts = append(parts, "executable sha256 unknown")
	}
	return strings.Join(parts, ", ")
}

// Self is the identity of the running executable, computed once (the
// executable is hashed on the first call).
var Self = sync.OnceValue(func() ID {
	id := ID{Version: "(devel)"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		id = FromBuildInfo(bi)
	}
	id.SHA256 = executableSHA256()
	return id
})

// FromBuildInfo reads the version and VCS stamp of a build info; the
// executable hash is left empty.
func FromBuildInfo(bi *debug.BuildInfo) ID {
	id := ID{Version: bi.Main.Version}
	if id.Version == "" {
		id.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			id.Revision = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			id.Modified = &m
		}
	}
	return id
}

// executableSHA256 hashes the running executable, or returns "" when it
// cannot be found or read (then the identity equals nothing).
func executableSHA256() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
