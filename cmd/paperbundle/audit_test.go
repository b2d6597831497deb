package main

import (
	"archive/zip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"paperbundle/dataset/demo"
	"paperbundle/metrics"
	"paperbundle/report"
)

// auditProject builds the reduced demo (50 resamples) as v1, then, n-1
// times, perturbs the primary's input (every k-th eval row's ne_prob
// flipped to 1 - p, k = 5, 4, ...) and builds the next version. It
// returns the root and each version's report.
func auditProject(tb testing.TB, n int) (string, []*report.Report) {
	tb.Helper()
	dir := tb.TempDir()
	if err := demo.Write(dir, demo.Reduced()); err != nil {
		tb.Fatal(err)
	}
	cfg := filepath.Join(dir, "paper.yaml")
	y, err := os.ReadFile(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(cfg, regexp.MustCompile(`resamples: *[0-9]+`).ReplaceAll(y, []byte("resamples: 50")), 0o644); err != nil {
		tb.Fatal(err)
	}
	root := filepath.Join(dir, "out")
	var reps []*report.Report
	for v := 1; v <= n; v++ {
		if v > 1 {
			perturb(tb, filepath.Join(dir, "data", "full.csv"), 7-v)
		}
		if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q"); code != 0 {
			tb.Fatalf("build v%d: exit %d: %s", v, code, stderr)
		}
		r, err := auditReport(filepath.Join(root, "v"+strconv.Itoa(v)))
		if err != nil {
			tb.Fatal(err)
		}
		reps = append(reps, r)
	}
	return root, reps
}

// perturb flips ne_prob to 1 - ne_prob on every k-th eval row of a
// per-query CSV.
func perturb(tb testing.TB, p string, k int) {
	tb.Helper()
	f, err := os.Open(p)
	if err != nil {
		tb.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	n := 0
	for _, r := range rows[1:] {
		if r[col["split"]] != "eval" {
			continue
		}
		if n++; n%k == 0 {
			x, _ := strconv.ParseFloat(r[col["ne_prob"]], 64)
			r[col["ne_prob"]] = strconv.FormatFloat(1-x, 'f', 4, 64)
		}
	}
	out, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	w := csv.NewWriter(out)
	w.WriteAll(rows)
	if err := out.Close(); err != nil || w.Error() != nil {
		tb.Fatal(err, w.Error())
	}
}

func value(tb testing.TB, r *report.Report, sys, id string) float64 {
	tb.Helper()
	m, ok := r.Metric(sys, metrics.ID(id), "")
	if !ok || !m.Value.Valid() {
		tb.Fatalf("%s has no %s %s", r.Version, sys, id)
	}
	return float64(m.Value)
}

type auditJSON struct {
	Findings []struct {
		File    string   `json:"file"`
		Line    int      `json:"line"`
		Text    string   `json:"text"`
		Class   string   `json:"class"`
		Version string   `json:"version"`
		Current *float64 `json:"current"`
	} `json:"findings"`
	Counts map[string]int `json:"counts"`
}

// TestAuditScenario is the scenario of docs/audit.md: v1 of the demo,
// the primary's input perturbed, v2; a main.tex that inputs a section
// holding a macro, v2's AUROC of the primary typed by hand (ok), its v1
// AUROC beside its label and "AUROC" (stale), a wrong nDCG@10 beside it
// (mismatch), a year and "Section 3" (not flagged), a number in a comment
// (not read) and a "significantly better" that the comparison does not
// support (claim). The same text as Markdown and as .docx (by hand, and
// by LibreOffice when it is installed) gives the same findings; macros
// and current values pass.
func TestAuditScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two bundles")
	}
	root, reps := auditProject(t, 2)
	v1, v2 := reps[0], reps[1]
	auc1, auc2 := value(t, v1, "full", "ne.auroc"), value(t, v2, "full", "ne.auroc")
	ndcg := value(t, v2, "full", "rank.ndcg@10")
	wrong := ndcg - 0.05
	var sens *report.Comparison
	for i, c := range v2.Comparisons {
		if c.ID == "clinical.screen_sensitivity" && (c.System == "full" || c.Reference == "full") {
			sens = &v2.Comparisons[i]
		}
	}
	if sens == nil || sens.Significant(v2.Settings.Significance.Alpha) {
		t.Fatalf("the scenario needs a comparison of Full pipeline on screening sensitivity that is not significant: %+v", sens)
	}
	other := v2.Label(sens.Reference)
	if sens.Reference == "full" {
		other = v2.Label(sens.System)
	}
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	if f3(auc1) == f3(auc2) {
		t.Fatalf("the perturbation did not change the AUROC at 3 decimals (%v, %v)", auc1, auc2)
	}
	lines := []string{
		"The primary system reaches an AUROC of MACRO.",
		"By hand, Full pipeline reaches an AUROC of " + f3(auc2) + ".",
		"The first run gave Full pipeline an AUROC of " + f3(auc1) + ".",
		"Full pipeline has an nDCG@10 of " + f3(wrong) + ".",
		"We ran it in 2025, as Section 3 explains.",
		"COMMENT",
		"Full pipeline is significantly better than " + other + " on screening sensitivity.",
	}
	dir := t.TempDir()
	tex := strings.Join(lines, "\n")
	tex = strings.Replace(tex, "MACRO", `\pbvalue{full}{ne.auroc}`, 1)
	tex = strings.Replace(tex, "COMMENT", "% Full pipeline reached an AUROC of 0.555 in a draft.", 1)
	writeText(t, filepath.Join(dir, "sections", "results.tex"), tex+"\n")
	writeText(t, filepath.Join(dir, "main.tex"), "\\documentclass{article}\n\\begin{document}\n\\input{sections/results}\n\\end{document}\n")
	plain := strings.Replace(strings.Replace(strings.Join(lines, "\n"), "MACRO", "its macro", 1), "COMMENT", "The draft is in the appendix.", 1)
	writeText(t, filepath.Join(dir, "README.md"), plain+"\n")
	writeDocx(t, filepath.Join(dir, "hand.docx"), strings.Split(plain, "\n"))

	// each manuscript as named on the command line, the file its
	// findings are in, and the findings (line, class, version)
	texFile := filepath.Join(dir, "sections", "results.tex")
	inDocx := []string{"2 ok", "3 stale v1", "4 mismatch", "7 claim"}
	cases := []struct {
		arg, file string
		want      []string
	}{
		{filepath.Join(dir, "main.tex"), texFile, []string{"1 macro", "2 ok", "3 stale v1", "4 mismatch", "7 claim"}},
		{filepath.Join(dir, "README.md"), filepath.Join(dir, "README.md"), inDocx},
		{filepath.Join(dir, "hand.docx"), filepath.Join(dir, "hand.docx"), inDocx},
	}
	if lo := libreOfficeDocx(t, dir, plain); lo != "" {
		cases = append(cases, struct {
			arg, file string
			want      []string
		}{lo, lo, inDocx})
	}
	for _, c := range cases {
		out, stderr, code := runCmd("audit", "-bundle", filepath.Join(root, "v2"), "-format", "json", c.arg)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1 (%s)", c.arg, code, stderr)
		}
		var res auditJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v\n%s", c.arg, err, out)
		}
		var got []string
		for _, fd := range res.Findings {
			if fd.File != c.file {
				t.Errorf("%s: a finding in %s, want %s", c.arg, fd.File, c.file)
			}
			s := fmt.Sprintf("%d %s", fd.Line, fd.Class)
			if fd.Class == "stale" {
				s += " " + fd.Version
				if fd.Current == nil || math.Abs(*fd.Current-auc2) > 1e-12 {
					t.Errorf("%s: the stale finding's current value is %v, want %v", c.arg, fd.Current, auc2)
				}
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != strings.Join(c.want, ", ") {
			t.Errorf("%s: findings %v, want %v\n%s", c.arg, got, c.want, out)
		}
		if res.Counts["unknown"] != 2 {
			t.Errorf("%s: %d unknown, want 2 (2025, Section 3): %v", c.arg, res.Counts["unknown"], res.Counts)
		}
	}

	// the bundle's own example.tex, its tables and figures input, with a
	// sentence typed by hand after its paragraph of macros
	ex, err := os.ReadFile(filepath.Join(root, "v2", "paper", "example.tex"))
	if err != nil {
		t.Fatal(err)
	}
	typedLine := "By hand, Full pipeline reaches an AUROC of " + f3(auc2) + "; the first run gave Full pipeline an AUROC of " + f3(auc1) + ".\n"
	exLines := strings.SplitAfter(string(ex), "\n")
	at := -1
	for i, l := range exLines {
		if strings.Contains(l, `\pbp{full}`) {
			at = i + 1
		}
	}
	if at < 0 {
		t.Fatal("example.tex has no paragraph quoting \\pbp{full}")
	}
	exTyped := filepath.Join(root, "v2", "paper", "example_typed.tex")
	writeText(t, exTyped, strings.Join(exLines[:at], "")+typedLine+strings.Join(exLines[at:], ""))
	out, stderr, code := runCmd("audit", "-bundle", filepath.Join(root, "v2"), "-format", "json", exTyped)
	var exRes auditJSON
	if err := json.Unmarshal([]byte(out), &exRes); code != 1 || err != nil {
		t.Fatalf("example.tex with typed numbers: exit %d, %v: %s", code, err, stderr)
	}
	var exGot []string
	for _, fd := range exRes.Findings {
		if fd.Class != "macro" {
			exGot = append(exGot, fmt.Sprintf("%d %s %s", fd.Line, fd.Class, fd.Text))
		}
	}
	if w := fmt.Sprintf("[%d ok %s %d stale %s]", at+1, f3(auc2), at+1, f3(auc1)); fmt.Sprint(exGot) != w || exRes.Counts["macro"] == 0 {
		t.Errorf("example.tex with typed numbers: %v (%d macros), want %s", exGot, exRes.Counts["macro"], w)
	}

	good := filepath.Join(dir, "good.tex")
	writeText(t, good, fmt.Sprintf("Full pipeline reaches an AUROC of \\pbvalue{full}{ne.auroc} (by hand: %s) and an nDCG@10 of %s.\n\\pbassert{full}{ne.auroc}{%s}\n", f3(auc2), f3(ndcg), f3(auc2)))
	if out, stderr, code := runCmd("audit", "-bundle", root, good); code != 0 {
		t.Errorf("macros and current values: exit %d, want 0\n%s%s", code, out, stderr)
	}
}

func writeText(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeDocx writes a .docx holding one paragraph per line.
func writeDocx(t *testing.T, p string, lines []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for _, l := range lines {
		b.WriteString(`<w:p><w:r><w:t xml:space="preserve">` + strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(l) + `</w:t></w:r></w:p>`)
	}
	b.WriteString(`</w:body></w:document>`)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, _ := zw.Create("word/document.xml")
	w.Write([]byte(b.String()))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// libreOfficeDocx converts the lines, one paragraph each, to .docx with
// LibreOffice when soffice is installed; "" otherwise.
func libreOfficeDocx(t *testing.T, dir, text string) string {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Log("no soffice: the .docx written by LibreOffice is checked by the audit package's fixture only")
		return ""
	}
	lo := filepath.Join(dir, "lo")
	var html strings.Builder
	html.WriteString("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>\n")
	for _, l := range strings.Split(text, "\n") {
		html.WriteString("<p>" + strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(l) + "</p>\n")
	}
	html.WriteString("</body></html>\n")
	writeText(t, filepath.Join(lo, "scenario.html"), html.String())
	cmd := exec.Command(soffice, "--headless", "-env:UserInstallation=file://"+filepath.Join(lo, "profile"),
		"--infilter=HTML (StarWriter)", "--convert-to", "docx:MS Word 2007 XML", "--outdir", lo, filepath.Join(lo, "scenario.html"))
	done := make(chan error, 1)
	go func() { out, err := cmd.CombinedOutput(); done <- fmt.Errorf("%v: %s", err, out) }()
	select {
	case err := <-done:
		if _, e := os.Stat(filepath.Join(lo, "scenario.docx")); e != nil {
			t.Logf("soffice did not convert: %v", err)
			return ""
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Log("soffice took more than 2 minutes")
		return ""
	}
	return filepath.Join(lo, "scenario.docx")
}

// TestAuditUsage: usage mistakes and unreadable manuscripts exit 2 with
// a message naming what is wrong.
func TestAuditUsage(t *testing.T) {
	dir, cfg := writeProject(t, goodCSV)
	root := filepath.Join(dir, "out")
	if _, stderr, code := runCmd("build", "-config", cfg, "-out", root, "-q"); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	ms := filepath.Join(dir, "paper.md")
	writeText(t, ms, "No numbers here.\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"audit", "-bundle", root}, "name the manuscript files"},
		{[]string{"audit", "-bundle", root, "-format", "txt", ms}, `-format "txt": want text, json or md (did you mean text?)`},
		{[]string{"audit", "-bundle", filepath.Join(dir, "nope"), ms}, "no bundle folder at"},
		{[]string{"audit", "-bundle", root, filepath.Join(dir, "missing.tex")}, "missing.tex: cannot read it"},
		{[]string{"audit", "-bundle", dir, ms}, "is not a bundle"},
	} {
		_, stderr, code := runCmd(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if out, stderr, code := runCmd("audit", "-bundle", root, ms); code != 0 || !strings.Contains(out, "0 stale, 0 mismatch, 0 claim") {
		t.Errorf("a manuscript without numbers: exit %d\n%s%s", code, out, stderr)
	}
}
