package plot

import (
	"slices"
	"testing"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
)

// BenchmarkRenderKind renders the fixture's figures of each kind (SVG,
// PDF and PNG), so that a regression of one kind shows in benchstat;
// cpu-s/op as in benchRender.
func BenchmarkRenderKind(b *testing.B) {
	specs := figures.Catalogue(figtest.Fixture())
	byKind := map[figures.Kind][]figures.Spec{}
	var kinds []figures.Kind
	for _, s := range specs {
		if _, ok := byKind[s.Kind]; !ok {
			kinds = append(kinds, s.Kind)
		}
		byKind[s.Kind] = append(byKind[s.Kind], s)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		b.Run(string(k), func(b *testing.B) {
			c0, n := cpuTime(), 0
			for b.Loop() {
				if _, err := Render(byKind[k], Options{}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric((cpuTime()-c0).Seconds()/float64(n), "cpu-s/op")
		})
	}
}

// BenchmarkFormat shows where the time of a figure goes, for every
// figure of the fixture on one goroutine: layout (build and record the
// drawing once), then each format replaying the recorded drawing.
func BenchmarkFormat(b *testing.B) {
	specs := figures.Catalogue(figtest.Fixture())
	figs := make([]*figure, len(specs))
	layout := func() {
		for i := range specs {
			f, err := build(&specs[i], screen, 0)
			if err != nil {
				b.Fatal(err)
			}
			f.paint(&recorder{w: f.w, h: f.h}) // records the drawing
			figs[i] = f
		}
	}
	b.Run("layout", func(b *testing.B) {
		for b.Loop() {
			layout()
		}
	})
	layout()
	formats := []struct {
		name string
		draw func(f *figure) error
	}{
		{"svg", func(f *figure) error { _, err := f.svg(); return err }},
		{"pdf", func(f *figure) error { _, err := f.pdf(DefaultDate); return err }},
		{"png", func(f *figure) error { _, err := f.png(); return err }},
	}
	for _, ft := range formats {
		b.Run(ft.name, func(b *testing.B) {
			for b.Loop() {
				for _, f := range figs {
					if err := ft.draw(f); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
