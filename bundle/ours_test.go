package bundle

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitForceOnlyOurs checks that Commit with Force refuses to replace
// a folder that is not a bundle of this tool, and leaves it as it was.
func TestCommitForceOnlyOurs(t *testing.T) {
	for _, manifest := range []string{"", `{"tool": "other", "version": "v1"}`, `{"tool": "paperbundle x", "version": "v2"}`} {
		root := t.TempDir()
		keep := filepath.Join(root, "v1", "ch1.tex")
		os.MkdirAll(filepath.Dir(keep), 0o755)
		os.WriteFile(keep, []byte("c"), 0o644)
		if manifest != "" {
			os.WriteFile(filepath.Join(root, "v1", ManifestName), []byte(manifest), 0o644)
		}
		_, err := sample().Commit(CommitOptions{Root: root, Version: "v1", Force: true, Tool: "paperbundle test"})
		if err == nil || !strings.Contains(err.Error(), "not a bundle of paperbundle") {
			t.Errorf("manifest %q: %v, want not a bundle", manifest, err)
		}
		if b, err := os.ReadFile(keep); err != nil || string(b) != "c" {
			t.Errorf("manifest %q: ch1.tex %q, %v", manifest, b, err)
		}
	}
}

// TestEnclosing checks that a folder inside a bundle, and the bundle
// itself, are found to be in it; its root is not.
func TestEnclosing(t *testing.T) {
	root := t.TempDir()
	dir, err := sample().Commit(CommitOptions{Root: root, Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "figures"), filepath.Join(dir, "a", "b")} {
		if got := Enclosing(p); got != dir {
			t.Errorf("Enclosing(%s) = %q, want %s", p, got, dir)
		}
	}
	if got := Enclosing(root); got != "" {
		t.Errorf("Enclosing(root) = %q, want none", got)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestEnvErrors checks that failures of the machine are EnvErrors naming
// the path, told apart from a copy that is not valid: a destination that
// cannot be made, a write that fails (a full disk), an input copy that
// cannot be read for its permissions.
func TestEnvErrors(t *testing.T) {
	dir, err := sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var env *EnvError
	missing := filepath.Join(t.TempDir(), "missing", "x.csv")
	if err := o.ExtractInput(0, missing); !errors.As(err, &env) || env.Path != missing {
		t.Errorf("extract into a missing folder: %v, want an EnvError of %s", err, missing)
	}
	full := errors.New("no space left on device")
	if err := o.copyTo(failWriter{full}, o.Manifest.Inputs[0]); !errors.Is(err, full) {
		t.Errorf("copy to a full disk: %v, want the writer's error", err)
	}
	// A copy that is not gzip is the bundle's fault, not the machine's.
	copyPath := filepath.Join(dir, filepath.FromSlash(o.Manifest.Inputs[0].Copy))
	os.WriteFile(copyPath, []byte("not gzip"), 0o644)
	if err := o.copyTo(io.Discard, o.Manifest.Inputs[0]); err == nil || errors.As(err, &env) {
		t.Errorf("a copy that is not gzip: %v, want a bundle error", err)
	}
	// A file nobody may read is UNREADABLE, not CHANGED (root reads it
	// all the same: skipped then).
	os.Chmod(copyPath, 0)
	defer os.Chmod(copyPath, 0o644)
	if f, err := os.Open(copyPath); err == nil {
		f.Close()
		t.Skip("chmod 000 does not stop this user from reading (root)")
	}
	st, err := o.Check()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Path == o.Manifest.Inputs[0].Copy && s.Status != StatusUnreadable {
			t.Errorf("%s: %v, want UNREADABLE", s.Path, s)
		}
	}
}

// TestVersionNumbering checks that automatic numbering continues after the
// first number of a dotted version (v3 after v2.5), that numbers are
// bounded (9 digits) and that a root at the largest number gives an error
// rather than an overflowed version.
func TestVersionNumbering(t *testing.T) {
	for _, tc := range []struct {
		dirs []string
		next string
	}{
		{nil, "v1"},
		{[]string{"v2.5"}, "v3"},
		{[]string{"v1", "v2.5", "v10.0.1"}, "v11"},
		{[]string{"v9223372036854775807", "v4"}, "v5"}, // not a version: ignored
	} {
		root := t.TempDir()
		for _, d := range tc.dirs {
			os.Mkdir(filepath.Join(root, d), 0o755)
		}
		v, release, err := ClaimNextVersion(root)
		if err != nil || v != tc.next {
			t.Errorf("%v: claimed %q, %v; want %s", tc.dirs, v, err, tc.next)
			continue
		}
		release()
	}
	if ValidVersion("v9223372036854775807") || !ValidVersion("v999999999") || !TooLarge("v1.0000000001") {
		t.Error("versions are not bounded at 9 digits")
	}
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, "v999999999"), 0o755)
	if _, _, err := ClaimNextVersion(root); !errors.Is(err, ErrNoNextVersion) {
		t.Errorf("claim after v999999999: %v, want ErrNoNextVersion", err)
	}
}
