package dataset

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the small value parsers and list helpers shared by the
// CSV, JSON Lines and TREC readers.

// position is a 1-based line and byte column in an input file.
type position struct {
	line, col int
}

// parseFloat parses a finite float64 written in decimal. It returns a
// description of what was expected when s is not one ("" when s is fine).
//
// Go's strconv.ParseFloat also reads hexadecimal floats (0x1p-2), which no
// CSV writer of scikit-learn or pandas produces and Python's float()
// rejects: they are refused (msgHex), as are NaN, infinities and values
// that overflow float64 (1e309).
func parseFloat(s string) (float64, string) {
	if x, ok := parseDecimalFast(s); ok {
		return x, ""
	}
	if isHexFloat(s) {
		return 0, msgHex
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, "expected a number"
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, "expected a finite number"
	}
	return x, ""
}

// msgHex is what parseFloat says about a hexadecimal float.
const msgHex = "expected a decimal number (hexadecimal floats such as 0x1p-2 are not read)"

// isHexFloat reports whether s is spelled as a hexadecimal number
// ([+-]0x...), which strconv.ParseFloat would accept.
func isHexFloat(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
}

// shownMax bounds how many bytes of a value from the input an error
// message quotes: a 10 MB cell must not become a 10 MB message.
const shownMax = 64

// clip shortens a value from the input for an error message: the first
// bytes (cut at a character boundary) and "...".
func clip(s string) string {
	if len(s) <= shownMax {
		return s
	}
	cut := shownMax - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// clipBytes is clip for a byte slice.
func clipBytes(b []byte) string {
	if len(b) <= shownMax {
		return string(b)
	}
	return clip(string(b[:shownMax+utf8.UTFMax]))
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of a valid UTF-8 encoding, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// utf8Msg describes invalid UTF-8 at b[i] for an error message.
func utf8Msg(b []byte, i int) string {
	c := b[i]
	switch {
	case c >= 0xa0 && c < 0xff:
		// A letter of Latin-1 (ISO-8859-1), the usual encoding of a
		// file that is not UTF-8.
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02x, which is %q in Latin-1: is the file Latin-1 or Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)", c, string(rune(c)))
	case c >= 0x80 && c < 0xa0:
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02x, a Windows-1252 character: is the file Windows-1252?), expected UTF-8 text (convert the file, e.g. iconv -f windows-1252 -t utf-8)", c)
	}
	return fmt.Sprintf("invalid UTF-8 (byte 0x%02x), expected UTF-8 text (convert the file, e.g. iconv -f latin1 -t utf-8)", c)
}

// pow10 holds the powers of ten that are exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimalFast parses the common spellings [-]digits[.digits] of at most
// 15 significant digits, which make up nearly every score and probability
// in a per-query table, several times faster than strconv.ParseFloat. With
// m < 2^53 and k <= 22 digits after the point, m and 10^k are exact in
// float64 and IEEE division rounds correctly, so m / 10^k is the correctly
// rounded value of the decimal, the same float64 that ParseFloat returns
// (Clinger's fast path). Anything else reports false and goes to
// strconv.
func parseDecimalFast(s string) (float64, bool) {
	i, neg := 0, false
	if len(s) > 0 && s[0] == '-' {
		neg, i = true, 1
	}
	if i >= len(s) {
		return 0, false
	}
	i0 := i
	var m uint64
	digits, frac, point := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			if m == 0 && c == '0' && !point {
				continue // leading zeros of the integer part
			}
			m = m*10 + uint64(c-'0')
			if m != 0 {
				digits++ // significant digits: m stays below 10^15
			}
			if point {
				frac++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	// Spellings such as "", "-", "1." and ".5" are left to strconv: the
	// fast path wants a digit first (after the sign) and last.
	if digits > 15 || frac > 22 || !isDigit(s[len(s)-1]) || !isDigit(s[i0]) {
		return 0, false
	}
	x := float64(m) / pow10[frac]
	if neg {
		x = -x
	}
	return x, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseProb parses a probability in [0, 1].
func parseProb(s string) (float64, string) {
	x, msg := parseFloat(s)
	if msg == msgHex {
		return 0, "expected a probability in [0, 1] written in decimal (hexadecimal floats such as 0x1p-2 are not read)"
	}
	if msg != "" {
		return 0, "expected a probability in [0, 1]"
	}
	if x < 0 || x > 1 {
		return 0, "expected a probability in [0, 1]"
	}
	return x, ""
}

// maxInt bounds folds and relevance grades: larger values are rejected
// rather than silently wrapped.
const maxInt = 1<<31 - 1

// parseInt parses an integer. An integral float such as "2.0" (what pandas
// writes for an integer column that once held a missing value) is
// accepted.
func parseInt(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < -maxInt || n > maxInt {
			return 0, false
		}
		return n, true
	}
	if isHexFloat(s) {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != math.Trunc(x) || math.Abs(x) > maxInt {
		return 0, false
	}
	return int(x), true
}

// parseSplit reads a split name, case-insensitively: eval and test are
// SplitEval, tune, val and dev are SplitTune, train is reported by train.
func parseSplit(s string) (sp Split, train, ok bool) {
	switch {
	case strings.EqualFold(s, "eval"), strings.EqualFold(s, "test"):
		return SplitEval, false, true
	case strings.EqualFold(s, "tune"), strings.EqualFold(s, "val"), strings.EqualFold(s, "dev"):
		return SplitTune, false, true
	case strings.EqualFold(s, "train"):
		return SplitEval, true, true
	}
	return SplitEval, false, false
}

const splitExpected = "expected eval, tune, test, val, dev or train"

// parseState reads a gate state, case-insensitively.
func parseState(s string) (State, bool) {
	switch {
	case strings.EqualFold(s, "NEG"):
		return StateNEG, true
	case strings.EqualFold(s, "UNCERTAIN"):
		return StateUncertain, true
	case strings.EqualFold(s, "POS"):
		return StatePOS, true
	}
	return StateNone, false
}

// parseBool reads has_evidence: 0, 1, true or false.
func parseBool(s string) (bool, bool) {
	switch {
	case strings.EqualFold(s, "true"):
		return true, true
	case strings.EqualFold(s, "false"):
		return false, true
	}
	n, ok := parseInt(s)
	if !ok || (n != 0 && n != 1) {
		return false, false
	}
	return n == 1, true
}

// interner returns one shared copy of strings that repeat across rows
// (post ids, criteria, TREC query ids). It forgets everything when it holds
// internMax strings, so memory stays bounded on inputs where nothing
// repeats.
type interner struct {
	m map[string]string
}

const internMax = 1 << 16

func (in *interner) get(s string) string {
	if v, ok := in.m[s]; ok {
		return v
	}
	if in.m == nil {
		in.m = make(map[string]string)
	}
	if len(in.m) >= internMax {
		clear(in.m)
	}
	v := strings.Clone(s)
	in.m[v] = v
	return v
}

// getBytes is get for a byte slice; it allocates only for a new string.
func (in *interner) getBytes(b []byte) string {
	if v, ok := in.m[string(b)]; ok {
		return v
	}
	return in.get(string(b))
}

// internStrings is orderStrings with every id replaced by its interned
// copy: the ids of a table row point into the text of the whole row
// (encoding/csv allocates one string per record, the JSON Lines reader one
// per line), which a kept id would keep alive (on a million-row table,
// hundreds of MB of scores and lists already parsed). Ids repeat across
// the rows of a post, so the copies are few.
func internStrings(sl *slab[string], in *interner, ids []string, perm []int) []string {
	out := orderStrings(sl, ids, perm)
	for i, s := range out {
		out[i] = in.get(s)
	}
	return out
}

// orderStrings returns ids in the order perm gives (all of ids in order
// when perm is nil), in a slice of its own carved from sl; nil for an empty
// list. The strings themselves are shared, not copied: the readers hand
// out strings that point into a line or record allocated for that row
// alone (encoding/csv allocates one string per record, the JSON Lines
// reader one per line), never into a reused buffer.
func orderStrings(sl *slab[string], ids []string, perm []int) []string {
	if len(ids) == 0 {
		return nil
	}
	out := sl.take(len(ids))
	if perm == nil {
		copy(out, ids)
		return out
	}
	for i, p := range perm {
		out[i] = ids[p]
	}
	return out
}

// lookup finds the position of an id in a list: short lists are scanned,
// longer ones go through an open-addressing hash table that is reused from
// list to list (cheaper than a map for the ~20 candidates of each of a
// million rows). Hash values only decide where to look, never what is
// reported, so results do not depend on the random hash seed.
type lookup struct {
	ids   []string
	seed  maphash.Seed
	slots []int32 // 1 + position in ids; 0 = empty
	mask  int
}

const lookupLinear = 8

// reset indexes ids. It returns the positions i < j of the first id that
// occurs twice (first in order of j), or -1, -1 when all are distinct.
func (l *lookup) reset(ids []string) (int, int) {
	l.ids = ids
	if len(ids) <= lookupLinear {
		for j := 1; j < len(ids); j++ {
			for i := 0; i < j; i++ {
				if ids[i] == ids[j] {
					return i, j
				}
			}
		}
		return -1, -1
	}
	if l.slots == nil {
		l.seed = maphash.MakeSeed()
	}
	size := 32
	for size < 2*len(ids) {
		size *= 2
	}
	if cap(l.slots) < size {
		l.slots = make([]int32, size)
	} else {
		l.slots = l.slots[:size]
		clear(l.slots)
	}
	l.mask = size - 1
	di, dj := -1, -1
	for j, s := range ids {
		h := int(maphash.String(l.seed, s)) & l.mask
		for {
			k := l.slots[h]
			if k == 0 {
				l.slots[h] = int32(j + 1)
				break
			}
			if ids[k-1] == s {
				if dj < 0 {
					di, dj = int(k-1), j
				}
				break
			}
			h = (h + 1) & l.mask
		}
	}
	return di, dj
}

// find returns the position of id in the list given to reset (its first
// occurrence), or -1.
func (l *lookup) find(id string) int {
	if len(l.ids) <= lookupLinear {
		for i, s := range l.ids {
			if s == id {
				return i
			}
		}
		return -1
	}
	h := int(maphash.String(l.seed, id)) & l.mask
	for {
		k := l.slots[h]
		if k == 0 {
			return -1
		}
		if l.ids[k-1] == id {
			return int(k - 1)
		}
		h = (h + 1) & l.mask
	}
}

// slab hands out small slices carved from large shared blocks, so that the
// per-row slices of a big table cost a few allocations per thousand rows
// instead of several per row. Each slice is capped at its length, so an
// append by a later user copies instead of overwriting a neighbour.
type slab[T any] struct {
	buf []T
}

const slabBlock = 1 << 14

// take returns a zeroed slice of length n (nil when n is 0).
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return nil
	}
	if n > len(s.buf) {
		if n > slabBlock/4 {
			return make([]T, n)
		}
		s.buf = make([]T, slabBlock)
	}
	out := s.buf[:n:n]
	s.buf = s.buf[n:]
	return out
}

// arena groups the slabs of one reader. A query's gold lists have slabs
// of their own, apart from the rows' candidate lists: a consumer that frees
// the rows' lists (report.Options.FreeRows) frees their blocks, which the
// queries' lists would otherwise keep alive.
type arena struct {
	strs   slab[string]
	floats slab[float64]
	ints   slab[int]

	goldStrs slab[string]
	goldInts slab[int]
}

// rankByScore fills perm with the ranked order of scores: descending, ties
// in list order (a stable sort). It returns nil when the list is already
// ranked, so the caller can skip the permutation.
func rankByScore(perm []int, scores []float64) []int {
	sorted := true
	for i := 1; i < len(scores); i++ {
		if scores[i] > scores[i-1] {
			sorted = false
			break
		}
	}
	if sorted {
		return nil
	}
	perm = identity(perm, len(scores))
	if len(perm) <= 32 {
		// Insertion sort: stable, and faster than a general sort on the
		// ~20 candidates of a typical query.
		for i := 1; i < len(perm); i++ {
			p := perm[i]
			j := i
			for ; j > 0 && scores[perm[j-1]] < scores[p]; j-- {
				perm[j] = perm[j-1]
			}
			perm[j] = p
		}
		return perm
	}
	slices.SortStableFunc(perm, func(i, j int) int { return -cmpFloat(scores[i], scores[j]) })
	return perm
}

// rankTREC fills perm with trec_eval's order: score descending, ties by
// docno descending (byte-wise, as strcmp). Docnos are distinct within a
// query, so the order is total.
//
// A run is usually written in rank order already: when the scores are
// descending, only each run of tied scores is sorted (by docno).
func rankTREC(perm []int, scores []float64, docs []string) []int {
	perm = identity(perm, len(scores))
	byRank := func(i, j int) int {
		if c := cmpFloat(scores[j], scores[i]); c != 0 {
			return c
		}
		return strings.Compare(docs[j], docs[i])
	}
	for i := 1; i < len(scores); i++ {
		if scores[i] > scores[i-1] {
			slices.SortFunc(perm, byRank)
			return perm
		}
	}
	for i := 0; i < len(scores); {
		j := i + 1
		for j < len(scores) && scores[j] == scores[i] {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(perm[i:j], byRank)
		}
		i = j
	}
	return perm
}

func identity(perm []int, n int) []int {
	perm = slices.Grow(perm[:0], n)[:n]
	for i := range perm {
		perm[i] = i
	}
	return perm
}

// cmpFloat compares finite floats (NaN never reaches it).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// permuteFloats returns xs in the order of perm (a copy; xs itself when
// perm is nil is copied too, so the result never aliases scratch space).
func permuteFloats(sl *slab[float64], xs []float64, perm []int) []float64 {
	if len(xs) == 0 {
		return nil
	}
	out := sl.take(len(xs))
	if perm == nil {
		copy(out, xs)
		return out
	}
	for i, p := range perm {
		out[i] = xs[p]
	}
	return out
}

// missingWords are the spellings of a missing value that pandas, polars,
// NumPy and R write into a text file.
var missingWords = []string{"nan", "none", "null", "na", "n/a", "<na>", "nat", "-nan", "+nan"}

// numberHint says what a number cell that is not a number probably is,
// and what to write instead ("" when nothing is recognised): a missing
// value written as nan/None, a decimal comma, or a comma-separated list.
func numberHint(s string) string {
	t := strings.TrimSpace(s)
	for _, w := range missingWords {
		if strings.EqualFold(t, w) {
			return " (a score must be a number; write an empty cell for a missing optional value)"
		}
	}
	if i := strings.IndexByte(t, ','); i >= 0 {
		if isDigits(strings.TrimLeft(t[:i], "+-")) && isDigits(t[i+1:]) {
			return fmt.Sprintf(" (a decimal comma? write %s: decimals are written with '.'; list items are separated by ';')", t[:i]+"."+t[i+1:])
		}
		return " (lists are separated by ';', e.g. 0.5;0.25, or written as a JSON array [0.5, 0.25])"
	}
	return ""
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// listHint says what a list cell that is not a valid JSON array probably
// is ("" when nothing is recognised): a Python list (quotes ', None,
// nan), or a NumPy array as printed (items separated by spaces).
func listHint(s string) string {
	inner := "" // between the brackets of "[...]"
	if len(s) >= 2 {
		inner = s[1 : len(s)-1]
	}
	switch {
	case strings.ContainsAny(s, "'") || strings.Contains(s, "None") || strings.Contains(s, "nan"):
		return ": it looks like a Python list (str(list) or a DataFrame cell written as is); write a JSON array with double quotes, or s1;s2 (e.g. df[col].map(json.dumps) or df[col].str.join(';') before to_csv)"
	case !strings.Contains(s, ",") && strings.Contains(strings.TrimSpace(inner), " "):
		return ": it looks like a NumPy array as printed (items separated by spaces); write a JSON array [0.5, 0.25], or 0.5;0.25 (e.g. df[col].map(lambda a: json.dumps(list(a))))"
	}
	return ""
}
