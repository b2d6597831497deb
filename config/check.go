package config

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

var (
	versionRe  = regexp.MustCompile(`^v[0-9]+(\.[0-9]+)*$`)
	longNumber = regexp.MustCompile(`[0-9]{10}`) // a version's number past 999999999
	nameRe     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	metricIDRe = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z0-9][a-z0-9_]*(@([a-z_]+=)?[0-9][0-9.e+-]*)?$`)
)

// errorf records an error about the value at path, positioned where that
// value (or, when it was not written, its closest written parent) is.
func (d *decoder) errorf(path, format string, args ...any) {
	d.errorAtPath(path, path, format, args...)
}

// errorAtPath is errorf with the position taken from another path (the key
// of a targets entry rather than its value).
func (d *decoder) errorAtPath(at, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for p := at; ; p = parent(p) {
		if where, ok := d.pos[p]; ok {
			d.add(where.line, where.col, path, msg)
			return
		}
		if p == "" {
			break
		}
	}
	d.add(0, 0, path, msg)
}

// parent strips the last component of a key path: systems[1].name ->
// systems[1] -> systems -> "".
func parent(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexAny(p, ".[#"); i >= 0 {
		return p[:i]
	}
	return ""
}

// skip reports whether the value at path, or a value containing it, could
// not be read; it is then not checked again.
func (d *decoder) skip(path string) bool {
	for p := path; ; p = parent(p) {
		if d.bad[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}

// written reports whether path was given in the file.
func (d *decoder) written(path string) bool {
	_, ok := d.pos[path]
	return ok
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// check validates c and completes it (labels, formats, sorted lists), key
// by key in the order of the key table.
func (d *decoder) check(c *Config, opt Options) {
	d.opt = opt
	for _, k := range topKeys {
		d.checkKey(k, c)
	}
}

func (d *decoder) checkKey(k *Key, c *Config) {
	if k.pre != nil {
		k.pre(d, c)
	}
	if k.val != nil {
		k.val.check(d, c, k.Path, k.Want)
	}
	for _, ch := range k.children {
		d.checkKey(ch, c)
	}
	if k.post != nil {
		k.post(d, c)
	}
}

func checkVersion(d *decoder, c *Config) {
	if !d.skip("version") && versionRe.MatchString(c.Version) && longNumber.MatchString(c.Version) {
		d.errorf("version", "got %q, a number of more than 9 digits, expected numbers up to 999999999 such as v2 or v2.0.1", short(c.Version))
	}
	if !d.skip("version") && c.Version != "" && !versionRe.MatchString(c.Version) {
		d.errorf("version", "got %q, expected v<N> or v<N>.<N>... such as v2 or v2.0.1, or no version for the next free vN", short(c.Version))
	}
}

// checkResamples refuses 1 to 49 resamples: with so few, a 95% percentile
// interval is made of the one or two most extreme resamples (0 publishes
// no intervals at all).
func checkResamples(d *decoder, c *Config) {
	b := c.Bootstrap.Resamples
	if !d.skip("bootstrap.resamples") && b > 0 && b < MinResamples {
		d.errorf("bootstrap.resamples", "got %d, expected 0 (no intervals) or at least %d: with fewer, a 95%% interval is made of the one or two most extreme resamples (10000 is the default)", b, MinResamples)
	}
}

// checkPaperWidths: with venue custom, the column is at most as wide as
// the text.
func checkPaperWidths(d *decoder, c *Config) {
	p := &c.Paper
	if !d.skip("paper.venue") && p.Venue == VenueCustom && d.written("paper.column_width") && d.written("paper.text_width") && p.ColumnWidth > p.TextWidth {
		d.errorf("paper.column_width", "got %s, wider than text_width %s; expected at most text_width", ftoa(p.ColumnWidth), ftoa(p.TextWidth))
	}
}

// text checks that s is valid UTF-8 and, when required, not blank.
func (d *decoder) text(path, s, want string, required bool) bool {
	if d.skip(path) {
		return false
	}
	switch {
	case !utf8.ValidString(s):
		d.errorf(path, "got text that is not valid UTF-8, expected %s", want)
	case required && strings.TrimSpace(s) == "":
		d.errorf(path, "got an empty value, expected %s", want)
	default:
		return true
	}
	return false
}

func (d *decoder) enum(path, v string, allowed ...string) {
	if d.skip(path) {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	want := strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
	d.errorf(path, "got %q, expected %s", short(v), want)
}

func (d *decoder) intRange(path string, x, lo, hi int, want string) bool {
	if d.skip(path) {
		return false
	}
	if x < lo || x > hi {
		d.errorf(path, "got %d, expected %s", x, want)
		return false
	}
	return true
}

// floatRange checks 0 < x < 1 (open) or 0 < x <= 1 (not open).
func (d *decoder) floatRange(path string, x float64, open bool, want string) bool {
	if d.skip(path) {
		return false
	}
	if !(x > 0 && (x < 1 || !open && x == 1)) {
		d.errorf(path, "got %s, expected %s", ftoa(x), want)
		return false
	}
	return true
}

// intSet checks a non-empty list of distinct integers in [lo, hi] and sorts
// it when it is valid.
func (d *decoder) intSet(path string, xs []int, lo, hi int, want, what string) {
	if d.skip(path) {
		return
	}
	if len(xs) == 0 {
		d.errorf(path, "got an empty list, expected at least one %s", what)
		return
	}
	ok := true
	first := map[int]int{}
	for i, x := range xs {
		p := index(path, i)
		if !d.intRange(p, x, lo, hi, want) {
			ok = false
			continue
		}
		if j, dup := first[x]; dup {
			d.errorf(p, "got %d again (also %s), expected each %s once", x, index(path, j), what)
			ok = false
			continue
		}
		first[x] = i
	}
	if ok {
		sort.Ints(xs)
	}
}

// floatSet checks a non-empty list of distinct numbers in (0, 1) (open) or
// (0, 1] and sorts it when it is valid.
func (d *decoder) floatSet(path string, xs []float64, open bool, want, what string) {
	if d.skip(path) {
		return
	}
	if len(xs) == 0 {
		d.errorf(path, "got an empty list, expected at least one %s", what)
		return
	}
	ok := true
	first := map[float64]int{}
	for i, x := range xs {
		p := index(path, i)
		if !d.floatRange(p, x, open, want) {
			ok = false
			continue
		}
		if j, dup := first[x]; dup {
			d.errorf(p, "got %s again (also %s), expected each %s once", ftoa(x), index(path, j), what)
			ok = false
			continue
		}
		first[x] = i
	}
	if ok {
		sort.Float64s(xs)
	}
}

// formatOf infers a system's format from the extension of its input.
func formatOf(input string) Format {
	name := strings.TrimSuffix(strings.ToLower(input), ".gz") // gzip of any format
	switch filepath.Ext(name) {
	case ".csv":
		return FormatCSV
	case ".tsv", ".tab":
		return FormatTSV
	case ".jsonl", ".ndjson":
		return FormatJSONL
	case ".parquet", ".pq":
		return FormatParquet
	}
	return ""
}

func (d *decoder) checkSystems(c *Config) {
	if d.skip("systems") {
		return
	}
	if len(c.Systems) == 0 {
		got := "got no systems"
		if !d.written("systems") {
			if d.meant["systems"] {
				return
			}
			got = "missing"
		}
		d.errorf("systems", "%s, expected at least one system, such as - {name: full, input: data/full.csv}", got)
		return
	}
	names := map[string]int{}
	formatsKnown, anyTREC := true, false
	for i := range c.Systems {
		s := &c.Systems[i]
		p := index("systems", i)
		if d.skip(p) {
			formatsKnown = false
			continue
		}
		d.checkSystemName(s, i, names)
		if d.text(p+".label", s.Label, wantText, false) && s.Label == "" {
			s.Label = s.Name
		}
		ip := p + ".input"
		inputOK := false
		switch {
		case d.skip(ip):
		case s.Input == "" && !d.written(ip):
			if !d.meant[ip] {
				d.errorf(ip, "missing, expected the path of the system's per-query table (.csv, .jsonl) or TREC run")
			}
		default:
			inputOK = d.text(ip, s.Input, wantPath, true)
		}
		fp := p + ".format"
		switch {
		case d.skip(fp):
			formatsKnown = false
		case slices.Contains(formats, s.Format):
		case s.Format == "":
			if !inputOK {
				formatsKnown = false
				break
			}
			if f := formatOf(s.Input); f != "" {
				s.Format = f
			} else {
				formatsKnown = false
				d.errorf(ip, "cannot tell the format of %q from its extension, expected format: csv, tsv, jsonl, parquet or trec on the system (.csv is read as csv, .tsv and .tab as tsv, .jsonl and .ndjson as jsonl, .parquet and .pq as parquet, each also gzip-compressed with .gz after it: .csv.gz)", short(s.Input))
			}
		default:
			formatsKnown = false
			d.errorf(fp, "got %q, expected %s", short(string(s.Format)), wantFormat)
		}
		if s.Format == FormatTREC {
			anyTREC = true
			if c.Qrels == "" && !d.skip("qrels") {
				d.errorf(fp, "trec needs the gold from qrels, expected a top-level qrels: key with the TREC qrels file")
			}
		}
		if s.NEProbs != "" && !d.skip(p+".ne_probs") && s.Format != "" && s.Format != FormatTREC {
			d.errorf(p+".ne_probs", "set on a %s system, expected ne_probs only with format: trec (a per-query table has an ne_prob column)", s.Format)
		}
	}
	if formatsKnown && !anyTREC {
		for _, key := range []string{"qrels", "queries"} {
			v := c.Qrels
			if key == "queries" {
				v = c.Queries
			}
			if v != "" && !d.skip(key) {
				d.errorf(key, "set but no system has format: trec, expected %s only with TREC systems", key)
			}
		}
	}
	d.names = names
}

// checkSystemName checks the name of system i, and adds it to names (name
// -> index) when it is valid and not taken.
func (d *decoder) checkSystemName(s *System, i int, names map[string]int) {
	np := index("systems", i) + ".name"
	if !d.text(np, s.Name, wantName, false) {
		return
	}
	switch {
	case s.Name == "" && !d.written(np):
		if !d.meant[np] {
			d.errorf(np, "missing, expected a system name (letters, digits, '_', '.', '-')")
		}
	case !nameRe.MatchString(s.Name):
		d.errorf(np, "got %q, expected a name of letters, digits, '_', '.' and '-' that starts with a letter or digit", short(s.Name))
	case strings.HasPrefix(strings.ToLower(s.Name), "baseline"):
		d.errorf(np, "got %q, expected a name that does not start with \"baseline\" (reserved for baseline:random and baseline:oracle)", short(s.Name))
	default:
		if j, dup := names[s.Name]; dup {
			d.errorf(np, "got %q again (also %s), expected a different name for each system", short(s.Name), index("systems", j))
		} else {
			names[s.Name] = i
		}
	}
}

// checkNamed checks that the system named by key r (primary,
// reference_system) is one of the systems that checkSystems accepted.
func (d *decoder) checkNamed(key, r string, c *Config) {
	if r == "" || d.skip(key) || d.names == nil {
		return
	}
	if _, ok := d.names[r]; !ok {
		all := make([]string, 0, len(c.Systems))
		for _, s := range c.Systems {
			all = append(all, s.Name)
		}
		if len(all) > 10 {
			all = append(all[:10], "...")
		}
		d.errorf(key, "got %q, expected the name of a system: %s", short(r), strings.Join(all, ", "))
	}
}

// resolveComparisons completes primary and comparisons before
// comparisons is checked: primary defaults to the first system listed;
// reference_system written without comparisons selects comparisons:
// reference, as paper.yaml files written before the comparisons key meant.
func resolveComparisons(d *decoder, c *Config) {
	if c.Primary == "" && len(c.Systems) > 0 {
		c.Primary = c.Systems[0].Name
	}
	if c.ReferenceSystem != "" && !d.written("comparisons") {
		c.Comparisons = CompareReference
	}
}

// checkReference checks and completes reference_system: it names a
// system, belongs to comparisons: reference alone, and defaults there to
// the last system listed.
func checkReference(d *decoder, c *Config) {
	d.checkNamed("reference_system", c.ReferenceSystem, c)
	switch {
	case c.Comparisons != CompareReference && c.ReferenceSystem != "" && !d.skip("reference_system") && !d.skip("comparisons"):
		d.errorf("reference_system", "set with comparisons: %s, expected reference_system only with comparisons: reference (remove it, or set comparisons: reference)", c.Comparisons)
	case c.Comparisons == CompareReference && c.ReferenceSystem == "" && len(c.Systems) > 0:
		c.ReferenceSystem = c.Systems[len(c.Systems)-1].Name
	}
}

func (b Band) yamlText() string {
	if b.Open() {
		return "[" + strconv.Itoa(b.Lo) + ", null]"
	}
	return "[" + strconv.Itoa(b.Lo) + ", " + strconv.Itoa(b.Hi) + "]"
}

// checkStrata checks the bands (lo >= 1, lo <= hi, no overlap) and sorts
// them by lo. Any negative Hi is normalised to -1.
func (d *decoder) checkStrata(s *Strata) {
	if d.skip("strata") {
		return
	}
	if s.Auto {
		s.Bands = nil
		return
	}
	if len(s.Bands) == 0 {
		d.errorf("strata", "got no bands, expected %s", wantStrata)
		return
	}
	ok := true
	for i := range s.Bands {
		b := &s.Bands[i]
		p := index("strata", i)
		if b.Hi < 0 {
			b.Hi = -1
		}
		switch {
		case b.Lo < 1:
			d.errorf(p+"[0]", "got %d, expected %s (n_pos of a positive query)", b.Lo, wantBandLo)
			ok = false
		case !b.Open() && b.Hi < b.Lo:
			d.errorf(p+"[1]", "got %d below lo = %d, expected %s", b.Hi, b.Lo, wantBandHi)
			ok = false
		}
	}
	if !ok {
		return
	}
	order := make([]int, len(s.Bands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Bands[order[a]].Lo < s.Bands[order[b]].Lo })
	for k := 1; k < len(order); k++ {
		a, b := s.Bands[order[k-1]], s.Bands[order[k]]
		if a.Open() || b.Lo <= a.Hi {
			d.errorf(index("strata", order[k]), "band %s overlaps band %s (%s), expected bands that do not overlap",
				b.yamlText(), a.yamlText(), index("strata", order[k-1]))
			ok = false
		}
	}
	if ok {
		sorted := make([]Band, len(order))
		for k, i := range order {
			sorted[k] = s.Bands[i]
		}
		copy(s.Bands, sorted)
	}
}

func (d *decoder) checkTargets(t *Targets, opt Options) {
	if d.skip("targets") {
		return
	}
	if t.Default || len(t.Bounds) == 0 {
		t.Bounds = nil
		return
	}
	ids := make([]string, 0, len(t.Bounds))
	for id := range t.Bounds {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := "targets[" + id + "]"
		if d.skip(p) {
			continue
		}
		switch {
		case !metricIDRe.MatchString(id):
			d.errorAtPath(p+"#key", "targets", "got the metric id %q, expected an id such as rank.ndcg@10 or ne.tpr@fpr=0.05", short(id))
			continue
		case opt.KnownMetric != nil && !opt.KnownMetric(id):
			d.errorAtPath(p+"#key", "targets", "unknown metric id %q, expected an id of the metric catalog (docs/metrics.md, or METHODS.md in a bundle)", short(id))
			continue
		}
		tg := t.Bounds[id]
		if tg.Min == nil && tg.Max == nil {
			d.errorf(p, "got no bound, expected %s", wantTarget)
			continue
		}
		ok := true
		for _, b := range []struct {
			key string
			x   *float64
		}{{"min", tg.Min}, {"max", tg.Max}} {
			if b.x != nil && (math.IsNaN(*b.x) || math.IsInf(*b.x, 0)) && !d.skip(p+"."+b.key) {
				d.errorf(p+"."+b.key, "got %s, expected %s", ftoa(*b.x), wantBound)
				ok = false
			}
		}
		if ok && tg.Min != nil && tg.Max != nil && *tg.Min > *tg.Max {
			d.errorf(p+".max", "got max %s below min %s, expected min <= max", ftoa(*tg.Max), ftoa(*tg.Min))
		}
	}
}
