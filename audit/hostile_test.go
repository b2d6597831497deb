package audit

import (
	"archive/zip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readErr runs the audit of paths and returns its *ReadError, failing
// when there is none. The time it took is logged, not tested: speed is a
// benchmark's (BenchmarkAudit40Pages), and the race detector or a shared
// machine slows a run several times.
func readErr(t *testing.T, paths ...string) *ReadError {
	t.Helper()
	start := time.Now()
	_, err := Run(paths, fixtureVersions(), DefaultOptions())
	t.Logf("took %v", time.Since(start))
	var re *ReadError
	if !errors.As(err, &re) {
		t.Fatalf("want a *ReadError, got %v", err)
	}
	return re
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHostileLaTeX(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "loop.tex"), "text\n\\input{b}\n")
	write(t, filepath.Join(dir, "b.tex"), "more\n\\include{loop}\n")
	write(t, filepath.Join(dir, "passwd.tex"), "\\begin{document}\nsee \\input{/etc/passwd}\n\\end{document}\n")
	write(t, filepath.Join(dir, "up.tex"), "x \\input{../../../../../../etc/passwd}\n")
	write(t, filepath.Join(dir, "missing.tex"), "x\n\n  \\subfile{sections/none}\n")
	write(t, filepath.Join(dir, "bin.txt"), "abc\x00def")
	for _, c := range []struct {
		file, want string
	}{
		{"loop.tex", `b.tex:2:1: \include{loop} reads ` + filepath.Join(dir, "loop.tex")},
		{"passwd.tex", `passwd.tex:2:5: \input{/etc/passwd}: an absolute path`},
		{"up.tex", `up.tex:1:3: \input{../../../../../../etc/passwd} leaves the manuscript's folder`},
		{"missing.tex", `missing.tex:3:3: \subfile{sections/none}: cannot read`},
		{"bin.txt", "bin.txt:1:1: a NUL byte"},
		{"none.md", "none.md: cannot read it (no such file or directory)"},
		{"paper.pdf", "paper.pdf: audit reads LaTeX (.tex)"},
	} {
		err := readErr(t, filepath.Join(dir, c.file))
		if got := err.Error(); !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want it to contain %q", c.file, got, c.want)
		}
	}
}

// TestDeepInput: a chain of \input deeper than the limit ends in an error
// naming the depth, not a stack overflow.
func TestDeepInput(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		write(t, filepath.Join(dir, "f"+itoa(i)+".tex"), "\\input{f"+itoa(i+1)+"}\n")
	}
	if err := readErr(t, filepath.Join(dir, "f0.tex")); !strings.Contains(err.Msg, "nests more than 16 files deep") {
		t.Errorf("got %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestFIFORefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	p := filepath.Join(t.TempDir(), "pipe.md")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip(err)
	}
	if err := readErr(t, p); !strings.Contains(err.Msg, "not a regular file") {
		t.Errorf("got %v", err)
	}
}

// TestDocxBomb: a document.xml that inflates past the limit stops at the
// limit when its header says so, and where the header says when it lies
// (a size of 1: archive/zip stops there).
func TestDocxBomb(t *testing.T) {
	dir := t.TempDir()
	big := "<w:document><w:body><w:p><w:r><w:t>" + strings.Repeat("0.875 ", (17<<20)/6) + "</w:t></w:r></w:p></w:body></w:document>"
	honest := filepath.Join(dir, "bomb.docx")
	writeZip(t, honest, map[string]string{"word/document.xml": big}, zip.Deflate)
	if fi, _ := os.Stat(honest); fi.Size() > 1<<20 {
		t.Fatalf("the bomb is %d bytes on disk, want under 1 MiB", fi.Size())
	}
	if err := readErr(t, honest); !strings.Contains(err.Msg, "inflates to 17 MiB, more than the 16 MiB") {
		t.Errorf("got %v", err)
	}
	// 1 MiB less than the limit is read, and its numbers counted up to
	// Limits.Numbers: bounded memory
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	under := filepath.Join(dir, "under.docx")
	writeZip(t, under, map[string]string{"word/document.xml": big[:15<<20] + "</w:t></w:r></w:p></w:body></w:document>"}, zip.Deflate)
	start := time.Now()
	if err := readErr(t, under); !strings.Contains(err.Msg, "more than 200000 numbers in the manuscript") {
		t.Errorf("got %v", err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("a 15 MiB document.xml of numbers allocated %d MiB", alloc>>20)
	} else {
		t.Logf("a 15 MiB document.xml of 2.6 million numbers: stopped at 200,000 after %v, %d MiB allocated in all", time.Since(start), alloc>>20)
	}
	lying := filepath.Join(dir, "lying.docx")
	f, _ := os.Create(lying)
	zw := zip.NewWriter(f)
	comp := deflate(t, big)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CompressedSize64: uint64(len(comp)), UncompressedSize64: 1})
	w.Write(comp)
	zw.Close()
	f.Close()
	if err := readErr(t, lying); !strings.Contains(err.Msg, "word/document.xml is damaged") {
		t.Errorf("got %v", err)
	}
}

func deflate(t *testing.T, s string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.zip")
	writeZip(t, p, map[string]string{"word/document.xml": s}, zip.Deflate)
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	rc, err := zr.File[0].OpenRaw()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLargeDocx: a 50 MB .docx is refused by its size, at once.
func TestLargeDocx(t *testing.T) {
	p := filepath.Join(t.TempDir(), "large.docx")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := readErr(t, p); !strings.Contains(err.Msg, "a .docx of 50 MiB, larger than the 32 MiB audit reads") {
		t.Errorf("got %v", err)
	}
}

func TestNotADocx(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "text.docx")
	write(t, p, "just text")
	if err := readErr(t, p); !strings.Contains(err.Msg, "not a .docx file") {
		t.Errorf("got %v", err)
	}
	q := filepath.Join(dir, "bad.docx")
	writeZip(t, q, map[string]string{"word/document.xml": "<w:document><w:p>"}, zip.Deflate)
	if err := readErr(t, q); !strings.Contains(err.Msg, "word/document.xml is not valid XML") {
		t.Errorf("got %v", err)
	}
}

// TestWorstCaseText: files at the size limit made of what costs most
// (unclosed braces after commands; numbers and metric names with no full
// stop; one table row of thousands of cells) read in seconds, or stop at
// the most numbers audit checks.
func TestWorstCaseText(t *testing.T) {
	if testing.Short() {
		t.Skip("8 MB inputs")
	}
	dir := t.TempDir()
	n := DefaultLimits().FileBytes - 16
	fill := func(unit string) string { return strings.Repeat(unit, int(n)/len(unit)) }
	for name, body := range map[string]string{
		"braces.tex": fill(`\a{[`),
		"prose.md":   fill("Full pipeline AUROC 0.875 nDCG@10 "),
		"row.tex":    fill(" 0.851 & AUROC & "),
		"pipes.md":   "|" + fill(" 0.851 | Retriever only |"),
	} {
		p := filepath.Join(dir, name)
		write(t, p, body)
		start := time.Now()
		var re *ReadError
		if _, err := Run([]string{p}, fixtureVersions(), DefaultOptions()); err != nil && !(errors.As(err, &re) && strings.Contains(re.Msg, "numbers in the manuscript")) {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %v", name, time.Since(start))
	}
}
