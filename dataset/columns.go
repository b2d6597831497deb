package dataset

import (
	"fmt"
	"strings"
)

// This file checks the header of a per-query table: which columns it has,
// which are missing, and the hints for a misnamed one.

// header is the names of a table's columns and where each is: the first
// record of a CSV or TSV file, or the top-level fields of a Parquet file's
// schema.
type header struct {
	names []string
	at    func(i int) position // where name i is
	comma rune                 // the separator of a text table; 0 for a binary one
}

// expected is what a message says a table of this header needs: a header
// with some columns (text), or columns (a binary table, which has no
// header row).
func (h header) expected() string {
	if h.comma == 0 {
		return "columns"
	}
	return "a header with"
}

// columns finds the known columns of a per-query table in its header:
// idx[col] is the field of col, or -1. It reports false when a column is
// missing or given twice (the errors are reported).
func (p *tableParser) columns(h header) (idx [numColumns]int, ok bool) {
	for i := range idx {
		idx[i] = -1
	}
	dup := false
	for i, name := range h.names {
		col, ok := columnByName(name)
		if !ok {
			continue // unknown columns are kept in the file and ignored
		}
		if j := idx[col]; j >= 0 {
			p.add(h.at(i), "column %s appears twice (fields %d and %d), expected it once", col, j+1, i+1)
			dup = true
			continue
		}
		idx[col] = i
	}
	has := func(col column) bool { return idx[col] >= 0 }
	if emptyCandidates(idx) {
		// A classifier's table with the candidate columns a pipeline
		// exports, to be empty on every row (readRows checks them).
		has = func(col column) bool { return idx[col] >= 0 && !isCandidateColumn(col) }
	}
	missing := missingColumns(has)
	if len(missing) > 0 {
		msg := missingMsg(missing, !isClassifier(has), h.expected()) + renameHint(h.names, missing)
		if n := h.names; len(n) == 1 {
			// One field: the file is separated by something else.
			switch {
			case h.comma == ',' && strings.Contains(n[0], ";"):
				msg = "the header is one field with ';' in it: the file is separated by ';' (as a spreadsheet or pandas' to_csv(sep=';', decimal=',') writes it in a locale with decimal commas), expected ',' between fields and '.' in decimals: write it with to_csv(path, index=False), or name it .tsv with tabs between fields"
			case h.comma == ',' && strings.Contains(n[0], "\t"):
				msg = "the header is one field with tabs in it: a tab-separated file, expected ',' between fields: name it .tsv (or set format: tsv)"
			}
		}
		p.add(h.at(-1), "%s", msg)
	}
	if idx[colNEProb] >= 0 && idx[colNEScore] >= 0 {
		p.add(h.at(idx[colNEScore]), "columns ne_prob and ne_score are both given, expected one of them: ne_prob for a probability, ne_score for a score with no probability meaning (a logit, a margin)")
		dup = true
	}
	return idx, !dup && len(missing) == 0
}

// isCandidateColumn reports whether col is one of the per-candidate lists.
func isCandidateColumn(col column) bool {
	switch col {
	case colCandidates, colScores, colNodeProbs, colSelected:
		return true
	}
	return false
}

// emptyCandidates reports whether a header with column positions idx is
// read as a classifier-only table whose candidate columns must be empty
// on every row: it has candidate_uids or candidate_scores but no
// gold_uids, a label (has_evidence or label) and a score (ne_prob or
// ne_score). A pipeline that exports every column writes such a table.
func emptyCandidates(idx [numColumns]int) bool {
	return (idx[colCandidates] >= 0 || idx[colScores] >= 0) && idx[colGold] < 0 &&
		(idx[colHasEvidence] >= 0 || idx[colLabel] >= 0) && (idx[colNEProb] >= 0 || idx[colNEScore] >= 0)
}

// missingColumns returns the columns a header lacks for the layout it
// comes closest to, given which known columns it has: the wide layout
// (candidate lists) when it has candidate_uids or candidate_scores, else
// the classifier-only layout when it has a label or an NE-gate score, else
// the wide layout.
func missingColumns(has func(column) bool) []string {
	var missing []string
	if !has(colPost) && !has(colQuery) {
		missing = append(missing, "post_id (or query_id)")
	}
	if isClassifier(has) {
		if !has(colHasEvidence) && !has(colLabel) && !has(colGold) {
			missing = append(missing, "has_evidence (or label)")
		}
		if !has(colNEProb) && !has(colNEScore) {
			missing = append(missing, "ne_prob (or ne_score)")
		}
		return missing
	}
	for _, col := range []column{colGold, colCandidates, colScores} {
		if !has(col) {
			missing = append(missing, col.String())
		}
	}
	return missing
}

// columnAliases are names a classifier's table often has for the columns
// of a classifier-only table, and the column each stands for.
var columnAliases = map[string]string{
	"id": "query_id", "qid": "query_id", "case_id": "query_id", "sample_id": "query_id", "query": "query_id",
	"y": "label", "y_true": "label", "target": "label", "class": "label", "outcome": "label",
	"score": "ne_score", "y_score": "ne_score", "logit": "ne_score", "margin": "ne_score", "pred": "ne_score", "prediction": "ne_score",
	"prob": "ne_prob", "probability": "ne_prob", "y_prob": "ne_prob", "proba": "ne_prob", "y_pred_proba": "ne_prob",
}

// renameHint suggests, for the missing columns, the header's columns that
// look like them ("" when none does): "rename id to query_id".
func renameHint(header []string, missing []string) string {
	var renames []string
	for _, h := range header {
		to, ok := columnAliases[strings.ToLower(strings.TrimSpace(h))]
		if !ok {
			continue
		}
		for _, m := range missing {
			if strings.Contains(m, to) || to == "ne_score" && strings.Contains(m, "ne_prob (or ne_score)") || to == "label" && strings.Contains(m, "has_evidence (or label)") {
				r := fmt.Sprintf("%s to %s", clip(strings.TrimSpace(h)), to)
				if to == "ne_score" {
					r += " (ne_prob if it is a probability)"
				}
				renames = append(renames, r)
				break
			}
		}
	}
	if len(renames) == 0 {
		return ""
	}
	return "; rename " + strings.Join(renames, ", ")
}

// isClassifier reports whether a header, given which known columns it
// has, is read as a classifier-only table: no candidate lists, and a
// label or an NE-gate score.
func isClassifier(has func(column) bool) bool {
	return !has(colCandidates) && !has(colScores) &&
		(has(colHasEvidence) || has(colLabel) || has(colNEProb) || has(colNEScore))
}

// missingMsg is the message for a header that lacks the columns missing;
// expected is what the table needs ("a header with", or "columns").
func missingMsg(missing []string, wide bool, expected string) string {
	what := "column"
	if len(missing) > 1 {
		what = "columns"
	}
	list := strings.Join(missing, ", ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[:i] + " and " + list[i+2:]
	}
	want := "expected " + expected + " " + requiredColumns
	if !wide {
		want = "expected " + expected + " " + classifierColumns + " (a classifier-only table)"
	}
	return fmt.Sprintf("missing %s %s, %s", what, list, want)
}
