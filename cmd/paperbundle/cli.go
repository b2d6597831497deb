package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
)

// This file is the command line's own help: a usage page per
// subcommand, "did you mean" for a mistyped subcommand or flag, flags
// anywhere among the arguments, and the version.

// command is what the help page of a subcommand says besides its flags.
type command struct {
	name    string
	args    string // the positional arguments of the synopsis ("" = none)
	what    string // one line: what it does
	more    string // a paragraph, or ""
	example []string
}

var commands = []command{
	{name: "init", args: "FILE...", what: "write a commented paper.yaml for your system files (never overwrites)",
		more: "One system per file: per-query CSV or JSON Lines tables, or TREC runs\nwith -qrels (the defaults are then trec_eval's: its cutoffs, linear nDCG\ngain, the trec: conventions).",
		example: []string{
			"paperbundle init runs/full.csv runs/bm25.csv",
			"paperbundle init runs/bm25.run runs/dense.run -qrels qrels.txt",
		}},
	{name: "check", what: "validate the inputs and the configuration; writes nothing",
		example: []string{"paperbundle check -config paper.yaml"}},
	{name: "build", what: "compute every metric and write the bundle to DIR/vN/ (next free N)",
		example: []string{"paperbundle build -config paper.yaml -out results/paper_bundle"}},
	{name: "verify", args: "[-strict] BUNDLE_DIR", what: "check every file's hash, then recompute the bundle from its inputs/",
		more: "Exit 0 when the bundle is valid and recomputes byte for byte, 3 otherwise.\n" +
			"A bundle made by another tool build is valid when every hash matches:\n" +
			"what its recomputation changes is reported as what changed between the\n" +
			"two tools (\"made by X, recomputed with Y: K metrics differ\"), exit 0;\n" +
			"-strict makes those differences exit 3.",
		example: []string{"paperbundle verify results/paper_bundle/v1"}},
	{name: "diff", args: "BUNDLE_A BUNDLE_B", what: "what changed between two bundles, with significance",
		example: []string{"paperbundle diff -format md results/paper_bundle/v1 results/paper_bundle/v2"}},
	{name: "summary", args: "BUNDLE_DIR", what: "print SUMMARY.md, the short text for a review ticket",
		example: []string{"paperbundle summary results/paper_bundle/v2"}},
	{name: "audit", args: "FILE...", what: "check every number of a manuscript (LaTeX, Markdown, text, .docx) against the bundle and its older versions",
		more: "Each number is macro (printed by numbers.tex), ok (a value of the bundle that\nfits the words around it), stale (a value of an older version only),\nmismatch (beside a system and a metric, but equal to no value), claim (says\n\"significantly\" where the comparison is not, or the reverse) or unknown\n(shown with -all). LaTeX files are followed through \\input, \\include and\n\\subfile within the manuscript's folder. Exit 0 when nothing is stale, a\nmismatch or a claim, 1 when something is, 2 for a usage error.\nSee docs/audit.md.",
		example: []string{
			"paperbundle audit -bundle results/paper_bundle/v2 paper/main.tex README.md",
			"paperbundle audit -format md draft.docx > audit.md",
		}},
	{name: "demo", what: "write the synthetic demo dataset and its paper.yaml",
		example: []string{"paperbundle demo -out demo && paperbundle build -config demo/paper.yaml"}},
	{name: "version", what: "print the tool version, the Go version and the module versions (also -version)",
		example: []string{"paperbundle version"}},
	{name: "help", args: "[SUBCOMMAND]", what: "print the usage page of paperbundle or of a subcommand",
		example: []string{"paperbundle help build"}},
}

func commandNamed(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() []string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return names
}

// errHelp ends a subcommand after its help page was printed (exit 0).
var errHelp = errors.New("help printed")

// newFlags returns the flag set of a subcommand. Its errors and usage are
// written by parseArgs, never by the flag package.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseArgs parses the flags of a subcommand wherever they stand among its
// positional arguments (`init a.run b.run -qrels q.txt`; after "--"
// everything is positional) and returns the positional arguments. -h,
// -help and --help print the subcommand's usage page to stdout and return
// errHelp; a flag that is not defined is a usage error (exit 2) with a
// suggestion.
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			printCommandHelp(stdout, fs)
			return nil, errHelp
		}
		if err != nil {
			return nil, flagError(fs, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError turns a flag package error into a usage error that names the
// subcommand, suggests the flag meant, and points at the help page.
func flagError(fs *flag.FlagSet, err error) error {
	name := fs.Name()
	msg := err.Error()
	if bad, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		bad = strings.TrimLeft(bad, "-")
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
		msg = fmt.Sprintf("unknown flag -%s", bad)
		if s := suggest(bad, known); s != "" {
			msg += fmt.Sprintf(" (did you mean -%s?)", s)
		} else if len(known) > 0 {
			msg += ", expected one of -" + strings.Join(known, ", -")
		} else {
			msg += " (it takes no flags)"
		}
	}
	return withStatus(exitInput, fmt.Errorf("%s: %s; see paperbundle %s -h", name, msg, name))
}

// usageError is a usage mistake of subcommand name (exit 2), pointing at
// its help page.
func usageError(name, format string, args ...any) error {
	return withStatus(exitInput, fmt.Errorf("%s: %s; see paperbundle %s -h", name, fmt.Sprintf(format, args...), name))
}

// needBundleDir makes a missing bundle folder a usage error (exit 2): the
// path is wrong, the bundle is not invalid.
func needBundleDir(name, dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usageError(name, "no bundle folder at %s (%v), expected a folder such as results/paper_bundle/v1", dir, errors.Unwrap(err))
	case !st.IsDir():
		return usageError(name, "%s is a file, expected a bundle folder such as results/paper_bundle/v1", dir)
	}
	return nil
}

// printCommandHelp writes the usage page of the subcommand of fs: what it
// does, its synopsis, every flag with its default, and an example.
func printCommandHelp(w io.Writer, fs *flag.FlagSet) {
	c, _ := commandNamed(fs.Name())
	writeWrapped(w, "paperbundle "+c.name+": ", c.what)
	fmt.Fprintf(w, "\nusage: paperbundle %s", c.name)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, " [flags]")
	}
	if c.args != "" {
		fmt.Fprint(w, " "+c.args)
	}
	fmt.Fprintln(w)
	if c.more != "" {
		fmt.Fprintf(w, "\n%s\n", c.more)
	}
	if n > 0 {
		fmt.Fprintln(w, "\nflags (they may also follow the other arguments):")
		fs.VisitAll(func(f *flag.Flag) {
			arg, usage := flag.UnquoteUsage(f)
			head := "-" + f.Name
			if arg != "" {
				head += " " + strings.ToUpper(arg)
			}
			def := f.DefValue
			if def == "" {
				def = "none"
			}
			if !strings.Contains(usage, "(default") {
				usage += " (default " + def + ")"
			}
			writeWrapped(w, fmt.Sprintf("  %-18s ", head), usage)
		})
	}
	fmt.Fprintln(w, "\nexample:")
	for _, e := range c.example {
		fmt.Fprintln(w, "  "+e)
	}
}

// writeWrapped writes head then text, wrapped at 80 columns with the
// continuation lines indented to the width of head.
func writeWrapped(w io.Writer, head, text string) {
	line := head
	indent := strings.Repeat(" ", len(head))
	for i, word := range strings.Fields(text) {
		if i > 0 && len(line)+1+len(word) > 80 {
			fmt.Fprintln(w, line)
			line = indent + word
			continue
		}
		if i > 0 {
			line += " "
		}
		line += word
	}
	fmt.Fprintln(w, line)
}

// runHelp prints the top-level usage page, or a subcommand's.
func runHelp(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	args, err := parseArgs(newFlags("help"), args, stdout)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	if len(args) > 1 {
		return usageError("help", "give one subcommand, got %d arguments", len(args))
	}
	name := args[0]
	if _, ok := commandNamed(name); !ok {
		return unknownCommand(stderr, name)
	}
	if name == "help" {
		printCommandHelp(stdout, newFlags("help"))
		return nil
	}
	return run(ctx, stdout, stderr, []string{name, "-h"})
}

// unknownCommand is the error of a subcommand that does not exist, with a
// suggestion.
func unknownCommand(stderr io.Writer, name string) error {
	msg := fmt.Sprintf("unknown subcommand %q", name)
	if s := suggest(name, commandNames()); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return withStatus(exitInput, fmt.Errorf("%s: expected one of %s; see paperbundle -h", msg, strings.Join(commandNames(), ", ")))
}

// runVersion prints the tool version, the Go version and the versions of
// the modules built in, from the binary's build information.
func runVersion(stdout io.Writer, args []string) error {
	fs := newFlags("version")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("version", "unexpected argument %q", pos[0])
	}
	fmt.Fprintln(stdout, toolVersion())
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Fprintln(stdout, "(no build information in this binary)")
		return nil
	}
	fmt.Fprintln(stdout, "go "+strings.TrimPrefix(bi.GoVersion, "go"))
	var vcs []string
	for _, s := range bi.Settings {
		if strings.HasPrefix(s.Key, "vcs.") {
			vcs = append(vcs, s.Key+"="+s.Value)
		}
	}
	if len(vcs) > 0 {
		fmt.Fprintln(stdout, strings.Join(vcs, " "))
	}
	if len(bi.Deps) > 0 {
		fmt.Fprintln(stdout, "modules:")
		deps := append([]*debug.Module(nil), bi.Deps...)
		sort.Slice(deps, func(i, j int) bool { return deps[i].Path < deps[j].Path })
		for _, d := range deps {
			v := d.Version
			if d.Replace != nil {
				v += " => " + d.Replace.Path + " " + d.Replace.Version
			}
			fmt.Fprintf(stdout, "  %s %s\n", d.Path, v)
		}
	}
	return nil
}

// helpOK turns errHelp (the help page was printed) into success.
func helpOK(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

// suggest returns the candidate closest to s when it is close enough to be
// a typo (edit distance at most 2, and less than half of s), or s is a
// prefix of exactly one candidate; else "".
func suggest(s string, candidates []string) string {
	best, bestD := "", 3
	prefix := ""
	nPrefix := 0
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD && 2*d < len(c)+1 {
			best, bestD = c, d
		}
		if len(s) >= 2 && strings.HasPrefix(c, strings.ToLower(s)) {
			prefix = c
			nPrefix++
		}
	}
	if best == "" && nPrefix == 1 {
		return prefix
	}
	return best
}

// editDistance is the Damerau-Levenshtein (optimal string alignment)
// distance of a and b: a swap of two neighbours counts one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
