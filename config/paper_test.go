package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestPaperKeys reads the paper: key: a named venue, a custom venue with
// its three lengths, and the errors a reader needs to fix one.
func TestPaperKeys(t *testing.T) {
	const sys = "systems: [{name: a, input: a.csv}]\n"
	c, err := Parse("paper.yaml", []byte(sys+"paper: {venue: ieee, font_size: 7.5, uncertainty: std, decimals: 2}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Paper{Venue: "ieee", FontSize: 7.5, Uncertainty: "std", Decimals: 2}); !reflect.DeepEqual(c.Paper, want) {
		t.Errorf("paper = %+v, want %+v", c.Paper, want)
	}
	c, err = Parse("paper.yaml", []byte(sys+"paper: {venue: custom, column_width: 240, text_width: 500, body_size: 9}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Paper.ColumnWidth != 240 || c.Paper.TextWidth != 500 || c.Paper.BodySize != 9 || c.Paper.FontSize != 8 {
		t.Errorf("custom paper = %+v", c.Paper)
	}
	y, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "paper: {venue: custom, font_size: 8.0, uncertainty: ci, decimals: 3, column_width: 240.0, text_width: 500.0, body_size: 9.0}\n") {
		t.Errorf("config.yaml lacks the custom paper key:\n%s", y)
	}
	back, err := Parse("config.yaml", y, "")
	if err != nil || !reflect.DeepEqual(back.Paper, c.Paper) {
		t.Errorf("config.yaml reads back as %+v (%v), want %+v", back.Paper, err, c.Paper)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"paper: {venue: acl}\n", `paper.yaml:2:16: paper.venue: got "acl", expected acm, ieee, neurips, lncs or custom`},
		{"paper: {venue: acm, column_width: 240}\n", "paper.yaml:2:35: paper.column_width: is only read with venue: custom"},
		{"paper: {venue: custom, column_width: 240, text_width: 500}\n", "paper.yaml:2:8: paper: venue: custom needs body_size"},
		{"paper: {font_size: 2}\n", "paper.yaml:2:20: paper.font_size: got 2, expected a number of points from 4 to 24"},
		{"paper: {decimals: 9}\n", "paper.yaml:2:19: paper.decimals: got 9"},
		{"paper: {uncertainty: sd}\n", `paper.yaml:2:22: paper.uncertainty: got "sd"`},
		{"paper: {venu: acm}\n", `paper.yaml:2:9: paper: unknown key "venu"`},
	} {
		_, err := Parse("paper.yaml", []byte(sys+tc.yaml), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error\n%v\nwant it to contain\n%s", tc.yaml, err, tc.want)
		}
	}
}

// TestPaperComposition reads paper.results, paper.ranking_systems,
// paper.captions and paper.copy_to, writes them back to config.yaml, and
// names what is wrong in each.
func TestPaperComposition(t *testing.T) {
	const sys = "systems: [{name: a, input: a.csv}, {name: b, input: b.csv}]\n"
	doc := sys + `paper:
  results: {metrics: [ne.auroc, rank.ndcg@10], systems: [b, a], baselines: true, headers: {ne.auroc: "AUC"}}
  captions: {results: "Main results.", roc_overlay: "ROC, α = 0.5."}
  copy_to: ../manuscript/pb
`
	c, err := Parse("paper.yaml", []byte(doc), "")
	if err != nil {
		t.Fatal(err)
	}
	want := Composition{Metrics: []string{"ne.auroc", "rank.ndcg@10"}, Systems: []string{"b", "a"}, Baselines: true, Headers: map[string]string{"ne.auroc": "AUC"}}
	if !reflect.DeepEqual(c.Paper.Results, want) || !c.Paper.RankingSystems.IsDefault() ||
		c.Paper.Captions["roc_overlay"] != "ROC, α = 0.5." || c.Paper.CopyTo != "../manuscript/pb" {
		t.Errorf("paper = %+v", c.Paper)
	}
	y, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("config.yaml", y, "")
	if err != nil || !reflect.DeepEqual(back.Paper, c.Paper) {
		t.Errorf("config.yaml reads back as %+v (%v), want %+v\n%s", back.Paper, err, c.Paper, y)
	}
	d, _ := Parse("paper.yaml", []byte(sys), "")
	if y, _ := d.YAML(); !strings.Contains(string(y), "paper: {venue: acm, font_size: 8.0, uncertainty: ci, decimals: 3}\n") {
		t.Errorf("config.yaml writes the default composition:\n%s", y)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"paper: {results: {metrics: [ne.aurocc]}}\n", `paper.results.metrics[0]: got "ne.aurocc", expected a metric id`},
		{"paper: {results: {systems: [c]}}\n", `paper.results.systems[0]: got "c", expected the name of one of systems:`},
		{"paper: {results: {metric: [ne.auroc]}}\n", `unknown key "metric"`},
		{"paper: {captions: {Results: x}}\n", `got the key "Results", expected a table or figure id`},
		{"paper: {ranking_systems: {baselines: maybe}}\n", `expected true or false`},
	} {
		_, err := Parse("paper.yaml", []byte(sys+tc.yaml), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
