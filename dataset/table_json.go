package dataset

import (
	"fmt"
)

// This file holds the JSON Lines side of the table parser: one JSON object
// per line, its list columns given as JSON arrays.

// jsonItems reads the items of a JSON array whose '[' has been consumed.
// With exact, errors point at the item (base + its offset), else at the
// value's column.
func (p *tableParser) jsonItems(col column, base int, exact bool) {
	js := &p.js
	first := true
	item := 0
	bad := false // after a bad item the rest is only scanned
	for js.more(&first, ']') {
		item++
		v := js.value()
		if js.failed() {
			return
		}
		if bad {
			continue
		}
		ok := true
		switch {
		case v.Kind == jsonString && isIDList(col):
			if v.Text == "" {
				ok = false
			}
		case v.Kind == jsonNumber:
		default:
			ok = false
		}
		if !ok {
			what := "a number"
			if isIDList(col) {
				what = "a non-empty string"
			}
			p.jsonErr(col, base, exact, v.Pos, "%s item %d is %s, expected %s", col, item, describe(v), what)
			bad = true
			continue
		}
		if !p.listItemAt(col, item, v, base, exact) {
			bad = true
		}
	}
}

// listItemAt is listItem for a JSON item, with the error placed at the
// item when exact.
func (p *tableParser) listItemAt(col column, item int, v jsonValue, base int, exact bool) bool {
	if !exact {
		return p.listItem(col, item, text(v.Text))
	}
	saved := p.raw.at[col]
	p.raw.at[col].col = base + v.Pos
	ok := p.listItem(col, item, text(v.Text))
	p.raw.at[col] = saved
	return ok
}

// jsonErr reports an error at offset pos of a JSON text.
func (p *tableParser) jsonErr(col column, base int, exact bool, pos int, format string, args ...any) {
	if !exact {
		p.errAt(col, format, args...)
		return
	}
	p.c.add(p.file, p.raw.line, base+pos, format, args...)
	p.pending++
}

// describe names a JSON value for an error message.
func describe(v jsonValue) string {
	switch v.Kind {
	case jsonString:
		return fmt.Sprintf("the string %q", clip(v.Text))
	case jsonNumber, jsonBool:
		return clip(v.Text)
	}
	return v.Kind.String()
}

// jsonLine reads one JSON Lines object into the raw row. base is the
// column of the line's first byte minus one.
func (p *tableParser) jsonLine(line string, base int) {
	js := &p.js
	r := &p.raw
	js.reset(line)
	var seen [numColumns]bool
	if js.expect('{', "'{' (each line holds one JSON object)") {
		first := true
		for js.more(&first, '}') {
			if js.peek() != '"' {
				js.fail(js.i, "malformed JSON: found %s, expected a member name", js.found())
				break
			}
			keyPos := js.i
			key := js.str()
			if !js.expect(':', "':'") {
				break
			}
			col, known := columnByName(key)
			if !known {
				js.value()
				continue
			}
			if seen[col] {
				p.c.add(p.file, r.line, base+keyPos+1, "field %s is given twice, expected it once", col)
				p.pending++
				js.value()
				continue
			}
			seen[col] = true
			js.ws()
			r.at[col] = position{r.line, base + js.i + 1}
			p.jsonField(col, base+1) // a bad value is reported; the others are still read
		}
		if !js.failed() && !js.atEnd() {
			js.fail(js.i, "malformed JSON: found %s after the object, expected the end of the line", js.found())
		}
	}
	if js.failed() {
		p.c.add(p.file, r.line, base+js.errPos+1, "%s", js.err)
		p.pending++
		return
	}
	if p.pending > 0 {
		return
	}
	// A classifier's line that exports the candidate keys empty (and no
	// gold_uids) is a classifier-only row.
	emptyCands := !seen[colGold] && (seen[colHasEvidence] || seen[colLabel]) && (seen[colNEProb] || seen[colNEScore]) &&
		len(r.candidates) == 0 && len(r.scores) == 0 && len(r.nodeProbs) == 0 && len(r.selected) == 0
	if emptyCands {
		r.hasSel = false
	}
	if (seen[colCandidates] || seen[colScores]) && !emptyCands {
		r.cands = true
		for _, col := range []column{colGold, colCandidates, colScores} {
			if !seen[col] {
				p.errRow("missing field %s, expected every line to give %s", col, requiredColumns)
				return
			}
		}
	} else if !seen[colHasEvidence] && !seen[colLabel] && !seen[colGold] {
		p.errRow("missing fields candidate_uids and candidate_scores (a ranked query) or has_evidence/label (a classifier-only row), expected every line to give %s, or %s", requiredColumns, classifierColumns)
		return
	}
	if !seen[colPost] && !seen[colQuery] {
		p.errRow("missing field post_id (or query_id), expected every line to give %s", requiredColumns)
		return
	}
	if seen[colFold] {
		p.t.hasFolds = true
	}
}

// jsonField reads the value of a known field. base is the column of the
// line's first byte.
func (p *tableParser) jsonField(col column, base int) {
	js := &p.js
	r := &p.raw
	if isListColumn(col) {
		switch js.peek() {
		case '[':
			js.i++
			if col == colSelected {
				r.hasSel = true
			}
			p.jsonItems(col, base, true)
			return
		case 'n':
			js.value() // null: an empty list, or absent when optional
			return
		}
		v := js.value()
		if !js.failed() {
			p.errAt(col, "%s is %s, expected a JSON array", col, describe(v))
		}
		return
	}
	v := js.value()
	if js.failed() || v.Kind == jsonNull {
		return
	}
	switch col {
	case colPost, colCriterion, colQuery:
		if v.Kind != jsonString && v.Kind != jsonNumber {
			p.errAt(col, "%s is %s, expected a string", col, describe(v))
			return
		}
		p.textScalar(col, v.Text)
	case colFold, colNEProb, colNEScore:
		if v.Kind != jsonNumber {
			what := "a non-negative integer"
			switch col {
			case colNEProb:
				what = "a probability in [0, 1]"
			case colNEScore:
				what = "a finite number"
			}
			p.errAt(col, "%s is %s, expected %s", col, describe(v), what)
			return
		}
		p.textScalar(col, v.Text)
	case colSplit, colState:
		if v.Kind != jsonString {
			p.errAt(col, "%s is %s, expected a string", col, describe(v))
			return
		}
		p.textScalar(col, v.Text)
	case colHasEvidence, colLabel:
		if v.Kind != jsonNumber && v.Kind != jsonBool {
			p.errAt(col, "%s is %s, expected 0, 1, true or false", col, describe(v))
			return
		}
		p.textScalar(col, v.Text)
	}
}

// --- checks across the values of a row ----------------------------------
