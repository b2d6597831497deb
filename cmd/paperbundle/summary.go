package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"strings"

	"paperbundle/bundle"
	"paperbundle/compare"
	"paperbundle/internal/numtext"
	"paperbundle/internal/termsafe"
	"paperbundle/report"
	"paperbundle/tables"
)

// buildSummary is what build prints after the bundle path: five lines a
// user reads before opening the report.
type buildSummary struct {
	Dir, Version string
	Files        int
	Seconds      float64
	Previous     string // the version compared with; "" when first
	Significant  int    // significant changes since Previous
	Claims       int    // claims that changed since Previous (compare.Claim)
}

func (s buildSummary) write(w io.Writer, rep *report.Report) {
	fmt.Fprintf(w, "bundle %s written to %s (%d files, %.1fs)\n", s.Version, s.Dir, s.Files, s.Seconds)
	var names []string
	primary := ""
	for _, sys := range rep.Systems {
		if sys.Kind != report.Pipeline {
			continue
		}
		names = append(names, sys.Label)
		if sys.Primary {
			primary = sys.Name
		}
	}
	fmt.Fprintf(w, "  version   %s\n", s.Version)
	if rep.Generated == "" {
		// Without a date the bundle stays byte-identical on rebuild; a
		// date from the last commit keeps it so.
		fmt.Fprintf(w, "  date      not recorded: set SOURCE_DATE_EPOCH, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%%ct) (make paper does this in a git repository)\n")
	} else {
		fmt.Fprintf(w, "  date      %s (SOURCE_DATE_EPOCH)\n", rep.Generated)
	}
	fmt.Fprintf(w, "  intervals %s\n", rep.BootstrapText())
	// "systems", "runs" or "classifiers": the words of the kind of input.
	fmt.Fprintf(w, "  %-9s %d: %s\n", rep.Vocabulary().Say("systems"), len(names), strings.Join(names, ", "))
	fmt.Fprintf(w, "  primary   %s\n", headlines(rep, primary))
	if line := tables.Targets(rep, primary).Line(); line != "" {
		fmt.Fprintf(w, "  targets   %s\n", line)
	}
	soft := 0
	for _, c := range rep.Checks {
		if c.Result() == report.CheckNotPassed {
			soft++
		}
	}
	fmt.Fprintf(w, "  warnings  %s, %s not passed\n", plural(len(rep.Warnings), "warning"), plural(soft, "soft check"))

	if s.Previous == "" {
		fmt.Fprintf(w, "  changes   first version in this folder\n")
	} else {
		claims := ""
		if s.Claims > 0 {
			claims = plural(s.Claims, "claim") + " changed, "
		}
		fmt.Fprintf(w, "  changes   %s%d significant since %s (CHANGES.md)\n", claims, s.Significant, s.Previous)
	}
	fmt.Fprintf(w, "open %s in a browser\n", filepath.Join(s.Dir, "report.html"))
}

// headlines lists the headline metrics of the primary system with their
// intervals: its row of the results matrix.
func headlines(rep *report.Report, system string) string {
	mx := tables.BuildMatrix(rep)
	for _, row := range mx.Rows {
		if row.System != system {
			continue
		}
		var out []string
		for j, c := range row.Cells {
			if !c.Present {
				continue
			}
			s := mx.Columns[j].Title + " " + mx.FormatValue(j, c)
			if ci := mx.FormatCI(j, c); ci != "" {
				s += " " + ci
			}
			out = append(out, s)
		}
		if len(out) > 0 {
			return strings.Join(out, "; ")
		}
	}
	return "no headline metric"
}

// summaryInput is what SUMMARY.md needs from the comparison with the
// previous version: its claims that changed, and its significant changes
// on the whole population of each system of the inputs, with what decided
// each. It reads the compare.Changes that CHANGES.md is written from, so
// build and verify give SUMMARY.md the same changes from the same data.
func summaryInput(rep *report.Report, c *compare.Changes, prev, version string) tables.SummaryInput {
	in := tables.SummaryInput{Since: prev, Report: version + "/report.html"}
	if c == nil {
		return in
	}
	for _, cl := range c.Claims {
		in.Claims = append(in.Claims, cl.Text)
	}
	for _, row := range c.Rows {
		if row.Verdict != compare.Significant || row.Slice != report.Whole {
			continue
		}
		if s, ok := rep.System(row.System); !ok || s.Kind != report.Pipeline {
			continue
		}
		ch := tables.SummaryChange{System: row.System, ID: row.ID, From: float64(row.A), To: float64(row.B)}
		switch row.Test {
		case compare.TestPermutation:
			ch.Test = "permutation test"
		case compare.TestDeLong:
			ch.Test = "DeLong's test"
		case compare.TestBootstrap:
			ch.Test = "paired bootstrap"
		case compare.TestCIOverlap:
			ch.Test = "CIs do not overlap"
		}
		if row.P.Valid() && ch.Test != "" && row.Test != compare.TestCIOverlap {
			ch.Test += ", " + pText(float64(row.P))
		}
		in.Changes = append(in.Changes, ch)
	}
	return in
}

// pText writes a p-value as the tables do (numtext.P): "p = 0.0123",
// "p < 0.0001" below.
func pText(p float64) string {
	s := numtext.P(p)
	if s[0] == '<' {
		return "p " + s
	}
	return "p = " + s
}

// runSummary prints a bundle's SUMMARY.md; for a bundle made before
// SUMMARY.md existed, it writes one from metrics_master.json (its changes
// are then in CHANGES.md).
func runSummary(stdout, stderr io.Writer, args []string) error {
	fs := newFlags("summary")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("summary", "give one bundle folder, e.g. paperbundle summary results/paper_bundle/v1")
	}
	dir := pos[0]
	if err := needBundleDir("summary", dir); err != nil {
		return err
	}
	if b, err := readListed(dir, "SUMMARY.md", maxConfigBytes); err == nil || !errors.Is(err, iofs.ErrNotExist) {
		if err != nil {
			return err
		}
		_, err := io.WriteString(stdout, termsafe.Text(string(b)))
		return err
	}
	data, err := readListed(dir, "metrics_master.json", maxReportBytes)
	var se *statusError
	if errors.As(err, &se) {
		return err
	}
	if err != nil {
		return withStatus(exitInput, fmt.Errorf("summary: %s is not a bundle: %w", dir, err))
	}
	rep, err := report.Decode(data)
	if err != nil {
		return withStatus(exitInput, fmt.Errorf("summary: %s: %w", dir, err))
	}
	in := tables.SummaryInput{Report: rep.Version + "/report.html"}
	if op, err := bundle.Open(dir); err == nil {
		if in.Since = comparedVersion(dir, op.Manifest); in.Since != "" {
			in.ChangeLines = []string{"See CHANGES.md in the bundle."}
		}
	}
	_, err = io.WriteString(stdout, termsafe.Text(string(tables.Summary(rep, in))))
	return err
}

// readListed reads a bundle's file and checks it against the bundle's
// manifest: a file that is not listed, or whose size or sha256 differs,
// is exit 3 (the bundle was changed after it was built, or is not one).
// A file that is neither listed nor present is fs.ErrNotExist (io/fs).
func readListed(dir, name string, limit int64) ([]byte, error) {
	op, err := bundle.Open(dir)
	if err != nil {
		return nil, withStatus(exitCheck, fmt.Errorf("summary: %w", err))
	}
	var entry *bundle.Entry
	for i := range op.Manifest.Files {
		if op.Manifest.Files[i].Path == name {
			entry = &op.Manifest.Files[i]
		}
	}
	data, err := readBundleFile(dir, name, limit)
	switch {
	case entry == nil && errors.Is(err, iofs.ErrNotExist):
		return nil, err
	case entry == nil:
		return nil, withStatus(exitCheck, fmt.Errorf("summary: %s: %s is not listed in its manifest: the bundle was changed after it was built (paperbundle verify lists what differs)", dir, name))
	case err != nil:
		return nil, withStatus(exitCheck, fmt.Errorf("summary: %s: %s: %w", dir, name, err))
	}
	if sum := sha256.Sum256(data); int64(len(data)) != entry.Bytes || hex.EncodeToString(sum[:]) != entry.SHA256 {
		return nil, withStatus(exitCheck, fmt.Errorf("summary: %s: %s differs from its manifest: the bundle was changed after it was built (paperbundle verify lists what differs)", dir, name))
	}
	return data, nil
}
