package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"paperbundle/audit"
	"paperbundle/bundle"
	"paperbundle/config"
	"paperbundle/internal/par"
	"paperbundle/report"
)

// runAudit checks a manuscript's numbers against a bundle:
// paperbundle audit [-bundle DIR] [-format text|json|md] [-all] FILE...
func runAudit(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("audit")
	dir := fs.String("bundle", "", "the bundle `folder` to check against (a version such as results/paper_bundle/v2, or the root holding the versions); (default the newest version under the out of ./paper.yaml)")
	format := fs.String("format", "text", "output `format`: text, json or md")
	all := fs.Bool("all", false, "also list the numbers that match nothing and name nothing (unknown: years, section numbers, settings)")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError("audit", "name the manuscript files, e.g. paperbundle audit paper/main.tex README.md")
	}
	switch *format {
	case "text", "json", "md":
	default:
		msg := fmt.Sprintf("-format %q: want text, json or md", *format)
		if s := suggest(*format, audit.Formats); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		return usageError("audit", "%s", msg)
	}
	cur, err := auditBundleDir(*dir)
	if err != nil {
		return err
	}
	versions, decimals, err := auditVersions(cur, stderr)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	opt := audit.DefaultOptions()
	opt.Decimals = decimals
	res, err := audit.Run(pos, versions, opt)
	var re *audit.ReadError
	if errors.As(err, &re) {
		return withStatus(exitInput, fmt.Errorf("audit: %w", err))
	}
	if err != nil {
		return err
	}
	if err := res.Write(stdout, *format, *all); err != nil {
		return err
	}
	if res.Failed() {
		return withStatus(exitInternal, fmt.Errorf("audit: the manuscript disagrees with %s: %d stale, %d mismatch, %d claim",
			res.Current, res.Counts[audit.Stale], res.Counts[audit.Mismatch], res.Counts[audit.Claim]))
	}
	return nil
}

// auditBundleDir resolves -bundle: a version folder, a root of versions
// (its newest), or without -bundle the newest version under the out of
// ./paper.yaml.
func auditBundleDir(dir string) (string, error) {
	if dir == "" {
		if _, err := os.Stat("paper.yaml"); err != nil {
			return "", usageError("audit", "no -bundle and no ./paper.yaml to find the bundle from; name the bundle with -bundle results/paper_bundle/v2")
		}
		cfg, err := config.Load("paper.yaml")
		if err != nil {
			return "", err
		}
		dir = cfg.ResolvePath(cfg.Out)
		v, err := bundle.Latest(dir)
		if err != nil || v == "" {
			return "", usageError("audit", "no bundle under %s (the out of ./paper.yaml); build one, or name it with -bundle", dir)
		}
		return filepath.Join(dir, v), nil
	}
	if err := needBundleDir("audit", dir); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "metrics_master.json")); err != nil {
		if v, _ := bundle.Latest(dir); v != "" {
			return filepath.Join(dir, v), nil
		}
	}
	return dir, nil
}

// auditVersions reads the bundle at cur and every older version beside
// it (same root, a lower version number), newest first, and the bundle's
// paper.decimals (3 when its config.yaml does not say).
func auditVersions(cur string, stderr io.Writer) ([]audit.Version, int, error) {
	rep, err := auditReport(cur)
	if err != nil {
		return nil, 0, withStatus(exitInput, fmt.Errorf("audit: %s is not a bundle: %w", cur, err))
	}
	name := filepath.Base(filepath.Clean(cur))
	if rep.Version != "" {
		name = rep.Version
	}
	out := []audit.Version{{Name: name, Report: rep}}
	root := filepath.Dir(filepath.Clean(cur))
	entries, _ := os.ReadDir(root)
	var older []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && bundle.ValidVersion(n) && bundle.VersionLess(n, name) {
			older = append(older, n)
		}
	}
	sort.Slice(older, func(i, j int) bool { return bundle.VersionLess(older[j], older[i]) })
	// Decoding metrics_master.json is most of an audit's time: the older
	// versions are decoded side by side, and kept in version order.
	reps, errs := make([]*report.Report, len(older)), make([]error, len(older))
	par.Jobs(0, len(older), func() func(int) {
		return func(i int) { reps[i], errs[i] = auditReport(filepath.Join(root, older[i])) }
	})
	for i, n := range older {
		if errs[i] != nil {
			fmt.Fprintf(stderr, "paperbundle: audit: %s left out: %v\n", n, errs[i])
			continue
		}
		out = append(out, audit.Version{Name: n, Report: reps[i]})
	}
	decimals := 3
	if data, err := readBundleFile(cur, "config.yaml", maxConfigBytes); err == nil {
		if cfg, err := config.Parse(filepath.Join(cur, "config.yaml"), data, cur); err == nil {
			decimals = cfg.Paper.Decimals
		}
	}
	return out, decimals, nil
}

func auditReport(dir string) (*report.Report, error) {
	data, err := readBundleFile(dir, "metrics_master.json", maxReportBytes)
	if err != nil {
		return nil, err
	}
	return report.Decode(data)
}
