package plot

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"paperbundle/figures"
	"paperbundle/figures/internal/figtest"
	"paperbundle/internal/cputime"
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
			c0, n := cputime.Now(), 0
			for b.Loop() {
				if _, err := Render(byKind[k], Options{}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric((cputime.Now()-c0).Seconds()/float64(n), "cpu-s/op")
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
			f.paint(&recording{w: f.w, h: f.h}) // records the drawing
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

// BenchmarkRecorder measures gonum's vg/recorder (recording, what paint
// uses) on every figure of the fixture: "record" lays each figure out on
// the recorder; "use" records it and replays it four times onto a canvas
// that does nothing, as Render does (SVG, page markup, PDF, PNG).
// docs/decisions.md has the numbers, and the hand-written recorder it was
// compared with (commit efdd3a9, figures/plot/record_old_test.go).
func BenchmarkRecorder(b *testing.B) {
	specs := figures.Catalogue(figtest.Fixture())
	figs := make([]*figure, len(specs))
	for i := range specs {
		f, err := build(&specs[i], screen, 0)
		if err != nil {
			b.Fatal(err)
		}
		figs[i] = f
	}
	gonum := func(replays int) {
		for _, f := range figs {
			r := &recording{w: f.w, h: f.h}
			f.draw(draw.New(r))
			for range replays {
				if err := r.ReplayOn(nopCanvas{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for _, c := range []struct {
		name    string
		run     func(int)
		replays int
	}{
		{"record", gonum, 0}, {"use", gonum, 4},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.run(c.replays)
			}
		})
	}
}

// nopCanvas is a canvas that draws nothing.
type nopCanvas struct{}

func (nopCanvas) SetLineWidth(vg.Length)                 {}
func (nopCanvas) SetLineDash([]vg.Length, vg.Length)     {}
func (nopCanvas) SetColor(color.Color)                   {}
func (nopCanvas) Rotate(float64)                         {}
func (nopCanvas) Translate(vg.Point)                     {}
func (nopCanvas) Scale(float64, float64)                 {}
func (nopCanvas) Push()                                  {}
func (nopCanvas) Pop()                                   {}
func (nopCanvas) Stroke(vg.Path)                         {}
func (nopCanvas) Fill(vg.Path)                           {}
func (nopCanvas) FillString(font.Face, vg.Point, string) {}
func (nopCanvas) DrawImage(vg.Rectangle, image.Image)    {}
