package main

import (
	"path/filepath"
	"strings"

	"paperbundle/config"
	"paperbundle/dataset"
	"paperbundle/report"
)

// initLabels returns a distinct label for each system file: its stem
// (bm25 of runs/bm25.csv) when the stems differ; for files whose stems are
// the same (covidex.t5 and covidex.sim both have the stem covidex), the
// shortest part of their names, cut at '.', '_' and '-', that tells them
// apart: the shortest distinct suffix or prefix (t5 and sim). Files whose
// names are equal (runs in different folders) take their folder too.
func initLabels(files []string) []string {
	labels := make([]string, len(files))
	byStem := map[string][]int{}
	for i, f := range files {
		labels[i] = stem(f)
		byStem[labels[i]] = append(byStem[labels[i]], i)
	}
	for _, group := range byStem {
		if len(group) < 2 {
			continue
		}
		names := make([]string, len(group))
		for k, i := range group {
			names[k] = baseName(files[i])
		}
		if !distinct(names) {
			for k, i := range group {
				names[k] = filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(files[i])), names[k]))
			}
		}
		for k, i := range group {
			labels[i] = shortestDistinct(names, k)
		}
	}
	return labels
}

// baseName is a file's name without its folder and a .gz after it.
func baseName(path string) string {
	base := filepath.Base(path)
	if dataset.Gzipped(base) {
		base = base[:len(base)-3]
	}
	return base
}

// distinct reports whether the strings are all different.
func distinct(s []string) bool {
	seen := map[string]bool{}
	for _, x := range s {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// shortestDistinct is the shortest run of whole parts at the end or at the
// start of names[k] (parts cut at '.', '_', '-' and '/') that no other
// name ends or starts with; names[k] itself when none is.
func shortestDistinct(names []string, k int) string {
	best := names[k]
	for _, c := range partCuts(names[k]) {
		for _, cand := range []struct {
			s   string
			has func(name, part string) bool
		}{{names[k][c+1:], hasPartSuffix}, {names[k][:c], hasPartPrefix}} {
			if cand.s == "" || len(cand.s) >= len(best) {
				continue
			}
			if unique(names, k, cand.s, cand.has) {
				best = cand.s
			}
		}
	}
	return best
}

// unique reports whether no name but names[k] has part (by has).
func unique(names []string, k int, part string, has func(name, part string) bool) bool {
	for j, s := range names {
		if j != k && has(s, part) {
			return false
		}
	}
	return true
}

// hasPartSuffix reports whether name ends with the whole parts x.
func hasPartSuffix(name, x string) bool {
	return name == x || len(name) > len(x) && strings.HasSuffix(name, x) && isSep(name[len(name)-len(x)-1])
}

// hasPartPrefix reports whether name starts with the whole parts x.
func hasPartPrefix(name, x string) bool {
	return name == x || len(name) > len(x) && strings.HasPrefix(name, x) && isSep(name[len(x)])
}

// partCuts are the positions of the separators of s.
func partCuts(s string) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		if isSep(s[i]) {
			out = append(out, i)
		}
	}
	return out
}

func isSep(b byte) bool { return b == '.' || b == '_' || b == '-' || b == '/' }

// initHeadline is init's commented headline: line, the headline set of the
// kind of the files (report.DefaultHeadline) with the metrics their first
// lines show they can have, to uncomment and edit.
func initHeadline(has columns, trec bool, d *config.Config) string {
	kind := report.KindEvidence
	switch {
	case trec:
		kind = report.KindTREC
	case !has.ranking:
		kind = report.KindClassifier
	}
	var ids []string
	for _, id := range report.DefaultHeadline(kind, d.Cutoffs, d.OperatingPoints, has.ne) {
		switch id.Base().Family() {
		case "ne", "clinical":
			if !has.ne {
				continue
			}
		case "dynk", "e2e":
			if !has.dynK {
				continue
			}
		}
		ids = append(ids, string(id))
	}
	if len(ids) == 0 {
		return ""
	}
	return "# headline: [" + strings.Join(ids, ", ") + "]\n" +
		"                                 # the headline metrics (results matrix, SUMMARY.md, cards, paper), the default\n" +
		"                                 # for these files; uncomment and edit to choose others (docs/metrics.md ids)\n"
}

// dropKeyLine removes the line of top-level key from text written by
// config.Template.
func dropKeyLine(text, key string) string {
	var out []string
	for _, line := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(line, key+":") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
