package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"paperbundle/dataset/demo"
)

// tmpRoot is a folder for the whole run (the binary, the demo bundle),
// made by TestMain and removed after the tests.
var tmpRoot string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "paperbundle-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	tmpRoot = dir
	code := m.Run()
	closeBrowser()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needE2E skips the test under -short: these tests build bundles and drive
// a browser, which takes tens of seconds.
func needE2E(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end browser test skipped with -short")
	}
}

// repoRoot is the folder of go.mod (found with `go env GOMOD`, so the
// tests do not depend on the working directory).
var repoRoot = sync.OnceValues(func() (string, error) {
	out, err := exec.Command(goTool(), "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("go env GOMOD: not inside the module")
	}
	return filepath.Dir(gomod), nil
})

// goTool is the go command that runs the tests when it can be found.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go"
}

// binary builds cmd/paperbundle once into tmpRoot. It embeds echarts when
// `make echarts` has fetched it, as `make paper` would.
var binary = sync.OnceValues(func() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(tmpRoot, "paperbundle")
	cmd := exec.Command(goTool(), "build", "-o", bin, "./cmd/paperbundle")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/paperbundle: %v\n%s", err, out)
	}
	return bin, nil
})

// paperbundle runs the built binary with args.
func paperbundle(args ...string) error {
	bin, err := binary()
	if err != nil {
		return err
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("paperbundle %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// buildBundle builds version v1 of the bundle described by cfg into root
// and returns the path of its report.html.
func buildBundle(cfg, root string) (string, error) {
	if err := paperbundle("build", "-config", cfg, "-out", root, "-version", "v1", "-q"); err != nil {
		return "", err
	}
	report := filepath.Join(root, "v1", "report.html")
	if _, err := os.Stat(report); err != nil {
		return "", fmt.Errorf("the bundle has no report.html: %w", err)
	}
	return report, nil
}

// demoBundle builds the reduced demo bundle once (demo.Reduced: every
// section, figure and table of the full demo, with a fifth of the posts
// and 200 resamples; the numbers do not matter here, the page does) and
// returns its report.html.
var demoBundle = sync.OnceValues(func() (string, error) {
	dir := filepath.Join(tmpRoot, "demo")
	if err := demo.Write(dir, demo.Reduced()); err != nil {
		return "", err
	}
	return buildBundle(filepath.Join(dir, "paper.yaml"), filepath.Join(tmpRoot, "root"))
})

// demoReport returns the demo bundle's report.html, or the file named by
// PAPERBUNDLE_E2E_REPORT (to run the checks on a report.html built
// elsewhere, or edited by hand while fixing a finding).
func demoReport(t *testing.T) string {
	t.Helper()
	needE2E(t)
	if p := os.Getenv("PAPERBUNDLE_E2E_REPORT"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	p, err := demoBundle()
	if err != nil {
		t.Fatalf("demo bundle: %v", err)
	}
	return p
}

// outDir is the git-ignored folder for screenshots and PDFs.
func outDir(t *testing.T) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "e2e", "out")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// save writes an artefact into outDir and logs its path.
func save(t *testing.T, name string, data []byte) {
	t.Helper()
	p := filepath.Join(outDir(t), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("saved %s (%d KB)", p, (len(data)+1023)/1024)
}
