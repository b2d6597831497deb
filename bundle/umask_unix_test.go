//go:build unix

package bundle

import (
	"os"
	"syscall"
	"testing"
)

// TestVersionFolderHonoursUmask checks that a version folder's mode is
// 0755 less the umask (077 gives 0700), as a folder made by mkdir.
func TestVersionFolderHonoursUmask(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status")
	}
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir, err := sample().Commit(CommitOptions{Root: t.TempDir(), Version: "v1", Tool: "paperbundle test"})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o700 {
		t.Errorf("umask 077: version folder %o, want 700", m)
	}
}
