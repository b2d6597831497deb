package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBuildKilled runs real builds and kills them with SIGKILL at 12
// moments spread over a build (seeded, so the moments are the same on
// every run; each moment costs a build and a verify). After each kill the version folder holds the old bundle or
// the new one, complete: it verifies. Half the builds replace v1 with
// -force, half write a new version, which must be absent or complete.
// The next build succeeds and removes the temporary folders of the
// killed ones.
func TestBuildKilled(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs 14 builds")
	}
	bin := buildBinary(t)
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	build := func(version string, force bool) *exec.Cmd {
		args := []string{"build", "-config", cfg, "-out", root, "-version", version, "-q"}
		if force {
			args = append(args, "-force")
		}
		return exec.Command(bin, args...)
	}
	verify := func(version string) {
		t.Helper()
		out, err := exec.Command(bin, "verify", filepath.Join(root, version)).CombinedOutput()
		if err != nil {
			t.Fatalf("verify %s after a killed build: %v\n%s", version, err, out)
		}
	}
	start := time.Now()
	if out, err := build("v1", false).CombinedOutput(); err != nil {
		t.Fatalf("first build: %v\n%s", err, out)
	}
	span := time.Since(start)
	rng := rand.New(rand.NewPCG(20, 26))
	complete := 0 // kills after which the new version was in place
	for i := 0; i < 12; i++ {
		version, force := "v1", true
		if i%2 == 1 {
			version, force = "v9", false
		}
		cmd := build(version, force)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Float64() * 1.2 * float64(span)))
		_ = cmd.Process.Kill() // SIGKILL
		_ = cmd.Wait()
		if _, err := os.Stat(filepath.Join(root, version)); err == nil {
			verify(version)
			if version == "v9" {
				complete++
			}
		} else if version == "v1" {
			t.Fatalf("kill %d: v1 is gone", i)
		}
		os.RemoveAll(filepath.Join(root, "v9"))
	}
	t.Logf("a build takes %v; 6 new-version builds killed, %d had committed", span, complete)
	if out, err := build("v2", false).CombinedOutput(); err != nil {
		t.Fatalf("build after the kills: %v\n%s", err, out)
	}
	verify("v2")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("leftover temporary folder %s after the next build", e.Name())
		}
	}
}
