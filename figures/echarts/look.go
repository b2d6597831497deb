package echarts

import (
	"github.com/go-echarts/go-echarts/v2/opts"

	"paperbundle/figures"
)

// This file holds the look of the charts: the palette and the colour,
// width, dashes and marker of each role.

// neutral is the colour of reference lines, folds, whiskers and tags: a
// mid grey that reads on a light page (3.9:1 on white) and on echarts'
// dark theme (4.8:1 on #100c2a).
const neutral = "#808080"

// seriesColors is the Okabe-Ito palette of the static figures, with two
// changes for a dark page: its black is the mid grey, and its yellow (1.3:1
// on white) a darker gold. Every colour has at least 2.2:1 on white and
// 3.6:1 on the dark theme's background.
var seriesColors = []string{"#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7", "#56b4e9", neutral, "#a89a00"}

func palette() opts.Colors {
	out := make(opts.Colors, len(seriesColors))
	copy(out, seriesColors)
	return out
}

// viridisAnchors are eleven evenly spaced colours of viridis, as in the
// static heat maps.
var viridisAnchors = []string{"#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
	"#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725"}

func viridis() []string { return append([]string(nil), viridisAnchors...) }

// look is the colour, line width (px), dash type and opacity of a role.
// The static figures' black (totals, whiskers, treat-none) is the neutral
// grey, and the operating points are vermillion: black vanishes on a dark
// page.
func look(st figures.Style) (color string, width float32, dash string, opacity float32) {
	color, width, dash, opacity = neutral, 1, "solid", 1
	switch st.Role {
	case figures.Primary, figures.Confidence:
		color, width = seriesColors[0], 2
	case figures.Series:
		color, width = seriesColors[st.Series%len(seriesColors)], 2
		if st.Series%6 != 0 {
			dash = []string{"solid", "dashed", "dotted", "dashed", "dashed", "dashed"}[st.Series%6]
		}
	case figures.Total:
		width = 2.5
	case figures.Fold:
		opacity = 0.5
	case figures.Diagonal, figures.Reference:
		dash = "dashed"
	case figures.Summary:
		color, dash = seriesColors[1], "dashed"
	case figures.Operating:
		color = seriesColors[1]
	case figures.Blank, figures.Chosen:
		color = "transparent"
	}
	if st.Width > 0 {
		width = float32(st.Width)
	}
	if st.Opacity > 0 {
		opacity = float32(st.Opacity)
	}
	return
}

// symbol is the echarts marker of a role.
func symbol(st figures.Style) string {
	switch st.Role {
	case figures.Operating:
		return "diamond"
	case figures.Series, figures.Total:
		return []string{"circle", "triangle", "rect", "triangle", "diamond", "emptyCircle", "pin", "roundRect"}[st.Series%8]
	}
	return "circle"
}
