package main

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/internal/termsafe"
)

// runInit writes a commented paper.yaml for the user's system files:
// paperbundle init [-out paper.yaml] [-qrels FILE] FILE...
func runInit(stdout, stderr io.Writer, args []string) error {
	fs := newFlags("init")
	out := fs.String("out", "paper.yaml", "the configuration `file` to write (never overwritten)")
	qrels := fs.String("qrels", "", "TREC qrels `file`: the files are TREC runs judged by it")
	files, err := parseArgs(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return withStatus(exitInput, errors.New("init: name the files of your systems, e.g. paperbundle init runs/bm25.csv runs/reranker.csv (TREC runs: add -qrels qrels.txt)"))
	}
	dir := filepath.Dir(*out)
	var systems []string
	names := map[string]int{}
	var has columns
	for _, f := range append(slices.Clip(files), *qrels) {
		// paper.yaml refuses control characters in its text, and the
		// label is made from the name: such a name cannot be written.
		if strings.ContainsFunc(f, unicode.IsControl) {
			return withStatus(exitInput, fmt.Errorf("init: %s: the file name holds a control character, which paper.yaml refuses, expected a name without one (rename the file)", termsafe.Name(f)))
		}
	}
	labels := initLabels(files)
	var primary string
	for i, f := range files {
		format, header, err := sniff(f, *qrels != "")
		if err != nil {
			return withStatus(exitInput, fmt.Errorf("init: %w", err))
		}
		has = has.or(columnsOf(format, header))
		name := sanitizeName(labels[i])
		if names[name]++; names[name] > 1 {
			name += "_" + strconv.Itoa(names[name])
		}
		if i == 0 {
			primary = name
		}
		line := fmt.Sprintf("  - {name: %s, label: %s, input: %s", name, yamlString(labels[i]), yamlString(relTo(dir, f)))
		if format == "trec" || dataset.FormatOf(f) == "" {
			line += ", format: " + format // the name does not tell it
		}
		systems = append(systems, line+"}")
	}
	qrelsLine := ""
	if *qrels != "" {
		if _, err := os.Stat(*qrels); err != nil {
			return withStatus(exitInput, fmt.Errorf("init: -qrels: %w", err))
		}
		qrelsLine = "qrels: " + yamlString(relTo(dir, *qrels)) + "          # TREC relevance judgements shared by the runs\n"
	}
	text := initTemplate(systems, primary, qrelsLine, has, *qrels != "")
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return withStatus(exitInput, fmt.Errorf("init: %s already exists; it is never overwritten: remove it or choose another -out", *out))
	}
	if err != nil {
		return withStatus(exitInput, fmt.Errorf("init: %w", err))
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s with %d system(s); next:\n  paperbundle check -config %s\n  paperbundle build -config %s\n", *out, len(systems), *out, *out)
	return nil
}

// sniff says how a system file is read: trec when the runs come with
// qrels, else by its name (.csv, .tsv, .jsonl, .parquet, each also .gz),
// else by its first line (a JSON object: jsonl; tabs and no commas: tsv;
// else csv). It returns the header line (for columnsOf), and reads the first line to catch a file that is not what it
// claims (an empty file, a header that fits no layout of a per-query
// table, which is told what it lacks).
func sniff(path string, trec bool) (format, header string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", "", err
	}
	if st.IsDir() {
		return "", "", fmt.Errorf("%s is a directory; name the system files inside it", path)
	}
	var in io.Reader = f
	if dataset.Gzipped(path) {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return "", "", fmt.Errorf("%s: cannot decompress it (%v), expected a gzip file for a name ending in .gz", path, err)
		}
		in = zr
	}
	byName := dataset.FormatOf(path)
	if byName == "parquet" && !trec {
		head := make([]byte, 4)
		if _, err := io.ReadFull(in, head); err != nil || string(head) != "PAR1" {
			return "", "", fmt.Errorf("%s is not a Parquet file (it does not start with PAR1), expected a Parquet file as pandas or polars write it", path)
		}
		return "parquet", "", nil // the columns are not read here: every key is written
	}
	// The first line, read no further than the maximum of a line
	// (/dev/zero or a binary file has none); a TREC run's comment lines
	// are read on from the same reader.
	rd := bufio.NewReader(io.LimitReader(in, dataset.MaxLineBytes+1))
	line, err := rd.ReadString('\n')
	if len(line) > dataset.MaxLineBytes {
		return "", "", fmt.Errorf("%s:1: the first line is longer than %d MiB (the maximum of a line), expected a per-query CSV or JSONL file, or a TREC run", path, dataset.MaxLineBytes>>20)
	}
	if err != nil && line == "" {
		return "", "", fmt.Errorf("%s is empty; expected a per-query CSV or JSONL file, or a TREC run", path)
	}
	format = byName
	switch {
	case trec:
		// The first line that is not blank and not a comment ('#').
		n := 1
		for fs := strings.Fields(line); len(fs) == 0 || strings.HasPrefix(fs[0], "#"); fs = strings.Fields(line) {
			if err != nil {
				return "", "", fmt.Errorf("%s has no run line; expected TREC run lines: qid Q0 docno rank score tag", path)
			}
			line, err = rd.ReadString('\n')
			n++
		}
		if k := len(strings.Fields(line)); k < 6 {
			return "", "", fmt.Errorf("%s:%d: a TREC run line has 6 fields (qid Q0 docno rank score tag), found %d", path, n, k)
		}
		return "trec", "", nil
	case format == "jsonl":
		return "jsonl", line, nil
	case format == "":
		t := strings.TrimPrefix(strings.TrimSpace(line), "\ufeff")
		switch {
		case strings.HasPrefix(t, "{"):
			return "jsonl", line, nil
		case strings.Contains(t, "\t") && !strings.Contains(t, ","):
			format = "tsv"
		default:
			format = "csv"
		}
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(line, "\ufeff")))
	if format == "tsv" {
		r.Comma = '\t'
	}
	cols, err := r.Read()
	if err != nil {
		return "", "", fmt.Errorf("%s:1: cannot read the header (%v), expected a %s header row naming the columns (docs/input-format.md)", path, err, strings.ToUpper(format))
	}
	if msg := dataset.HeaderProblem(cols); msg != "" {
		return "", "", fmt.Errorf("%s:1: %s (docs/input-format.md; TREC runs: add -qrels)", path, msg)
	}
	return format, line, nil
}

// stem is a file's name without its folder, its extension and a .gz
// after it (runs/bm25.csv.gz: bm25).
func stem(path string) string {
	base := filepath.Base(path)
	if dataset.Gzipped(base) {
		base = base[:len(base)-3]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// columns says which kinds of result the system files can support, as
// far as their first line shows, so that init writes only the keys that
// apply (the report decides applicability again from the data).
type columns struct {
	ranking bool // candidate lists with scores: cutoffs, strata
	ne      bool // ne_prob: fpr_targets, operating_points, calibration, gate
	dynK    bool // node_probs or selected_uids: dynamic_k
}

func (a columns) or(b columns) columns {
	return columns{ranking: a.ranking || b.ranking, ne: a.ne || b.ne, dynK: a.dynK || b.dynK}
}

// columnsOf reads the columns of a CSV header line; a TREC run is a
// ranking without ne_prob; a JSONL line names its keys, so the same test
// of names applies.
func columnsOf(format, header string) columns {
	switch format {
	case "trec":
		return columns{ranking: true}
	case "parquet": // its columns were not read: every key
		return columns{ranking: true, ne: true, dynK: true}
	}
	h := strings.ToLower(header)
	// A classifier's table that exports empty candidate columns: a label,
	// a score, candidate lists but no gold_uids (the reader checks that
	// they are empty).
	emptyCands := !strings.Contains(h, "gold_uids") && !strings.Contains(h, "is_gold") &&
		(strings.Contains(h, "label") || strings.Contains(h, "has_evidence")) && strings.Contains(h, "ne_")
	return columns{
		// the wide layout's lists, or the long layout (candidate_uid, score)
		ranking: !emptyCands && (strings.Contains(h, "candidate_scores") || strings.Contains(h, "candidate_uid") && strings.Contains(h, "score")),
		ne:      strings.Contains(h, "ne_prob"),
		dynK:    strings.Contains(h, "node_prob") || strings.Contains(h, "selected"),
	}
}

// sanitizeName is a system name from a label: lower case [a-z0-9_].
func sanitizeName(label string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
			b.WriteByte('_')
		}
	}
	if s := strings.Trim(b.String(), "_"); s != "" {
		return s
	}
	return "system"
}

// relTo writes path relative to dir when it can (paper.yaml resolves
// relative paths against its own folder).
func relTo(dir, path string) string {
	a, err1 := filepath.Abs(dir)
	b, err2 := filepath.Abs(path)
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(a, b); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(path)
}

// yamlString quotes s as a YAML double-quoted scalar.
func yamlString(s string) string {
	return strconv.Quote(s)
}

// trecCutoffs are trec_eval's cutoffs (P_5 ... P_1000), the cutoffs init
// writes for TREC runs so that the bundle has every measure of trec_eval's
// `all` line.
var trecCutoffs = []int{5, 10, 15, 20, 30, 100, 200, 500, 1000}

// initTemplate is paper.yaml with every key that applies to the files at
// its default, commented (config.Template, from the key table): the keys
// of the NE gate only with ne_prob, of Dynamic-K only with node_probs or
// selected_uids, of the ranking only with candidate lists. For TREC runs
// (trec) the defaults are trec_eval's: its cutoffs, linear nDCG gain, and
// the trec: conventions.
func initTemplate(systems []string, primary, qrels string, has columns, trec bool) string {
	d := config.Default()
	var ap config.Applies
	if has.ranking {
		ap |= config.ForRanking
	}
	if has.ne {
		ap |= config.ForNE
	}
	if has.dynK {
		ap |= config.ForDynamicK
	}
	if trec {
		ap |= config.ForTREC
		d.Cutoffs = trecCutoffs
		d.Contract.NDCGGain = config.GainLinear
	}
	var b strings.Builder
	b.WriteString("# paper.yaml written by `paperbundle init`. Every key below is at its default;\n")
	b.WriteString("# all keys and allowed values: docs/configuration.md. Then:\n")
	b.WriteString("#   paperbundle check -config paper.yaml    validate the inputs\n")
	b.WriteString("#   paperbundle build -config paper.yaml    write the bundle\n")
	sys := "systems:                         # labels are shown in the report; the first listed (" + primary + ") is the\n" +
		"                                 # primary system: to lead with another, list it first or set primary: <name>\n"
	for _, s := range systems {
		sys += s + "\n"
	}
	b.WriteString(config.Template(d, ap, map[string]string{
		"title":    fmt.Sprintf("title: %s\n", yamlString("Evaluation of "+strings.Join(names(systems), ", "))),
		"qrels":    qrels,
		"systems":  sys,
		"headline": initHeadline(has, trec, d),
	}))
	text := b.String()
	if !trec && !has.ranking {
		// A classifier's table: the three-state gate's targets are those
		// of the evidence pipeline's clinical gate, not the user's.
		text = dropKeyLine(text, "gate")
	}
	return text
}

// names are the labels of the system lines, for the title.
func names(systems []string) []string {
	var out []string
	for _, s := range systems {
		_, rest, _ := strings.Cut(s, "label: ")
		label, _ := strconv.QuotedPrefix(rest)
		if u, err := strconv.Unquote(label); err == nil {
			out = append(out, u)
		}
	}
	return out
}
