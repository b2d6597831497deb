package dataset

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file holds the small value parsers and list helpers shared by the
// CSV, JSON Lines and TREC readers.

// position is a 1-based line and byte column in an input file.
type position struct {
	line, col int
}

// parseFloat parses a finite float64. It returns a description of what was
// expected when s is not one ("" when s is fine).
func parseFloat(s string) (float64, string) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, "expected a number"
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, "expected a finite number"
	}
	return x, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseProb parses a probability in [0, 1].
func parseProb(s string) (float64, string) {
	x, msg := parseFloat(s)
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

// packStrings copies ids, in the order perm gives (all of ids in order when
// perm is nil), into one allocation, so the result does not keep the input
// line alive. It returns nil for an empty list.
func packStrings(sl *slab[string], ids []string, perm []int) []string {
	if len(ids) == 0 {
		return nil
	}
	total := 0
	for _, s := range ids {
		total += len(s)
	}
	var b strings.Builder
	b.Grow(total)
	at := func(i int) string {
		if perm == nil {
			return ids[i]
		}
		return ids[perm[i]]
	}
	for i := range ids {
		b.WriteString(at(i))
	}
	all := b.String()
	out := sl.take(len(ids))
	off := 0
	for i := range ids {
		n := len(at(i))
		out[i] = all[off : off+n]
		off += n
	}
	return out
}

// lookup finds the position of an id in a list. Short lists are scanned;
// long ones (TREC runs with thousands of documents) are indexed by a map
// that is reused from list to list.
type lookup struct {
	ids []string
	m   map[string]int
}

const lookupLinear = 24

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
	if l.m == nil {
		l.m = make(map[string]int, len(ids))
	}
	clear(l.m)
	di, dj := -1, -1
	for j, s := range ids {
		if i, ok := l.m[s]; ok {
			if dj < 0 {
				di, dj = i, j
			}
			continue
		}
		l.m[s] = j
	}
	return di, dj
}

// find returns the position of id in the list given to reset, or -1.
func (l *lookup) find(id string) int {
	if len(l.ids) <= lookupLinear {
		for i, s := range l.ids {
			if s == id {
				return i
			}
		}
		return -1
	}
	if i, ok := l.m[id]; ok {
		return i
	}
	return -1
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

// arena groups the slabs of one reader.
type arena struct {
	strs   slab[string]
	floats slab[float64]
	ints   slab[int]
}

// rankByScore fills perm with the ranked order of scores: descending, ties
// in list order (a stable sort). It returns nil when the list is already
// ranked, so the caller can skip the permutation.
func rankByScore(perm []int, scores []float64) []int {
	if slices.IsSortedFunc(scores, func(a, b float64) int { return -cmpFloat(a, b) }) {
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
func rankTREC(perm []int, scores []float64, docs []string) []int {
	perm = identity(perm, len(scores))
	slices.SortFunc(perm, func(i, j int) int {
		if c := cmpFloat(scores[j], scores[i]); c != 0 {
			return c
		}
		return strings.Compare(docs[j], docs[i])
	})
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
