// Package templates embeds the static assets of the HTML report: the
// pinned echarts library when `make echarts` has fetched it, and its
// LICENSE and NOTICE. A plain `go build` without them still works.
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
