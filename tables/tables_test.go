package tables

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"paperbundle/metrics"
	"paperbundle/report"
	"paperbundle/tables/internal/tabletest"
)

func ids(s Set) []string {
	var out []string
	for _, t := range s.Tables {
		out = append(out, string(t.ID))
	}
	return out
}

func find(t *testing.T, s Set, id string) Table {
	t.Helper()
	for _, x := range s.Tables {
		if string(x.ID) == id {
			return x
		}
	}
	t.Fatalf("table %s missing; have %v, missing %v", id, ids(s), s.Missing)
	return Table{}
}

// TestBuildEveryTable: the fixture exercises every section, so every table
// is built, each with a population, n and a meaning, and every row has as
// many cells as the table has columns. A table over several populations
// (scorecard, per-criterion) or pairs (comparisons) has no one n: its N is
// 0 and each row has an n column instead.
func TestBuildEveryTable(t *testing.T) {
	s := Build(tabletest.Plain().Report(t))
	want := "scorecard ne_gate calibration ranking dynamic_k clinical_gate per_post per_criterion strata comparisons"
	if got := strings.Join(ids(s), " "); got != want {
		t.Errorf("tables = %s\nwant %s", got, want)
	}
	if len(s.Missing) != 0 {
		t.Errorf("missing tables: %+v", s.Missing)
	}
	for _, tb := range s.Tables {
		if tb.Population == "" || tb.Meaning == "" || tb.Title == "" {
			t.Errorf("%s: population %q, meaning %q, title %q", tb.ID, tb.Population, tb.Meaning, tb.Title)
		}
		perRow := map[string]bool{"scorecard": true, "per_criterion": true, "comparisons": true}[string(tb.ID)]
		if perRow != (tb.N == 0) || tb.N < 0 {
			t.Errorf("%s: n %d, want %s", tb.ID, tb.N, map[bool]string{true: "0 (n on each row)", false: "the population's size"}[perRow])
		}
		if perRow && !slices.ContainsFunc(tb.Columns, func(c Column) bool { return c.Kind == Count && (c.Key == "n" || c.Key == "data.n") }) {
			t.Errorf("%s: no n on each row, and no n for the table", tb.ID)
		}
		if tb.CILevel != "95%" {
			t.Errorf("%s: CI level %q, want 95%%", tb.ID, tb.CILevel)
		}
		for i, row := range tb.Rows {
			if len(row.Cells) != len(tb.Columns) {
				t.Fatalf("%s row %d: %d cells, %d columns", tb.ID, i, len(row.Cells), len(tb.Columns))
			}
		}
	}
}

// TestHeadlineCutoffFive: with cutoffs [1, 3, 5, 20] the headline cutoff
// is 5 (10 if listed, else the largest cutoff below 10, else the smallest;
// report.HeadlineCutoff): the scorecard and the per-criterion table show @5
// metrics with values, and nothing shows @10.
func TestHeadlineCutoffFive(t *testing.T) {
	f := tabletest.Plain()
	f.Cutoffs = []int{1, 3, 5, 20}
	r := f.Report(t)
	if r.Settings.HeadlineCutoff != 5 {
		t.Fatalf("headline cutoff = %d, want 5", r.Settings.HeadlineCutoff)
	}
	s := Build(r)
	if len(s.Missing) != 0 {
		t.Errorf("missing tables: %+v", s.Missing)
	}
	sc := find(t, s, "scorecard")
	var got []string
	for _, row := range sc.Rows {
		if row.System == "full" {
			got = append(got, row.Cells[2].Text)
		}
	}
	if want := "ne.auroc ne.auprc ne.ece rank.recall@5 rank.ndcg@5 dynk.evidence_recall clinical.screen_sensitivity clinical.alert_precision"; strings.Join(got, " ") != want {
		t.Errorf("scorecard ids = %v\nwant %s", got, want)
	}
	pc := find(t, s, "per_criterion")
	col := -1
	for j, c := range pc.Columns {
		if strings.Contains(c.Key, "@10") {
			t.Errorf("per_criterion column %s with cutoffs [1 3 5 20]", c.Key)
		}
		if c.Key == "rank.recall@5" {
			col = j
		}
	}
	if col < 0 {
		t.Fatalf("per_criterion has no rank.recall@5 column: %+v", pc.Columns)
	}
	for _, row := range pc.Rows {
		if row.Cells[1].Text == "macro" {
			continue // a mean of per-criterion values: no interval
		}
		if !Defined(row.Cells[col].V) || !Defined(row.Cells[col].Lo) {
			t.Errorf("per_criterion %s %s: recall@5 %v [%v, %v]", row.System, row.Cells[1].Text, row.Cells[col].V, row.Cells[col].Lo, row.Cells[col].Hi)
		}
	}
	st := find(t, s, "strata")
	// The strata carry no intervals here: their CI columns, empty on every
	// row, are left out of the flat form (CSV, XLSX).
	if n := len(st.Flat()); n != 3+2*4 {
		t.Errorf("strata: %d flat columns, want system, stratum, n and recall/precision at 4 cutoffs, without the empty CI columns", n)
	}
	for _, f := range st.Flat() {
		if strings.HasSuffix(f.Key, "_ci_low") {
			t.Errorf("strata: empty CI column %s kept", f.Key)
		}
	}
}

// TestDecodeRendersSameTables: a Report decoded from metrics_master.json
// renders byte-identical CSV and LaTeX tables (the report is
// self-contained).
func TestDecodeRendersSameTables(t *testing.T) {
	for _, f := range []tabletest.Fixture{tabletest.Plain(), tabletest.Hostile(t)} {
		r := f.Report(t)
		js, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := report.Decode(js)
		if err != nil {
			t.Fatal(err)
		}
		a, b := Build(r), Build(back)
		if len(a.Tables) != len(b.Tables) || len(a.Missing) != len(b.Missing) {
			t.Fatalf("decoded report: %v tables, want %v", ids(b), ids(a))
		}
		for i := range a.Tables {
			if !bytes.Equal(a.Tables[i].CSV(), b.Tables[i].CSV()) {
				t.Errorf("%s.csv differs after Decode", a.Tables[i].ID)
			}
		}
		if !bytes.Equal(Methods(r), Methods(back)) {
			t.Error("METHODS.md differs after Decode")
		}
		js2, _ := back.JSON()
		if !bytes.Equal(js, js2) {
			t.Error("metrics_master.json does not round-trip byte for byte")
		}
	}
}

// TestBestInBold: in the ranking table the better system of the fixture
// (gold scored higher) is marked best on recall at the headline cutoff, and
// exactly one row of a group of defined values is best unless tied.
func TestBestInBold(t *testing.T) {
	s := Build(tabletest.Plain().Report(t))
	rk := find(t, s, "ranking")
	id := string(metrics.RankRecall.At(10))
	for _, row := range rk.Rows {
		if row.Group != id {
			continue
		}
		if row.System == "baseline:oracle" && !row.Cells[5].Best {
			t.Errorf("oracle recall@10 %v not marked best", row.Cells[5].V)
		}
		if row.System == "baseline:random" && row.Cells[5].Best {
			t.Errorf("random recall@10 marked best")
		}
	}
}

// TestCSVText: free text starting with =, +, -, @, tab or CR gets a
// leading quote; numbers (negative ones included) are written as numbers.
func TestCSVText(t *testing.T) {
	s := Build(tabletest.Hostile(t).Report(t))
	for _, tb := range s.Tables {
		recs, err := csv.NewReader(bytes.NewReader(tb.CSV())).ReadAll()
		if err != nil {
			t.Fatalf("%s.csv: %v", tb.ID, err)
		}
		flat := tb.Flat()
		for i, rec := range recs[1:] {
			for j, f := range flat {
				v := rec[j]
				if f.Kind == Text {
					if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
						t.Errorf("%s row %d %s: %q can run as a formula", tb.ID, i, f.Key, v)
					}
					if want := tb.Rows[i].Cells[f.Col].Text; strings.TrimPrefix(v, "'") != want && v != want {
						t.Errorf("%s row %d %s: %q, want %q", tb.ID, i, f.Key, v, want)
					}
				} else if strings.HasPrefix(v, "'") {
					t.Errorf("%s row %d %s: number %q escaped", tb.ID, i, f.Key, v)
				}
			}
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"=1+1", "'=1+1"}, {"+cmd", "'+cmd"}, {"-2+3", "'-2+3"}, {"@SUM(1)", "'@SUM(1)"}, {"\tx", "'\tx"}, {"\rx", "'\rx"}, {"A.1", "A.1"}, {"", ""},
	} {
		if got := CSVSafe(tt.in); got != tt.want {
			t.Errorf("CSVSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLatexText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"γ = 0.9", `$\gamma$ = 0.9`},
		{"FPR ≤ X", `FPR $\leq$ X`},
		{"0.85 ± 0.01", `0.85 $\pm$ 0.01`},
		{"a_b & 50% #1 $x$", `a\_b \& 50\% \#1 \$x\$`},
		{`\input{/etc/passwd}`, `\textbackslash{}input\{/etc/passwd\}`},
		{"\u202eevil\u202c", "evil"},
		{"x\u200by\x00z\x1b", "xyz"},
		{"café naïve", `caf\'{e} na\"{\i{}}ve`},
		{"tab\there\nline", "tab here line"},
		{"~^<>|", `\textasciitilde{}\textasciicircum{}\textless{}\textgreater{}\textbar{}`},
		{"漢字", "??"},
	} {
		if got := LatexText(tt.in); got != tt.want {
			t.Errorf("LatexText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
