package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The bad-input corpus (docs/reliability.md) lives in the top-level
// testdata/bad/: one folder per case with a paper.yaml, its input files,
// want.txt (the exit status on the first line, then the exact text the user
// sees on stderr) and, optionally, args (more build flags, one per line). See
// testdata/README.md.

var updateBad = flag.Bool("updatebad", false, "rewrite testdata/bad/*/want.txt from the messages the cases give now")

const badDir = "../../testdata/bad"

// badSetup prepares the cases whose inputs are too large to commit or need
// the file system, in the case's copy: key is the folder name without its
// number.
var badSetup = map[string]func(t *testing.T, dir string){
	// One 10 MB line: a row whose split cell is 10 MB of text. The message
	// quotes the start of the value, not all of it.
	"csv-10mb-line": func(t *testing.T, dir string) {
		var b bytes.Buffer
		b.WriteString("post_id,split,gold_uids,candidate_uids,candidate_scores\n")
		b.WriteString("P1,eval,s1,s1;s2,0.9;0.1\n")
		b.WriteString("P2,")
		b.Write(bytes.Repeat([]byte("holdout-"), 10<<20/8))
		b.WriteString(",s1,s1;s2,0.9;0.1\n")
		writeFile(t, filepath.Join(dir, "sys.csv"), b.Bytes())
	},
	// One 10 MB JSON Lines line: a valid start (a list of 900,000
	// candidates and their scores), cut before its closing brace.
	"jsonl-10mb-line": func(t *testing.T, dir string) {
		var b bytes.Buffer
		b.WriteString(`{"post_id":"P1","gold_uids":["c7"],"candidate_uids":[`)
		for i := range 900_000 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"c` + strconv.Itoa(i) + `"`)
		}
		b.WriteString(`],"candidate_scores":[`)
		for i := range 900_000 {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('1')
		}
		b.WriteString("]\n")
		if b.Len() < 10<<20 {
			t.Fatalf("line of %d bytes, want at least 10 MB", b.Len())
		}
		writeFile(t, filepath.Join(dir, "sys.jsonl"), b.Bytes())
	},
	// A candidate list of 100,000 sentences whose last one repeats the
	// 18th.
	"csv-100k-candidates": func(t *testing.T, dir string) {
		var b bytes.Buffer
		b.WriteString("post_id,gold_uids,candidate_uids,candidate_scores\n")
		b.WriteString("P1,s1,s1;s2,0.9;0.1\n")
		b.WriteString("P2,s5,")
		ids := make([]string, 100_000)
		scores := make([]string, len(ids))
		for i := range ids {
			ids[i] = "s" + strconv.Itoa(i)
			scores[i] = strconv.Itoa(len(ids) - i)
		}
		ids[len(ids)-1] = "s17"
		b.WriteString(strings.Join(ids, ";") + "," + strings.Join(scores, ";") + "\n")
		writeFile(t, filepath.Join(dir, "sys.csv"), b.Bytes())
	},
	// /dev/zero as the input: one endless line, stopped at the maximum
	// of a line.
	"csv-dev-zero": func(t *testing.T, dir string) {
		if _, err := os.Stat("/dev/zero"); err != nil {
			t.Skip("no /dev/zero")
		}
		if err := os.Symlink("/dev/zero", filepath.Join(dir, "sys.csv")); err != nil {
			t.Fatal(err)
		}
	},
	// A file nobody may read. Root reads it all the same: the case is
	// skipped when the chmod does not stop os.Open.
	"csv-unreadable-file": func(t *testing.T, dir string) {
		p := filepath.Join(dir, "sys.csv")
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(p, 0o644) })
		if f, err := os.Open(p); err == nil {
			f.Close()
			t.Skip("chmod 000 does not stop this user from reading (root)")
		}
	},
}

func writeFile(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the folder src (files and folders) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readWant parses want.txt: the exit status, then the message.
func readWant(t *testing.T, name string) (int, string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	first, msg, _ := strings.Cut(string(data), "\n")
	code, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		t.Fatalf("%s: first line %q, want the exit status", name, first)
	}
	return code, msg
}

// runGuarded is runCmd with a panic turned into a test failure. It
// returns the exit status and everything the user sees on stderr: what run
// wrote there, then the error line of main.
func runGuarded(t testing.TB, args ...string) (code int, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("panic: %v", p)
			}
		}()
		err = run(context.Background(), &out, &errb, args)
	}()
	if err != nil {
		code = exitCode(err)
		fmt.Fprintln(&errb, "paperbundle:", err)
	}
	return code, errb.String()
}

// settleGoroutines waits a little for goroutines to end and returns how
// many are left.
func settleGoroutines(limit int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 200 && n > limit; i++ {
		time.Sleep(10 * time.Millisecond)
		n = runtime.NumGoroutine()
	}
	return n
}

// listTree returns every path under dir (relative, with a trailing / for
// folders) and the sha256 of every file.
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// root/latest: where it points is the entry's content.
			to, err := os.Readlink(p)
			out[rel] = "-> " + to
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBadInputs runs every case of testdata/bad through the build command
// in-process (build -q -config paper.yaml -out OUT, from the case's
// folder, so that messages name files as a user in that folder sees
// them) and checks the exit status, the exact message, that nothing was
// written under -out, no panic and no goroutine left behind. Cases with
// status 0 (a byte order mark, CRLF line ends) must build a bundle.
func TestBadInputs(t *testing.T) {
	dir, err := filepath.Abs(badDir) // the cases run in other folders
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) < 40 {
		t.Fatalf("%d cases in %s, want at least 40", len(names), badDir)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(dir, name)
			wantCode, wantMsg := -1, ""
			if !*updateBad {
				wantCode, wantMsg = readWant(t, filepath.Join(src, "want.txt"))
			}
			work := t.TempDir()
			copyTree(t, src, work)
			os.Remove(filepath.Join(work, "want.txt"))
			_, short, _ := strings.Cut(name, "-")
			if setup := badSetup[short]; setup != nil {
				setup(t, work)
			}
			out := t.TempDir()
			args := []string{"build", "-q", "-config", "paper.yaml", "-out", out}
			if extra, err := os.ReadFile(filepath.Join(work, "args")); err == nil {
				args = append(args, strings.Fields(string(extra))...)
			}
			t.Chdir(work)

			before := runtime.NumGoroutine()
			code, msg := runGuarded(t, args...)
			msg = strings.ReplaceAll(msg, out, "{out}")
			if left := settleGoroutines(before); left > before {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines before the build, %d after:\n%s", before, left, buf[:runtime.Stack(buf, true)])
			}

			if *updateBad {
				writeFile(t, filepath.Join(src, "want.txt"), []byte(strconv.Itoa(code)+"\n"+msg))
				return
			}
			if code != wantCode {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, wantCode, msg)
			}
			if msg != wantMsg {
				t.Errorf("stderr:\n%s\nwant:\n%s", msg, wantMsg)
			}
			if code != 0 && !strings.Contains(msg, ":") {
				t.Errorf("message %q does not name a file", msg)
			}
			got := listTree(t, out)
			if code == 0 {
				if _, ok := got["v1/metrics_master.json"]; !ok {
					t.Errorf("accepted input, but no bundle under -out: %v", slices.Sorted(maps.Keys(got)))
				}
				return
			}
			if len(got) > 0 {
				t.Errorf("a failed build left %v under -out", slices.Sorted(maps.Keys(got)))
			}
		})
	}
	for short := range badSetup {
		if !slices.ContainsFunc(names, func(n string) bool { _, s, _ := strings.Cut(n, "-"); return s == short }) {
			t.Errorf("setup for %q matches no case folder", short)
		}
	}
}

// TestBadBuildKeepsExistingVersion checks that a build that fails leaves
// an existing version byte for byte as it was, even with -force, and leaves
// no temporary folder beside it.
func TestBadBuildKeepsExistingVersion(t *testing.T) {
	t.Parallel()
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if code, msg := runGuarded(t, "build", "-q", "-config", cfg, "-out", root); code != 0 {
		t.Fatalf("first build: exit %d: %s", code, msg)
	}
	before := listTree(t, root)
	if _, ok := before["v1/manifest.json"]; !ok {
		t.Fatalf("first build wrote no v1: %v", slices.Sorted(maps.Keys(before)))
	}
	unchanged := func(what string) {
		t.Helper()
		after := listTree(t, root)
		for p, h := range before {
			if after[p] != h {
				t.Errorf("%s: %s changed or disappeared", what, p)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("%s: %s appeared under the root", what, p)
			}
		}
	}
	sys := filepath.Join(dir, "sys.csv")
	for _, tc := range []struct {
		name  string
		csv   string
		args  []string
		code  int
		inMsg string
	}{
		{"bad input, -force", strings.Replace(goodCSV, "0.4;0.6;0.1", "0.4;NaN;0.1", 1), []string{"-version", "v1", "-force"}, 2, "sys.csv:4:"},
		{"hard check, -force", strings.Replace(goodCSV, "P4,A.1,1,eval", "P2,A.1,1,eval", 1), []string{"-version", "v1", "-force"}, 3, "expected each post evaluated in exactly one fold"},
		{"bad -version", goodCSV, []string{"-version", "v1/../v1", "-force"}, 2, "-version"},
		{"existing version without -force", goodCSV, []string{"-version", "v1"}, 2, "already exists"},
	} {
		writeFile(t, sys, []byte(tc.csv))
		args := append([]string{"build", "-q", "-config", cfg, "-out", root}, tc.args...)
		code, msg := runGuarded(t, args...)
		if code != tc.code || !strings.Contains(msg, tc.inMsg) {
			t.Errorf("%s: exit %d, %q; want exit %d with %q", tc.name, code, msg, tc.code, tc.inMsg)
		}
		unchanged(tc.name)
	}
}

// TestBadCorpusDocumented checks that every case folder has what the
// README promises: a paper.yaml (unless the case is about its absence)
// and a well-formed want.txt whose message names a file, line and column
// when the status is not 0.
func TestBadCorpusDocumented(t *testing.T) {
	entries, err := os.ReadDir(badDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(badDir, e.Name())
		code, msg := readWant(t, filepath.Join(dir, "want.txt"))
		if _, err := os.Stat(filepath.Join(dir, "paper.yaml")); errors.Is(err, fs.ErrNotExist) && !strings.Contains(e.Name(), "config-missing") {
			t.Errorf("%s: no paper.yaml", e.Name())
		}
		if code == 0 {
			if msg != "" {
				t.Errorf("%s: status 0 with a message %q", e.Name(), msg)
			}
			continue
		}
		if code != 2 && code != 3 {
			t.Errorf("%s: status %d, want 2 or 3 (or 0 for accepted input)", e.Name(), code)
		}
		if !strings.HasPrefix(msg, "paperbundle: ") || !strings.HasSuffix(msg, "\n") {
			t.Errorf("%s: message %q does not start with paperbundle: and end with a newline", e.Name(), msg)
			continue
		}
		// Every error reads file:line:col: what was wrong, what was expected.
		// Only a configuration that cannot be read at all and a bad flag have
		// no line to point at.
		for _, line := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(msg, "paperbundle: "), "\n"), "\n") {
			switch {
			case positionedRE.MatchString(line):
			case strings.HasPrefix(line, "-") && strings.Contains(line, ", expected "):
			case strings.Contains(line, ": cannot read the configuration ("):
			default:
				t.Errorf("%s: %q is not file:line:col: what was wrong, expected what", e.Name(), line)
			}
		}
	}
}

var positionedRE = regexp.MustCompile(`^[^ :]+:[1-9][0-9]*:[1-9][0-9]*: .+, expected .+`)
