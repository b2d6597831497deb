package dataset

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// Every bad-input case of docs/input-format.md section 3, one per entry,
// with the exact error text. Columns are 1-based byte columns of the
// offending field (CSV: the field's start; JSON Lines: the value or list
// item; TREC: the field), counted by hand in the comments.

const hdr = "post_id,gold_uids,candidate_uids,candidate_scores\n"

// In the row "P1,g,a;b,1;2" of hdr: post_id at column 1, gold_uids at 4,
// candidate_uids at 6, candidate_scores at 10.

type errCase struct {
	name  string
	files map[string]string // default system: s.csv
	spec  *Spec
	want  []string
	// consistency is the Consistency flag every error must carry.
	consistency bool
}

func csvCase(name, body string, want ...string) errCase {
	return errCase{name: name, files: map[string]string{"s.csv": body}, want: want}
}

func jsonlCase(name, body string, want ...string) errCase {
	return errCase{
		name:  name,
		files: map[string]string{"s.jsonl": body},
		spec:  &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.jsonl"}}},
		want:  want,
	}
}

// col returns the 1-based column of the first occurrence of sub in line,
// for JSON Lines cases whose columns are tedious to count.
func col(line, sub string) string {
	i := strings.Index(line, sub)
	if i < 0 {
		panic("col: " + sub + " not in " + line)
	}
	return strconv.Itoa(i + 1)
}

var csvCases = []errCase{
	csvCase("empty file", "",
		"s.csv:1:1: file is empty, expected a header row naming the columns"),
	csvCase("header only", hdr,
		"s.csv:2:1: no data rows after the header, expected one row per query"),
	csvCase("missing columns", "post_id,gold_uids\nP,\n",
		"s.csv:1:1: missing columns candidate_uids and candidate_scores, expected a header with post_id (or query_id), gold_uids, candidate_uids and candidate_scores"),
	csvCase("no post_id nor query_id", "gold_uids,candidate_uids,candidate_scores\n,,\n",
		"s.csv:1:1: missing column post_id (or query_id), expected a header with post_id (or query_id), gold_uids, candidate_uids and candidate_scores"),
	// "post_id,gold_uids,candidate_uids,candidate_scores," is 50 bytes.
	csvCase("duplicate column", "post_id,gold_uids,candidate_uids,candidate_scores,GOLD_UIDS\nP,,,,\n",
		"s.csv:1:51: column gold_uids appears twice (fields 2 and 5), expected it once"),
	csvCase("wrong field count", hdr+"P1,g,a;b,1;2\nP1,g,a\n",
		"s.csv:3:1: row has 3 fields but the header has 4, expected one value per column (an empty value still needs its comma, e.g. ,, for an empty gold list)"),
	// The quote is byte 5 of `P1,g"x,a,1`.
	csvCase("bare quote", hdr+"P1,g\"x,a,1\n",
		`s.csv:2:5: malformed CSV: bare " in an unquoted field, expected the field quoted ("...", with "" for a literal quote)`),
	// `P1,g,"a"b,1`: the quote at byte 8 closes the field but is followed
	// by b; encoding/csv points at that quote.
	csvCase("text after closing quote", hdr+"P1,g,\"a\"b,1\n",
		`s.csv:2:8: malformed CSV: extraneous or missing " in a quoted field, expected "" for a literal quote and a closing quote`),
	csvCase("score not a number", hdr+"P1,g,a;b,1;x\n",
		`s.csv:2:10: candidate_scores item 2 is "x", expected a finite number`),
	csvCase("score NaN", hdr+"P1,g,a;b,NaN;1\n",
		`s.csv:2:10: candidate_scores item 1 is "NaN", expected a finite number (a score must be a number; write an empty cell for a missing optional value)`),
	csvCase("score infinite", hdr+"P1,g,a;b,1;-Inf\n",
		`s.csv:2:10: candidate_scores item 2 is "-Inf", expected a finite number`),
	csvCase("score overflows", hdr+"P1,g,a,1e999\n",
		`s.csv:2:8: candidate_scores item 1 is "1e999", expected a finite number`),
	csvCase("scores shorter than candidates", hdr+"P1,g,a;b,1\n",
		"s.csv:2:10: candidate_scores has 1 value but candidate_uids has 2, expected one score per candidate"),
	// node_probs starts after "P1,g,a;b,1;2," (13 bytes).
	csvCase("node_probs out of range", strings.TrimSuffix(hdr, "\n")+",node_probs\nP1,g,a;b,1;2,0.5;1.5\n",
		`s.csv:2:14: node_probs item 2 is "1.5", expected a probability in [0, 1]`),
	csvCase("node_probs length", strings.TrimSuffix(hdr, "\n")+",node_probs\nP1,g,a;b,1;2,0.5\n",
		"s.csv:2:14: node_probs has 1 value but candidate_uids has 2, expected one probability per candidate"),
	// ne_prob starts after "P1,g,a,1," (9 bytes).
	csvCase("ne_prob negative", strings.TrimSuffix(hdr, "\n")+",ne_prob\nP1,g,a,1,-0.1\n",
		`s.csv:2:10: ne_prob is "-0.1", expected a probability in [0, 1]`),
	csvCase("ne_prob NaN", strings.TrimSuffix(hdr, "\n")+",ne_prob\nP1,g,a,1,nan\n",
		`s.csv:2:10: ne_prob is "nan", expected a probability in [0, 1] (a score must be a number; write an empty cell for a missing optional value)`),
	// gold_rels starts after "P1,g;h," (7 bytes) and "P1,g," (5 bytes).
	csvCase("gold_rels length", "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,g;h,2,g,1\n",
		"s.csv:2:8: gold_rels has 1 value but gold_uids has 2, expected one grade per gold id"),
	csvCase("gold_rels zero", "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,g,0,g,1\n",
		`s.csv:2:6: gold_rels item 1 is "0", expected an integer >= 1`),
	csvCase("gold_rels not an integer", "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,g,1.5,g,1\n",
		`s.csv:2:6: gold_rels item 1 is "1.5", expected an integer >= 1`),
	csvCase("duplicate candidate", hdr+"P1,g,a;b;a,1;2;3\n",
		`s.csv:2:6: candidate_uids has "a" twice (items 1 and 3), expected distinct candidates`),
	csvCase("duplicate gold", hdr+"P1,g;g,a,1\n",
		`s.csv:2:4: gold_uids has "g" twice (items 1 and 2), expected distinct ids`),
	csvCase("duplicate query row", hdr+"P1,,a,1\nP1,,b,2\n",
		`s.csv:3:1: duplicate row for query "P1" (fold 0, split eval): line 2 has it too, expected one row per (query, fold, split)`),
	csvCase("duplicate query row, test is eval", "post_id,split,gold_uids,candidate_uids,candidate_scores\nP1,eval,,a,1\nP2,eval,,a,1\nP1,test,,b,2\n",
		`s.csv:4:1: duplicate row for query "P1" (fold 0, split eval): line 2 has it too, expected one row per (query, fold, split)`),
	csvCase("unknown split", "post_id,split,gold_uids,candidate_uids,candidate_scores\nP1,holdout,,a,1\n",
		`s.csv:2:4: split is "holdout", expected eval, tune, test, val, dev or train`),
	csvCase("unknown state", strings.TrimSuffix(hdr, "\n")+",state\nP1,g,a,1,MAYBE\n",
		`s.csv:2:10: state is "MAYBE", expected NEG, UNCERTAIN or POS`),
	csvCase("negative fold", "post_id,fold,gold_uids,candidate_uids,candidate_scores\nP1,-1,,a,1\n",
		`s.csv:2:4: fold is "-1", expected a non-negative integer`),
	csvCase("fractional fold", "post_id,fold,gold_uids,candidate_uids,candidate_scores\nP1,1.5,,a,1\n",
		`s.csv:2:4: fold is "1.5", expected a non-negative integer`),
	// has_evidence starts after "P1,,a,1," (8 bytes) or "P1,a,a,1," (9).
	csvCase("has_evidence 1 without gold", strings.TrimSuffix(hdr, "\n")+",has_evidence\nP1,,a,1,1\n",
		"s.csv:2:9: has_evidence is 1 but gold_uids is empty, expected has_evidence = 1 exactly when gold_uids is not empty (a table without candidate lists may leave out gold_uids: has_evidence is then the label)"),
	csvCase("has_evidence 0 with gold", strings.TrimSuffix(hdr, "\n")+",has_evidence\nP1,a,a,1,0\n",
		"s.csv:2:10: has_evidence is 0 but gold_uids has 1 id, expected has_evidence = 1 exactly when gold_uids is not empty"),
	csvCase("has_evidence not 0/1", strings.TrimSuffix(hdr, "\n")+",has_evidence\nP1,a,a,1,yes\n",
		`s.csv:2:10: has_evidence is "yes", expected 0 or 1`),
	// selected_uids starts after "P1,,a;b,1;2," (12 bytes).
	csvCase("selected not a candidate", strings.TrimSuffix(hdr, "\n")+",selected_uids\nP1,,a;b,1;2,b;c\n",
		`s.csv:2:13: selected_uids item 2 "c" is not among candidate_uids, expected a subset of the candidates`),
	csvCase("duplicate selected", strings.TrimSuffix(hdr, "\n")+",selected_uids\nP1,,a;b,1;2,b;b\n",
		`s.csv:2:13: selected_uids has "b" twice (items 1 and 2), expected distinct ids`),
	csvCase("criterion missing on a row", "post_id,criterion_id,gold_uids,candidate_uids,candidate_scores\nP1,A,,a,1\nP2,,,a,1\n",
		"s.csv:3:1: criterion_id is missing, but line 2 has one; expected criterion_id on every row or on none"),
	csvCase("criterion only on a later row", "post_id,criterion_id,gold_uids,candidate_uids,candidate_scores\nP1,,,a,1\nP2,A,,a,1\n",
		"s.csv:3:4: criterion_id is given, but line 2 has none; expected criterion_id on every row or on none"),
	csvCase("no post_id and no query_id", "post_id,query_id,gold_uids,candidate_uids,candidate_scores\n,,,a,1\n",
		"s.csv:2:1: post_id and query_id are both empty, expected at least one of them"),
	csvCase("empty list item", hdr+"P1,,a;;b,1;2;3\n",
		"s.csv:2:5: candidate_uids item 2 is empty, expected a value (items are separated by ';', with nothing after the last)"),
	csvCase("trailing separator", hdr+"P1,,a;b;,1;2\n",
		"s.csv:2:5: candidate_uids item 3 is empty, expected a value (items are separated by ';', with nothing after the last)"),
	// The cell `["a",` ends after 5 bytes: the error is at its byte 6.
	csvCase("malformed JSON cell", hdr+"P1,\"[\"\"a\"\",\",a,1\n",
		`s.csv:2:4: gold_uids is not a valid JSON array: malformed JSON: found end of line, expected a value (at byte 6 of the cell)`),
	csvCase("JSON cell item of the wrong type", hdr+"P1,\"[\"\"a\"\", true]\",a,1\n",
		`s.csv:2:4: gold_uids item 2 is true, expected a non-empty string`),
	csvCase("JSON cell with trailing text", hdr+"P1,\"[1] x\",a,1\n",
		`s.csv:2:4: gold_uids is not a valid JSON array: unexpected 'x' after the list (at byte 5 of the cell)`),
	csvCase("every row is train", "post_id,split,gold_uids,candidate_uids,candidate_scores\nP1,train,,a,1\nP2,TRAIN,,a,1\n",
		"s.csv: all 2 rows have split train, expected eval or tune rows"),
	csvCase("hexadecimal score", hdr+"P1,g,a;b,1;0x1p-2\n",
		`s.csv:2:10: candidate_scores item 2 is "0x1p-2", expected a decimal number (hexadecimal floats such as 0x1p-2 are not read)`),
	csvCase("hexadecimal ne_prob", strings.TrimSuffix(hdr, "\n")+",ne_prob\nP1,g,a,1,0X1P-1\n",
		`s.csv:2:10: ne_prob is "0X1P-1", expected a probability in [0, 1] written in decimal (hexadecimal floats such as 0x1p-2 are not read)`),
	csvCase("hexadecimal fold", "post_id,fold,gold_uids,candidate_uids,candidate_scores\nP1,0x1,,a,1\n",
		`s.csv:2:4: fold is "0x1", expected a non-negative integer`),
	// "P1,g,a;" is 7 bytes: the cell of candidate_uids starts at column 6.
	csvCase("invalid UTF-8 in a cell", hdr+"P1,g,a;b\xe9,1;2\n",
		`s.csv:2:6: field 3 (candidate_uids): invalid UTF-8 (byte 0xe9, which is "é" in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`),
	csvCase("invalid UTF-8 in the header", "post_id,gold\xff,candidate_uids,candidate_scores\nP1,,a,1\n",
		`s.csv:1:9: header field 2: invalid UTF-8 (byte 0xff), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`),
	csvCase("unclosed quote", hdr+"P1,\"g,a,1\nP2,,a,1\nP3,,a,1\n",
		`s.csv:2:1: malformed CSV: a quoted field of this row is not closed, the file ends inside it (line 4), expected a closing " (and "" for a literal quote inside a quoted field)`),
	csvCase("unclosed quote in the header", "post_id,\"gold_uids,candidate_uids,candidate_scores\nP1,,a,1\n",
		`s.csv:1:1: malformed CSV: a quoted field of this row is not closed, the file ends inside it (line 2), expected a closing " (and "" for a literal quote inside a quoted field)`),
	csvCase("long value quoted in part", "post_id,split,gold_uids,candidate_uids,candidate_scores\nP1,"+strings.Repeat("x", 1000)+",,a,1\n",
		`s.csv:2:4: split is "`+strings.Repeat("x", 61)+`...", expected eval, tune, test, val, dev or train`),
	{
		name:        "post evaluated in two folds",
		files:       map[string]string{"s.csv": "post_id,criterion_id,fold,gold_uids,candidate_uids,candidate_scores\nP1,A,0,,a,1\nP1,B,1,,a,1\n"},
		want:        []string{`s.csv:3:1: post "P1" has eval rows in fold 0 (line 2) and in fold 1, expected each post evaluated in exactly one fold`},
		consistency: true,
	},
	{
		name:        "tune and eval rows of a post in one fold",
		files:       map[string]string{"s.csv": "post_id,criterion_id,split,gold_uids,candidate_uids,candidate_scores\nP1,B,tune,,a,1\nP1,A,eval,,a,1\n"},
		want:        []string{`s.csv:2:1: post "P1" has both eval rows (line 3) and tune rows in fold 0, expected the tune and eval rows of a fold to share no post`},
		consistency: true,
	},
	{
		name:  "unknown format",
		files: map[string]string{"s.csv": hdr + "P1,,a,1\n"},
		spec:  &Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv", Format: "xml"}}},
		want:  []string{`s.csv: system s: format "xml" is not supported, expected csv, tsv, jsonl, parquet or trec`},
	},
	{
		name:  "missing file",
		files: map[string]string{},
		want:  []string{"s.csv: cannot open the file: no such file or directory, expected an existing file"},
	},
}

// Systems that differ from the first system.
var systemCases = []errCase{
	{
		name: "missing, extra and different gold",
		files: map[string]string{
			"a.csv": hdr + "P1,g,a,1\nP2,,a,1\nP3,,a,1\nP5,,a,1\n",
			"b.csv": hdr + "P1,h,a,1\nP4,,a,1\nP3,,a,1\n",
		},
		want: []string{
			`a.csv:3:1: the row of query "P2" (fold 0, split eval) is missing from b.csv (system b) (and 1 more), expected every system to cover the same (query, fold, split) rows`,
			`b.csv:3:1: query "P4" (fold 0, split eval) is not in a.csv (the first system, a), expected every system to cover the same (query, fold, split) rows`,
			`b.csv:2:4: gold of query "P1" (fold 0, split eval) differs from a.csv:2: gold id "h" is here and not there, expected the same gold in every system`,
		},
	},
	{
		name: "different gold_rels",
		files: map[string]string{
			"a.csv": "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,g,2,a,1\n",
			"b.csv": "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\nP1,g,,a,1\n",
		},
		want:        []string{`b.csv:2:4: gold of query "P1" (fold 0, split eval) differs from a.csv:2: gold id "g" has grade 1 here and 2 there, expected the same gold in every system`},
		consistency: true,
	},
	{
		name: "different number of gold ids",
		files: map[string]string{
			"a.csv": hdr + "P1,g;h,a,1\n",
			"b.csv": hdr + "P1,g,a,1\n",
		},
		want:        []string{`b.csv:2:4: gold of query "P1" (fold 0, split eval) differs from a.csv:2: gold_uids has 1 ids here and 2 there, expected the same gold in every system`},
		consistency: true,
	},
	{
		name: "different post",
		files: map[string]string{
			"a.csv": "query_id,post_id,gold_uids,candidate_uids,candidate_scores\nq1,P1,,a,1\n",
			"b.csv": "query_id,post_id,gold_uids,candidate_uids,candidate_scores\nq1,P2,,a,1\n",
		},
		want: []string{`b.csv:2:1: query "q1" (fold 0, split eval) has post "P2", criterion "", but a.csv:2 has post "P1", criterion "", expected the same in every system`},
	},
}

func init() {
	for i := range systemCases {
		systemCases[i].spec = &Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}, {Name: "b", Input: "b.csv"}}}
	}
}

const jsonOK = `"gold_uids":[],"candidate_uids":["a"],"candidate_scores":[1]`

var jsonlCases = []errCase{
	jsonlCase("not an object", "[1]\n",
		`s.jsonl:1:1: malformed JSON: found '[', expected '{' (each line holds one JSON object)`),
	jsonlCase("byte order mark shifts columns", "\ufeff[1]\n",
		`s.jsonl:1:4: malformed JSON: found '[', expected '{' (each line holds one JSON object)`),
	jsonlCase("unclosed object", `{"post_id":"P1"`+"\n",
		`s.jsonl:1:16: malformed JSON: found end of line, expected ',' or '}'`),
	jsonlCase("bad escape", `{"post_id":"P\x1"}`+"\n",
		`s.jsonl:1:14: malformed JSON string: unknown escape "\\x"`),
	jsonlCase("list given as a string", `{"post_id":"P1","gold_uids":[],"candidate_uids":["a"],"candidate_scores":"1"}`+"\n",
		`s.jsonl:1:`+col(`{"post_id":"P1","gold_uids":[],"candidate_uids":["a"],"candidate_scores":"1"}`, `"1"`)+`: candidate_scores is the string "1", expected a JSON array`),
	jsonlCase("list item of the wrong type", `{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1, "x"]}`+"\n",
		`s.jsonl:1:`+col(`{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1, "x"]}`, `"x"`)+`: candidate_scores item 2 is the string "x", expected a number`),
	jsonlCase("probability item out of range", `{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1,2],"node_probs":[0.5, 1.25]}`+"\n",
		`s.jsonl:1:`+col(`{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1,2],"node_probs":[0.5, 1.25]}`, `1.25`)+`: node_probs item 2 is "1.25", expected a probability in [0, 1]`),
	jsonlCase("length mismatch", `{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1]}`+"\n",
		`s.jsonl:1:`+col(`{"post_id":"P1","gold_uids":[],"candidate_uids":["a","b"],"candidate_scores":[1]}`, `[1]`)+`: candidate_scores has 1 value but candidate_uids has 2, expected one score per candidate`),
	jsonlCase("missing field", `{"post_id":"P1","gold_uids":[],"candidate_uids":[]}`+"\n",
		`s.jsonl:1:1: missing field candidate_scores, expected every line to give post_id (or query_id), gold_uids, candidate_uids and candidate_scores`),
	jsonlCase("missing post_id and query_id", `{`+jsonOK+`}`+"\n",
		`s.jsonl:1:1: missing field post_id (or query_id), expected every line to give post_id (or query_id), gold_uids, candidate_uids and candidate_scores`),
	jsonlCase("field given twice", `{"post_id":"P1","post_id":"P2",`+jsonOK+`}`+"\n",
		`s.jsonl:1:17: field post_id is given twice, expected it once`),
	jsonlCase("text after the object", `{"post_id":"P1",`+jsonOK+`} x`+"\n",
		`s.jsonl:1:`+strconv.Itoa(len(`{"post_id":"P1",`+jsonOK+`} x`))+`: malformed JSON: found 'x' after the object, expected the end of the line`),
	jsonlCase("only blank lines", "\n  \n",
		"s.jsonl:1:1: file is empty, expected one JSON object per line"),
	jsonlCase("fold as a string", `{"post_id":"P1","fold":"1",`+jsonOK+`}`+"\n",
		`s.jsonl:1:24: fold is the string "1", expected a non-negative integer`),
	jsonlCase("ne_prob above one", `{"post_id":"P1","ne_prob":2,`+jsonOK+`}`+"\n",
		`s.jsonl:1:27: ne_prob is "2", expected a probability in [0, 1]`),
	jsonlCase("has_evidence as a string", `{"post_id":"P1","has_evidence":"1",`+jsonOK+`}`+"\n",
		`s.jsonl:1:32: has_evidence is the string "1", expected 0, 1, true or false`),
	jsonlCase("second line", `{"post_id":"P1",`+jsonOK+`}`+"\n\n"+`{"post_id":"P2","state":"pos!",`+jsonOK+`}`+"\n",
		`s.jsonl:3:25: state is "pos!", expected NEG, UNCERTAIN or POS`),
	jsonlCase("NaN", `{"post_id":"P1","ne_prob":NaN,`+jsonOK+`}`+"\n",
		`s.jsonl:1:27: malformed JSON: found NaN, which JSON does not allow (Python's json.dumps writes it for a non-finite float), expected a finite number`),
	jsonlCase("-Infinity in a list", `{"post_id":"P1","gold_uids":[],"candidate_uids":["a"],"candidate_scores":[-Infinity]}`+"\n",
		`s.jsonl:1:`+col(`{"post_id":"P1","gold_uids":[],"candidate_uids":["a"],"candidate_scores":[-Infinity]}`, `-Inf`)+`: malformed JSON: found -Infinity, which JSON does not allow (Python's json.dumps writes it for a non-finite float), expected a finite number`),
	jsonlCase("hexadecimal number", `{"post_id":"P1","ne_prob":0x1p-2,`+jsonOK+`}`+"\n",
		`s.jsonl:1:27: malformed JSON number: found a hexadecimal number, which JSON does not allow, expected a decimal number`),
	jsonlCase("unclosed string", `{"post_id":"P1`+"\n",
		`s.jsonl:1:12: malformed JSON string: the string that starts here is not closed before the end of the line, expected a closing "`),
	// The BOM shifts columns of line 1 by 3; the bad byte is the 15th of
	// the line after it.
	jsonlCase("invalid UTF-8", "\ufeff"+`{"post_id":"P`+"\xc3"+`1",`+jsonOK+`}`+"\n",
		`s.jsonl:1:17: invalid UTF-8 (byte 0xc3, which is "Ã" in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`),
	jsonlCase("long string value quoted in part", `{"post_id":"P1","split":"`+strings.Repeat("é", 100)+`",`+jsonOK+`}`+"\n",
		`s.jsonl:1:25: split is "`+strings.Repeat("é", 30)+`...", expected eval, tune, test, val, dev or train`),
}

func trecSpec(extra func(*Spec)) *Spec {
	s := &Spec{Qrels: "qrels.txt", Systems: []SystemSpec{{Name: "r", Input: "r.txt", Format: "trec"}}}
	if extra != nil {
		extra(s)
	}
	return s
}

var trecCases = []errCase{
	{
		name:  "run line with 5 fields",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 0.5\n"},
		spec:  trecSpec(nil),
		want:  []string{"r.txt:1:1: run line has 5 fields, expected 6: qid Q0 docno rank score tag"},
	},
	{
		// "q1 Q0 d1 1 " is 11 bytes.
		name:  "run score not a number",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 x t\n"},
		spec:  trecSpec(nil),
		want:  []string{`r.txt:1:12: score is "x", expected a number`},
	},
	{
		name:  "run score NaN",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 NaN t\n"},
		spec:  trecSpec(nil),
		want:  []string{`r.txt:1:12: score is "NaN", expected a finite number`},
	},
	{
		name:  "document twice in a run",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\nq1 Q0 d2 2 0.7 t\nq1 Q0 d1 3 0.5 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`r.txt:3:7: document "d1" appears twice for query "q1" (lines 1 and 3), expected each (qid, docno) once`},
	},
	{
		name:  "empty run",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "\n"},
		spec:  trecSpec(nil),
		want:  []string{"r.txt:1:1: file is empty, expected run lines: qid Q0 docno rank score tag"},
	},
	{
		name:  "qrels line with 3 fields",
		files: map[string]string{"qrels.txt": "q1 0 d1\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{"qrels.txt:1:1: qrels line has 3 fields, expected 4: qid iter docno rel"},
	},
	{
		// "q1 0 d1 " is 8 bytes.
		name:  "qrels relevance not an integer",
		files: map[string]string{"qrels.txt": "q1 0 d1 x\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`qrels.txt:1:9: relevance is "x", expected an integer`},
	},
	{
		name:  "document judged twice",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\nq1 0 d1 0\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`qrels.txt:2:6: document "d1" is judged twice for query "q1" (lines 1 and 2), expected each (qid, docno) once`},
	},
	{
		name:  "no qrels file",
		files: map[string]string{"r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  &Spec{Systems: []SystemSpec{{Name: "r", Input: "r.txt", Format: "trec"}}},
		want:  []string{"r.txt: no qrels file, expected a top-level qrels: for the TREC systems r"},
	},
	{
		name:  "no run query in the qrels",
		files: map[string]string{"qrels.txt": "q9 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{"r.txt: none of the 1 run queries is evaluated (in the qrels file qrels.txt and not a train query), expected at least one"},
	},
	{
		name: "evaluated query without a queries row",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\nq2 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\nq2 Q0 d1 1 1 t\n",
			"queries.csv": "query_id,post_id\nq2,P2\n",
		},
		spec: trecSpec(func(s *Spec) { s.Queries = "queries.csv" }),
		want: []string{`r.txt:1:1: query "q1" has qrels but no row in queries.csv, expected a row for every evaluated query there`},
	},
	{
		name: "query listed twice",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n",
			"queries.csv": "query_id,post_id\nq1,P1\nq1,P2\n",
		},
		spec: trecSpec(func(s *Spec) { s.Queries = "queries.csv" }),
		want: []string{`queries.csv:3:1: query "q1" is listed twice (lines 2 and 3), expected one row per query`},
	},
	{
		name: "queries table without query_id",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n",
			"queries.csv": "post_id,fold\nP1,0\n",
		},
		spec: trecSpec(func(s *Spec) { s.Queries = "queries.csv" }),
		want: []string{"queries.csv:1:1: missing column query_id, expected a header with query_id and optionally post_id, criterion_id, fold, split"},
	},
	{
		name: "post evaluated in two folds, from the queries table",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\nq2 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\nq2 Q0 d1 1 1 t\n",
			"queries.csv": "query_id,post_id,fold\nq1,P1,1\nq2,P1,0\n",
		},
		spec:        trecSpec(func(s *Spec) { s.Queries = "queries.csv" }),
		want:        []string{`queries.csv:2:1: post "P1" has eval rows in fold 0 (line 3) and in fold 1, expected each post evaluated in exactly one fold`},
		consistency: true,
	},
	{
		name: "ne_prob missing for a query",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n",
			"ne.csv": "query_id,ne_prob\nq2,0.5\n",
		},
		spec: trecSpec(func(s *Spec) { s.Systems[0].NEProbs = "ne.csv" }),
		want: []string{`r.txt:1:1: query "q1" has no row in ne.csv, expected an ne_prob for every evaluated query there`},
	},
	{
		name: "ne_prob out of range",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n",
			"ne.csv": "query_id,ne_prob\nq1,1.2\n",
		},
		spec: trecSpec(func(s *Spec) { s.Systems[0].NEProbs = "ne.csv" }),
		want: []string{`ne.csv:2:4: ne_prob is "1.2", expected a probability in [0, 1]`},
	},
	{
		name:  "run score hexadecimal",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 0x1p0 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`r.txt:1:12: score is "0x1p0", expected a decimal number (hexadecimal floats such as 0x1p-2 are not read)`},
	},
	{
		name:  "run with invalid UTF-8",
		files: map[string]string{"qrels.txt": "q1 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\nq1 Q0 d\xff 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`r.txt:2:8: invalid UTF-8 (byte 0xff), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`},
	},
	{
		name:  "qrels with invalid UTF-8",
		files: map[string]string{"qrels.txt": "q\xe91 0 d1 1\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`qrels.txt:1:2: invalid UTF-8 (byte 0xe9, which is "é" in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`},
	},
	{
		name:  "qrels relevance hexadecimal",
		files: map[string]string{"qrels.txt": "q1 0 d1 0x1\n", "r.txt": "q1 Q0 d1 1 1 t\n"},
		spec:  trecSpec(nil),
		want:  []string{`qrels.txt:1:9: relevance is "0x1", expected an integer`},
	},
	{
		name: "queries with invalid UTF-8",
		files: map[string]string{
			"qrels.txt":   "q1 0 d1 1\n",
			"r.txt":       "q1 Q0 d1 1 1 t\n",
			"queries.csv": "query_id,post_id\nq1,P\xe9\n",
		},
		spec: trecSpec(func(s *Spec) { s.Queries = "queries.csv" }),
		want: []string{`queries.csv:2:4: field 2 (post_id): invalid UTF-8 (byte 0xe9, which is "é" in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)`},
	},
	{
		name: "ne_prob hexadecimal",
		files: map[string]string{
			"qrels.txt": "q1 0 d1 1\n",
			"r.txt":     "q1 Q0 d1 1 1 t\n",
			"ne.csv":    "query_id,ne_prob\nq1,0x1p-1\n",
		},
		spec: trecSpec(func(s *Spec) { s.Systems[0].NEProbs = "ne.csv" }),
		want: []string{`ne.csv:2:4: ne_prob is "0x1p-1", expected a probability in [0, 1] written in decimal (hexadecimal floats such as 0x1p-2 are not read)`},
	},
}

func runErrCases(t *testing.T, cases []errCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := Spec{Systems: []SystemSpec{{Name: "s", Input: "s.csv"}}}
			if tc.spec != nil {
				spec = *tc.spec
			}
			_, err := load(spec, memFiles(tc.files))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v (%T), want an ErrorList", err, err)
			}
			if got, want := err.Error(), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("error:\n%s\nwant:\n%s", got, want)
			}
			for _, e := range list {
				gold := strings.Contains(e.Msg, "expected the same gold in every system")
				if e.Consistency != tc.consistency && !gold {
					t.Errorf("%v: Consistency = %v, want %v", e, e.Consistency, tc.consistency)
				}
				leak := strings.Contains(e.Msg, "expected each post evaluated in exactly one fold") || strings.Contains(e.Msg, "to share no post")
				if (gold || leak) && !e.Consistency {
					t.Errorf("%v: a leakage or gold check must set Consistency", e)
				}
			}
		})
	}
}

func TestCSVErrors(t *testing.T)    { runErrCases(t, csvCases) }
func TestSystemErrors(t *testing.T) { runErrCases(t, systemCases) }
func TestJSONLErrors(t *testing.T)  { runErrCases(t, jsonlCases) }
func TestTRECErrors(t *testing.T)   { runErrCases(t, trecCases) }

// TestMaxErrors checks that reading stops after MaxErrors errors.
func TestMaxErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString(hdr)
	for i := 0; i < 30; i++ {
		b.WriteString("P" + strconv.Itoa(i) + ",,a,NaN\n")
	}
	_, err := loadOne(t, b.String())
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v, want an ErrorList", err)
	}
	if len(list) != MaxErrors {
		t.Fatalf("%d errors, want %d", len(list), MaxErrors)
	}
	if last := list[len(list)-1]; last.Line != MaxErrors+1 {
		t.Errorf("last error on line %d, want %d", last.Line, MaxErrors+1)
	}
}
