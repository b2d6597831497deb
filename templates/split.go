package templates

import (
	"html/template"
	"strconv"
	"strings"
)

// collapseLongTables keeps the first keep body rows of every table of
// goldmark's output in view and moves the others into a second table with
// the same header, inside a <details> closed by default: nothing leaves
// the document, the page stays short. It works on goldmark's own markup,
// in which text is escaped, so "<tr>" only ever opens a row.
func collapseLongTables(h template.HTML, keep int) template.HTML {
	s := string(h)
	var b strings.Builder
	for {
		i := strings.Index(s, "<table>")
		if i < 0 {
			b.WriteString(s)
			break
		}
		j := strings.Index(s[i:], "</table>")
		if j < 0 {
			b.WriteString(s)
			break
		}
		end := i + j + len("</table>")
		b.WriteString(s[:i])
		b.WriteString(splitTable(s[i:end], keep))
		s = s[end:]
	}
	return template.HTML(b.String())
}

// splitTable splits one table (from "<table>" to "</table>").
func splitTable(t string, keep int) string {
	const open, close = "<tbody>\n", "</tbody>\n</table>"
	i := strings.Index(t, open)
	if i < 0 || !strings.HasSuffix(t, close) {
		return t
	}
	head := t[:i+len(open)] // "<table>" through "<tbody>\n"
	body := t[i+len(open) : len(t)-len(close)]
	rows := strings.SplitAfter(body, "</tr>\n")
	if rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	if len(rows) <= keep+3 { // a handful more is not worth a click
		return t
	}
	rest := len(rows) - keep
	return head + strings.Join(rows[:keep], "") + close + "\n" +
		`<details class="more"><summary>The other ` + strconv.Itoa(rest) + " rows of this table</summary>\n" +
		head + strings.Join(rows[keep:], "") + close + "\n</details>"
}
