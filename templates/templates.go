// Package templates is the HTML renderer at the end of the pipeline: Render
// turns one Input (the *report.Report, the tables of package tables, the
// figure specs of package figures with their page-ready SVG from
// figures/plot and their options from figures/echarts, and the Changes of
// package compare) into report.html: one Page is filled from the Report
// (the cards read the Report, not formatted cells), then the template runs
// once. SUMMARY.md is written by package tables, METHODS.md's HTML by
// templates/internal/md. The command hands the page to package bundle.
//
// This file embeds the static assets of the page: the pinned echarts
// library when `make echarts` has fetched it, and its LICENSE and NOTICE. A
// plain `go build` without them still works.
package templates

import (
	"embed"
	"io/fs"
)

//go:embed assets
var assets embed.FS

// Assets is the embedded assets folder.
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	return sub
}

// ECharts returns the embedded echarts.min.js, or nil when it was not
// fetched at build time.
func ECharts() []byte {
	b, err := fs.ReadFile(assets, "assets/echarts.min.js")
	if err != nil {
		return nil
	}
	return b
}
