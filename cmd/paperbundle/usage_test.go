package main

import (
	"strings"
	"testing"
)

// With no arguments or -h, paperbundle prints a short manual with an
// example; without arguments it also says where to start (exit 2).
func TestUsageManual(t *testing.T) {
	out, errOut, code := runCmd()
	if code != 2 || !strings.Contains(errOut, "example") || !strings.Contains(errOut, "paperbundle init") ||
		!strings.Contains(errOut, "start with") {
		t.Errorf("no arguments: exit %d, stderr %q", code, errOut)
	}
	if out != "" {
		t.Errorf("no arguments wrote to stdout: %q", out)
	}
	for _, h := range []string{"-h", "--help", "help"} {
		out, _, code := runCmd(h)
		if code != 0 || !strings.Contains(out, "example") || !strings.Contains(out, "exit status") {
			t.Errorf("%s: exit %d, stdout %q", h, code, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 80 {
				t.Errorf("%s: line longer than 80 columns: %q", h, line)
			}
		}
	}
	_, errOut, code = runCmd("biuld")
	if code != 2 || !strings.Contains(errOut, "expected one of") {
		t.Errorf("misspelled subcommand: exit %d, %q", code, errOut)
	}
}

// Every subcommand has a usage page, from `SUBCOMMAND -h` and from `help
// SUBCOMMAND` alike: exit 0, on stdout, with the synopsis, every flag with
// its default, and an example, in 80 columns.
func TestSubcommandHelp(t *testing.T) {
	flags := map[string][]string{
		"init":    {"-out FILE", "-qrels FILE"},
		"check":   {"-config FILE"},
		"build":   {"-config FILE", "-version VERSION", "-out FOLDER", "-force", "-q"},
		"verify":  nil,
		"diff":    {"-format FORMAT", "-all"},
		"audit":   {"-bundle FOLDER", "-format FORMAT", "-all"},
		"demo":    {"-out FOLDER", "-seed"},
		"version": nil,
		"help":    nil,
	}
	for name, fl := range flags {
		for _, args := range [][]string{{name, "-h"}, {name, "--help"}, {"help", name}} {
			out, errOut, code := runCmd(args...)
			if code != 0 || errOut != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
				continue
			}
			for _, want := range []string{"usage: paperbundle " + name, "example:\n  paperbundle "} {
				if !strings.Contains(out, want) {
					t.Errorf("%v: page lacks %q:\n%s", args, want, out)
				}
			}
			for _, f := range fl {
				i := strings.Index(out, "  "+f+" ")
				if i < 0 || !strings.Contains(out[i:], "default") {
					t.Errorf("%v: page lacks flag %s with its default:\n%s", args, f, out)
				}
			}
			for _, line := range strings.Split(out, "\n") {
				if len(line) > 80 {
					t.Errorf("%v: line longer than 80 columns: %q", args, line)
				}
			}
		}
	}
}

// A mistyped subcommand or flag gets "did you mean", exit 2; a flag that
// does not exist and resembles none lists the flags there are.
func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"biuld"}, `unknown subcommand "biuld" (did you mean build?)`},
		{[]string{"veirfy", "x"}, "(did you mean verify?)"},
		{[]string{"versoin"}, "(did you mean version?)"},
		{[]string{"build", "-confg", "p.yaml"}, "build: unknown flag -confg (did you mean -config?); see paperbundle build -h"},
		{[]string{"init", "a.csv", "--qrel", "q.txt"}, "init: unknown flag -qrel (did you mean -qrels?)"},
		{[]string{"diff", "-formt", "md", "a", "b"}, "(did you mean -format?)"},
		{[]string{"diff", "-format", "jsn", "a", "b"}, "(did you mean json?)"},
		{[]string{"check", "-zzz"}, "unknown flag -zzz, expected one of -config"},
		{[]string{"verify", "-x", "b"}, "verify: unknown flag -x, expected one of -strict"},
	} {
		out, errOut, code := runCmd(c.args...)
		if code != exitInput || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q, want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
}

// A bundle folder that does not exist is a usage error (exit 2), not an
// invalid bundle (3).
func TestMissingBundleFolder(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/no/such/v1"
	for _, args := range [][]string{{"verify", missing}, {"diff", missing, dir}, {"diff", dir, missing}} {
		_, errOut, code := runCmd(args...)
		if code != exitInput || !strings.Contains(errOut, "no bundle folder at "+missing) {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// version and -version print the tool version, the Go version and the
// module versions.
func TestVersion(t *testing.T) {
	for _, a := range []string{"version", "-version", "--version"} {
		out, errOut, code := runCmd(a)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "paperbundle ") || !strings.Contains(out, "\ngo 1.") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", a, code, out, errOut)
		}
	}
	if _, errOut, code := runCmd("version", "extra"); code != exitInput || !strings.Contains(errOut, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d %q", code, errOut)
	}
}
