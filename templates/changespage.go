package templates

import (
	"html/template"
	"io"
)

// changesPage is the standalone page of `paperbundle diff -format html`:
// the changes fragment with the report's styles (numbers right-aligned in
// tabular digits, borders, light and dark schemes), offline and inert like
// report.html (no script at all).
var changesPage = template.Must(template.New("changes.html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
{{.Body}}
</main>
</body>
</html>
`))

// ChangesPage writes a standalone HTML page titled title around body, a
// changes fragment (compare.Changes.HTML, already escaped).
func ChangesPage(w io.Writer, title string, body template.HTML) error {
	return changesPage.Execute(w, struct {
		Title string
		Style template.CSS
		Body  template.HTML
	}{title, template.CSS(style), body})
}
