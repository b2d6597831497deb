//go:build unix

package bundle

import (
	"os"
	"path/filepath"
	"testing"
)

// TestVersionKey: versions that name the same number are one version.
func TestVersionKey(t *testing.T) {
	for _, c := range [][2]string{{"v1", "1"}, {"v01", "1"}, {"v1.0", "1"}, {"v1.0.0", "1"}, {"v1.01", "1.1"}, {"v10", "10"}, {"v0", "0"}, {"v2.0.1", "2.0.1"}} {
		if got := versionKey(c[0]); got != c[1] {
			t.Errorf("versionKey(%s) = %s, want %s", c[0], got, c[1])
		}
	}
}

// TestClaimNextVersion: claims are consecutive, a killed build's claim is
// taken over, and release removes the claim and the root it made.
func TestClaimNextVersion(t *testing.T) {
	root := filepath.Join(t.TempDir(), "out")
	v1, rel1, err := ClaimNextVersion(root)
	if err != nil || v1 != "v1" {
		t.Fatalf("first claim: %s, %v", v1, err)
	}
	v2, rel2, err := ClaimNextVersion(root)
	if err != nil || v2 != "v2" {
		t.Fatalf("second claim: %s, %v", v2, err)
	}
	rel2()
	// A claim of v2 by a process that is gone (pid 2^22+1 is above
	// Linux's pid_max default) does not hold.
	if err := os.Symlink("4194305", claimPath(root, "v2")); err != nil {
		t.Fatal(err)
	}
	v, rel, err := ClaimNextVersion(root)
	if err != nil || v != "v2" {
		t.Errorf("claim beside a dead claim: %s, %v; want v2", v, err)
	}
	rel()
	rel1()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("root made by the claim is left after release: %v", err)
	}
}
