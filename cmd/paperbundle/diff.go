package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"paperbundle/bundle"
	"paperbundle/compare"
	"paperbundle/report"
	"paperbundle/templates"
)

// runDiff compares two bundles: paperbundle diff [-format F] [-all] A B.
func runDiff(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlags("diff")
	format := fs.String("format", "text", "output `format`: text, md, csv, json or html")
	all := fs.Bool("all", false, "also show unchanged rows (~), and with md and html every changed row")
	pos, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("diff", "give two bundle folders, e.g. paperbundle diff results/paper_bundle/v1 results/paper_bundle/v2")
	}
	switch *format {
	case "text", "md", "csv", "json", "html":
	default:
		msg := fmt.Sprintf("-format %q: want text, md, csv, json or html", *format)
		if s := suggest(*format, []string{"text", "md", "csv", "json", "html"}); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		return usageError("diff", "%s", msg)
	}
	for _, dir := range pos {
		if err := needBundleDir("diff", dir); err != nil {
			return err
		}
	}
	var sides [2]side
	for i, dir := range pos {
		sides[i], err = loadSide(dir)
		if ctx.Err() != nil {
			return ctx.Err() // interrupted
		}
		if hostile(err) {
			return withStatus(exitCheck, fmt.Errorf("diff: %w", err)) // NOT A FILE, or too large
		}
		if err != nil {
			return withStatus(exitInput, fmt.Errorf("diff: %w", err))
		}
	}
	c, err := diffSides(sides[0], sides[1])
	if err != nil {
		return withStatus(exitInput, fmt.Errorf("diff: %w", err))
	}
	if *format == compare.FormatHTML {
		// A page of its own with the report's styles, not a bare fragment.
		body, err := c.HTML(compare.WriteOptions{All: *all})
		if err != nil {
			return err
		}
		return templates.ChangesPage(stdout, "Changes from "+c.A.Version+" to "+c.B.Version, body)
	}
	return c.Write(stdout, *format, compare.WriteOptions{All: *all})
}

// side is one bundle of a comparison: its report with its per-query rows,
// config.yaml and inputs.
type side struct {
	folder string // as given, or the version's folder name
	rep    *report.Report
	config []byte
	inputs map[string]string // input path -> sha256 (nil: unknown)
	// metricsSHA and perQuerySHA are the sha256 of the metrics_master.json
	// and per_query_metrics.csv bytes read ("": no per-query file).
	metricsSHA, perQuerySHA string
}

// Bounds of the files a comparison reads from a bundle, which is untrusted
// input: a larger file is refused rather than read.
const (
	maxReportBytes   = 1 << 30 // metrics_master.json
	maxPerQueryBytes = 8 << 30 // per_query_metrics.csv, read as a stream
	maxConfigBytes   = 4 << 20 // config.yaml
)

// openBundleFile opens name in dir for reading at most limit bytes; it
// refuses a symbolic link or anything but a regular file. The reader
// fails with an error past limit.
func openBundleFile(dir, name string, limit int64) (io.ReadCloser, error) {
	p := filepath.Join(dir, name)
	// bundle.OpenFile never follows a link and never opens a FIFO or a
	// device (bundle.ErrNotAFile).
	f, err := bundle.OpenFile(dir, name)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || fi.Size() > limit {
		f.Close()
		return nil, &os.PathError{Op: "read", Path: p, Err: fmt.Errorf("%w: more than the %d bytes this command reads", bundle.ErrTooLarge, limit)}
	}
	return struct {
		io.Reader
		io.Closer
	}{&boundedReader{r: f, left: limit, name: p}, f}, nil
}

// boundedReader fails once more than left bytes were read (a file that
// grew after it was measured).
type boundedReader struct {
	r    io.Reader
	left int64
	name string
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &os.PathError{Op: "read", Path: b.name, Err: bundle.ErrTooLarge}
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n, &os.PathError{Op: "read", Path: b.name, Err: bundle.ErrTooLarge}
	}
	return n, err
}

// hostile reports whether err is a bundle file that is not a regular file
// or is larger than its maximum: verify and diff exit 3 on it.
func hostile(err error) bool {
	return errors.Is(err, bundle.ErrNotAFile) || errors.Is(err, bundle.ErrTooLarge)
}

// readBundleFile reads a whole file of a bundle (see openBundleFile).
func readBundleFile(dir, name string, limit int64) ([]byte, error) {
	f, err := openBundleFile(dir, name, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// loadSide reads what a comparison needs from a bundle folder: the report
// (metrics_master.json) with its per-query rows (per_query_metrics.csv,
// read by the report package; a bundle without it is compared on CI
// overlap), config.yaml and the manifest's input hashes.
func loadSide(dir string) (side, error) {
	data, err := readBundleFile(dir, "metrics_master.json", maxReportBytes)
	if err != nil {
		return side{}, fmt.Errorf("%s is not a bundle: %w", dir, err)
	}
	r, err := report.Decode(data)
	if err != nil {
		return side{}, fmt.Errorf("%s: %w", dir, err)
	}
	s := side{folder: dir, rep: r, metricsSHA: hexSHA256(data)}
	if s.inputs, err = inputSums(dir); err != nil {
		return side{}, err
	}
	s.config, err = readBundleFile(dir, "config.yaml", maxConfigBytes)
	if hostile(err) {
		return side{}, err
	}
	f, err := openBundleFile(dir, "per_query_metrics.csv", maxPerQueryBytes)
	if err == nil {
		defer f.Close()
		// Hashed as it is parsed: the sum names the bytes the rows came from.
		h := sha256.New()
		tee := io.TeeReader(f, h)
		if err := r.ReadPerQueryCSV(filepath.Join(dir, "per_query_metrics.csv"), tee); err != nil {
			return side{}, err
		}
		if _, err := io.Copy(io.Discard, tee); err != nil {
			return side{}, err
		}
		s.perQuerySHA = hex.EncodeToString(h.Sum(nil))
	} else if !errors.Is(err, os.ErrNotExist) {
		return side{}, err
	}
	return s, nil
}

// diffSides compares bundle a (older) with bundle b (newer).
func diffSides(a, b side) (*compare.Changes, error) {
	return compare.Diff(a.rep, b.rep, compare.Options{
		A: compare.Side{Folder: a.folder, Version: a.rep.Version}, B: compare.Side{Folder: b.folder, Version: b.rep.Version},
		ConfigA: a.config, ConfigB: b.config, InputsA: a.inputs, InputsB: b.inputs,
	})
}

// inputSums maps each input of a bundle's manifest to its sha256 (nil
// without a manifest).
func inputSums(dir string) (map[string]string, error) {
	op, err := bundle.Open(dir)
	if hostile(err) {
		return nil, err
	}
	if err != nil {
		return nil, nil // no manifest: inputs unknown
	}
	m := map[string]string{}
	for _, in := range op.Manifest.Inputs {
		m[in.Path] = in.SHA256
	}
	return m, nil
}

// changes compares the bundle being built (now) with version prev in
// root. Both sides are named by their version alone, so that CHANGES.md
// and the report do not depend on where root is. was records prev and the
// sha256 of the files of it that the comparison read (the manifest's
// previous).
func changes(root, prev string, now side) (c *compare.Changes, was bundle.Previous, err error) {
	old, err := loadSide(filepath.Join(root, prev))
	if err != nil {
		return nil, was, err
	}
	was = bundle.Previous{Version: prev, MetricsSHA256: old.metricsSHA, PerQuerySHA256: old.perQuerySHA}
	old.folder, now.folder = prev, now.rep.Version
	c, err = diffSides(old, now)
	return c, was, err
}

// changesWithPrevious compares the report being built with version prev
// of root (nil when prev is ""), and returns the manifest's record of prev
// (nil when prev is ""). The paired tests read the per-query rows of the
// report being built as they are, and the previous bundle's through the
// report package's reader.
func changesWithPrevious(root, prev string, rep *report.Report, cfgYAML []byte, inputs []bundle.Input) (*compare.Changes, *bundle.Previous, error) {
	if prev == "" {
		return nil, nil, nil
	}
	chg, was, err := changes(root, prev, nowSide(rep, cfgYAML, inputs))
	if err != nil {
		return nil, nil, fmt.Errorf("build: comparing with %s: %w", prev, err)
	}
	return chg, &was, nil
}

// nowSide is the bundle being built (or recomputed), as a side of the
// comparison with its previous version.
func nowSide(rep *report.Report, cfgYAML []byte, inputs []bundle.Input) side {
	now := side{rep: rep, config: cfgYAML, inputs: map[string]string{}}
	for _, in := range inputs {
		now.inputs[in.Path] = in.SHA256
	}
	return now
}

// hexSHA256 is the sha256 of data in hexadecimal, as the manifest writes it.
func hexSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// changesMD is CHANGES.md: the Markdown form of the changes, titled
// "Changes since vN".
func changesMD(c *compare.Changes) ([]byte, error) {
	var b bytes.Buffer
	if err := c.Write(&b, compare.FormatMD, compare.WriteOptions{Title: "Changes since " + c.A.Version}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
