package templates

import (
	"html/template"
	"strings"
	"testing"
)

func TestCollapseLongTables(t *testing.T) {
	row := func(x string) string { return "<tr>\n<td>" + x + "</td>\n</tr>\n" }
	table := func(n int) string {
		s := "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n"
		for i := 0; i < n; i++ {
			s += row(string(rune('a' + i)))
		}
		return s + "</tbody>\n</table>"
	}
	short := "<p>x</p>\n" + table(4) + "\n<p>y</p>"
	if got := string(collapseLongTables(template.HTML(short), 2)); got != short {
		t.Errorf("a table of 4 rows (keep 2, +3 tolerated) changed:\n%s", got)
	}
	long := "<p>x</p>\n" + table(8) + "\n<p>y</p>"
	got := string(collapseLongTables(template.HTML(long), 2))
	// Every row is still there, once; the first two before the details.
	for i := 0; i < 8; i++ {
		if c := strings.Count(got, "<td>"+string(rune('a'+i))+"</td>"); c != 1 {
			t.Errorf("row %c appears %d times", 'a'+i, c)
		}
	}
	d := strings.Index(got, "<details")
	if d < 0 || strings.Index(got, "<td>b</td>") > d || strings.Index(got, "<td>c</td>") < d ||
		!strings.Contains(got, "<summary>The other 6 rows of this table</summary>") || strings.Count(got, "<thead>") != 2 ||
		!strings.HasPrefix(got, "<p>x</p>\n<table>") || !strings.HasSuffix(got, "</details>\n<p>y</p>") {
		t.Errorf("split table:\n%s", got)
	}
}
